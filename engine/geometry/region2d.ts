/**
 * Planar regions: outer loop minus holes, triangulated (OCX_GUIDE §5.2.2 steps 4–5). Holes that cross or
 * touch the boundary, or lie partly outside it (panel holes straddling seams, TC12), are handled with a
 * polygon boolean (polygon-clipping); the result is triangulated with earcut, optionally with interior
 * Steiner points on a grid (for lifting onto curved surfaces, §5.2.3 B). Rings are xy pairs.
 */
import earcut from 'earcut';
import { ccwTriangles } from './sweep';
import { boundaryRings } from './surfaceMesh';
import polygonClipping, { type Polygon, type Ring } from 'polygon-clipping';
import { hypot2 } from './curves';
import { cellClipper, type CellClip } from './cellClip';
import { ringDifference } from './ringDifference';

export { pointInRing, signedArea2d } from './ring2d';
import { pointInRing, signedArea2d } from './ring2d';
import { grown, writeQuad } from './typedBuffers';

/** A triangulated region: 2D vertices, triangles, and the boundary rings as vertex index lists. */
export interface Region2D {
  /** xy pairs. */
  points: Float64Array;
  /** Triangle indices into points/2, counter-clockwise. */
  indices: Uint32Array;
  /** Boundary rings (outer CCW, holes CW) as indices into points/2. */
  rings: number[][];
  /** Area of the region (outer minus holes), in the square of the input unit. */
  area: number;
  /** Indices (into the holes given) of holes the polygon boolean could not cut (regionPolygons). */
  uncut: number[];
  /** Grid cells left out because their boolean failed (triangulateGrid only). */
  lostCells: number;
}

function bbox(r: ArrayLike<number>): [number, number, number, number] {
  let a = Infinity,
    b = Infinity,
    c = -Infinity,
    d = -Infinity;
  for (let i = 0; i + 1 < r.length; i += 2) {
    if (r[i] < a) a = r[i];
    if (r[i + 1] < b) b = r[i + 1];
    if (r[i] > c) c = r[i];
    if (r[i + 1] > d) d = r[i + 1];
  }
  return [a, b, c, d];
}

/** xy pairs as a polygon-clipping ring, snapped to multiples of q when q > 0. */
const toRing = (r: ArrayLike<number>, q = 0): Ring => {
  const out: Ring = [];
  for (let i = 0; i + 1 < r.length; i += 2)
    out.push(q > 0 ? [Math.round(r[i] / q) * q, Math.round(r[i + 1] / q) * q] : [r[i], r[i + 1]]);
  return out;
};

/**
 * outer − ∪ holes as polygons (each: outer ring, then its holes; xy pairs, orientation as given). The
 * common case — holes strictly inside and disjoint — needs no polygon boolean; holes
 * that cross the outline or each other go through polygon-clipping. When the boolean fails on
 * near-degenerate input (vertices a rounding error apart, a hole edge along the outline), it is
 * retried on coordinates snapped to ever coarser grids (at most 1e-5 of the region's size), then hole
 * by hole; a hole that still cannot be cut is kept as a plain hole when it lies inside the outline,
 * else left uncut and its index in `holes` pushed to `uncut` (so that the caller can report it).
 */
