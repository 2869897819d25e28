/**
 * A planar region (polygons: outer ring, then hole rings; xy pairs) clipped to axis-aligned cells without
 * a general polygon boolean (the grid triangulation of curved plates with holes spent
 * most of its time in polygon-clipping for the cells a hole's border crosses).
 *
 * Method (Weiler–Atherton specialised to a rectangle): rings are oriented so that the region lies on
 * their left (outer rings counter-clockwise, holes clockwise); each ring is cut into chains inside the
 * cell (Liang–Barsky per edge); the chains are joined in counter-clockwise order along the cell border,
 * and rings wholly inside the cell become pieces (counter-clockwise) or holes of the piece that holds
 * them (clockwise). Degenerate contacts are settled by symbolic perturbation: the cell is taken as the
 * open rectangle shrunk by an infinitesimal ε, so that a vertex on the border, an edge along it or a hole
 * touching it has a well-defined side, and events at one border point are ordered by their edges'
 * directions; the pieces returned are the limit ε → 0 (their vertices on the exact cell border).
 *
 * The method needs a clean region: rings that do not cross each other or themselves and nest with
 * alternating orientation (what regionPolygons returns: the polygon-clipping difference, or holes
 * strictly inside and disjoint). Anything else — holes overlapping each other or the outline, nested
 * holes, a spike — is detected once per region (and what rounding upsets per cell), the clip then
 * returns null and the caller uses the general boolean.
 */
import { pointInRing, signedArea2d } from './ring2d';

/**
 * Pieces of region ∩ cell, each [outer ring (counter-clockwise), ...hole rings (clockwise)] as xy pairs,
 * in the unit of the input; [] when the cell holds nothing of the region; null when the region is not
 * clean inside the cell (then use a polygon boolean).
 * @param ax, ay, bx, by the cell (ax < bx, ay < by).
 * @param outers optional replacement of each polygon's outer ring (same length as polys): a ring that
 *   equals polys[k][0] inside the cell, e.g. its Sutherland–Hodgman clip to the cell's column (its
 *   bridges along the column's sides lie on the cell border, where they are ignored).
 */
export type CellClip = (ax: number, ay: number, bx: number, by: number, outers?: number[][]) => number[][][] | null;

/** One crossing of the cell border by a ring: side 0 bottom, 1 right, 2 top, 3 left (counter-clockwise). */
interface BorderEvent {
  side: number;
  /** Position along the side in counter-clockwise direction: value, then the coefficient of ε. */
  kv: number;
  ke: number;
  entry: boolean;
  chain: number;
}

/**
 * Prepares the clipping of `polys` (outer − ∪ holes per polygon, union over polygons; rings of xy pairs
 * in any orientation) to cells: orientations and hole bounds are computed once.
 * @returns the clip function for one cell (see CellClip).
 */
export function cellClipper(polys: number[][][]): CellClip {
  const signs = polys.map((p) =>
    p.map((r, k) => (r.length >= 6 ? Math.sign(signedArea2d(r)) * (k === 0 ? 1 : -1) : 0)),
  );
  const boxes = polys.map((p) => p.map(ringBox));
  const clean = regionIsClean(polys, signs, boxes);
  return (ax, ay, bx, by, outers) => {
    if (!(ax < bx && ay < by)) throw new Error(`cellClip: empty cell [${ax}, ${bx}] × [${ay}, ${by}]`);
    if (outers && outers.length !== polys.length)
      throw new Error(`cellClip: ${outers.length} outer rings for ${polys.length} polygons`);
    if (!clean) return null;
    const st: ClipState = { ax, ay, bx, by, chains: [], events: [], closed: [], closedCcw: [], winding: 0 };
    for (let k = 0; k < polys.length; k++)
      for (let h = 0; h < polys[k].length; h++) {
        const sign = signs[k][h];
        if (sign === 0) continue;
        const ring = h === 0 && outers ? outers[k] : polys[k][h];
        const b = boxes[k][h]; // a column clip of the outer ring lies within the outer ring's box
        if (b[2] <= ax || b[0] >= bx || b[3] <= ay || b[1] >= by || ring.length < 6) continue; // misses the open cell
        // sign > 0: the ring as given has the region on its left
        if (!cutRing(st, ring, sign > 0 ? 1 : -1, h === 0 ? 1 : -1)) return null;
      }
    return assemble(st);
  };
}

