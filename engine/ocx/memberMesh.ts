/**
 * Stiffeners, edge reinforcements and pillars (OCX_GUIDE §5.3): the catalogue bar section swept along
 * the TraceLine, oriented by the Inclinations' web (v) and flange (u) directions, shifted by the
 * SectionRef OffsetU/OffsetV. Units: mm.
 */
import {
  boundedStep,
  hypot3,
  cross,
  dot,
  normalize,
  perpendicular,
  polylineLength,
  reversePolyline,
  type Vec3,
} from '../geometry/curves';
import type { SectionPolygon } from '../geometry/barSections';
import { MeshBuilder } from '../geometry/MeshBuilder';
import { type EndChoice, type EndQuery, SegmentEnds, scanEnds } from '../geometry/segmentEnds';
import { sweepSection } from '../geometry/sweep';

/** An Inclination: position (mm), web and flange directions (unit; flange may be absent). */
export interface Inclination {
  position: Vec3;
  web: Vec3;
  flange: Vec3 | null;
}

/** Segments past which traceLine finds the nearest end through a grid (fewer are scanned). */
const GRID_SEGMENTS = 32;

/**
 * Joins trace segments into one open polyline (xyz mm): a chain grown at both ends with the nearest
 * unused segment, reversed when needed (segment order and direction in the file do not matter).
 */
export function traceLine(segments: number[][], gapTol: number): number[] {
  const segs = segments.filter((s) => s.length >= 6);
  if (segs.length <= 1) return segs[0] ?? [];
  // grow one open chain at both ends with the nearest unused segment (order and direction free); the
  // pieces are joined once at the end (appending to the chain at every step was quadratic)
  const used = new Uint8Array(segs.length);
  used[0] = 1;
  const front: number[][] = [],
    back: number[][] = [];
  const first = segs[0];
  // the chain's two end points
  let sx = first[0],
    sy = first[1],
    sz = first[2],
    ex = first[first.length - 3],
    ey = first[first.length - 2],
    ez = first[first.length - 1];
  // the nearest unused end by a grid when there are many segments (a scan of all per step is quadratic);
  // both give the first of equally near candidates in the order: chain end to segment start, to segment
  // end, chain start to segment end, to segment start
  const grid = segs.length > GRID_SEGMENTS ? SegmentEnds.of(segs, used) : null;
  const choice: EndChoice = { d: Infinity, k: -1, c: 0 };
  const atChainEnd: EndQuery = { x: ex, y: ey, z: ez, cStart: 0, cEnd: 1 },
    atChainStart: EndQuery = { x: sx, y: sy, z: sz, cStart: 3, cEnd: 2 };
  const queries = [atChainEnd, atChainStart];
  for (let added = 1; added < segs.length; added++) {
    choice.d = Infinity;
    choice.k = -1;
    choice.c = 0;
    if (grid) {
      [atChainEnd.x, atChainEnd.y, atChainEnd.z] = [ex, ey, ez];
      [atChainStart.x, atChainStart.y, atChainStart.z] = [sx, sy, sz];
      grid.nearest(queries, choice);
    } else {
      scanEnds(segs, used, ex, ey, ez, 0, 1, choice);
      scanEnds(segs, used, sx, sy, sz, 3, 2, choice);
    }
    const best = choice.k,
      bestD = choice.d,
      atEnd = choice.c < 2,
      rev = choice.c === 1 || choice.c === 3;
    if (grid) grid.take(best);
    else used[best] = 1;
    const s = rev ? reversePolyline(segs[best]) : segs[best];
    // segments farther than gapTol are still joined (a straight bridge), never dropped
    if (atEnd) {
      back.push(bestD <= gapTol ? s.slice(3) : s);
      ex = s[s.length - 3];
      ey = s[s.length - 2];
      ez = s[s.length - 1];
    } else {
      front.push(bestD <= gapTol ? s.slice(0, -3) : s);
      sx = s[0];
      sy = s[1];
      sz = s[2];
    }
  }
  const chain: number[] = [];
  for (let k = front.length - 1; k >= 0; k--) for (const v of front[k]) chain.push(v);
  for (const v of first) chain.push(v);
  for (const piece of back) for (const v of piece) chain.push(v);
  return chain;
}

/** Unit tangent (central difference) at vertex i of a trace of n vertices (xyz mm). */
function traceTangent(trace: number[], n: number, i: number): Vec3 {
  const a = Math.max(0, i - 1),
    b = Math.min(n - 1, i + 1);
  return normalize([
    trace[3 * b] - trace[3 * a],
    trace[3 * b + 1] - trace[3 * a + 1],
    trace[3 * b + 2] - trace[3 * a + 2],
  ]);
}