export function regionPolygons(outer: number[], holes: number[][], uncut?: number[]): number[][][] {
  const ob = bbox(outer);
  let relevant: number[] = [];
  holes.forEach((h, k) => {
    const hb = bbox(h);
    if (hb[0] < ob[2] && hb[2] > ob[0] && hb[1] < ob[3] && hb[3] > ob[1] && h.length >= 6) relevant.push(k);
  });
  if (relevant.length === 0) return [[outer]];
  let rel = relevant.map((k) => holes[k]);
  if (holesInside(outer, rel)) return [[outer, ...rel]];
  // holes strictly inside and apart from all others stay out of the boolean (its cost grows with the
  // edges it is given) and are added to the piece that holds them afterwards
  const plain: number[][] = [];
  const apart = plainHoles(outer, rel);
  if (apart.length) {
    const keep = new Uint8Array(rel.length);
    for (const i of apart) keep[i] = 1;
    for (const i of apart) plain.push(rel[i]);
    relevant = relevant.filter((_, i) => !keep[i]);
    rel = rel.filter((_, i) => !keep[i]);
  }
  const withPlain = (polys: number[][][]): number[][][] => {
    for (const h of plain) polys.find((p) => pointInRing(p[0], h[0], h[1]))?.push(h);
    return polys;
  };
  // holes crossing the outline, apart from each other: cut without the polygon boolean
  const cut = ringDifference(outer, rel);
  if (cut) return withPlain(cut);
  const scale = 1 + Math.max(Math.abs(ob[0]), Math.abs(ob[1]), Math.abs(ob[2]), Math.abs(ob[3]));
  const asPolys = (res: Polygon[]) => res.map((poly) => poly.map((ring) => ring.slice(0, -1).flat()));
  for (const q of [0, 1e-9 * scale, 1e-7 * scale, 1e-5 * scale]) {
    const res = tryDifference(
      [toRing(outer, q)],
      rel.map((h) => [toRing(h, q)]),
    );
    if (res) return withPlain(asPolys(res));
  }
  // hole by hole on the finest grid that works for each: only the holes the boolean cannot take are lost
  let cur: Polygon[] = [[toRing(outer)]];
  for (let i = 0; i < rel.length; i++) {
    let next: Polygon[] | null = null;
    for (const q of [0, 1e-9 * scale, 1e-7 * scale, 1e-5 * scale]) {
      next = tryDifference(q ? cur.map((p) => p.map((r) => snapRing(r, q))) : cur, [[toRing(rel[i], q)]]);
      if (next) break;
    }
    if (next) cur = next;
    else if (rel[i].every((_, j) => j % 2 === 1 || pointInRing(outer, rel[i][j], rel[i][j + 1]))) plain.push(rel[i]);
    else uncut?.push(relevant[i]);
  }
  return withPlain(asPolys(cur));
}

/** outer − ∪ holes by polygon-clipping, or null when the boolean throws. */
function tryDifference(outer: Polygon | Polygon[], holes: Polygon[]): Polygon[] | null {
  try {
    return polygonClipping.difference(outer as Polygon, ...holes);
  } catch {
    return null;
  }
}

/** A closed ring's vertices snapped to multiples of q. */
function snapRing(r: Ring, q: number): Ring {
  return r.map(([x, y]) => [Math.round(x / q) * q, Math.round(y / q) * q] as [number, number]);
}

/**
 * Computes outer − ∪ holes and triangulates it.
 * @param outer the outer loop (xy pairs, any orientation).
 * @param holes hole loops (xy pairs, any orientation, may cross the outer loop or lie outside it).
 * @param steinerSpacing when > 0, interior grid points at this spacing are added (at most maxSteiner).
 * @returns the region; an empty region (no triangles) when nothing is left.
 */
export function triangulateRegion(outer: number[], holes: number[][], steinerSpacing = 0, maxSteiner = 4000): Region2D {
  const uncut: number[] = [];
  const polys = regionPolygons(outer, holes, uncut);
  const pts: number[] = [];
  const idx: number[] = [];
  const rings: number[][] = [];
  let area = 0;
  for (const poly of polys) {
    const base = pts.length / 2;
    const flat: number[] = [];
    const holeStarts: number[] = [];
    poly.forEach((ring, k) => {
      let r = ring;
      const a = signedArea2d(r);
      if ((k === 0 && a < 0) || (k > 0 && a > 0)) r = reverse2d(r);
      area += k === 0 ? Math.abs(a) : -Math.abs(a);
      if (k > 0) holeStarts.push(flat.length / 2);
      const start = base + flat.length / 2;
      rings.push(Array.from({ length: r.length / 2 }, (_, i) => start + i));
      for (const v of r) flat.push(v);
    });
    if (steinerSpacing > 0) {
      const b = bbox(poly[0]);
      let sp = steinerSpacing;
      while (((b[2] - b[0]) / sp) * ((b[3] - b[1]) / sp) > maxSteiner) sp *= 1.5;
      for (let x = b[0] + sp / 2; x < b[2]; x += sp)
        for (let y = b[1] + sp / 2; y < b[3]; y += sp) {
          if (!pointInRing(poly[0], x, y)) continue;
          let inHole = false;
          for (let k = 1; k < poly.length && !inHole; k++) inHole = pointInRing(poly[k], x, y);
          if (inHole || nearRing(poly, x, y, sp * 0.3)) continue;
          holeStarts.push(flat.length / 2);
          flat.push(x, y);
        }
    }
    const tri = ccwTriangles(flat, earcut(flat, holeStarts, 2));
    for (const t of tri) idx.push(base + t);
    for (const v of flat) pts.push(v);
  }
  return { points: Float64Array.from(pts), indices: Uint32Array.from(idx), rings, area, uncut, lostCells: 0 };
}

