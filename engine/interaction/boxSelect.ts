/**
 * Box selection (viewer.md §4 "Selection": "A drag box left-to-right selects fully contained entities;
 * right-to-left selects touching ones"). Pure kernels, no three.js, tested in Node:
 * - `boxSelectMode`: the drag direction decides the mode;
 * - `projectToScreen`: world mm → canvas CSS px through a column-major view-projection matrix;
 * - `boxSelect`: a query over the hierarchy of object bounds (./objectBoundsTree.ts): subtrees are decided
 *   on their projected boxes (8 corners), objects straddling the rectangle's edge on their triangles
 *   (inside mode: every vertex inside; touch mode: a triangle overlaps the rectangle, by the
 *   separating-axis test).
 */
import { buildObjectBoundsTree, type ObjectBoundsTree } from './objectBoundsTree';

/** Screen rectangle in CSS px (any corner order). */
export interface ScreenRect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** 'inside': objects fully contained; 'touch': objects touched. */
export type BoxSelectMode = 'inside' | 'touch';

/** Left-to-right drag (end x ≥ start x) selects contained objects; right-to-left selects touched ones. */
export function boxSelectMode(startX: number, endX: number): BoxSelectMode {
  return endX >= startX ? 'inside' : 'touch';
}

/** The view: column-major view-projection matrix (THREE: projection × view) and canvas size in CSS px. */
export interface ScreenProjection {
  matrix: ArrayLike<number>;
  width: number;
  height: number;
}

/**
 * Projects a world point (mm) to canvas CSS px (x right, y down). Writes [x, y] into `out` and returns
 * false when the point is behind the camera (w ≤ 0).
 */
export function projectToScreen(p: ScreenProjection, x: number, y: number, z: number, out: Float64Array): boolean {
  const m = p.matrix;
  const cx = m[0] * x + m[4] * y + m[8] * z + m[12];
  const cy = m[1] * x + m[5] * y + m[9] * z + m[13];
  const cw = m[3] * x + m[7] * y + m[11] * z + m[15];
  if (!(cw > 0)) return false;
  out[0] = ((cx / cw + 1) / 2) * p.width;
  out[1] = ((1 - cy / cw) / 2) * p.height;
  return true;
}

/** What the kernel needs of the scene. */
export interface BoxSelectSource {
  /** Number of objects; ids are 0..objectCount-1. */
  objectCount: number;
  /** 6 values per object (min xyz, max xyz; mm); objects whose min > max have no geometry and are skipped. */
  bounds: Float64Array;
  /** False for hidden (or otherwise unselectable) objects. */
  eligible(id: number): boolean;
  /**
   * Calls `fn` with each piece of object `id`'s triangles (an object may lie in several chunks); stops when
   * `fn` returns true. The piece object may be reused between calls.
   */
  forEachPiece(id: number, fn: (piece: TrianglePiece) => boolean): void;
}

/**
 * Triangles of one object in one chunk, as the chunk stores them: vertex `v` is at world
 * (origin[a] + positions[3v + a] · step[a]) mm per axis a; the triangles are indices[start .. end), 3 each.
 */
export interface TrianglePiece {
  positions: ArrayLike<number>;
  indices: ArrayLike<number>;
  start: number;
  end: number;
  origin: ArrayLike<number>;
  step: ArrayLike<number>;
}

/** How an object's (or a hierarchy node's) world box projects against the rectangle. */
const BoxClass = {
  /** A corner is behind the camera: undecided for a node, skipped for an object. */
  Behind: 0,
  Disjoint: 1,
  Contained: 2,
  /** The projected box straddles the rectangle's edge: the triangles decide. */
  Partial: 3,
} as const;
type BoxClass = (typeof BoxClass)[keyof typeof BoxClass];

/**
 * Classifies the world box at `b[o..o+6)` by the screen extent of its 8 projected corners against the
 * rectangle shrunk (Contained) or grown (Disjoint) by `margin` px. A node is decided with a margin so
 * rounding in the projection of its objects' corners cannot flip what they would decide on their own.
 */
