/**
 * 3D comment markers (viewer.md §2 "While placing a comment marker...", §4 "Marker placement"; issue
 * text: drawn at their point at every zoom, hidden by the Markers toggle, a click opens the thread):
 * round pins of a fixed screen size drawn on top of the model, one per thread with a marker location;
 * the active thread's pin is larger and darker. Placement: while armed the preview pin follows the
 * snapped cursor, a left click on geometry confirms, a right click cancels; both emit
 * 'comment-marker-placed' (point null on cancel). A click within PICK_PX of a pin emits
 * 'comment-marker-clicked'. World points in mm, screen positions in CSS px.
 */
import { BufferAttribute, BufferGeometry, Color, DataTexture, Group, Points, PointsMaterial } from 'three';
import type { CommentMarker } from '../EngineApi';
import type { SnapResult } from '../snap/snap';
import type { ToolHost } from './ToolHost';

/** Pin size on screen, px (the active thread's pin: ACTIVE_PX). */
export const MARKER_PX = 22;
export const ACTIVE_PX = 30;
/** A click this close to a pin's centre (px) hits it. */
export const PICK_PX = 14;
/** Pin colours: markers, the active one, the preview while placing. */
export const MARKER_COLORS = { normal: '#0097c4', active: '#d6336c', preview: '#f59f00' } as const;

/**
 * Texture of a round pin, built in code (no DOM in the engine): a disc in the material colour (white
 * texels) with a dark rim (grey texels darken the colour) for contrast on any background; alpha 0 outside.
 */
function pinTexture(size = 32): DataTexture {
  const data = new Uint8Array(size * size * 4);
  const c = (size - 1) / 2;
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const d = Math.hypot(x - c, y - c) / c;
      const i = 4 * (y * size + x);
      const v = d > 0.72 ? 60 : 255;
      data[i] = v;
      data[i + 1] = v;
      data[i + 2] = v;
      data[i + 3] = d > 1 ? 0 : 255;
    }
  const t = new DataTexture(data, size, size);
  t.needsUpdate = true;
  return t;
}

/** The markers, the placement operator and the pin picking. */
export class CommentMarkers {
  readonly group = new Group();
  private readonly normal: Points;
  private readonly active: Points;
  private readonly preview: Points;
  private markers: CommentMarker[] = [];
  private placing = false;
  private shown = true;

  constructor(
    private readonly host: ToolHost,
    /** Snaps at a canvas position and shows the snap marker (SnapManager.snap). */
    private readonly snapAt: (x: number, y: number) => SnapResult,
    private readonly hideSnapMarker: () => void,
  ) {
    this.group.name = 'comment-markers';
    const tex = pinTexture();
    const points = (name: string, px: number, color: string) => {
      const g = new BufferGeometry();
      g.setAttribute('position', new BufferAttribute(new Float32Array(0), 3));
      const m = new PointsMaterial({
        size: px,
        sizeAttenuation: false,
        map: tex,
        color: new Color(color),
        alphaTest: 0.5,
        depthTest: false,
        depthWrite: false,
        transparent: true,
      });
      const p = new Points(g, m);
      p.name = name;
      p.renderOrder = 950;
      p.frustumCulled = false;
      this.group.add(p);
      return p;
    };
    this.normal = points('comment-markers-normal', MARKER_PX, MARKER_COLORS.normal);
    this.active = points('comment-markers-active', ACTIVE_PX, MARKER_COLORS.active);
    this.preview = points('comment-marker-preview', ACTIVE_PX, MARKER_COLORS.preview);
    this.preview.visible = false;
    host.scene.add(this.group);
  }

  /** True while the placement operator is armed (clicks and right clicks belong to it). */
  get placingMarker(): boolean {
    return this.placing;
  }

  /** The markers drawn now (tests). */
  get list(): readonly CommentMarker[] {
    return this.markers;
  }

