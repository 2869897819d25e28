/**
 * How world boxes (mm) project against a box-selection rectangle (viewer.md §4 "Selection", ./boxSelect.ts):
 * disjoint from it, contained in it, or straddling its edge. The reference is the screen extent of the
 * box's 8 projected corners (`classifyBox`). For the orbit camera's orthographic view the projection is
 * affine, and `ScreenBoxClassifier` takes a box's extent from its centre and half sizes instead (two dot
 * products and two absolute ones instead of 8 corner projections and divisions), with a bound on the
 * difference in rounding: a box that lies within that bound of a decision falls back to the corners, so
 * the classes are exactly the corners' ones.
 */
import type { ScreenProjection } from './boxSelect';

/** How an object's (or a hierarchy node's) world box projects against the rectangle. */
export const BoxClass = {
  /** A corner is behind the camera: undecided for a node, skipped for an object. */
  Behind: 0,
  Disjoint: 1,
  Contained: 2,
  /** The projected box straddles the rectangle's edge: the triangles decide. */
  Partial: 3,
} as const;
export type BoxClass = (typeof BoxClass)[keyof typeof BoxClass];

/**
 * Classifies the world box at `b[o..o+6)` (min xyz, max xyz) by the screen extent (CSS px) of its 8
 * projected corners against the rectangle [rx0, rx1] × [ry0, ry1] shrunk (Contained) or grown (Disjoint)
 * by `margin` px. A node is decided with a margin so rounding in the projection of its objects' corners
 * cannot flip what they would decide on their own.
 */
