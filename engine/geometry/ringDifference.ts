/**
 * outer − ∪ holes for one simple outer ring and holes that cross it (OCX_GUIDE §5.2.2 step 4: panel holes
 * straddling a plate's seam or corner), without a general polygon boolean. polygon-clipping's sweep costs
 * a tenth of a millisecond per call and more when it throws on a hole vertex lying on the outline (then
 * it is retried on snapped coordinates); this is the bulk of the cutting on plates with such holes.
 *
 * Method (Weiler–Atherton): the outer ring counter-clockwise and the holes clockwise, so that the result
 * lies on the left of every ring; each crossing of an outer edge with a hole edge is inserted into both
 * rings, and the result's boundary is walked from crossing to crossing, at each one continuing along
 * the ring that enters the other's side. Degenerate contacts (a hole vertex on the outline, edges along
 * each other, shared vertices) are settled by symbolic perturbation: every hole is taken as moved by
 * ε·(1, D) with D irrational, so that no vertex lies on another ring's edge and crossings at one point
 * have a well-defined order; the rings returned are the limit ε → 0 (zero-width slivers and spikes of
 * that limit are dropped by the clean-up). Input outside what the method takes — a ring that crosses
 * itself, holes whose boxes meet, a hole inside the outline that touches it, rounding that leaves the
 * crossings inconsistent — gives null, and the caller uses the polygon boolean.
 */
import { cleanRing, ringsCross } from './cellClip';
import { pointInRing, signedArea2d } from './ring2d';

/** Slope of the perturbation direction (1, D): irrational, so no edge of real data is parallel to it. */
const D = 0.7548776662466927;

/** One crossing of an outer edge with a hole edge. */
interface Crossing {
  x: number;
  y: number;
  /** Outer edge, its parameter (value, ε coefficient). */
  ae: number;
  ta: number;
  ta1: number;
  /** Hole, its edge and parameter. */
  hole: number;
  be: number;
  tb: number;
  tb1: number;
  /** The outer ring goes on into the result after this crossing (else the hole ring does). */
  followOuter: boolean;
  /** Position in the outer ring's and the hole ring's node lists. */
  atA: number;
  atB: number;
  done: boolean;
}

/** A ring with its crossings inserted: per node a vertex (-1) or a crossing index. */
interface Walk {
  ring: number[];
  nodes: number[];
  /** For vertex nodes: the vertex index. */
  vertex: number[];
}

/**
 * outer − ∪ holes (xy pairs, any orientation, rings not closed) as polygons in the form polygon-clipping
 * gives: each [outer ring counter-clockwise, ...hole rings clockwise], every ring starting at its lowest
 * point (x, then y) without repeated or collinear points; polygons and holes ordered by first point.
 * @returns the polygons ([] when nothing is left), or null when the input is outside what the method takes.
 */