/**
 * True when the rings of `polys` neither cross nor overlap along a stretch (touching at points is
 * allowed) and nest cleanly: just outside every outer ring the other rings' winding number (outer rings
 * counting +1, holes -1) is 0, just outside every hole it is 1. Then outer − ∪ holes is what the rings
 * bound with the region on their left, which the per-cell method relies on.
 */
function regionIsClean(polys: number[][][], signs: number[][], boxes: number[][][]): boolean {
  const rings: number[][] = [],
    winds: number[] = [],
    rb: number[][] = [];
  polys.forEach((p, k) =>
    p.forEach((r, h) => {
      if (signs[k][h] === 0) return;
      rings.push(r);
      winds.push(h === 0 ? 1 : -1);
      rb.push(boxes[k][h]);
    }),
  );
  if (ringsCross(rings)) return false;
  for (let j = 0; j < rings.length; j++) {
    const r = rings[j],
      px = (r[0] + r[2]) / 2,
      py = (r[1] + r[3]) / 2;
    let w = 0;
    for (let k = 0; k < rings.length; k++) {
      const b = rb[k];
      if (k === j || px < b[0] || px > b[2] || py < b[1] || py > b[3]) continue;
      if (pointInRing(rings[k], px, py)) w += winds[k];
    }
    if (w !== (winds[j] > 0 ? 0 : 1)) return false;
  }
  return true;
}

interface ClipState {
  ax: number;
  ay: number;
  bx: number;
  by: number;
  /** Chains inside the cell, from an entry point to an exit point (xy pairs). */
  chains: number[][];
  events: BorderEvent[];
  /** Rings wholly inside the open cell, oriented with the region on their left. */
  closed: number[][];
  closedCcw: boolean[];
  /** Winding number (region on the left) at the cell's centre of the rings that miss the open cell. */
  winding: number;
}

function ringBox(r: number[]): number[] {
  let a = Infinity,
    b = Infinity,
    c = -Infinity,
    d = -Infinity;
  for (let i = 0; i + 1 < r.length; i += 2) {
    const x = r[i],
      y = r[i + 1];
    if (x < a) a = x;
    if (x > c) c = x;
    if (y < b) b = y;
    if (y > d) d = y;
  }
  return [a, b, c, d];
}

/**
 * Cuts one ring into chains inside the open cell (shrunk by ε). `dir` 1 walks the ring as given, -1
 * reversed, so that the region is on the left; `wind` is +1 for an outer ring, -1 for a hole.
 * @returns false when rounding left a chain without an end (the caller falls back).
 */
function cutRing(st: ClipState, ring: number[], dir: 1 | -1, wind: 1 | -1): boolean {
  const { ax, ay, bx, by } = st;
  const n = ring.length / 2;
  const at = (i: number) => 2 * (dir > 0 ? i % n : n - 1 - (i % n));
  const strictly = (j: number) => ring[j] > ax && ring[j] < bx && ring[j + 1] > ay && ring[j + 1] < by;
  let s = -1;
  for (let i = 0; i < n && s < 0; i++) if (!strictly(at(i))) s = i;
  if (s < 0) {
    // wholly inside: a piece (an outer ring or an island) or a hole
    const r: number[] = [];
    for (let i = 0; i < n; i++) r.push(ring[at(i)], ring[at(i) + 1]);
    st.closed.push(r);
    st.closedCcw.push(wind > 0);
    return true;
  }
  let cur: number[] | null = null;
  let touched = false;
  for (let i = s; i < s + n; i++) {
    const p = at(i),
      q = at(i + 1);
    const px = ring[p],
      py = ring[p + 1],
      qx = ring[q],
      qy = ring[q + 1];
    // the edge's box clear of the open cell (this also settles every edge parallel to a side on or
    // outside that side, so below d = 0 means "inside that side's half-plane")
    if ((px <= ax && qx <= ax) || (px >= bx && qx >= bx) || (py <= ay && qy <= ay) || (py >= by && qy >= by)) continue;
    const pIn = strictly(p),
      qIn = strictly(q);
    const dx = qx - px,
      dy = qy - py;
    // the parameter interval inside, each bound as (value, coefficient of ε) and the side that sets it
    // (-1: the vertex itself); a side's bound is a lower one when its ε coefficient is > 0
    let lv = 0,
      le = 0,
      ls = -1,
      uv = 1,
      ue = 0,
      us = -1;
    for (let side = 0; side < 4; side++) {
      const d = side & 1 ? dx : dy;
      if (d === 0) continue;
      const num = side === 0 ? ay - py : side === 1 ? bx - px : side === 2 ? by - py : ax - px;
      const te = (side === 0 || side === 3 ? 1 : -1) / d;
      const tv = num / d;
      if (te > 0) {
        if (!pIn && (tv > lv || (tv === lv && te > le))) (lv = tv), (le = te), (ls = side);
      } else if (!qIn && (tv < uv || (tv === uv && te < ue))) (uv = tv), (ue = te), (us = side);
    }
    if (!(lv < uv || (lv === uv && le < ue))) continue;
    if ((!pIn && ls < 0) || (!qIn && us < 0)) return false;
    touched = true;
    if (ls >= 0) {
      cur = [];
      pushPoint(st, cur, ls, px, py, dx, dy, lv, true, st.chains.length);
    } else if (!cur) return false;
    if (us >= 0) {
      pushPoint(st, cur, us, px, py, dx, dy, uv, false, st.chains.length);
      st.chains.push(cur);
      cur = null;
    } else cur.push(qx, qy);
  }
  if (cur) return false;
  if (!touched && pointInRing(ring, (ax + bx) / 2, (ay + by) / 2)) st.winding += wind;
  return true;
}

