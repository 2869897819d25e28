/**
 * The measure operator (viewer.md §4 "Measuring", §5, §9): startMeasure() arms it; a left
 * click sets the start at the snapped cursor, a second left click finishes the line, a right click
 * cancels; it ends after one completed line. While armed the snap marker and a live line follow the
 * snapped cursor. Completed measurements stay as scene objects that clipping does not cut (no clipping
 * planes, drawn on top) until deleted: the line with its text in mm with one decimal at the middle, and
 * the x, y, z legs with their labels where the kernel (engine/snap/measure.ts) says they are visible
 * (longer than 0.1 and shorter than the total). Emits measure-changed. mm.
 */
import { BufferAttribute, BufferGeometry, Group, LineBasicMaterial, LineSegments } from 'three';
import type { MeasureState, MeasurementItem } from '../EngineApi';
import { measure } from '../snap/measure';
import type { SnapResult } from '../snap/snap';
import { LabelLayer, type CanvasFactory, type LabelSpec } from './LabelLayer';
import type { ToolHost } from './ToolHost';

/** Colours: measure line, and x / y / z legs. */
export const MEASURE_COLORS = { line: '#d6336c', x: '#e03131', y: '#2f9e44', z: '#1971c2' } as const;
/** Measure text height in the world, mm (viewer.md §9 "default shape size and text height 200"). */
export const MEASURE_TEXT_MM = 200;

/** Operator state, completed measurements, their scene objects. */
export class MeasureManager {
  readonly group = new Group();
  readonly labels: LabelLayer;
  /** The live distance label at the middle of the live line while the end point is being chosen. */
  readonly liveLabel: LabelLayer;
  private liveText = '';
  private state: MeasureState = 'off';
  private start: [number, number, number] | null = null;
  private items: MeasurementItem[] = [];
  private nextId = 1;
  private readonly lines: LineSegments;
  private readonly legs: LineSegments;
  private readonly live: LineSegments;

  constructor(
    private readonly host: ToolHost,
    /** Snaps at a canvas position and shows the marker (SnapManager.snap). */
    private readonly snapAt: (x: number, y: number) => SnapResult,
    private readonly hideMarker: () => void,
    canvas?: CanvasFactory,
  ) {
    this.group.name = 'measurements';
    const mat = (color: string, opacity = 1) =>
      new LineBasicMaterial({ color, depthTest: false, depthWrite: false, transparent: opacity < 1, opacity });
    this.lines = new LineSegments(new BufferGeometry(), mat(MEASURE_COLORS.line));
    this.legs = new LineSegments(
      new BufferGeometry(),
      new LineBasicMaterial({ vertexColors: true, depthTest: false, depthWrite: false }),
    );
    this.live = new LineSegments(new BufferGeometry(), mat(MEASURE_COLORS.line, 0.8));
    this.lines.name = 'measure-lines';
    this.legs.name = 'measure-components';
    this.live.name = 'measure-live';
    for (const l of [this.lines, this.legs, this.live]) {
      l.renderOrder = 800;
      l.frustumCulled = false;
      this.group.add(l);
    }
    this.live.visible = false;
    this.labels = new LabelLayer('measure-labels', { onTop: true, canvas, fontPx: 64 });
    this.group.add(this.labels.group);
    this.liveLabel = new LabelLayer('measure-live-label', { onTop: true, canvas, fontPx: 64 });
    this.group.add(this.liveLabel.group);
    host.scene.add(this.group);
  }

  get operatorState(): MeasureState {
    return this.state;
  }

  get measurements(): readonly MeasurementItem[] {
    return this.items;
  }

  /** True while the operator is armed (clicks belong to it). */
  get active(): boolean {
    return this.state !== 'off';
  }

  /** Arms the operator (waiting for the start click). */
  startMeasure(): void {
    this.state = 'start';
    this.start = null;
    this.live.visible = false;
    this.setLiveLabel('', null);
    this.changed();
  }

  /** Disarms; completed measurements stay. */
  cancel(): void {
    if (this.state !== 'off') this.disarm();
  }

  /** Back to 'off': no start point, no live line, label or snap marker; emits the change. */
  private disarm(): void {
    this.state = 'off';
    this.start = null;
    this.live.visible = false;
    this.setLiveLabel('', null);
    this.hideMarker();
    this.changed();
  }