export function classifyBox(
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

/** True when every corner of the box at `b[o..o+6)` is in front of the camera by more than rounding. */
export function boxInFront(view: ScreenProjection, b: ArrayLike<number>, o: number): boolean {
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
 * True when the view-projection is affine with w = m[15] > 0 (an orthographic camera): every finite point
 * is in front and projects by a linear map plus an offset.
 */
export function isAffineView(m: ArrayLike<number>): boolean {
  return m[3] === 0 && m[7] === 0 && m[11] === 0 && m[15] > 0 && Number.isFinite(m[15]);
}

/**
 * Classifies boxes against one rectangle in one view: `node` for hierarchy nodes (with the query's margin;
 * Partial means "look inside", so an undecided box may answer Partial), `object` for objects (margin 0;
 * exactly what classifyBox answers). Reused between queries (`reset`), no garbage per box. Numeric fields
 * start as NaN (a double) for the reason given at boxTriangles.ts TriangleTest.
 */
export class ScreenBoxClassifier {
  private view: ScreenProjection = { matrix: [], width: 1, height: 1 };
  private affine = false;
  // Affine screen map: sx = ax·x + bx·y + cx·z + dx, sy = ay·x + by·y + cy·z + dy (CSS px).
  private ax = Number.NaN;
  private bx = Number.NaN;
  private cx = Number.NaN;
  private dx = Number.NaN;
  private ay = Number.NaN;
  private by = Number.NaN;
  private cy = Number.NaN;
  private dy = Number.NaN;
  /** Bound on |affine − corner| screen coordinates for boxes inside the model's extent (px). */
  private err = Number.NaN;
  private rx0 = Number.NaN;
  private ry0 = Number.NaN;
  private rx1 = Number.NaN;
  private ry1 = Number.NaN;
  private margin = Number.NaN;
  // centre()'s answer (no object per box)
  private sx = Number.NaN;
  private sy = Number.NaN;
  private ex = Number.NaN;
  private ey = Number.NaN;

  /**
   * Sets the view, the rectangle (ordered: rx0 ≤ rx1, ry0 ≤ ry1; CSS px), the nodes' margin (px) and the
   * extent every classified box lies in (`extent[eo..eo+6)`, mm: the hierarchy's root box).
   */
  reset(
    view: ScreenProjection,
    rx0: number,
    ry0: number,
    rx1: number,
    ry1: number,
    margin: number,
    extent: ArrayLike<number>,
    eo: number,
  ): void {
    this.view = view;
    this.rx0 = rx0;
    this.ry0 = ry0;
    this.rx1 = rx1;
    this.ry1 = ry1;
    this.margin = margin;
    const m = view.matrix;
    this.affine = isAffineView(m);
    if (!this.affine) return;
    const w = view.width,
      h = view.height,
      cw = m[15];
    this.ax = ((m[0] / cw) * w) / 2;
    this.bx = ((m[4] / cw) * w) / 2;
    this.cx = ((m[8] / cw) * w) / 2;
    this.dx = ((m[12] / cw + 1) * w) / 2;
    this.ay = (-(m[1] / cw) * h) / 2;
    this.by = (-(m[5] / cw) * h) / 2;
    this.cy = (-(m[9] / cw) * h) / 2;
    this.dy = ((1 - m[13] / cw) * h) / 2;
    const X = Math.max(Math.abs(extent[eo]), Math.abs(extent[eo + 3])),
      Y = Math.max(Math.abs(extent[eo + 1]), Math.abs(extent[eo + 4])),
      Z = Math.max(Math.abs(extent[eo + 2]), Math.abs(extent[eo + 5]));
    // Both forms round a few dozen times on terms no larger than these sums: 1e-12 of them is thousands
    // of units in the last place, and still far below a pixel.
    const sx = ((Math.abs(m[0]) * X + Math.abs(m[4]) * Y + Math.abs(m[8]) * Z + Math.abs(m[12])) / cw + 1) * w + w;
    const sy = ((Math.abs(m[1]) * X + Math.abs(m[5]) * Y + Math.abs(m[9]) * Z + Math.abs(m[13])) / cw + 1) * h + h;
    this.err = 1e-12 * Math.max(sx, sy);
    if (!Number.isFinite(this.err)) this.affine = false;
  }

  /**
   * The affine view of the box at `b[o..o+6)`: its centre's screen point (sx, sy) and its half extent on
   * screen (ex, ey), px, before the rounding bound `err`.
   */
  private centre(b: ArrayLike<number>, o: number): void {
    const x0 = b[o],
      y0 = b[o + 1],
      z0 = b[o + 2],
      x1 = b[o + 3],
      y1 = b[o + 4],
      z1 = b[o + 5];
    const mx = (x0 + x1) / 2,
      my = (y0 + y1) / 2,
      mz = (z0 + z1) / 2,
      hx = (x1 - x0) / 2,
      hy = (y1 - y0) / 2,
      hz = (z1 - z0) / 2;
    this.sx = this.ax * mx + this.bx * my + this.cx * mz + this.dx;
    this.sy = this.ay * mx + this.by * my + this.cy * mz + this.dy;
    this.ex = Math.abs(this.ax) * hx + Math.abs(this.bx) * hy + Math.abs(this.cx) * hz;
    this.ey = Math.abs(this.ay) * hx + Math.abs(this.by) * hy + Math.abs(this.cy) * hz;
  }

  /** A hierarchy node's box at `b[o..o+6)`: Disjoint or Contained (with the margin), else Partial. */
  node(b: ArrayLike<number>, o: number): BoxClass {
    if (!this.affine) {
      if (!boxInFront(this.view, b, o)) return BoxClass.Partial;
      const c = classifyBox(this.view, b, o, this.rx0, this.ry0, this.rx1, this.ry1, this.margin);
      return c === BoxClass.Behind ? BoxClass.Partial : c;
    }
    this.centre(b, o);
    const sx = this.sx,
      sy = this.sy,
      ex = this.ex + this.err,
      ey = this.ey + this.err;
    const g = this.margin;
    if (sx + ex < this.rx0 - g || sx - ex > this.rx1 + g || sy + ey < this.ry0 - g || sy - ey > this.ry1 + g)
      return BoxClass.Disjoint;
    if (sx - ex >= this.rx0 + g && sx + ex <= this.rx1 - g && sy - ey >= this.ry0 + g && sy + ey <= this.ry1 - g)
      return BoxClass.Contained;
    return BoxClass.Partial;
  }

  /** An object's box at `b[o..o+6)`: what classifyBox answers with margin 0. */
  object(b: ArrayLike<number>, o: number): BoxClass {
    if (!this.affine) return classifyBox(this.view, b, o, this.rx0, this.ry0, this.rx1, this.ry1, 0);
    this.centre(b, o);
    const sx = this.sx,
      sy = this.sy,
      ex = this.ex,
      ey = this.ey;
    const e = this.err,
      rx0 = this.rx0,
      rx1 = this.rx1,
      ry0 = this.ry0,
      ry1 = this.ry1;
    // The corners' extent lies within [s − ext − e, s + ext + e] and covers [s − ext + e, s + ext − e].
    const ox0 = sx - ex - e,
      ox1 = sx + ex + e,
      oy0 = sy - ey - e,
      oy1 = sy + ey + e;
    if (ox1 < rx0 || ox0 > rx1 || oy1 < ry0 || oy0 > ry1) return BoxClass.Disjoint;
    if (ox0 >= rx0 && ox1 <= rx1 && oy0 >= ry0 && oy1 <= ry1) return BoxClass.Contained;
    const ix0 = sx - ex + e,
      ix1 = sx + ex - e,
      iy0 = sy - ey + e,
      iy1 = sy + ey - e;
    // Surely straddling: the inner extent reaches into the rectangle and out of it.
    if (
      ix0 <= ix1 &&
      iy0 <= iy1 &&
      !(ix1 < rx0 || ix0 > rx1 || iy1 < ry0 || iy0 > ry1) &&
      !(ix0 >= rx0 && ix1 <= rx1 && iy0 >= ry0 && iy1 <= ry1)
    )
      return BoxClass.Partial;
    return classifyBox(this.view, b, o, rx0, ry0, rx1, ry1, 0);
  }
}
