/**
 * Annotations in the scene (viewer.md §3 "Annotation settings", §4 "Annotations", §5, §9 "Drawing"):
 * labels of the visible objects of the kinds switched on (plates with their thickness,
 * stiffeners, brackets, openings, compartments — by name), and dimension lines of surface-object
 * parameters (tools/dimensionLines.ts) when 'parameters' is on. Text height from the settings (default
 * 200 mm) with the on-screen size kept legible (ANNOTATION_LABEL_PX) and inside the canvas; texts through
 * LabelLayer (font ≤ 128 px, texture width ≤ 4096 px). An update runs in slices
 * so the worker stays responsive; an update requested while one runs is skipped (viewer.md §4) — the
 * running one re-reads the settings once at its end if they changed meanwhile. Annotations are picked
 * on screen, selected (Ctrl toggles), deselected and deleted; annotations-changed reports counts.
 */
import { BufferAttribute, BufferGeometry, Group, LineBasicMaterial, LineSegments } from 'three';
import type { AnnotationSettings, EngineModelDetails, SurfaceObjectInput } from '../EngineApi';
import type { ObjectType } from '../model/types';
import { surfaceDimensions, type Dimension } from './dimensionLines';
import { LabelLayer, type CanvasFactory, type LabelSpec } from './LabelLayer';
import type { ToolHost } from './ToolHost';

/** viewer.md §3 defaults. */
export const DEFAULT_ANNOTATION_SETTINGS: Readonly<AnnotationSettings> = {
  textHeight: 200,
  compartments: false,
  plates: false,
  parameters: false,
  stiffeners: false,
  openings: false,
  brackets: false,
};

/** Object types labelled per settings toggle. */
export const ANNOTATED_TYPES: Readonly<
  Record<'compartments' | 'plates' | 'stiffeners' | 'openings' | 'brackets', readonly ObjectType[]>
> = {
  compartments: ['COMPARTMENT'],
  plates: ['PLATE', 'COLLAR PLATE'],
  stiffeners: ['STIFFENER'],
  openings: ['OPENING'],
  brackets: ['BRACKET'],
};

/**
 * On-screen box height of an annotation label, CSS px: the text height setting (mm) projected, but never
 * below a 14.5 px font (legible on a 1366×768 laptop however far the ship is zoomed out) nor above a 21 px
 * one (a close view is not covered by text). Rasterised at 40 px, twice the largest, for pixel ratio 2.
 */
export const ANNOTATION_LABEL_PX = { minPx: 22, maxPx: 32 } as const;

/** Object labels at most (largest objects first), so a 500k-part ship stays drawable. */
export const MAX_OBJECT_LABELS = 5000;
/** Objects examined per slice of an update. */
const SLICE = 50000;

interface Item {
  key: string;
  spec: LabelSpec;
  dimension?: Dimension;
}

/** Settings, items, the label layer and the dimension lines. */
export class AnnotationManager {
  readonly group = new Group();
  readonly labels: LabelLayer;
  private settings: AnnotationSettings = { ...DEFAULT_ANNOTATION_SETTINGS };
  private details: EngineModelDetails = {};
  private surface: SurfaceObjectInput[] = [];
  private items: Item[] = [];
  private selected = new Set<number>();
  private deleted = new Set<string>();
  private running = false;
  private stale = false;
  private readonly dims: LineSegments;

  /**
   * @param inside clipping filter: objects whose centre (mm) it rejects (clipped away) get no label.
   */
  constructor(
    private readonly host: ToolHost,
    canvas?: CanvasFactory,
    private readonly inside: (x: number, y: number, z: number) => boolean = () => true,
  ) {
    this.group.name = 'annotations';
    // On top: a label half hidden behind the plates in front of its object cannot be read.
    this.labels = new LabelLayer('annotation-labels', {
      canvas,
      fontPx: 40,
      onTop: true,
      screenPx: ANNOTATION_LABEL_PX,
    });
    this.dims = new LineSegments(new BufferGeometry(), new LineBasicMaterial({ color: '#364fc7' }));
    this.dims.name = 'dimension-lines';
    this.dims.frustumCulled = false;
    this.group.add(this.dims, this.labels.group);
    host.scene.add(this.group);
  }

  get current(): Readonly<AnnotationSettings> {
    return this.settings;
  }

  get count(): number {
    return this.items.length;
  }

  get selectedCount(): number {
    return this.selected.size;
  }

  /** Texts of the current annotations (tests). */
  texts(): string[] {
    return this.items.map((i) => i.spec.text);
  }

  /** True while an update runs. */
  get updating(): boolean {
    return this.running;
  }

  setDetails(details: EngineModelDetails): void {
    this.details = { ...this.details, ...details };
  }

  /** New settings (missing fields keep their value), then an update. @throws Error for a non-positive text height. */
  setSettings(s: Partial<AnnotationSettings>): Promise<boolean> {
    const next = { ...this.settings, ...s };
    if (!(next.textHeight > 0)) throw new Error(`Annotation text height ${next.textHeight} mm is not positive`);
    this.settings = next;
    this.deleted.clear();
    return this.update();
  }

  /** Surface objects (API shape, m) for the parameter dimensions, then an update. */
  setSurfaceObjects(objects: readonly SurfaceObjectInput[]): Promise<boolean> {
    this.surface = [...objects];
    return this.update();
  }

  /** A new model: forgets everything. */
  reset(): void {
    this.details = {};
    this.surface = [];
    this.deleted.clear();
    this.apply([]);
  }