  /**
   * Pointer moved (no button): the marker, the live line and its distance label (mm, one decimal) follow
   * the snapped cursor.
   */
  move(x: number, y: number): SnapResult {
    const s = this.snapAt(x, y);
    if (this.state === 'end' && this.start && s.type === 'snap') {
      setSegments(this.live, [...this.start, ...s.point]);
      this.live.visible = true;
      this.setLiveLabel(measure(this.start, s.point).text, mid(this.start, s.point));
    } else {
      this.live.visible = false;
      this.setLiveLabel('', null);
    }
    this.host.invalidate();
    return s;
  }

  /** The live label's text ('' while none is shown). */
  get liveDistanceText(): string {
    return this.liveText;
  }

  private setLiveLabel(text: string, at: [number, number, number] | null): void {
    if (!at || !text) {
      if (this.liveText) this.liveLabel.set([]);
      this.liveText = '';
      return;
    }
    this.liveText = text;
    this.liveLabel.set([
      { text, position: at, heightMm: MEASURE_TEXT_MM, color: MEASURE_COLORS.line, offset: [0, 0.8] },
    ]);
  }

  /** Left click: start, then finish. A click where nothing snaps is ignored. */
  click(x: number, y: number): void {
    if (this.state === 'off') return;
    const s = this.snapAt(x, y);
    if (s.type !== 'snap') return;
    if (this.state === 'start') {
      this.start = s.point;
      this.state = 'end';
      this.changed();
      return;
    }
    this.add(this.start!, s.point);
    // The measurement ends after one completed line (viewer.md §4 "Measuring").
    this.disarm();
  }

  /** Adds a completed measurement (also used by tests and the bench). */
  add(a: [number, number, number], b: [number, number, number]): MeasurementItem {
    const m: MeasurementItem = { id: this.nextId++, ...measure(a, b) };
    this.items.push(m);
    this.rebuild();
    return m;
  }

  /** Deletes measurements by id, or all. */
  delete(ids?: readonly number[]): void {
    const drop = ids ? new Set(ids) : null;
    const before = this.items.length;
    this.items = drop ? this.items.filter((m) => !drop.has(m.id)) : [];
    if (this.items.length !== before) {
      this.rebuild();
      this.changed();
    }
  }

  dispose(): void {
    for (const l of [this.lines, this.legs, this.live]) {
      l.geometry.dispose();
      (l.material as LineBasicMaterial).dispose();
    }
    this.labels.dispose();
    this.liveLabel.dispose();
    this.group.removeFromParent();
  }

  /** Scene objects of all completed measurements. */
  private rebuild(): void {
    const main: number[] = [],
      legs: number[] = [],
      colors: number[] = [];
    const labels: LabelSpec[] = [];
    const rgb = { x: [0.88, 0.19, 0.19], y: [0.18, 0.62, 0.27], z: [0.1, 0.44, 0.76] } as const;
    for (const m of this.items) {
      main.push(...m.start, ...m.end);
      labels.push({
        text: m.text,
        position: mid(m.start, m.end),
        heightMm: MEASURE_TEXT_MM,
        color: MEASURE_COLORS.line,
        offset: [0, 0.8],
      });
      // Legs start → (x) → (y) → (z) end; each visible component gets its leg and label.
      let p = [...m.start] as [number, number, number];
      m.components.forEach((c, i) => {
        const q = [...p] as [number, number, number];
        q[i] = m.end[i];
        if (c.visible) {
          legs.push(...p, ...q);
          colors.push(...rgb[c.axis], ...rgb[c.axis]);
          labels.push({
            text: c.text,
            position: mid(p, q),
            heightMm: MEASURE_TEXT_MM * 0.8,
            color: MEASURE_COLORS[c.axis],
            offset: [0, -0.8],
          });
        }
        p = q;
      });
    }
    setSegments(this.lines, main);
    setSegments(this.legs, legs, colors);
    this.labels.set(labels);
    this.host.invalidate();
  }

  private changed(): void {
    this.host.emit({
      type: 'measure-changed',
      state: this.state,
      measurements: this.items.map((m) => ({ ...m, components: m.components.map((c) => ({ ...c })) })),
    });
    this.host.invalidate();
  }
}

function mid(a: readonly number[], b: readonly number[]): [number, number, number] {
  return [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2];
}

/** Replaces a LineSegments' positions (and colours). */
function setSegments(l: LineSegments, positions: number[], colors?: number[]): void {
  const g = new BufferGeometry();
  g.setAttribute('position', new BufferAttribute(new Float32Array(positions), 3));
  if (colors) g.setAttribute('color', new BufferAttribute(new Float32Array(colors), 3));
  if (positions.length) g.computeBoundingSphere();
  l.geometry.dispose();
  l.geometry = g;
}