/** The angle (radians) of w about the tangent at trace vertex i, from the frame's reference direction R there. */
function angleAt(trace: number[], n: number, R: Float64Array, i: number, w: Vec3): number {
  const T = traceTangent(trace, n, i),
    r: Vec3 = [R[3 * i], R[3 * i + 1], R[3 * i + 2]];
  return Math.atan2(dot(w, cross(T, r)), dot(w, r));
}

/** The last of the n trace vertices whose arc length s[i] (mm) is at most sv (0 when none). */
function vertexOf(s: Float64Array, n: number, sv: number): number {
  let lo = 0;
  while (lo + 1 < n && s[lo + 1] <= sv) lo++;
  return lo;
}

/**
 * Per-sample frames along a trace (§5.3.2 steps 2–5): W turned about the tangent between inclinations
 * by the angle interpolated by arc length in a rotation-minimising frame; F = ±W × T with the sign of the nearest inclination's
 * flange direction.
 */
export function traceFrames(trace: number[], incl: Inclination[]): { F: Float64Array; W: Float64Array } {
  const n = trace.length / 3;
  const s = new Float64Array(n);
  for (let i = 1; i < n; i++)
    s[i] =
      s[i - 1] +
      hypot3(trace[3 * i] - trace[3 * i - 3], trace[3 * i + 1] - trace[3 * i - 2], trace[3 * i + 2] - trace[3 * i - 1]);
  // parameter of each inclination: nearest trace vertex (deduplicated by position). Its flange sign is
  // taken against W × T at its own position, so that it stays valid where the tangent turns (a flange
  // direction compared far from its position can be perpendicular to F and flip the profile).
  const params: { s: number; inc: Inclination; sign: number }[] = [];
  for (const inc of incl) {
    let best = 0,
      bd = Infinity;
    for (let i = 0; i < n; i++) {
      const d = hypot3(
        trace[3 * i] - inc.position[0],
        trace[3 * i + 1] - inc.position[1],
        trace[3 * i + 2] - inc.position[2],
      );
      if (d < bd) {
        bd = d;
        best = i;
      }
    }
    const T = traceTangent(trace, n, best);
    const sign = inc.flange && dot(cross(inc.web, T), inc.flange) < 0 ? -1 : 1;
    if (!params.some((p) => Math.abs(p.s - s[best]) < 1e-6 && dot(p.inc.web, inc.web) > 0.999))
      params.push({ s: s[best], inc, sign });
  }
  params.sort((a, b) => a.s - b.s);
  // a rotation-minimising reference frame R along the trace (double reflection, Wang et al. 2008):
  // each inclination's web becomes an angle about the tangent against R at its own vertex, and the web
  // between two inclinations turns by the interpolated angle (the shorter way round). Interpolating the
  // vectors instead collapses through zero where two webs are nearly opposite and twists the mesh into
  // itself (M4 ring stiffener nplcid660).
  const R = new Float64Array(3 * n);
  {
    const T0 = traceTangent(trace, n, 0);
    const r0 = params.length ? (orthoTo(params[0].inc.web, T0) ?? perpendicular(T0)) : perpendicular(T0);
    R.set(r0, 0);
    for (let i = 1; i < n; i++) {
      const x0: Vec3 = [trace[3 * i - 3], trace[3 * i - 2], trace[3 * i - 1]],
        x1: Vec3 = [trace[3 * i], trace[3 * i + 1], trace[3 * i + 2]];
      const ti = traceTangent(trace, n, i - 1),
        tj = traceTangent(trace, n, i),
        r: Vec3 = [R[3 * i - 3], R[3 * i - 2], R[3 * i - 1]];
      const v1: Vec3 = [x1[0] - x0[0], x1[1] - x0[1], x1[2] - x0[2]],
        c1 = dot(v1, v1);
      let rn = r;
      if (c1 > 1e-18) {
        const rL = sub(r, scale(v1, (2 / c1) * dot(v1, r))),
          tL = sub(ti, scale(v1, (2 / c1) * dot(v1, ti)));
        const v2 = sub(tj, tL),
          c2 = dot(v2, v2);
        rn = c2 > 1e-18 ? sub(rL, scale(v2, (2 / c2) * dot(v2, rL))) : rL;
      }
      R.set(orthoTo(rn, tj) ?? perpendicular(tj), 3 * i);
    }
  }
  const angles = params.map((p) => angleAt(trace, n, R, vertexOf(s, n, p.s), p.inc.web));
  // an inclination whose web and flange both point opposite to its neighbours' (more than 120° off
  // each) is a sign error of the file (M4 3.1 nplcid660: the second of five): it is turned by 180°
  // rather than sweeping the profile through a half turn and back
  const off = (a: number, b: number) => Math.abs(a - b - 2 * Math.PI * Math.round((a - b) / (2 * Math.PI)));
  for (let k = 0; k < angles.length && angles.length >= 3; k++) {
    const prev = k > 0 ? off(angles[k], angles[k - 1]) : undefined,
      next = k + 1 < angles.length ? off(angles[k], angles[k + 1]) : undefined;
    const agrees = (j: number, m: number) =>
      j >= 0 && m >= 0 && j < angles.length && m < angles.length && off(angles[j], angles[m]) < Math.PI / 3;
    const flipped =
      prev !== undefined && next !== undefined
        ? prev > (2 * Math.PI) / 3 && next > (2 * Math.PI) / 3
        : prev === undefined
          ? next! > (2 * Math.PI) / 3 && agrees(k + 1, k + 2)
          : prev > (2 * Math.PI) / 3 && agrees(k - 1, k - 2);
    if (flipped) angles[k] += Math.PI;
  }
  const F = new Float64Array(3 * n),
    W = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const T = traceTangent(trace, n, i);
    let w: Vec3,
      sign = 1;
    if (params.length === 0) {
      w = perpendicular(T);
    } else {
      let k = 0;
      while (k + 1 < params.length && params[k + 1].s <= s[i]) k++;
      const k1 = Math.min(k + 1, params.length - 1);
      const p0 = params[k],
        p1 = params[k1];
      const f = p1.s > p0.s ? Math.max(0, Math.min(1, (s[i] - p0.s) / (p1.s - p0.s))) : 0;
      let d = angles[k1] - angles[k];
      d -= 2 * Math.PI * Math.round(d / (2 * Math.PI));
      const th = angles[k] + f * d,
        r: Vec3 = [R[3 * i], R[3 * i + 1], R[3 * i + 2]],
        b = cross(T, r);
      w = [
        Math.cos(th) * r[0] + Math.sin(th) * b[0],
        Math.cos(th) * r[1] + Math.sin(th) * b[1],
        Math.cos(th) * r[2] + Math.sin(th) * b[2],
      ];
      sign = (f < 0.5 ? p0 : p1).sign;
    }
    w = normalize([w[0] - dot(w, T) * T[0], w[1] - dot(w, T) * T[1], w[2] - dot(w, T) * T[2]]);
    if (w[0] === 0 && w[1] === 0 && w[2] === 0) w = perpendicular(T);
    let fv = normalize(cross(w, T));
    if (sign < 0) fv = [-fv[0], -fv[1], -fv[2]];
    F.set(fv, 3 * i);
    W.set(w, 3 * i);
  }
  return { F, W };
}