/** Appends the border point of an edge at parameter t on `side` and records its event. */
function pushPoint(
  st: ClipState,
  chain: number[],
  side: number,
  px: number,
  py: number,
  dx: number,
  dy: number,
  t: number,
  entry: boolean,
  id: number,
): void {
  const { ax, ay, bx, by } = st;
  let x: number, y: number;
  if (t === 0) (x = px), (y = py);
  else if (t === 1) (x = px + dx), (y = py + dy);
  else if (side === 0 || side === 2) (x = Math.min(bx, Math.max(ax, px + t * dx))), (y = side === 0 ? ay : by);
  else (y = Math.min(by, Math.max(ay, py + t * dy))), (x = side === 1 ? bx : ax);
  if (t === 0 || t === 1) {
    if (side === 0) y = ay;
    else if (side === 1) x = bx;
    else if (side === 2) y = by;
    else x = ax;
  }
  chain.push(x, y);
  // position along the ε-shrunk side, counter-clockwise, with the ε coefficient from the edge's slope
  let kv: number, ke: number;
  if (side === 0) (kv = x), (ke = dx / dy);
  else if (side === 1) (kv = y), (ke = -dy / dx);
  else if (side === 2) (kv = -x), (ke = dx / dy);
  else (kv = -y), (ke = -dy / dx);
  st.events.push({ side, kv, ke, entry, chain: id });
}

const cmpEvents = (a: BorderEvent, b: BorderEvent) => a.side - b.side || a.kv - b.kv || a.ke - b.ke;