  /** Whether pins are drawn and clickable (the panel's Markers toggle). */
  get visible(): boolean {
    return this.shown;
  }

  /** Replaces the markers. @throws Error for a point that is not three finite numbers. */
  setMarkers(markers: CommentMarker[]): void {
    for (const m of markers)
      if (!(m.point.length === 3 && m.point.every(Number.isFinite)))
        throw new Error(`Comment marker ${m.id}: point ${JSON.stringify(m.point)} is not three finite numbers (mm)`);
    this.markers = markers.map((m) => ({ id: m.id, point: [m.point[0], m.point[1], m.point[2]], active: m.active }));
    setPoints(
      this.normal,
      this.markers.filter((m) => !m.active),
    );
    setPoints(
      this.active,
      this.markers.filter((m) => m.active),
    );
    this.host.invalidate();
  }

  /** Shows or hides the pins (the preview while placing stays). */
  setVisible(on: boolean): void {
    this.shown = on;
    this.normal.visible = on;
    this.active.visible = on;
    this.host.invalidate();
  }

  /** Arms the placement operator. */
  startPlacement(): void {
    this.placing = true;
    this.preview.visible = false;
    this.host.invalidate();
  }

  /** Disarms the operator; emits 'comment-marker-placed' with null when it was armed. */
  cancelPlacement(): void {
    if (!this.placing) return;
    this.disarm();
    this.host.emit({ type: 'comment-marker-placed', point: null });
  }

  /** Pointer moved while placing: the preview pin follows the snapped cursor (hidden off the model). */
  move(x: number, y: number): SnapResult {
    const s = this.snapAt(x, y);
    if (s.type === 'snap') {
      setPoints(this.preview, [{ point: s.point }]);
      this.preview.visible = true;
    } else this.preview.visible = false;
    this.host.invalidate();
    return s;
  }

  /**
   * Left click. Placing: confirms at the snapped point (a click off the model keeps the operator armed)
   * and returns true. Otherwise: emits 'comment-marker-clicked' for the nearest pin within PICK_PX and
   * returns true, or returns false (the click belongs to selection).
   */
  click(x: number, y: number): boolean {
    if (this.placing) {
      const s = this.snapAt(x, y);
      if (s.type !== 'snap') return true;
      this.disarm();
      this.host.emit({ type: 'comment-marker-placed', point: [s.point[0], s.point[1], s.point[2]] });
      return true;
    }
    const id = this.pinAt(x, y);
    if (id === null) return false;
    this.host.emit({ type: 'comment-marker-clicked', id });
    return true;
  }

  /** The id of the pin nearest to a canvas position within PICK_PX, or null (none when hidden). */
  pinAt(x: number, y: number): string | null {
    if (!this.shown || this.markers.length === 0) return null;
    const cams = this.host.cameras;
    cams.viewProjection();
    let best: string | null = null;
    let bestD = PICK_PX;
    for (const m of this.markers) {
      const p = cams.project(m.point[0], m.point[1], m.point[2]);
      if (!p) continue;
      const d = Math.hypot(p[0] - x, p[1] - y);
      if (d <= bestD) {
        bestD = d;
        best = m.id;
      }
    }
    return best;
  }

  dispose(): void {
    for (const p of [this.normal, this.active, this.preview]) {
      p.geometry.dispose();
      (p.material as PointsMaterial).map?.dispose();
      (p.material as PointsMaterial).dispose();
    }
    this.group.removeFromParent();
  }

  private disarm(): void {
    this.placing = false;
    this.preview.visible = false;
    this.hideSnapMarker();
    this.host.invalidate();
  }
}

function setPoints(p: Points, list: { point: readonly number[] }[]): void {
  const a = new Float32Array(list.length * 3);
  list.forEach((m, i) => a.set(m.point.slice(0, 3), i * 3));
  p.geometry.setAttribute('position', new BufferAttribute(a, 3));
  p.geometry.setDrawRange(0, list.length);
}