/** Longest trace step (mm) where the web turns between inclinations. */
const TWIST_STEP_MM = 100;

/**
 * The trace with a vertex at each inclination's position (its foot on the polyline, unless within 1 mm
 * of a vertex) and, when the webs of the inclinations differ, segments split to at most TWIST_STEP_MM,
 * so that a twisting profile is swept through its intermediate inclinations instead of being
 * straight-lined between two far sections (M3 nplcid19: a 10 m straight trace of two points); at most
 * about MAX_SUBDIVISION_POINTS points (boundedStep).
 */
export function resampleTrace(trace: number[], incl: Inclination[]): number[] {
  if (incl.length < 2 || trace.length < 6) return trace;
  let pts = trace.slice();
  for (const inc of incl) {
    const n = pts.length / 3,
      q = inc.position;
    let best = -1,
      bt = 0,
      bd = Infinity;
    for (let i = 0; i + 1 < n; i++) {
      const a: Vec3 = [pts[3 * i], pts[3 * i + 1], pts[3 * i + 2]],
        d = sub([pts[3 * i + 3], pts[3 * i + 4], pts[3 * i + 5]], a),
        dd = dot(d, d);
      const t = dd > 0 ? Math.max(0, Math.min(1, dot(sub(q, a), d) / dd)) : 0;
      const dist = hypot3(a[0] + t * d[0] - q[0], a[1] + t * d[1] - q[1], a[2] + t * d[2] - q[2]);
      if (dist < bd) [bd, best, bt] = [dist, i, t];
    }
    if (best < 0) continue;
    const a = 3 * best,
      b = a + 3,
      L = hypot3(pts[b] - pts[a], pts[b + 1] - pts[a + 1], pts[b + 2] - pts[a + 2]);
    if (bt * L <= 1 || (1 - bt) * L <= 1) continue;
    const foot = [0, 1, 2].map((k) => pts[a + k] + bt * (pts[b + k] - pts[a + k]));
    pts = [...pts.slice(0, b), ...foot, ...pts.slice(b)];
  }
  const twists = incl.some((x) => dot(x.web, incl[0].web) < 0.9999);
  if (!twists) return pts;
  let total = 0;
  for (let i = 3; i < pts.length; i += 3)
    total += hypot3(pts[i] - pts[i - 3], pts[i + 1] - pts[i - 2], pts[i + 2] - pts[i - 1]);
  const step = boundedStep(total, TWIST_STEP_MM);
  const out: number[] = [pts[0], pts[1], pts[2]];
  for (let i = 3; i < pts.length; i += 3) {
    const L = hypot3(pts[i] - pts[i - 3], pts[i + 1] - pts[i - 2], pts[i + 2] - pts[i - 1]);
    const k = Math.ceil(L / step);
    for (let j = 1; j <= k; j++)
      for (let c = 0; c < 3; c++) out.push(pts[i - 3 + c] + ((pts[i + c] - pts[i - 3 + c]) * j) / k);
  }
  return out;
}

