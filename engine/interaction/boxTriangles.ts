/**
 * The triangle tests of box selection (viewer.md §4 "Selection", ./boxSelect.ts) for objects whose box
 * straddles the rectangle's edge: 'inside' — every vertex of the object's triangles projects inside the
 * rectangle; 'touch' — a triangle with every corner in front of the camera overlaps it (a corner inside,
 * else the separating-axis test `triangleOverlapsRect`).
 */
import type { BoxSelectSource, ScreenProjection, TrianglePiece } from './boxSelect';
import { isAffineView } from './screenBoxes';

/** Outcode bits of a projected vertex against the rectangle (0: inside it, borders included). */
const LEFT = 1,
  RIGHT = 2,
  ABOVE = 4,
  BELOW = 8,
  SIDES = LEFT | RIGHT | ABOVE | BELOW,
  /** Not inside for another reason (a NaN coordinate): not inside, but on no side either. */
  NOWHERE = 16,
  /** Behind the camera (w ≤ 0): its triangles are skipped. */
  BEHIND = 32;

/**
 * Tests straddling objects against one rectangle. Each vertex of a piece is projected once (triangles
 * share their vertices about six times over) into a cache with its outcode, so a triangle is decided by
 * three code lookups — a corner inside, or all corners on one side — and only the rest get the
 * separating-axis test. In an orthographic view every vertex is in front, so a piece that says which
 * vertices its triangles use (TrianglePiece.used) is decided on those vertices alone: one used vertex
 * inside touches (its triangles have that corner inside), all used vertices on one side of the rectangle
 * do not, and 'inside' is every used vertex inside; only the rest walk the triangles. No call or garbage
 * per triangle; the cache grows to the largest piece's vertex array and is reused (a stamp per vertex
 * says which piece projected it). Numeric fields start as NaN, a double, so V8 stores them as doubles from
 * the first box on: a rectangle in fractional pixels after whole ones then keeps the object's layout and the
 * optimised code (./boxWarmUp.ts warms it before the first box).
 */
export class TriangleTest {
  private readonly p = new Float64Array(6);
  private sx = new Float64Array(0);
  private sy = new Float64Array(0);
  private code = new Uint8Array(0);
  private stamp = new Int32Array(0);
  private serial = 0;
  private m: ArrayLike<number> = [];
  private affine = false;
  private w = Number.NaN;
  private h = Number.NaN;
  private x0 = Number.NaN;
  private y0 = Number.NaN;
  private x1 = Number.NaN;
  private y1 = Number.NaN;
  private inside = true;
  private any = false;
  private touched = false;
  // The piece being tested: quantised positions, origin and step per axis.
  private q: ArrayLike<number> = [];
  private ox = Number.NaN;
  private oy = Number.NaN;
  private oz = Number.NaN;
  private kx = Number.NaN;
  private ky = Number.NaN;
  private kz = Number.NaN;
  private readonly insideFn = (piece: TrianglePiece): boolean => {
    const { indices: idx, start, end, used } = piece;
    if (end > start) this.any = true;
    this.begin(piece);
    // Outside: on a side or behind (a NaN coordinate counts as inside, as in projectToScreen's callers).
    const OUT = SIDES | BEHIND;
    if (this.affine && used) {
      for (let v = piece.vertexStart ?? 0, e = piece.vertexEnd ?? 0; v < e; v++)
        if ((used[v >> 3] >> (v & 7)) & 1 && this.project(v) & OUT) return !(this.inside = false);
      return false;
    }
    const code = this.code,
      stamp = this.stamp,
      s = this.serial;
    for (let i = start; i < end; i++) {
      const v = idx[i];
      if ((stamp[v] === s ? code[v] : this.project(v)) & OUT) return !(this.inside = false);
    }
    return false;
  };
  private readonly touchFn = (piece: TrianglePiece): boolean => {
    const { indices: idx, start, end, used } = piece;
    this.begin(piece);
    if (this.affine && used) {
      let all = SIDES;
      for (let v = piece.vertexStart ?? 0, e = piece.vertexEnd ?? 0; v < e; v++) {
        if (!((used[v >> 3] >> (v & 7)) & 1)) continue;
        const c = this.project(v);
        if (c === 0) return (this.touched = true);
        all &= c;
      }
      // Every used vertex beyond one side: no triangle reaches the rectangle.
      if (all & SIDES) return false;
    }
    const code = this.code,
      stamp = this.stamp,
      s = this.serial;
    for (let i = start; i < end; i += 3) {
      const a = idx[i],
        b = idx[i + 1],
        c = idx[i + 2];
      const ca = stamp[a] === s ? code[a] : this.project(a);
      const cb = stamp[b] === s ? code[b] : this.project(b);
      const cc = stamp[c] === s ? code[c] : this.project(c);
      if ((ca | cb | cc) & BEHIND) continue;
      // A corner inside the rectangle overlaps it; corners all on one side of it do not (most of a
      // straddling object's triangles): only the rest need the separating-axis test.
      if (ca === 0 || cb === 0 || cc === 0) return (this.touched = true);
      if (ca & cb & cc & SIDES) continue;
      const p = this.p,
        sx = this.sx,
        sy = this.sy;
      p[0] = sx[a];
      p[1] = sy[a];
      p[2] = sx[b];
      p[3] = sy[b];
      p[4] = sx[c];
      p[5] = sy[c];
      if (triangleOverlapsRect(p, this.x0, this.y0, this.x1, this.y1)) return (this.touched = true);
    }
    return false;
  };

