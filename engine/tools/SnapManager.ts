/**
 * Snapping in the render worker (viewer.md §9 "Snapping", §3 "Snap settings"): for a
 * cursor position the ray's surface hit is found, the screen tolerance (15 px by default) is turned into
 * world mm at that depth, the chunk BVHs are shapecast for triangles and feature edges near the ray
 * (ChunkBatch.gatherNearRay; only up to a little behind the visible surface, so hidden geometry does not
 * snap), and the snap kernel (engine/snap/snap.ts computeSnap) ranks the candidates. A marker (screen-size
 * point, drawn on top, colour per snap type) shows the result. Geometry outside an active clipping box
 * does not snap. mm, CSS px.
 */
import { Box3, BufferAttribute, BufferGeometry, Color, Points, PointsMaterial, Vector3, type Ray } from 'three';
import type { FrameTables } from '../model/types';
import { computeSnap, DEFAULT_SNAP_SETTINGS, type SnapResult, type SnapSettings } from '../snap/snap';
import { OBJECT_FLAGS } from '../scene/ObjectStateTable';
import type { ToolHost } from './ToolHost';

/** Marker colours per snap type 1–4 (end, intersection, polygon point, nearest). */
export const SNAP_MARKER_COLORS: Readonly<Record<1 | 2 | 3 | 4, string>> = {
  1: '#e8590c',
  2: '#c2255c',
  3: '#2f9e44',
  4: '#1c7ed6',
};
/** Marker size, px. */
const MARKER_PX = 11;
/**
 * Candidate triangles examined at most per snap, nearest first (keeps a pointer move within a frame on
 * dense models: beyond this many the gathered geometry lies behind what the eye sees).
 */
const MAX_TRIANGLES = 2000;

/** Snap settings, candidate gathering and the marker. */
export class SnapManager {
  settings: SnapSettings = { ...DEFAULT_SNAP_SETTINGS };
  frames: FrameTables | undefined;
  readonly marker: Points;
  /** Last gather's candidate counts (bench, tests). */
  lastCounts = { triangles: 0, edges: 0 };

  constructor(
    private readonly host: ToolHost,
    /** Clipping pick filter: world points / boxes outside an active box are skipped. */
    private readonly clip: { accepts(p: Vector3): boolean; acceptsBox(b: Box3): boolean },
  ) {
    const g = new BufferGeometry();
    g.setAttribute('position', new BufferAttribute(new Float32Array(3), 3));
    const m = new PointsMaterial({
      size: MARKER_PX,
      sizeAttenuation: false,
      depthTest: false,
      depthWrite: false,
      transparent: true,
    });
    this.marker = new Points(g, m);
    this.marker.name = 'snap-marker';
    this.marker.renderOrder = 1000;
    this.marker.visible = false;
    this.marker.frustumCulled = false;
    host.scene.add(this.marker);
  }

  /** Updates settings (missing fields keep their value). @throws Error for a non-positive tolerance. */
  setSettings(s: Partial<SnapSettings>): void {
    const next = { ...this.settings, ...s };
    if (!(next.tolerancePx > 0)) throw new Error(`Snap tolerance ${next.tolerancePx} px is not positive`);
    this.settings = next;
  }

  /** Snap at a canvas position; moves the marker (hidden on a miss). */
  snap(x: number, y: number): SnapResult {
    const r = this.compute(x, y);
    this.showMarker(r.type === 'snap' ? r : null);
    return r;
  }

  /** Hides the marker. */
  hideMarker(): void {
    if (!this.marker.visible) return;
    this.marker.visible = false;
    this.host.invalidate();
  }