/** Joins the chains along the border, adds the whole cell or the closed rings, checks cleanliness. */
function assemble(st: ClipState): number[][][] | null {
  const { ax, ay, bx, by, chains, events } = st;
  const corners = [bx, ay, bx, by, ax, by, ax, ay]; // the end of each side, counter-clockwise
  const pieces: number[][] = [];
  if (events.length) {
    events.sort(cmpEvents);
    const m = events.length;
    if (m % 2) return null;
    for (let i = 0; i < m; i++) if (events[i].entry === events[(i + 1) % m].entry) return null; // overlapping rings
    const exitAt = new Int32Array(chains.length);
    for (let i = 0; i < m; i++) if (!events[i].entry) exitAt[events[i].chain] = i;
    const used = new Uint8Array(chains.length);
    for (let c0 = 0; c0 < chains.length; c0++) {
      if (used[c0]) continue;
      const ring: number[] = [];
      for (let c = c0; !used[c]; ) {
        used[c] = 1;
        for (const v of chains[c]) ring.push(v);
        const i = exitAt[c],
          ex = events[i],
          en = events[(i + 1) % m];
        if (ex.side !== en.side || i + 1 === m)
          for (let s = ex.side, k = 0; k < 4 && (k === 0 || s !== en.side); s = (s + 1) % 4, k++)
            ring.push(corners[2 * s], corners[2 * s + 1]);
        c = en.chain;
      }
      pieces.push(ring);
    }
  } else if (st.winding === 1) pieces.push([ax, ay, bx, ay, bx, by, ax, by]);
  else if (st.winding !== 0) return null;
  // closed rings: a piece (counter-clockwise) has no region just outside it, a hole has; a hole belongs
  // to the smallest piece around it
  const first = pieces.length;
  const holes: number[][] = [];
  for (let i = 0; i < st.closed.length; i++) (st.closedCcw[i] ? pieces : holes).push(st.closed[i]);
  const all = pieces.concat(holes);
  const owner = new Int32Array(holes.length).fill(-1);
  for (let j = first; j < all.length; j++) {
    const r = all[j],
      px = (r[0] + r[2]) / 2,
      py = (r[1] + r[3]) / 2;
    let w = 0,
      bestArea = Infinity;
    for (let k = 0; k < all.length; k++) {
      if (k === j || !pointInRing(all[k], px, py)) continue;
      w += k < pieces.length ? 1 : -1;
      if (k < pieces.length && j >= pieces.length) {
        const a = Math.abs(signedArea2d(all[k]));
        if (a < bestArea) (bestArea = a), (owner[j - pieces.length] = k);
      }
    }
    if (w !== (j < pieces.length ? 0 : 1)) return null;
  }
  const minArea = 1e-12 * (bx - ax) * (by - ay);
  const out: number[][][] = [];
  const index = new Int32Array(pieces.length).fill(-1);
  for (let k = 0; k < pieces.length; k++) {
    const r = cleanRing(pieces[k], minArea);
    if (r) (index[k] = out.length), out.push([r]);
  }
  for (let h = 0; h < holes.length; h++) {
    const r = cleanRing(holes[h], minArea);
    if (r && owner[h] >= 0 && index[owner[h]] >= 0) out[index[owner[h]]].push(r);
  }
  for (const p of out) if (p.length > 2) p.splice(1, p.length - 1, ...p.slice(1).sort(byFirstPoint));
  return out.sort((a, b) => byFirstPoint(a[0], b[0]));
}

/**
 * The ring without repeated points and without points on a straight line between their neighbours,
 * starting at its lowest point in (x, y) order — the form polygon-clipping gives, so that ear clipping
 * makes the same triangles as with the boolean; null when less than a triangle or minArea is left.
 */
export function cleanRing(r: number[], minArea: number): number[] | null {
  const pts: number[] = [];
  const n = r.length / 2;
  for (let i = 0; i < n; i++) {
    const x = r[2 * i],
      y = r[2 * i + 1];
    let l = pts.length;
    if (l && pts[l - 2] === x && pts[l - 1] === y) continue;
    // drop the last point while it lies on the line from the one before it to this one
    while (l >= 4 && (pts[l - 2] - pts[l - 4]) * (y - pts[l - 3]) === (pts[l - 1] - pts[l - 3]) * (x - pts[l - 4]))
      l -= 2;
    pts.length = l;
    pts.push(x, y);
  }
  // the same across the start of the ring
  for (let changed = true; changed && pts.length >= 6; ) {
    changed = false;
    const l = pts.length;
    if (pts[0] === pts[l - 2] && pts[1] === pts[l - 1]) {
      pts.length = l - 2;
      changed = true;
    } else if (
      (pts[l - 2] - pts[l - 4]) * (pts[1] - pts[l - 3]) ===
      (pts[l - 1] - pts[l - 3]) * (pts[0] - pts[l - 4])
    ) {
      pts.length = l - 2;
      changed = true;
    } else if ((pts[0] - pts[l - 2]) * (pts[3] - pts[l - 1]) === (pts[1] - pts[l - 1]) * (pts[2] - pts[l - 2])) {
      pts.splice(0, 2);
      changed = true;
    }
  }
  if (pts.length < 6 || Math.abs(signedArea2d(pts)) <= minArea) return null;
  let s = 0;
  for (let i = 2; i < pts.length; i += 2) if (pts[i] < pts[s] || (pts[i] === pts[s] && pts[i + 1] < pts[s + 1])) s = i;
  return s ? pts.slice(s).concat(pts.slice(0, s)) : pts;
}

/**
 * A ring (xy pairs) that crosses neither itself nor overlaps itself along a stretch, counter-clockwise
 * and without repeated or collinear points, starting at its lowest point (the form a polygon boolean
 * of it alone gives); null when it crosses itself or less than a triangle is left (then use the boolean).
 */
