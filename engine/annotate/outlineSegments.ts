/**
 * Splits a tessellated closed 2D outline into straight edges and circular arcs (the
 * 'length' and 'radius' parameters of a surface object, viewer.md §3). Tessellated arcs are runs of
 * short, evenly long chords that turn the same way by a small angle; each run gets a least-squares
 * circle (Kåsa fit) and is kept as an arc when every point lies on it within the tolerance. What is
 * left are straight edges (collinear chords merged). Units: whatever the loop is in (mm here).
 */

/** A straight edge from a to b. */
export interface LineElement {
  kind: 'line';
  a: [number, number];
  b: [number, number];
  length: number;
}

/** A circular arc from `from` to `to` through `mid`, turning `sweep` radians (positive counter-clockwise). */
export interface ArcElement {
  kind: 'arc';
  center: [number, number];
  radius: number;
  from: [number, number];
  mid: [number, number];
  to: [number, number];
  sweep: number;
  /** True when the arc is the whole loop (a circle). */
  full: boolean;
}

/** A run of curved chords that fits no circle (an ellipse, a spline): no parameter, kept so it is not taken for straight edges. */
export interface CurveElement {
  kind: 'curve';
  points: [number, number][];
  length: number;
}

export type OutlineElement = LineElement | ArcElement | CurveElement;

/** Options of segmentOutline. */
export interface SegmentOptions {
  /** Largest distance of a point from its fitted circle and of a dropped vertex from its chord (default 0.1; raise for quantised input). */
  tolerance?: number;
}

/** Turn at a vertex above which it is a corner, not part of an arc (radians). */
const MAX_ARC_TURN = (40 * Math.PI) / 180;
/** Turn below which a vertex is straight (radians). */
const MIN_TURN = (0.2 * Math.PI) / 180;
/** Chords of one arc differ in length by at most this factor. */
const EVEN = 2.5;

type Pt = [number, number];

/** Circle through points by the algebraic least-squares (Kåsa) fit; null when they are collinear. */
export function fitCircle(pts: readonly Pt[]): { center: Pt; radius: number; residual: number } | null {
  const n = pts.length;
  if (n < 3) return null;
  let mx = 0,
    my = 0;
  for (const p of pts) {
    mx += p[0] / n;
    my += p[1] / n;
  }
  let suu = 0,
    svv = 0,
    suv = 0,
    suuu = 0,
    svvv = 0,
    suvv = 0,
    svuu = 0;
  for (const p of pts) {
    const u = p[0] - mx,
      v = p[1] - my;
    suu += u * u;
    svv += v * v;
    suv += u * v;
    suuu += u * u * u;
    svvv += v * v * v;
    suvv += u * v * v;
    svuu += v * u * u;
  }
  const det = suu * svv - suv * suv;
  if (!(Math.abs(det) > 1e-12 * (suu + svv) * (suu + svv))) return null;
  const bu = (suuu + suvv) / 2,
    bv = (svvv + svuu) / 2;
  const uc = (bu * svv - bv * suv) / det,
    vc = (bv * suu - bu * suv) / det;
  const center: Pt = [uc + mx, vc + my];
  let r = 0;
  for (const p of pts) r += Math.hypot(p[0] - center[0], p[1] - center[1]) / n;
  let residual = 0;
  for (const p of pts) residual = Math.max(residual, Math.abs(Math.hypot(p[0] - center[0], p[1] - center[1]) - r));
  return { center, radius: r, residual };
}