/**
 * True when every hole lies strictly inside the outer ring (its first vertex inside, no edge crossing
 * the outer ring) and the holes' bounding boxes are pairwise disjoint: then outer − ∪ holes is the
 * polygon with those holes as they are. Rings are flat xy pairs (not closed), any orientation.
 */
export function holesInside(outer: number[], holes: number[][]): boolean {
  const boxes = holes.map(bbox);
  for (let i = 0; i < holes.length; i++)
    for (let j = i + 1; j < holes.length; j++) if (boxesMeet(boxes[i], boxes[j])) return false;
  for (let h = 0; h < holes.length; h++) if (!ringInside(outer, holes[h], boxes[h])) return false;
  return true;
}

/** True when boxes [x0, y0, x1, y1] a and b overlap or touch. */
function boxesMeet(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

/** True when ring r (box hb) lies strictly inside the outer ring: its first vertex inside, no edge of it touching the outer ring. */
function ringInside(outer: number[], r: number[], hb: ArrayLike<number>): boolean {
  const n = outer.length / 2,
    m = r.length / 2;
  if (!pointInRing(outer, r[0], r[1])) return false;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const ax = outer[2 * j],
      ay = outer[2 * j + 1],
      bx = outer[2 * i],
      by = outer[2 * i + 1];
    if (Math.max(ax, bx) < hb[0] || Math.min(ax, bx) > hb[2] || Math.max(ay, by) < hb[1] || Math.min(ay, by) > hb[3])
      continue;
    for (let k = 0, l = m - 1; k < m; l = k++)
      if (segmentsTouch(ax, ay, bx, by, r[2 * l], r[2 * l + 1], r[2 * k], r[2 * k + 1])) return false;
  }
  return true;
}

/**
 * The indices (into holes) of the holes that lie strictly inside the outer ring and whose boxes meet no
 * other hole's: each is a hole of the region as it is, whatever the polygon boolean does with the others.
 */
function plainHoles(outer: number[], holes: number[][]): number[] {
  const boxes = holes.map(bbox);
  const out: number[] = [];
  for (let i = 0; i < holes.length; i++) {
    let apart = true;
    for (let j = 0; j < holes.length && apart; j++) apart = j === i || !boxesMeet(boxes[i], boxes[j]);
    if (apart && ringInside(outer, holes[i], boxes[i])) out.push(i);
  }
  return out;
}

/** True when segments ab and cd intersect or touch. */
function segmentsTouch(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  dx: number,
  dy: number,
): boolean {
  const d1 = orient(cx, cy, dx, dy, ax, ay),
    d2 = orient(cx, cy, dx, dy, bx, by),
    d3 = orient(ax, ay, bx, by, cx, cy),
    d4 = orient(ax, ay, bx, by, dx, dy);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  return (
    onSegment(cx, cy, dx, dy, ax, ay, d1) ||
    onSegment(cx, cy, dx, dy, bx, by, d2) ||
    onSegment(ax, ay, bx, by, cx, cy, d3) ||
    onSegment(ax, ay, bx, by, dx, dy, d4)
  );
}

// Module functions, not closures made at each call: segmentsTouch runs for every pair of ring edges a
// hole test meets.
/** Twice the signed area of triangle (p, q, r): > 0 when r lies left of p→q. */
function orient(px: number, py: number, qx: number, qy: number, rx: number, ry: number): number {
  return (qx - px) * (ry - py) - (qy - py) * (rx - px);
}