export function ringDifference(outer: number[], holes: number[][]): number[][][] | null {
  const a = prepared(outer, 1);
  if (!a) return null;
  const bs: number[][] = [];
  for (const h of holes) {
    const b = prepared(h, -1);
    if (!b) return null;
    bs.push(b);
  }
  const boxes = bs.map(box);
  for (let i = 0; i < bs.length; i++)
    for (let j = i + 1; j < bs.length; j++)
      if (
        boxes[i][0] <= boxes[j][2] &&
        boxes[j][0] <= boxes[i][2] &&
        boxes[i][1] <= boxes[j][3] &&
        boxes[j][1] <= boxes[i][3]
      )
        return null;
  const crossings: Crossing[] = [];
  const touchy = new Uint8Array(bs.length); // a hole with an exact contact with the outline
  const ab = box(a);
  for (let k = 0; k < bs.length; k++) {
    const bb = boxes[k];
    if (bb[0] > ab[2] || bb[2] < ab[0] || bb[1] > ab[3] || bb[3] < ab[1]) continue;
    const before = crossings.length;
    if (!crossHole(a, bs[k], k, crossings, touchy)) return null;
    if ((crossings.length - before) % 2) return null;
  }
  // rings that no crossing touches: inside, outside or around the other ring (perturbed point tests)
  const inside: number[][] = [];
  const crossed = new Uint8Array(bs.length);
  for (const c of crossings) crossed[c.hole] = 1;
  for (let k = 0; k < bs.length; k++) {
    if (crossed[k]) continue;
    const b = bs[k];
    if (windingPerturbed(a, b[0], b[1], 1) !== 0) {
      if (touchy[k]) return null; // a hole touching the outline from inside: leave it to the boolean
      inside.push(b);
    } else if (crossings.length === 0 && windingPerturbed(b, a[0], a[1], -1) !== 0) return []; // the hole covers the outline
  }
  const pieces: number[][] = [];
  if (crossings.length === 0) pieces.push(a);
  else {
    const wa = walkOf(a, crossings, true);
    const wbs = new Map<number, Walk>();
    for (let k = 0; k < bs.length; k++) if (crossed[k]) wbs.set(k, walkOf(bs[k], crossings, false, k));
    for (const start of crossings) {
      if (start.done) continue;
      const ring: number[] = [];
      let c = start;
      for (let guard = 0; ; guard++) {
        if (guard > crossings.length) return null;
        c.done = true;
        ring.push(c.x, c.y);
        const w = c.followOuter ? wa : wbs.get(c.hole)!;
        const n = w.nodes.length;
        let i = c.followOuter ? c.atA : c.atB;
        let next: Crossing | null = null;
        for (let steps = 0; steps < n; steps++) {
          i = (i + 1) % n;
          const node = w.nodes[i];
          if (node < 0) ring.push(w.ring[2 * w.vertex[i]], w.ring[2 * w.vertex[i] + 1]);
          else {
            next = crossings[node];
            break;
          }
        }
        // arriving along one ring, the walk must leave along the other
        if (!next || next.followOuter === c.followOuter) return null;
        if (next === start) break;
        if (next.done) return null;
        c = next;
      }
      pieces.push(ring);
    }
  }
  let area = 0;
  for (const p of pieces) area += Math.abs(signedArea2d(p));
  const minArea = 1e-12 * Math.max(area, (ab[2] - ab[0]) * (ab[3] - ab[1]));
  const out: number[][][] = [];
  for (const p of pieces) {
    const r = cleanRing(p, minArea);
    if (!r) continue;
    if (signedArea2d(r) < 0) return null; // a walk against the result's side: rounding upset the crossings
    out.push([r]);
  }
  for (const h of inside) {
    const r = cleanRing(h, minArea);
    if (!r) continue;
    const owner = out.find((p) => pointInRing(p[0], h[0], h[1]));
    if (owner) owner.push(r);
  }
  const byFirst = (p: number[], q: number[]) => p[0] - q[0] || p[1] - q[1];
  for (const p of out) if (p.length > 2) p.splice(1, p.length - 1, ...p.slice(1).sort(byFirst));
  return out.sort((p, q) => byFirst(p[0], q[0]));
}

/**
 * The ring without repeated points (also across its end), oriented counter-clockwise (sign 1) or
 * clockwise (-1); null when it has fewer than 3 points, no area or crosses itself.
 */
function prepared(r: number[], sign: 1 | -1): number[] | null {
  const pts: number[] = [];
  for (let i = 0; i + 1 < r.length; i += 2) {
    const l = pts.length;
    if (l && pts[l - 2] === r[i] && pts[l - 1] === r[i + 1]) continue;
    pts.push(r[i], r[i + 1]);
  }
  while (pts.length >= 4 && pts[0] === pts[pts.length - 2] && pts[1] === pts[pts.length - 1]) pts.length -= 2;
  if (pts.length < 6) return null;
  const s = signedArea2d(pts);
  if (!(s !== 0) || !Number.isFinite(s) || ringsCross([pts])) return null;
  if (Math.sign(s) === sign) return pts;
  const rev: number[] = new Array(pts.length);
  for (let i = 0, j = pts.length - 2; j >= 0; i += 2, j -= 2) {
    rev[i] = pts[j];
    rev[i + 1] = pts[j + 1];
  }
  return rev;
}