function classifyBox(
  view: ScreenProjection,
  b: ArrayLike<number>,
  o: number,
  rx0: number,
  ry0: number,
  rx1: number,
  ry1: number,
  margin: number,
): BoxClass {
  const m = view.matrix;
  const w = view.width,
    h = view.height;
  let sx0 = Infinity,
    sy0 = Infinity,
    sx1 = -Infinity,
    sy1 = -Infinity;
  for (let c = 0; c < 8; c++) {
    const x = b[o + (c & 1 ? 3 : 0)],
      y = b[o + (c & 2 ? 4 : 1)],
      z = b[o + (c & 4 ? 5 : 2)];
    // projectToScreen inlined (the same arithmetic in the same order, so the same results).
    const cw = m[3] * x + m[7] * y + m[11] * z + m[15];
    if (!(cw > 0)) return BoxClass.Behind;
    const sx = (((m[0] * x + m[4] * y + m[8] * z + m[12]) / cw + 1) / 2) * w;
    const sy = ((1 - (m[1] * x + m[5] * y + m[9] * z + m[13]) / cw) / 2) * h;
    if (sx < sx0) sx0 = sx;
    if (sx > sx1) sx1 = sx;
    if (sy < sy0) sy0 = sy;
    if (sy > sy1) sy1 = sy;
  }
  if (sx1 < rx0 - margin || sx0 > rx1 + margin || sy1 < ry0 - margin || sy0 > ry1 + margin) return BoxClass.Disjoint;
  if (sx0 >= rx0 + margin && sx1 <= rx1 - margin && sy0 >= ry0 + margin && sy1 <= ry1 - margin)
    return BoxClass.Contained;
  return BoxClass.Partial;
}

/** True when every corner of the node's box is in front of the camera by more than rounding. */
function nodeInFront(view: ScreenProjection, b: ArrayLike<number>, o: number): boolean {
  const m = view.matrix;
  let minW = Infinity,
    maxW = 0;
  for (let c = 0; c < 8; c++) {
    const x = b[o + (c & 1 ? 3 : 0)],
      y = b[o + (c & 2 ? 4 : 1)],
      z = b[o + (c & 4 ? 5 : 2)];
    const w = m[3] * x + m[7] * y + m[11] * z + m[15];
    if (w < minW) minW = w;
    if (Math.abs(w) > maxW) maxW = Math.abs(w);
  }
  return minW > 1e-9 * maxW;
}

/**
 * Object ids selected by a screen rectangle, ascending: in 'inside' mode the objects whose every vertex
 * projects inside it, in 'touch' mode those with a triangle overlapping it (triangles with a corner behind
 * the camera are skipped); objects with a box corner behind the camera are never selected. A frustum query
 * over `tree` (./objectBoundsTree.ts over `src.bounds`; built here when not given): subtrees whose
 * projected box is disjoint from the rectangle are skipped, subtrees contained in it are taken whole, and
 * only objects straddling its edge are tested on their triangles. The result equals testing every object
 * (tests/engine/interaction/boxSelect.query.test.ts).
 * @throws Error when the rectangle or the canvas size is not finite/positive.
 */