/** Drops repeated points and vertices that lie on the chord of their neighbours (turn < 2°, off by ≤ tol). */
function simplify(loop: ArrayLike<number>, tol: number): Pt[] {
  let pts: Pt[] = [];
  for (let i = 0; i + 1 < loop.length; i += 2) {
    const p: Pt = [loop[i], loop[i + 1]];
    const q = pts[pts.length - 1];
    if (!q || Math.hypot(p[0] - q[0], p[1] - q[1]) > 1e-9) pts.push(p);
  }
  while (pts.length > 1 && Math.hypot(pts[0][0] - pts[pts.length - 1][0], pts[0][1] - pts[pts.length - 1][1]) <= 1e-9)
    pts.pop();
  let changed = true;
  while (changed && pts.length > 3) {
    changed = false;
    const keep: Pt[] = [];
    for (let i = 0; i < pts.length; i++) {
      const a = keep.length ? keep[keep.length - 1] : pts[(i - 1 + pts.length) % pts.length],
        p = pts[i],
        b = pts[(i + 1) % pts.length];
      const ab = Math.hypot(b[0] - a[0], b[1] - a[1]);
      const off =
        ab > 0
          ? Math.abs((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])) / ab
          : Math.hypot(p[0] - a[0], p[1] - a[1]);
      if (Math.abs(turn(a, p, b)) < (2 * Math.PI) / 180 && off <= tol && pts.length - (i - keep.length) > 3) {
        changed = true;
        continue;
      }
      keep.push(p);
    }
    pts = keep;
  }
  return pts;
}

/** Signed turn at p going a → p → b (radians, counter-clockwise positive). */
function turn(a: Pt, p: Pt, b: Pt): number {
  const ux = p[0] - a[0],
    uy = p[1] - a[1],
    vx = b[0] - p[0],
    vy = b[1] - p[1];
  return Math.atan2(ux * vy - uy * vx, ux * vx + uy * vy);
}

/**
 * The straight edges and arcs of a closed loop [u0, v0, u1, v1, ...] (no repeated last point), in loop
 * order. A loop that is one circle gives a single arc with `full` true. Loops of fewer than 3 distinct
 * points give [].
 */
