/**
 * Box selection (viewer.md §4 "Selection": "A drag box left-to-right selects fully contained entities;
 * right-to-left selects touching ones"). Pure kernels, no three.js, tested in Node:
 * - `boxSelectMode`: the drag direction decides the mode;
 * - `projectToScreen`: world mm → canvas CSS px through a column-major view-projection matrix;
 * - `boxSelect`: a query over the hierarchy of object bounds (./objectBoundsTree.ts): subtrees are decided
 *   on their projected boxes (./screenBoxes.ts), objects straddling the rectangle's edge on their vertices
 *   and triangles (./boxTriangles.ts; inside mode: every vertex inside; touch mode: a triangle overlaps the
 *   rectangle, by the separating-axis test).
 */
import { buildObjectBoundsTree, type ObjectBoundsTree } from './objectBoundsTree';
import { TriangleTest } from './boxTriangles';
import { BoxClass, ScreenBoxClassifier } from './screenBoxes';

export { triangleOverlapsRect } from './boxTriangles';

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
 * With `used` (optional): the triangles use only vertices vertexStart .. vertexEnd − 1, and bit v of `used`
 * (`used[v >> 3] >> (v & 7) & 1`) is set exactly for the vertices of that range a triangle uses — the
 * object's vertices can then be tested without walking its triangles (./boxTriangles.ts).
 */
export interface TrianglePiece {
  positions: ArrayLike<number>;
  indices: ArrayLike<number>;
  start: number;
  end: number;
  origin: ArrayLike<number>;
  step: ArrayLike<number>;
  vertexStart?: number;
  vertexEnd?: number;
  used?: Uint8Array | null;
}

/** The box classifier and the triangle tests' vertex cache, kept between boxes (one box runs at a time). */
let boxClassifier: ScreenBoxClassifier | null = null;
let triangleTest: TriangleTest | null = null;

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
  const classify = (boxClassifier ??= new ScreenBoxClassifier());
  if (tree.nodeCount > 0) classify.reset(view, rx0, ry0, rx1, ry1, margin, boxes, 0);
  while (stack.length > 0) {
    const node = stack.pop() as number;
    const cls = classify.node(boxes, node * 6);
    if (cls === BoxClass.Disjoint) continue;
    if (cls === BoxClass.Contained) {
      for (let k = start[node], e = start[node] + count[node]; k < e; k++)
        if (src.eligible(order[k])) out.push(order[k]);
      continue;
    }
    if (child[node] >= 0) {
      stack.push(child[node], child[node] + 1);
      continue;
    }
    for (let k = start[node], e = start[node] + count[node]; k < e; k++) {
      const id = order[k];
      if (!src.eligible(id)) continue;
      const c = classify.object(b, id * 6);
      if (c === BoxClass.Contained) out.push(id);
      else if (c === BoxClass.Partial) straddling.push(id);
    }
  }
  // Triangles in id order: objects' geometry lies in id order, so this walks memory forward.
  const partial = Int32Array.from(straddling).sort();
  const test = (triangleTest ??= new TriangleTest());
  test.reset(view, rx0, ry0, rx1, ry1);
  for (let k = 0; k < partial.length; k++) {
    const id = partial[k];
    if (mode === 'inside' ? test.allInside(src, id) : test.anyTouches(src, id)) out.push(id);
  }
  return Array.from(Int32Array.from(out).sort());
}