/** True when r, collinear with p and q (`d` = orient(p, q, r) is 0), lies within the segment's box. */
function onSegment(px: number, py: number, qx: number, qy: number, rx: number, ry: number, d: number): boolean {
  return (
    d === 0 && Math.min(px, qx) <= rx && rx <= Math.max(px, qx) && Math.min(py, qy) <= ry && ry <= Math.max(py, qy)
  );
}

function nearRing(poly: number[][], x: number, y: number, d: number): boolean {
  for (const r of poly) {
    const n = r.length / 2;
    for (let i = 0, j = n - 1; i < n; j = i++) {
      const ax = r[2 * j],
        ay = r[2 * j + 1],
        bx = r[2 * i],
        by = r[2 * i + 1];
      const dx = bx - ax,
        dy = by - ay,
        l2 = dx * dx + dy * dy;
      let s = l2 > 0 ? ((x - ax) * dx + (y - ay) * dy) / l2 : 0;
      s = Math.max(0, Math.min(1, s));
      if (hypot2(x - ax - s * dx, y - ay - s * dy) < d) return true;
    }
  }
  return false;
}

/**
 * Most cells of one triangulateGrid call (4 Mi: 8 MB of cell flags). A region's box this much larger than
 * its cells is no real plate (a 100 m square at 50 mm cells is 4 Mi cells) but an absurd coordinate; without
 * the bound one cell array would take gigabytes and the cell loop minutes.
 */
export const MAX_GRID_CELLS = 1 << 22;

/**
 * Most boundary-clip steps of one triangulateGrid call: (columns + rows) × boundary points, since each
 * column clips the whole boundary to its strip and each boundary cell clips its column's strip (about 10⁸ simple steps, ~1 s). Real plates stay far below it
 * (a 5,000-point outline over 500 rows is 2.5·10⁶); a 65,000-point ring of an absurd 10⁹ mm outline over
 * millions of rows would take hours.
 */
export const MAX_GRID_WORK = 1 << 27;

/**
 * The cell size (mm, or any one unit) for a region whose box is w × h with `points` boundary points:
 * `cell`, or larger when the grid would have more than MAX_GRID_CELLS cells or more than MAX_GRID_WORK
 * clip steps (also for a long thin box, whose cells then run along its length).
 */
export function gridCell(w: number, h: number, cell: number, points: number): number {
  const cols = (c: number) => Math.max(1, Math.ceil(w / c)),
    rows = (c: number) => Math.max(1, Math.ceil(h / c));
  const tooMany = (c: number) => cols(c) * rows(c) > MAX_GRID_CELLS || (cols(c) + rows(c)) * points > MAX_GRID_WORK;
  if (!tooMany(cell)) return cell;
  let c = Math.max(cell, Math.sqrt((w * h) / MAX_GRID_CELLS), ((w + h) * points) / MAX_GRID_WORK);
  while (tooMany(c)) c *= 1.25;
  return c;
}

/**
 * Scratch of triangulateGrid (not re-entered): cell corner points and triangle corners before welding,
 * kept from call to call (a boundary-heavy grid pushed into fresh arrays was a tenth of a small file's
 * garbage) and grown as needed.
 */
let GRID_PTS: Float64Array = new Float64Array(1 << 12);
let GRID_IDX: Uint32Array = new Uint32Array(1 << 12);
/** Entries of either scratch kept after a call (8 MB of points); a larger one is dropped. */
const KEEP_GRID = 1 << 20;

/** The four edge neighbours of a grid cell, (dx, dy) pairs. */
const NEIGHBOURS = [1, 0, -1, 0, 0, 1, 0, -1];

/**
 * Triangulates outer − ∪ holes on a regular grid of square cells of size `cell` (well-shaped triangles
 * for lifting onto curved surfaces; ear clipping with Steiner points gives slivers whose lifted area is
 * wrong): inside cells become two triangles, boundary cells are clipped with the region (cellClip.ts;
 * polygon-clipping only when the region's rings cross) and ear-clipped.
 * Vertices are welded, so rings are the true boundary (edges used by one triangle).
 */