export function simpleRing(r: number[]): number[] | null {
  if (r.length < 6 || ringsCross([r])) return null;
  let ccw = r;
  if (signedArea2d(r) < 0) {
    ccw = new Array(r.length);
    for (let i = 0, j = r.length - 2; j >= 0; i += 2, j -= 2) {
      ccw[i] = r[j];
      ccw[i + 1] = r[j + 1];
    }
  }
  return cleanRing(ccw, 0);
}

/** Orders rings by their first point, x then y. */
const byFirstPoint = (a: number[], b: number[]) => a[0] - b[0] || a[1] - b[1];

/**
 * True when two edges of the rings (xy pairs, closed implicitly) cross properly or overlap along a
 * stretch (touching at a point is allowed). Edges sorted by their lowest x, so only x-overlapping pairs meet.
 */
export function ringsCross(rings: number[][]): boolean {
  let m = 0;
  for (const r of rings) m += r.length / 2;
  if (m < 2) return false;
  const seg = new Float64Array(4 * m),
    lo = new Float64Array(m);
  let k = 0;
  let x0b = Infinity,
    y0b = Infinity,
    x1b = -Infinity,
    y1b = -Infinity;
  for (const r of rings) {
    const n = r.length / 2;
    for (let i = 0, j = n - 1; i < n; j = i++) {
      const x0 = r[2 * j],
        y0 = r[2 * j + 1],
        x1 = r[2 * i],
        y1 = r[2 * i + 1];
      (seg[4 * k] = x0), (seg[4 * k + 1] = y0), (seg[4 * k + 2] = x1), (seg[4 * k + 3] = y1);
      k++;
      if (x1 < x0b) x0b = x1;
      if (x1 > x1b) x1b = x1;
      if (y1 < y0b) y0b = y1;
      if (y1 > y1b) y1b = y1;
    }
  }
  // swept along the longer side of the rings' box: across a long thin ring most edges overlap
  const ax = y1b - y0b > x1b - x0b ? 1 : 0,
    ox = 1 - ax;
  for (let i = 0; i < m; i++) lo[i] = Math.min(seg[4 * i + ax], seg[4 * i + 2 + ax]);
  const order = new Uint32Array(m);
  for (let i = 0; i < m; i++) order[i] = i;
  order.sort((a, b) => lo[a] - lo[b]);
  for (let a = 0; a < m; a++) {
    const i = order[a];
    const x0 = seg[4 * i],
      y0 = seg[4 * i + 1],
      x1 = seg[4 * i + 2],
      y1 = seg[4 * i + 3];
    const hi = Math.max(seg[4 * i + ax], seg[4 * i + 2 + ax]),
      olo = Math.min(seg[4 * i + ox], seg[4 * i + 2 + ox]),
      ohi = Math.max(seg[4 * i + ox], seg[4 * i + 2 + ox]);
    for (let b = a + 1; b < m; b++) {
      const j = order[b];
      if (lo[j] > hi) break;
      const o0 = seg[4 * j + ox],
        o1 = seg[4 * j + 2 + ox];
      if ((o0 < olo && o1 < olo) || (o0 > ohi && o1 > ohi)) continue;
      if (segmentsCross(x0, y0, x1, y1, seg[4 * j], seg[4 * j + 1], seg[4 * j + 2], seg[4 * j + 3])) return true;
    }
  }
  return false;
}

/** Segments ab and cd cross at an interior point of both, or overlap collinearly along a stretch. */
function segmentsCross(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  dx: number,
  dy: number,
): boolean {
  const d1 = (dx - cx) * (ay - cy) - (dy - cy) * (ax - cx);
  const d2 = (dx - cx) * (by - cy) - (dy - cy) * (bx - cx);
  const d3 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  const d4 = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  if (d1 !== 0 || d2 !== 0 || d3 !== 0 || d4 !== 0) return false;
  // collinear: overlap of positive length along the longer axis
  const useX = Math.abs(bx - ax) + Math.abs(dx - cx) >= Math.abs(by - ay) + Math.abs(dy - cy);
  const [p0, p1] = useX ? [Math.min(ax, bx), Math.max(ax, bx)] : [Math.min(ay, by), Math.max(ay, by)];
  const [q0, q1] = useX ? [Math.min(cx, dx), Math.max(cx, dx)] : [Math.min(cy, dy), Math.max(cy, dy)];
  return Math.min(p1, q1) > Math.max(p0, q0);
}