function sub(a: Vec3, b: Vec3): Vec3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}

function scale(a: Vec3, k: number): Vec3 {
  return [a[0] * k, a[1] * k, a[2] * k];
}

/** The unit part of v orthogonal to the unit vector t, or undefined when v is (nearly) parallel to t. */
function orthoTo(v: Vec3, t: Vec3): Vec3 | undefined {
  const d = dot(v, t),
    o: Vec3 = [v[0] - d * t[0], v[1] - d * t[1], v[2] - d * t[2]];
  const l = hypot3(o[0], o[1], o[2]);
  return l > 1e-9 ? [o[0] / l, o[1] / l, o[2] / l] : undefined;
}

/**
 * Sweeps a section along a trace. @param offU/@param offV section offsets (mm) already including any
 * plate-thickness shift. @returns the mesh, the trace length (mm), the length of the path the section's
 * centroid sweeps (mm; by Pappus the volume is section area × this length, which differs from the trace
 * length on a curved trace: a ring stiffener's bulb inside the ring is lighter than along its trace) and
 * the volume centroid (mm).
 */
export function meshMember(
  section: SectionPolygon,
  trace: number[],
  incl: Inclination[],
  offU: number,
  offV: number,
): { mesh: MeshBuilder; length: number; centroidLength: number; centroid: Vec3 } {
  const mb = new MeshBuilder();
  trace = resampleTrace(trace, incl);
  const frames = traceFrames(trace, incl);
  sweepSection(mb, section, trace, frames, offU, offV);
  // volume centroid: the section centroid carried along the trace, weighted by the length of the
  // centroid's own path (independent of the mesh's triangle orientation)
  const [uc, vc] = sectionCentroid(section);
  const n = trace.length / 3;
  const q = new Float64Array(trace.length);
  for (let i = 0; i < n; i++)
    for (let k = 0; k < 3; k++)
      q[3 * i + k] = trace[3 * i + k] + (uc + offU) * frames.F[3 * i + k] + (vc + offV) * frames.W[3 * i + k];
  let L = 0;
  const c: Vec3 = [0, 0, 0];
  for (let i = 1; i < n; i++) {
    const l = hypot3(q[3 * i] - q[3 * i - 3], q[3 * i + 1] - q[3 * i - 2], q[3 * i + 2] - q[3 * i - 1]);
    for (let k = 0; k < 3; k++) c[k] += (l * (q[3 * i + k] + q[3 * i - 3 + k])) / 2;
    L += l;
  }
  return {
    mesh: mb,
    length: polylineLength(trace),
    centroidLength: L,
    centroid: L > 0 ? [c[0] / L, c[1] / L, c[2] / L] : [NaN, NaN, NaN],
  };
}

/** Area centroid (u, v) of a section polygon (outer minus inner), mm. */
export function sectionCentroid(section: SectionPolygon): [number, number] {
  const acc = (r: number[], sign: number, out: number[]) => {
    const m = r.length / 2;
    let a = 0,
      cu = 0,
      cv = 0;
    for (let i = 0, j = m - 1; i < m; j = i++) {
      const cr = r[2 * j] * r[2 * i + 1] - r[2 * i] * r[2 * j + 1];
      a += cr;
      cu += (r[2 * j] + r[2 * i]) * cr;
      cv += (r[2 * j + 1] + r[2 * i + 1]) * cr;
    }
    const s = Math.sign(a) * sign; // orientation-independent
    out[0] += (s * a) / 2;
    out[1] += (s * cu) / 6;
    out[2] += (s * cv) / 6;
  };
  const o = [0, 0, 0];
  acc(section.outer, 1, o);
  if (section.inner) acc(section.inner, -1, o);
  return [o[1] / o[0], o[2] / o[0]];
}