export function triangulateGrid(outer: number[], holes: number[][], cell: number): Region2D {
  const uncut: number[] = [];
  const polys = regionPolygons(outer, holes, uncut);
  let lostCells = 0;
  let area = 0;
  for (const p of polys) for (let k = 0; k < p.length; k++) area += (k === 0 ? 1 : -1) * Math.abs(signedArea2d(p[k]));
  const [x0, y0, x1, y1] = bbox(outer);
  let points = outer.length / 2;
  for (const h of holes) points += h.length / 2;
  cell = gridCell(x1 - x0, y1 - y0, cell, points);
  const nx = Math.max(1, Math.ceil((x1 - x0) / cell)),
    ny = Math.max(1, Math.ceil((y1 - y0) / cell));
  // cells a boundary edge touches (one byte per cell: no boxed keys)
  const touched = new Uint8Array(nx * ny);
  for (const poly of polys)
    for (const r of poly) {
      const n = r.length / 2;
      for (let i = 0, j = n - 1; i < n; j = i++) {
        const ex0 = Math.min(r[2 * i], r[2 * j]),
          ex1 = Math.max(r[2 * i], r[2 * j]),
          ey0 = Math.min(r[2 * i + 1], r[2 * j + 1]),
          ey1 = Math.max(r[2 * i + 1], r[2 * j + 1]);
        for (
          let cx = Math.max(0, Math.floor((ex0 - x0) / cell));
          cx <= Math.min(nx - 1, Math.floor((ex1 - x0) / cell));
          cx++
        )
          for (
            let cy = Math.max(0, Math.floor((ey0 - y0) / cell));
            cy <= Math.min(ny - 1, Math.floor((ey1 - y0) / cell));
            cy++
          )
            touched[cx * ny + cy] = 1;
      }
    }
  const inRegion = (x: number, y: number) => {
    for (const p of polys) {
      if (!pointInRing(p[0], x, y)) continue;
      let inHole = false;
      for (let h = 1; h < p.length && !inHole; h++) inHole = pointInRing(p[h], x, y);
      if (!inHole) return true;
    }
    return false;
  };
  // corner points (xy pairs) and triangle corners before welding, in the reused scratch
  let pts = GRID_PTS,
    idx = GRID_IDX,
    np = 0,
    ni = 0;
  // cells no boundary edge touches are wholly inside or outside: one point test per connected group of
  // them (flood fill) instead of one per cell
  const inside = new Int8Array(nx * ny); // 0 unknown, 1 inside, -1 outside
  const stack: number[] = [];
  for (let c0 = 0; c0 < nx * ny; c0++) {
    const gx = Math.floor(c0 / ny),
      gy = c0 % ny;
    if (inside[c0] !== 0 || touched[gx * ny + gy]) continue;
    const v = inRegion(x0 + (gx + 0.5) * cell, y0 + (gy + 0.5) * cell) ? 1 : -1;
    inside[c0] = v;
    stack.push(c0);
    while (stack.length) {
      const c = stack.pop()!,
        cx = Math.floor(c / ny),
        cy = c % ny;
      for (let q = 0; q < 4; q++) {
        const ex = cx + NEIGHBOURS[2 * q],
          ey = cy + NEIGHBOURS[2 * q + 1];
        if (ex < 0 || ey < 0 || ex >= nx || ey >= ny) continue;
        const e = ex * ny + ey;
        if (inside[e] !== 0 || touched[e]) continue;
        inside[e] = v;
        stack.push(e);
      }
    }
  }
  // each outer ring clipped to the cell's column once, then per cell only to its rows (the full-box
  // clip per cell was quadratic in the outline's length)
  const holeBoxes = polys.map((p) => p.map(bbox));
  let strips: number[][] = [];
  let stripCol = -1;
  let wideStrips: number[][] = []; // the outer rings clipped to the column widened by the window margin
  let wideCol = -1;
  let clip: CellClip | null = null; // for cells a hole's border crosses (made on first use)
  for (let cx = 0; cx < nx; cx++)
    for (let cy = 0; cy < ny; cy++) {
      const ax = x0 + cx * cell,
        ay = y0 + cy * cell,
        bx = Math.min(x1, ax + cell),
        by = Math.min(y1, ay + cell);
      if (!touched[cx * ny + cy]) {
        if (inside[cx * ny + cy] !== 1) continue;
        if (np + 8 > pts.length) pts = GRID_PTS = grown(pts, Math.max(np + 8, 2 * pts.length));
        if (ni + 6 > idx.length) idx = GRID_IDX = grown(idx, Math.max(ni + 6, 2 * idx.length));
        const k = np / 2;
        pts[np] = ax;
        pts[np + 1] = ay;
        pts[np + 2] = bx;
        pts[np + 3] = ay;
        pts[np + 4] = bx;
        pts[np + 5] = by;
        pts[np + 6] = ax;
        pts[np + 7] = by;
        np += 8;
        writeQuad(idx, ni, k);
        ni += 6;
        continue;
      }
      if (stripCol !== cx) {
        strips = polys.map((p) => clipRingAxis(p[0], 0, ax, bx));
        stripCol = cx;
      }
      let pieces: number[][][] | null =
        fastCellPieces(polys, strips, holeBoxes, ax, ay, bx, by) ??
        (clip ??= cellClipper(polys))(ax, ay, bx, by, strips);
      if (!pieces) {
        // the region is not clean (rings crossing, from regionPolygons' fallback): the polygon boolean
        try {
          // the region cut to a window slightly larger than the cell first (Sutherland–Hodgman, exact
          // inside the window; its bridging edges lie on the window, outside the cell), so that the
          // boolean only sees a few local edges instead of the whole outline
          const m = cell * 0.01;
          const wx0 = ax - m,
            wy0 = ay - m,
            wx1 = bx + m,
            wy1 = by + m;
          if (wideCol !== cx) {
            wideStrips = polys.map((p) => clipRingAxis(p[0], 0, wx0, wx1));
            wideCol = cx;
          }
          const local: Polygon[] = [];
          for (let k = 0; k < polys.length; k++) {
            const p = polys[k];
            const o = clipRingAxis(wideStrips[k], 1, wy0, wy1); // = clipRingToBox(p[0], window)
            if (o.length < 6) continue;
            const lp: Ring[] = [toRing(o)];
            for (let h = 1; h < p.length; h++) {
              // what clipRingToBox(p[h], window) gives, without clipping: nothing for a hole clear of
              // the window, the ring itself for a hole within it
              const [hx0, hy0, hx1, hy1] = holeBoxes[k][h];
              const gap = 1e-6 * (1 + Math.abs(wx0) + Math.abs(wx1) + Math.abs(wy0) + Math.abs(wy1));
              if (hx1 < wx0 || hx0 > wx1 || hy1 < wy0 - gap || hy0 > wy1 + gap) continue;
              const hr =
                hx0 >= wx0 && hx1 <= wx1 && hy0 >= wy0 && hy1 <= wy1
                  ? p[h].length >= 6
                    ? p[h]
                    : []
                  : clipRingToBox(p[h], wx0, wy0, wx1, wy1);
              if (hr.length >= 6) lp.push(toRing(hr));
            }
            local.push(lp);
          }
          if (!local.length) continue;
          pieces = polygonClipping
            .intersection(
              [
                [
                  [ax, ay],
                  [bx, ay],
                  [bx, by],
                  [ax, by],
                ],
              ],
              local,
            )
            .map((pp) => pp.map((ring) => ring.slice(0, -1).flat()));
        } catch {
          lostCells++;
          continue;
        }
      }
      for (const piece of pieces) {
        const flat: number[] = [],
          starts: number[] = [];
        piece.forEach((r, k) => {
          if (k > 0) starts.push(flat.length / 2);
          for (const v of r) flat.push(v);
        });
        const k = np / 2;
        const tri = ccwTriangles(flat, earcut(flat, starts, 2));
        if (ni + tri.length > idx.length) idx = GRID_IDX = grown(idx, Math.max(ni + tri.length, 2 * idx.length));
        for (const t of tri) idx[ni++] = k + t;
        if (np + flat.length > pts.length) pts = GRID_PTS = grown(pts, Math.max(np + flat.length, 2 * pts.length));
        for (const v of flat) pts[np++] = v;
      }
    }
  // weld shared vertices (numbered in order of first occurrence); welded points and triangles are
  // written over the scratch's own prefix: the nth welded point or triangle never runs ahead of the nth read
  const map = new PointKeyMap(np / 2);
  let nw = 0;
  const remap = new Uint32Array(np / 2);
  for (let i = 0; i < np / 2; i++) {
    const x = pts[2 * i],
      y = pts[2 * i + 1];
    const v = map.slot(pointKey(x, y), nw / 2);
    if (v === nw / 2) {
      pts[nw++] = x;
      pts[nw++] = y;
    }
    remap[i] = v;
  }
  let nt = 0;
  for (let t = 0; t < ni; t += 3) {
    const a = remap[idx[t]],
      b = remap[idx[t + 1]],
      c = remap[idx[t + 2]];
    if (a !== b && b !== c && a !== c) {
      idx[nt++] = a;
      idx[nt++] = b;
      idx[nt++] = c;
    }
  }
  const indices = idx.slice(0, nt);
  const welded = pts.slice(0, nw);
  // an absurd grid's scratch is not kept for the rest of the thread's life
  if (GRID_PTS.length > KEEP_GRID) GRID_PTS = new Float64Array(1 << 12);
  if (GRID_IDX.length > KEEP_GRID) GRID_IDX = new Uint32Array(1 << 12);
  let rings: number[][] | undefined;
  return {
    points: welded,
    indices,
    // found when first asked for (a caller that welds the grid further finds its own)
    get rings() {
      rings ??= boundaryRings(indices);
      return rings;
    },
    area,
    uncut,
    lostCells,
  };
}