  /** The snap result at a canvas position without touching the marker. */
  compute(x: number, y: number): SnapResult {
    const m = this.host.model();
    if (!m || m.chunks.length === 0) return { type: 'miss' };
    const cams = this.host.cameras;
    cams.viewProjection();
    const ray = cams.raycaster(x, y).ray;
    const hit = m.raycast(ray, this.clip.accepts);
    const anchor: [number, number, number] = hit ? hit.point : [ray.origin.x, ray.origin.y, ray.origin.z];
    const radius = this.settings.tolerancePx * cams.worldPerPixel(anchor);
    // Up to a little behind the visible surface: edges of the hit plate's far side still snap, hidden geometry does not.
    const maxDistance = hit ? hit.distance + Math.max(2 * radius, 50) : Infinity;
    const triangles: number[] = [];
    const edges: number[] = [];
    // Steel first (as in picking): over steel, compartment spaces (noCap objects) offer no snap points.
    const flags = m.state.flags;
    const overSteel = hit !== null && (flags[hit.nodeId] & OBJECT_FLAGS.noCap) === 0;
    const hidden = (n: number) => m.state.isHidden(n) || (overSteel && (flags[n] & OBJECT_FLAGS.noCap) !== 0);
    // Nearest chunk first (each chunk's BVH is walked nearest node first too): the candidate cap keeps the
    // geometry closest to the eye, where the visible snap points are.
    const order: { c: (typeof m.chunks)[number]; t: number }[] = [];
    const wb = new Box3(),
      at = new Vector3();
    for (const c of m.chunks) {
      if (!c.drawn && !c.hasBvh) continue;
      wb.copy(c.worldBox).expandByScalar(radius);
      const p = wb.containsPoint(ray.origin) ? ray.origin : ray.intersectBox(wb, at);
      if (!p) continue;
      const t = p.distanceTo(ray.origin);
      if (t <= maxDistance) order.push({ c, t });
    }
    order.sort((a, b) => a.t - b.t);
    for (const { c } of order) {
      if (triangles.length / 9 >= MAX_TRIANGLES) break;
      c.gatherNearRay(ray, radius, maxDistance, hidden, triangles, edges, MAX_TRIANGLES, this.clip.acceptsBox);
    }
    this.lastCounts = { triangles: triangles.length / 9, edges: edges.length / 6 };
    const r = computeSnap(
      {
        cursor: [x, y],
        project: (px, py, pz) => cams.project(px, py, pz),
        edges,
        triangles,
        hit: hit ? hit.point : null,
        frames: this.frames,
      },
      this.settings,
    );
    return r.type === 'snap' && (r.snapType === 1 || r.snapType === 3)
      ? this.frontmost(r, r.snapType === 1 ? edges : triangles, ray)
      : r;
  }

  /**
   * Of the candidate vertices drawn at the snapped point's screen position (within 0.5 px; e.g. the near
   * and far corner of a box seen along an edge), the one nearest the camera: the visible corner.
   */
  private frontmost(r: Extract<SnapResult, { type: 'snap' }>, points: number[], ray: Ray): SnapResult {
    const cams = this.host.cameras;
    const at = cams.project(r.point[0], r.point[1], r.point[2]);
    if (!at) return r;
    const o = ray.origin,
      d = ray.direction;
    const depth = (x: number, y: number, z: number) => (x - o.x) * d.x + (y - o.y) * d.y + (z - o.z) * d.z;
    let best = r.point,
      bestDepth = depth(r.point[0], r.point[1], r.point[2]);
    for (let i = 0; i + 2 < points.length; i += 3) {
      const t = depth(points[i], points[i + 1], points[i + 2]);
      if (t >= bestDepth) continue;
      const s = cams.project(points[i], points[i + 1], points[i + 2]);
      if (s && Math.hypot(s[0] - at[0], s[1] - at[1]) <= 0.5) {
        best = [points[i], points[i + 1], points[i + 2]];
        bestDepth = t;
      }
    }
    return best === r.point ? r : { ...r, point: best };
  }

  /** Shows the marker at a snap (or hides it). */
  showMarker(s: Extract<SnapResult, { type: 'snap' }> | null): void {
    if (!s) return this.hideMarker();
    const pos = this.marker.geometry.getAttribute('position') as BufferAttribute;
    pos.setXYZ(0, s.point[0], s.point[1], s.point[2]);
    pos.needsUpdate = true;
    this.marker.geometry.computeBoundingSphere();
    (this.marker.material as PointsMaterial).color = new Color(SNAP_MARKER_COLORS[s.snapType]);
    this.marker.visible = true;
    this.host.invalidate();
  }

  dispose(): void {
    this.marker.geometry.dispose();
    (this.marker.material as PointsMaterial).dispose();
    this.marker.removeFromParent();
  }
}