  /** Sets the view and the rectangle (ordered: x0 ≤ x1, y0 ≤ y1; CSS px) of the next tests. */
  reset(view: ScreenProjection, x0: number, y0: number, x1: number, y1: number): void {
    this.m = view.matrix;
    this.affine = isAffineView(view.matrix);
    this.w = view.width;
    this.h = view.height;
    this.x0 = x0;
    this.y0 = y0;
    this.x1 = x1;
    this.y1 = y1;
  }

  /** True when object `id` has triangles and every vertex of them projects inside the rectangle. */
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

  /** Starts a piece: a new cache serial (the cache grown to its vertex array), its dequantisation. */
  private begin(piece: TrianglePiece): void {
    const n = Math.ceil(piece.positions.length / 3);
    if (this.stamp.length < n) {
      const cap = Math.max(n, this.stamp.length * 2);
      this.sx = new Float64Array(cap);
      this.sy = new Float64Array(cap);
      this.code = new Uint8Array(cap);
      this.stamp = new Int32Array(cap);
      this.serial = 0;
    }
    if (this.serial >= 0x7fffffff) {
      this.stamp.fill(0);
      this.serial = 0;
    }
    this.serial++;
    this.q = piece.positions;
    this.ox = piece.origin[0];
    this.oy = piece.origin[1];
    this.oz = piece.origin[2];
    this.kx = piece.step[0];
    this.ky = piece.step[1];
    this.kz = piece.step[2];
  }

  /** Projects vertex `v` of the current piece into the cache (projectToScreen's arithmetic); returns its outcode. */
  private project(v: number): number {
    const q = this.q,
      m = this.m,
      vi = v * 3;
    const x = this.ox + q[vi] * this.kx,
      y = this.oy + q[vi + 1] * this.ky,
      z = this.oz + q[vi + 2] * this.kz;
    const cw = m[3] * x + m[7] * y + m[11] * z + m[15];
    let c = BEHIND;
    if (cw > 0) {
      const sx = (((m[0] * x + m[4] * y + m[8] * z + m[12]) / cw + 1) / 2) * this.w;
      const sy = ((1 - (m[1] * x + m[5] * y + m[9] * z + m[13]) / cw) / 2) * this.h;
      this.sx[v] = sx;
      this.sy[v] = sy;
      c =
        (sx < this.x0 ? LEFT : 0) |
        (sx > this.x1 ? RIGHT : 0) |
        (sy < this.y0 ? ABOVE : 0) |
        (sy > this.y1 ? BELOW : 0);
      if (c === 0 && !(sx >= this.x0 && sx <= this.x1 && sy >= this.y0 && sy <= this.y1)) c = NOWHERE;
    }
    this.code[v] = c;
    this.stamp[v] = this.serial;
    return c;
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