/**
 * The pieces of region ∩ cell without a polygon boolean, when no hole crosses the cell's border: each
 * outer ring clipped to the cell (Sutherland–Hodgman; a concave outline gives zero-width bridges along
 * the cell border, which ear clipping tolerates and which carry no area) with the holes that lie wholly
 * inside the cell. Null when a hole crosses the cell border (the caller then uses the boolean).
 */
function fastCellPieces(
  polys: number[][][],
  strips: number[][],
  holeBoxes: number[][][],
  ax: number,
  ay: number,
  bx: number,
  by: number,
): number[][][] | null {
  const out: number[][][] = [];
  for (let k = 0; k < polys.length; k++) {
    const p = polys[k];
    let holes: number[][] | null = null;
    for (let h = 1; h < p.length; h++) {
      const [hx0, hy0, hx1, hy1] = holeBoxes[k][h];
      if (hx1 <= ax || hx0 >= bx || hy1 <= ay || hy0 >= by) continue; // misses the cell
      if (hx0 > ax && hx1 < bx && hy0 > ay && hy1 < by) (holes ??= []).push(p[h]);
      else return null;
    }
    const o = clipRingAxis(strips[k], 1, ay, by);
    if (o.length >= 6 && Math.abs(signedArea2d(o)) > 1e-9) out.push(holes ? [o, ...holes] : [o]);
  }
  return out;
}