export function boxSelect(
  src: BoxSelectSource,
  rect: ScreenRect,
  mode: BoxSelectMode,
  view: ScreenProjection,
  tree: ObjectBoundsTree = buildObjectBoundsTree(src.bounds, src.objectCount),
): number[] {
  for (const v of [rect.x0, rect.y0, rect.x1, rect.y1])
    if (!Number.isFinite(v)) throw new Error('boxSelect: rectangle is not finite');
  if (!(view.width > 0 && view.height > 0))
    throw new Error(`boxSelect: canvas size ${view.width}×${view.height} is not positive`);
  const rx0 = Math.min(rect.x0, rect.x1),
    rx1 = Math.max(rect.x0, rect.x1);
  const ry0 = Math.min(rect.y0, rect.y1),
    ry1 = Math.max(rect.y0, rect.y1);
  const margin = 1e-6 * (1 + view.width + view.height + Math.abs(rx0) + Math.abs(rx1) + Math.abs(ry0) + Math.abs(ry1));
  const out: number[] = [];
  const straddling: number[] = [];
  const b = src.bounds;
  const { order, boxes, start, count, child } = tree;
  const stack: number[] = tree.nodeCount > 0 && count[0] > 0 ? [0] : [];
  while (stack.length > 0) {
    const node = stack.pop() as number;
    if (nodeInFront(view, boxes, node * 6)) {
      const cls = classifyBox(view, boxes, node * 6, rx0, ry0, rx1, ry1, margin);
      if (cls === BoxClass.Disjoint) continue;
      if (cls === BoxClass.Contained) {
        for (let k = start[node], e = start[node] + count[node]; k < e; k++)
          if (src.eligible(order[k])) out.push(order[k]);
        continue;
      }
    }
    if (child[node] >= 0) {
      stack.push(child[node], child[node] + 1);
      continue;
    }
    for (let k = start[node], e = start[node] + count[node]; k < e; k++) {
      const id = order[k];
      if (!src.eligible(id)) continue;
      const cls = classifyBox(view, b, id * 6, rx0, ry0, rx1, ry1, 0);
      if (cls === BoxClass.Contained) out.push(id);
      else if (cls === BoxClass.Partial) straddling.push(id);
    }
  }
  // Triangles in id order: objects' geometry lies in id order, so this walks memory forward.
  const partial = Int32Array.from(straddling).sort();
  const test = new TriangleTest(view, rx0, ry0, rx1, ry1);
  for (let k = 0; k < partial.length; k++) {
    const id = partial[k];
    if (mode === 'inside' ? test.allInside(src, id) : test.anyTouches(src, id)) out.push(id);
  }
  return Array.from(Int32Array.from(out).sort());
}

/**
 * The triangle tests of straddling objects against one rectangle: loops straight over each piece's
 * quantised vertices (a large box tests thousands of triangles; no call or garbage per triangle).
 */
class TriangleTest {
  private readonly p = new Float64Array(6);
  private inside = true;
  private any = false;
  private touched = false;
  private readonly m: ArrayLike<number>;
  private readonly w: number;
  private readonly h: number;
  private readonly insideFn = (piece: TrianglePiece): boolean => {
    const { positions: q, indices: idx, origin: o, step: st, start, end } = piece;
    const m = this.m;
    if (end > start) this.any = true;
    for (let i = start; i < end; i++) {
      const vi = idx[i] * 3;
      const x = o[0] + q[vi] * st[0],
        y = o[1] + q[vi + 1] * st[1],
        z = o[2] + q[vi + 2] * st[2];
      // projectToScreen inlined (same arithmetic).
      const cw = m[3] * x + m[7] * y + m[11] * z + m[15];
      if (!(cw > 0)) return !(this.inside = false);
      const sx = (((m[0] * x + m[4] * y + m[8] * z + m[12]) / cw + 1) / 2) * this.w;
      const sy = ((1 - (m[1] * x + m[5] * y + m[9] * z + m[13]) / cw) / 2) * this.h;
      if (sx < this.x0 || sx > this.x1 || sy < this.y0 || sy > this.y1) return !(this.inside = false);
    }
    return false;
  };
  private readonly touchFn = (piece: TrianglePiece): boolean => {
    const { positions: q, indices: idx, origin: o, step: st, start, end } = piece;
    const m = this.m,
      p = this.p;
    for (let i = start; i < end; i += 3) {
      let corner = false,
        behind = false;
      for (let k = 0; k < 3; k++) {
        const vi = idx[i + k] * 3;
        const x = o[0] + q[vi] * st[0],
          y = o[1] + q[vi + 1] * st[1],
          z = o[2] + q[vi + 2] * st[2];
        const cw = m[3] * x + m[7] * y + m[11] * z + m[15];
        if (!(cw > 0)) {
          behind = true;
          break;
        }
        const sx = (((m[0] * x + m[4] * y + m[8] * z + m[12]) / cw + 1) / 2) * this.w;
        const sy = ((1 - (m[1] * x + m[5] * y + m[9] * z + m[13]) / cw) / 2) * this.h;
        p[k * 2] = sx;
        p[k * 2 + 1] = sy;
        if (sx >= this.x0 && sx <= this.x1 && sy >= this.y0 && sy <= this.y1) corner = true;
      }
      if (behind) continue;
      // A corner inside the rectangle overlaps it; a triangle whose screen extent misses the rectangle does
      // not (most of a straddling object's triangles): only the rest need the separating-axis test.
      if (corner) return (this.touched = true);
      if (
        (p[0] < this.x0 && p[2] < this.x0 && p[4] < this.x0) ||
        (p[0] > this.x1 && p[2] > this.x1 && p[4] > this.x1) ||
        (p[1] < this.y0 && p[3] < this.y0 && p[5] < this.y0) ||
        (p[1] > this.y1 && p[3] > this.y1 && p[5] > this.y1)
      )
        continue;
      if (triangleOverlapsRect(p, this.x0, this.y0, this.x1, this.y1)) return (this.touched = true);
    }
    return false;
  };