  /**
   * Rebuilds the annotations from the settings, the visible objects and the surface objects. Resolves
   * true when this call ran, false when it was skipped because an update was already running.
   */
  async update(): Promise<boolean> {
    if (this.running) {
      this.stale = true;
      return false;
    }
    this.running = true;
    try {
      do {
        this.stale = false;
        const items = await this.collect();
        if (!this.stale) this.apply(items);
      } while (this.stale);
    } finally {
      this.running = false;
    }
    return true;
  }

  /** Selects the annotation at a canvas position (Ctrl toggles). Returns false when none is there. */
  click(x: number, y: number, toggle: boolean): boolean {
    this.host.cameras.viewProjection();
    const i = this.labels.hitTest(x, y, this.host.cameras);
    if (i < 0) return false;
    if (toggle) {
      if (this.selected.has(i)) this.selected.delete(i);
      else this.selected.add(i);
    } else {
      this.selected = new Set([i]);
    }
    this.selectionChanged();
    return true;
  }

  /** Index of the annotation under a canvas position, or -1 (hover). */
  hitTest(x: number, y: number): number {
    this.host.cameras.viewProjection();
    return this.labels.hitTest(x, y, this.host.cameras);
  }

  deselect(): void {
    if (this.selected.size === 0) return;
    this.selected.clear();
    this.selectionChanged();
  }

  /** Deletes the selected annotations (they stay away until the settings change). */
  deleteSelected(): void {
    if (this.selected.size === 0) return;
    for (const i of this.selected) if (this.items[i]) this.deleted.add(this.items[i].key);
    this.apply(this.items.filter((_, i) => !this.selected.has(i)));
  }

  dispose(): void {
    this.labels.dispose();
    this.dims.geometry.dispose();
    (this.dims.material as LineBasicMaterial).dispose();
    this.group.removeFromParent();
  }

  private async collect(): Promise<Item[]> {
    const s = this.settings,
      h = s.textHeight;
    const m = this.host.model();
    const t = m?.objectTable;
    const items: Item[] = [];
    const want = new Map<ObjectType, keyof typeof ANNOTATED_TYPES>();
    for (const k of Object.keys(ANNOTATED_TYPES) as (keyof typeof ANNOTATED_TYPES)[])
      if (s[k]) for (const ty of ANNOTATED_TYPES[k]) want.set(ty, k);
    if (m && t && want.size > 0) {
      const found: { i: number; size: number }[] = [];
      const ob = m.objectBounds;
      for (let i = 0; i < t.types.length; i++) {
        if (i > 0 && i % SLICE === 0) await new Promise((r) => setTimeout(r, 0));
        if (!want.has(t.types[i]) || m.state.isHidden(i) || !(ob[i * 6] <= ob[i * 6 + 3])) continue;
        found.push({
          i,
          size: Math.hypot(ob[i * 6 + 3] - ob[i * 6], ob[i * 6 + 4] - ob[i * 6 + 1], ob[i * 6 + 5] - ob[i * 6 + 2]),
        });
      }
      found.sort((a, b) => b.size - a.size || a.i - b.i);
      for (const { i } of found) {
        if (items.length >= MAX_OBJECT_LABELS) break;
        const key = `o${i}`;
        const c: [number, number, number] = [
          (ob[i * 6] + ob[i * 6 + 3]) / 2,
          (ob[i * 6 + 1] + ob[i * 6 + 4]) / 2,
          (ob[i * 6 + 2] + ob[i * 6 + 5]) / 2,
        ];
        if (this.deleted.has(key) || !this.inside(c[0], c[1], c[2])) continue;
        items.push({ key, spec: { text: this.objectText(i, t.ids[i], t.types[i]), position: c, heightMm: h } });
      }
    }
    if (s.parameters) {
      surfaceDimensions(this.surface).forEach((d, k) => {
        const key = `d${k}:${d.object}`;
        if (!this.deleted.has(key))
          items.push({
            key,
            dimension: d,
            spec: { text: d.label.text, position: d.label.position, heightMm: h, color: '#364fc7', offset: [0, 0.6] },
          });
      });
    }
    return items;
  }

  /** Label text of an object: its name; plates add the thickness (PLTH, m → mm). */
  private objectText(i: number, id: string, type: ObjectType): string {
    const name = this.details.names?.[i] ?? id;
    const plth = this.details.properties?.[i]?.PLTH;
    if ((type === 'PLATE' || type === 'COLLAR PLATE') && typeof plth === 'number' && plth > 0) {
      const t = plth * 1000;
      return `${name} t=${Math.abs(t - Math.round(t)) < 0.05 ? Math.round(t) : t.toFixed(1)}`;
    }
    return name;
  }

  private apply(items: Item[]): void {
    this.items = items;
    this.selected.clear();
    this.labels.set(items.map((i) => i.spec));
    const seg = items.flatMap((i) => i.dimension?.segments ?? []);
    const g = new BufferGeometry();
    g.setAttribute('position', new BufferAttribute(new Float32Array(seg), 3));
    if (seg.length) g.computeBoundingSphere();
    this.dims.geometry.dispose();
    this.dims.geometry = g;
    this.selectionChanged();
  }

  private selectionChanged(): void {
    this.labels.setHighlighted(this.selected);
    this.host.emit({ type: 'annotations-changed', count: this.items.length, selected: this.selected.size });
    this.host.invalidate();
  }
}