/**
 * Sutherland–Hodgman clip of a ring (xy pairs, any orientation, may be concave) to an axis-aligned box:
 * the result covers exactly ring ∩ box, with zero-width bridges along the box edges where the
 * intersection has several pieces. Empty when the ring misses the box.
 */
export function clipRingToBox(ring: number[], x0: number, y0: number, x1: number, y1: number): number[] {
  return clipRingAxis(clipRingAxis(ring, 0, x0, x1), 1, y0, y1);
}

/** Sutherland–Hodgman clip of a ring to the slab lo ≤ coordinate `axis` (0 = x, 1 = y) ≤ hi; [] when less than a triangle is left. */
function clipRingAxis(ring: number[], axis: 0 | 1, lo: number, hi: number): number[] {
  if (ring.length < 6) return [];
  const o = axis,
    q = 1 - axis;
  // the lo side into the reused scratch (each vertex gives at most itself and one crossing), then the
  // hi side from it into the result: one fresh array per clip instead of two
  if (CLIP_MID.length < 2 * ring.length) CLIP_MID = new Float64Array(4 * ring.length);
  const mid = CLIP_MID;
  if (mid.length > KEEP_GRID) CLIP_MID = new Float64Array(1 << 10); // an absurd ring's scratch is not kept
  let m = 0;
  {
    const n = ring.length / 2;
    let pa = ring[2 * (n - 1) + o],
      pb = ring[2 * (n - 1) + q];
    let pin = pa >= lo;
    for (let i = 0; i < n; i++) {
      const qa = ring[2 * i + o],
        qb = ring[2 * i + q];
      const qin = qa >= lo;
      if (pin !== qin) {
        const t = (lo - pa) / (qa - pa);
        if (o === 0) {
          mid[m++] = lo;
          mid[m++] = pb + t * (qb - pb);
        } else {
          mid[m++] = pb + t * (qb - pb);
          mid[m++] = lo;
        }
      }
      if (qin) {
        mid[m++] = ring[2 * i];
        mid[m++] = ring[2 * i + 1];
      }
      pa = qa;
      pb = qb;
      pin = qin;
    }
  }
  if (m < 6) return [];
  const out: number[] = [];
  const n = m / 2;
  let pa = mid[2 * (n - 1) + o],
    pb = mid[2 * (n - 1) + q];
  let pin = pa <= hi;
  for (let i = 0; i < n; i++) {
    const qa = mid[2 * i + o],
      qb = mid[2 * i + q];
    const qin = qa <= hi;
    if (pin !== qin) {
      const t = (hi - pa) / (qa - pa);
      if (o === 0) out.push(hi, pb + t * (qb - pb));
      else out.push(pb + t * (qb - pb), hi);
    }
    if (qin) out.push(mid[2 * i], mid[2 * i + 1]);
    pa = qa;
    pb = qb;
    pin = qin;
  }
  return out.length >= 6 ? out : [];
}