  constructor(
    view: ScreenProjection,
    private readonly x0: number,
    private readonly y0: number,
    private readonly x1: number,
    private readonly y1: number,
  ) {
    this.m = view.matrix;
    this.w = view.width;
    this.h = view.height;
  }

  /** True when object `id` has triangles and every vertex projects inside the rectangle. */
  allInside(src: BoxSelectSource, id: number): boolean {
    this.inside = true;
    this.any = false;
    src.forEachPiece(id, this.insideFn);
    return this.inside && this.any;
  }

  /** True when a triangle of object `id` (all corners in front of the camera) overlaps the rectangle. */
  anyTouches(src: BoxSelectSource, id: number): boolean {
    this.touched = false;
    src.forEachPiece(id, this.touchFn);
    return this.touched;
  }
}

/**
 * True when the 2D triangle (x0 y0 x1 y1 x2 y2 in `t`) overlaps the axis-aligned rectangle (touching
 * counts), by the separating-axis theorem: the rectangle's two axes and the triangle's three edge normals.
 */
export function triangleOverlapsRect(
  t: ArrayLike<number>,
  rx0: number,
  ry0: number,
  rx1: number,
  ry1: number,
): boolean {
  const minX = Math.min(t[0], t[2], t[4]),
    maxX = Math.max(t[0], t[2], t[4]);
  const minY = Math.min(t[1], t[3], t[5]),
    maxY = Math.max(t[1], t[3], t[5]);
  if (maxX < rx0 || minX > rx1 || maxY < ry0 || minY > ry1) return false;
  for (let e = 0; e < 3; e++) {
    const ax = t[e * 2],
      ay = t[e * 2 + 1];
    const bx = t[((e + 1) % 3) * 2],
      by = t[((e + 1) % 3) * 2 + 1];
    const nx = -(by - ay),
      ny = bx - ax; // edge normal
    if (nx === 0 && ny === 0) continue;
    const cx3 = t[((e + 2) % 3) * 2],
      cy3 = t[((e + 2) % 3) * 2 + 1];
    const triSide = nx * (cx3 - ax) + ny * (cy3 - ay);
    // The rectangle is separated when all its corners lie strictly on the side opposite the third vertex.
    let separated = true;
    for (let k = 0; k < 4; k++) {
      // Rectangle corners in the order (x0 y0) (x1 y0) (x1 y1) (x0 y1).
      const d = nx * ((k === 1 || k === 2 ? rx1 : rx0) - ax) + ny * ((k >= 2 ? ry1 : ry0) - ay);
      if (triSide >= 0 ? d >= 0 : d <= 0) {
        separated = false;
        break;
      }
    }
    if (separated && triSide !== 0) return false;
  }
  return true;
}