function box(r: number[]): number[] {
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  for (let i = 0; i < r.length; i += 2) {
    if (r[i] < x0) x0 = r[i];
    if (r[i] > x1) x1 = r[i];
    if (r[i + 1] < y0) y0 = r[i + 1];
    if (r[i + 1] > y1) y1 = r[i + 1];
  }
  return [x0, y0, x1, y1];
}

/** cross((x1, y1), (x2, y2)). */
const cross = (x1: number, y1: number, x2: number, y2: number) => x1 * y2 - y1 * x2;

/**
 * Appends the crossings of outer ring a with hole ring b (moved by ε·(1, D)) to `out`; marks the hole
 * touchy when an exact contact was settled by the perturbation. False when an edge is parallel to the
 * perturbation (cannot be settled).
 */
function crossHole(a: number[], b: number[], hole: number, out: Crossing[], touchy: Uint8Array): boolean {
  const n = a.length / 2,
    m = b.length / 2;
  // An outer edge clear of the hole's box is clear of each of its edges' boxes: the pair test below would
  // skip every one of them, so the edge is skipped whole (a long densified outline and a small hole
  // otherwise cost outline × hole pair tests).
  const [bx0, by0, bx1, by1] = box(b);
  for (let i = 0; i < n; i++) {
    const a0x = a[2 * i],
      a0y = a[2 * i + 1],
      i1 = (i + 1) % n,
      a1x = a[2 * i1],
      a1y = a[2 * i1 + 1];
    const ax0 = Math.min(a0x, a1x),
      ax1 = Math.max(a0x, a1x),
      ay0 = Math.min(a0y, a1y),
      ay1 = Math.max(a0y, a1y);
    if (bx1 < ax0 || bx0 > ax1 || by1 < ay0 || by0 > ay1) continue;
    const ux = a1x - a0x,
      uy = a1y - a0y;
    const ud = cross(ux, uy, 1, D); // ε coefficient of orient(a0, a1, b + εd)
    for (let j = 0; j < m; j++) {
      const b0x = b[2 * j],
        b0y = b[2 * j + 1],
        j1 = (j + 1) % m,
        b1x = b[2 * j1],
        b1y = b[2 * j1 + 1];
      // boxes apart (closed): no contact even after the perturbation
      if (Math.max(b0x, b1x) < ax0 || Math.min(b0x, b1x) > ax1 || Math.max(b0y, b1y) < ay0 || Math.min(b0y, b1y) > ay1)
        continue;
      const wx = b1x - b0x,
        wy = b1y - b0y;
      const wd = cross(wx, wy, 1, D);
      // orient(a0, a1, b + εd) and orient(b0 + εd, b1 + εd, a) = orient(b0, b1, a) − ε·cross(w, d)
      const ob0 = cross(ux, uy, b0x - a0x, b0y - a0y),
        ob1 = cross(ux, uy, b1x - a0x, b1y - a0y),
        oa0 = cross(wx, wy, a0x - b0x, a0y - b0y),
        oa1 = cross(wx, wy, a1x - b0x, a1y - b0y);
      if (ob0 === 0 || ob1 === 0 || oa0 === 0 || oa1 === 0) {
        if (ud === 0 || wd === 0) return false;
        touchy[hole] = 1;
      }
      const sb0 = ob0 !== 0 ? Math.sign(ob0) : Math.sign(ud),
        sb1 = ob1 !== 0 ? Math.sign(ob1) : Math.sign(ud),
        sa0 = oa0 !== 0 ? Math.sign(oa0) : -Math.sign(wd),
        sa1 = oa1 !== 0 ? Math.sign(oa1) : -Math.sign(wd);
      if (sb0 === sb1 || sa0 === sa1) continue;
      const uw = cross(ux, uy, wx, wy);
      if (uw === 0) return false; // parallel edges cannot cross after the perturbation: rounding
      // the crossing point (limit ε → 0): an exact vertex when one lies on the other edge's line, so that
      // the crossings of two edges at a shared vertex get the same parameter (their order is then the ε term's)
      let x: number, y: number, ta: number, tb: number;
      if (oa0 === 0 || oa1 === 0) {
        ta = oa0 === 0 ? 0 : 1;
        x = ta === 0 ? a0x : a1x;
        y = ta === 0 ? a0y : a1y;
        tb = ((x - b0x) * wx + (y - b0y) * wy) / (wx * wx + wy * wy);
      } else if (ob0 === 0 || ob1 === 0) {
        tb = ob0 === 0 ? 0 : 1;
        x = tb === 0 ? b0x : b1x;
        y = tb === 0 ? b0y : b1y;
        ta = ((x - a0x) * ux + (y - a0y) * uy) / (ux * ux + uy * uy);
      } else {
        ta = oa0 / (oa0 - oa1);
        tb = ob0 / (ob0 - ob1);
        x = a0x + ta * ux;
        y = a0y + ta * uy;
      }
      out.push({
        x,
        y,
        ae: i,
        ta: Math.min(1, Math.max(0, ta)),
        ta1: cross(1, D, wx, wy) / uw,
        hole,
        be: j,
        tb: Math.min(1, Math.max(0, tb)),
        tb1: -cross(1, D, ux, uy) / cross(wx, wy, ux, uy),
        // after the crossing the outer edge runs on the hole edge's left (into the result) or right
        followOuter: cross(wx, wy, ux, uy) > 0,
        atA: -1,
        atB: -1,
        done: false,
      });
    }
  }
  return true;
}