/** clipRingAxis's scratch for the ring clipped on its lo side (not re-entered), grown as needed. */
let CLIP_MID = new Float64Array(1 << 10);

/**
 * A numeric key of a 2D point quantised to 0.01 mm, for welding without string keys:
 * exact integers below 2^52 for |x|, |y| < 335 m (plate-local coordinates).
 */
export function pointKey(x: number, y: number): number {
  return (Math.round(x * 100) + 33554432) * 67108864 + (Math.round(y * 100) + 33554432);
}

/**
 * The vertex numbers of pointKey values: an open-addressing table of float64 keys (a Map with such keys
 * boxes each one). Keys compare as a Map's would (SameValueZero; NaN is one key).
 */
class PointKeyMap {
  private readonly keys: Float64Array;
  private readonly vals: Int32Array;
  private readonly mask: number;
  private nanVal = -1;

  /** @param maxKeys upper bound of distinct keys. */
  constructor(maxKeys: number) {
    let cap = 16;
    while (cap < 2 * maxKeys) cap *= 2;
    this.keys = new Float64Array(cap);
    this.vals = new Int32Array(cap).fill(-1);
    this.mask = cap - 1;
  }

  /** The value of `key`; when absent, `fresh` is stored and returned. */
  slot(key: number, fresh: number): number {
    if (key !== key) {
      if (this.nanVal < 0) this.nanVal = fresh;
      return this.nanVal;
    }
    let h = Math.imul((key % 2147483647) | 0, 0x9e3779b1) & this.mask;
    for (;;) {
      const v = this.vals[h];
      if (v < 0) {
        this.keys[h] = key;
        this.vals[h] = fresh;
        return fresh;
      }
      if (this.keys[h] === key) return v;
      h = (h + 1) & this.mask;
    }
  }
}

/** Reverses a ring of xy pairs. */
export function reverse2d(r: number[]): number[] {
  const out: number[] = [];
  for (let i = r.length - 2; i >= 0; i -= 2) out.push(r[i], r[i + 1]);
  return out;
}
