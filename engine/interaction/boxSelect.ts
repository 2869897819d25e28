/**
 * Box selection (viewer.md §4 "Selection": "A drag box left-to-right selects fully contained entities;
 * right-to-left selects touching ones"). Pure kernels, no three.js, tested in Node:
 * - `boxSelectMode`: the drag direction decides the mode;
 * - `projectToScreen`: world mm → canvas CSS px through a column-major view-projection matrix;
 * - `boxSelect`: tests every eligible object first on its projected bounds (8 corners) and only when that
 *   is inconclusive on its triangles (inside mode: every vertex inside; touch mode: a triangle overlaps the
 *   rectangle, by the separating-axis test).
 */

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
   * Calls `fn` with world xyz (mm) of each triangle's corners of object `id` (9 values in `tri`); stops when
   * `fn` returns true.
   */
  forEachTriangle(id: number, fn: (tri: Float64Array) => boolean): void;
}

/**
 * Object ids selected by a screen rectangle, ascending.
 * @throws Error when the rectangle or the canvas size is not finite/positive.
 */
export function boxSelect(
  src: BoxSelectSource,
  rect: ScreenRect,
  mode: BoxSelectMode,
  view: ScreenProjection,
): number[] {
  for (const v of [rect.x0, rect.y0, rect.x1, rect.y1])
    if (!Number.isFinite(v)) throw new Error('boxSelect: rectangle is not finite');
  if (!(view.width > 0 && view.height > 0))
    throw new Error(`boxSelect: canvas size ${view.width}×${view.height} is not positive`);
  const rx0 = Math.min(rect.x0, rect.x1),
    rx1 = Math.max(rect.x0, rect.x1);
  const ry0 = Math.min(rect.y0, rect.y1),
    ry1 = Math.max(rect.y0, rect.y1);
  const out: number[] = [];
  const s = new Float64Array(2);
  const b = src.bounds;
  for (let id = 0; id < src.objectCount; id++) {
    const o = id * 6;
    if (!(b[o] <= b[o + 3]) || !src.eligible(id)) continue;
    // Screen extent of the 8 corners of the world box (contains the object's projection).
    let sx0 = Infinity,
      sy0 = Infinity,
      sx1 = -Infinity,
      sy1 = -Infinity,
      behind = false;
    for (let c = 0; c < 8; c++) {
      if (!projectToScreen(view, b[o + (c & 1 ? 3 : 0)], b[o + (c & 2 ? 4 : 1)], b[o + (c & 4 ? 5 : 2)], s)) {
        behind = true;
        break;
      }
      if (s[0] < sx0) sx0 = s[0];
      if (s[0] > sx1) sx1 = s[0];
      if (s[1] < sy0) sy0 = s[1];
      if (s[1] > sy1) sy1 = s[1];
    }
    if (behind) continue;
    if (sx1 < rx0 || sx0 > rx1 || sy1 < ry0 || sy0 > ry1) continue; // disjoint
    const contained = sx0 >= rx0 && sx1 <= rx1 && sy0 >= ry0 && sy1 <= ry1;
    if (contained) {
      out.push(id);
      continue;
    }
    if (
      mode === 'inside'
        ? allVerticesInside(src, id, view, rx0, ry0, rx1, ry1)
        : anyTriangleTouches(src, id, view, rx0, ry0, rx1, ry1)
    )
      out.push(id);
  }
  return out;
}

function allVerticesInside(
  src: BoxSelectSource,
  id: number,
  view: ScreenProjection,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
): boolean {
  const s = new Float64Array(2);
  let inside = true,
    any = false;
  src.forEachTriangle(id, (t) => {
    any = true;
    for (let k = 0; k < 9; k += 3) {
      if (!projectToScreen(view, t[k], t[k + 1], t[k + 2], s) || s[0] < x0 || s[0] > x1 || s[1] < y0 || s[1] > y1) {
        inside = false;
        return true;
      }
    }
    return false;
  });
  return inside && any;
}

function anyTriangleTouches(
  src: BoxSelectSource,
  id: number,
  view: ScreenProjection,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
): boolean {
  const s = new Float64Array(2);
  const p = new Float64Array(6);
  let touched = false;
  src.forEachTriangle(id, (t) => {
    for (let k = 0; k < 3; k++) {
      if (!projectToScreen(view, t[k * 3], t[k * 3 + 1], t[k * 3 + 2], s)) return false;
      p[k * 2] = s[0];
      p[k * 2 + 1] = s[1];
    }
    if (triangleOverlapsRect(p, x0, y0, x1, y1)) touched = true;
    return touched;
  });
  return touched;
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
  const cx = [rx0, rx1, rx1, rx0],
    cy = [ry0, ry0, ry1, ry1];
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
      const d = nx * (cx[k] - ax) + ny * (cy[k] - ay);
      if (triSide >= 0 ? d >= 0 : d <= 0) {
        separated = false;
        break;
      }
    }
    if (separated && triSide !== 0) return false;
  }
  return true;
}