/** The ring's vertices with the crossings on its edges in order (outer ring, or hole `hole`). */
function walkOf(ring: number[], crossings: Crossing[], outer: boolean, hole = -1): Walk {
  const n = ring.length / 2;
  const per: Crossing[][] = Array.from({ length: n }, () => []);
  for (const c of crossings) {
    if (outer) per[c.ae].push(c);
    else if (c.hole === hole) per[c.be].push(c);
  }
  const nodes: number[] = [],
    vertex: number[] = [];
  const index = new Map<Crossing, number>();
  crossings.forEach((c, k) => index.set(c, k));
  for (let i = 0; i < n; i++) {
    nodes.push(-1);
    vertex.push(i);
    const list = per[i];
    if (outer) list.sort((p, q) => p.ta - q.ta || p.ta1 - q.ta1);
    else list.sort((p, q) => p.tb - q.tb || p.tb1 - q.tb1);
    for (const c of list) {
      if (outer) c.atA = nodes.length;
      else c.atB = nodes.length;
      nodes.push(index.get(c)!);
      vertex.push(-1);
    }
  }
  return { ring, nodes, vertex };
}

/**
 * Winding number of ring r about the point (x, y) moved by s·ε·(1, D) (s = 1: a hole's point against the
 * outline; -1: the outline's point against a hole, i.e. the hole moved by +ε).
 */
function windingPerturbed(r: number[], x: number, y: number, s: 1 | -1): number {
  const n = r.length / 2;
  let w = 0;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const x0 = r[2 * j],
      y0 = r[2 * j + 1],
      x1 = r[2 * i],
      y1 = r[2 * i + 1];
    // y0 > y + s·ε·D: for s = 1 that is y0 > y; for s = -1, y0 ≥ y
    const up0 = s > 0 ? y0 > y : y0 >= y,
      up1 = s > 0 ? y1 > y : y1 >= y;
    if (up0 === up1) continue;
    let o = cross(x1 - x0, y1 - y0, x - x0, y - y0);
    if (o === 0) o = s * cross(x1 - x0, y1 - y0, 1, D);
    if (up1 && o > 0) w++;
    else if (!up1 && o < 0) w--;
  }
  return w;
}