export function segmentOutline(loop: ArrayLike<number>, options: SegmentOptions = {}): OutlineElement[] {
  const tol = options.tolerance ?? 0.1;
  const P = simplify(loop, tol);
  const n = P.length;
  if (n < 3) return [];
  const L = P.map((p, i) => Math.hypot(P[(i + 1) % n][0] - p[0], P[(i + 1) % n][1] - p[1]));
  const tau = P.map((p, i) => turn(P[(i - 1 + n) % n], p, P[(i + 1) % n]));
  const flag = tau.map((t) => Math.abs(t) > MIN_TURN && Math.abs(t) <= MAX_ARC_TURN);
  const even = (a: number, b: number) => a <= EVEN * b && b <= EVEN * a;
  // link[i]: vertices i and i+1 belong to one arc (chord i between them is one of its chords).
  const link = P.map((_, i) => {
    const j = (i + 1) % n;
    return (
      flag[i] &&
      flag[j] &&
      Math.sign(tau[i]) === Math.sign(tau[j]) &&
      even(L[i], L[(i - 1 + n) % n]) &&
      even(L[i], L[j])
    );
  });
  if (link.every(Boolean)) {
    const full = arcOf(
      P,
      Array.from({ length: n }, (_, i) => i),
      tol,
      true,
    );
    return [full ?? { kind: 'curve', points: [...P, P[0]], length: L.reduce((a, b) => a + b, 0) }];
  }
  // Runs of linked vertices, walked from a vertex that starts one (not linked from its predecessor).
  const start = link.findIndex((_, i) => !link[(i - 1 + n) % n]);
  /** Per chord: index of its arc or curve element in `curved`, -1 for a straight chord. */
  const inArc = new Array<number>(n).fill(-1);
  const curved: OutlineElement[] = [];
  for (let s = 0; s < n; s++) {
    const a = (start + s) % n;
    if (!flag[a] || link[(a - 1 + n) % n]) continue;
    let b = a;
    while (link[b]) b = (b + 1) % n;
    // Vertices a..b: chords a-1 .. b.
    let chords: number[] = [];
    for (let i = (a - 1 + n) % n; ; i = (i + 1) % n) {
      chords.push(i);
      if (i === b) break;
    }
    const inner = chords.length > 2 ? chords.slice(1, -1) : chords;
    const med = median(inner.map((c) => L[c]));
    while (chords.length && L[chords[0]] > EVEN * med) chords.shift();
    while (chords.length && L[chords[chords.length - 1]] > EVEN * med) chords.pop();
    if (chords.length < 3 || chords.some((c) => inArc[c] >= 0)) continue;
    // A run may have taken in a short straight neighbour (a toe as long as the chords): drop up to two
    // chords at either end until the rest lies on one circle.
    let arc: ArcElement | null = null;
    for (let k = 0; k <= 4 && !arc; k++)
      for (let head = 0; head <= Math.min(k, 2) && !arc; head++) {
        const tail = k - head;
        if (tail > 2 || chords.length - k < 3) continue;
        arc = arcOf(P, chords.slice(head, chords.length - tail), tol, false);
        if (arc) chords = chords.slice(head, chords.length - tail);
      }
    for (const c of chords) inArc[c] = curved.length;
    curved.push(
      arc ?? {
        kind: 'curve',
        points: [P[chords[0]], ...chords.map((c) => P[(c + 1) % n])],
        length: chords.reduce((a, c) => a + L[c], 0),
      },
    );
  }
  // Straight chords: merge runs of collinear ones into one edge.
  const out: OutlineElement[] = [];
  const first = inArc.findIndex((x, i) => x !== inArc[(i - 1 + n) % n]);
  const from = Math.max(first, 0);
  for (let s = 0; s < n; s++) {
    const c = (from + s) % n;
    if (inArc[c] >= 0) {
      if (inArc[(c - 1 + n) % n] !== inArc[c]) out.push(curved[inArc[c]]);
      continue;
    }
    const a = P[c],
      b = P[(c + 1) % n];
    const last = out[out.length - 1];
    if (last?.kind === 'line' && Math.abs(turn(last.a, last.b, b)) < (1 * Math.PI) / 180 && last.b === a) {
      last.b = b;
      last.length = Math.hypot(b[0] - last.a[0], b[1] - last.a[1]);
    } else out.push({ kind: 'line', a, b, length: L[c] });
  }
  return out;
}

/** The arc over `chords` (chord i joins P[i] and P[i+1]), or null when the points are not on one circle. */
function arcOf(P: Pt[], chords: number[], tol: number, full: boolean): ArcElement | null {
  const n = P.length;
  const pts: Pt[] = full ? P.slice() : [P[chords[0]], ...chords.map((c) => P[(c + 1) % n])];
  const fit = fitCircle(pts);
  if (!fit || fit.residual > Math.max(tol, 0.005 * fit.radius)) return null;
  const { center, radius } = fit;
  const ang = (p: Pt) => Math.atan2(p[1] - center[1], p[0] - center[0]);
  let sweep = 0;
  for (let i = 1; i < pts.length; i++) {
    let d = ang(pts[i]) - ang(pts[i - 1]);
    if (d > Math.PI) d -= 2 * Math.PI;
    if (d < -Math.PI) d += 2 * Math.PI;
    sweep += d;
  }
  if (full) sweep += Math.sign(sweep) * Math.abs(turn(pts[pts.length - 2], pts[pts.length - 1], pts[0]));
  if (!full && Math.abs(sweep) < (10 * Math.PI) / 180) return null;
  const a0 = ang(pts[0]) + sweep / 2;
  const mid: Pt = [center[0] + radius * Math.cos(a0), center[1] + radius * Math.sin(a0)];
  return {
    kind: 'arc',
    center,
    radius,
    from: pts[0],
    mid,
    to: full ? pts[0] : pts[pts.length - 1],
    sweep: full ? Math.sign(sweep || 1) * 2 * Math.PI : sweep,
    full,
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : 0;
}
