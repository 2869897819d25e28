/**
 * Stiffeners, edge reinforcements and pillars (OCX_GUIDE §5.3): the catalogue bar section swept along
 * the TraceLine, oriented by the Inclinations' web (v) and flange (u) directions, shifted by the
 * SectionRef OffsetU/OffsetV. Units: mm.
 */
import { cross, dot, normalize, perpendicular, polylineLength, reversePolyline, type Vec3 } from '../geometry/curves';
import type { SectionPolygon } from '../geometry/barSections';
import { MeshBuilder } from '../geometry/MeshBuilder';
import { sweepSection } from '../geometry/sweep';

/** An Inclination: position (mm), web and flange directions (unit; flange may be absent). */
export interface Inclination {
  position: Vec3;
  web: Vec3;
  flange: Vec3 | null;
}

/**
 * Joins trace segments into one open polyline (xyz mm): a chain grown at both ends with the nearest
 * unused segment, reversed when needed (segment order and direction in the file do not matter).
 */
export function traceLine(segments: number[][], gapTol: number): number[] {
  const segs = segments.filter((s) => s.length >= 6);
  if (segs.length <= 1) return segs[0] ?? [];
  // grow one open chain at both ends with the nearest unused segment (order and direction free)
  const used = new Uint8Array(segs.length);
  used[0] = 1;
  let chain = segs[0].slice();
  const d = (p: number[], i: number, q: number[], j: number) => Math.hypot(p[i] - q[j], p[i + 1] - q[j + 1], p[i + 2] - q[j + 2]);
  for (let added = 1; added < segs.length; added++) {
    let best = -1, bestD = Infinity, atEnd = true, rev = false;
    const e = chain.length - 3;
    for (let k = 0; k < segs.length; k++) {
      if (used[k]) continue;
      const s = segs[k], se = s.length - 3;
      const cands: [number, boolean, boolean][] = [[d(chain, e, s, 0), true, false], [d(chain, e, s, se), true, true], [d(chain, 0, s, se), false, false], [d(chain, 0, s, 0), false, true]];
      for (const [dist, end, r] of cands) if (dist < bestD) [bestD, best, atEnd, rev] = [dist, k, end, r];
    }
    used[best] = 1;
    const s = rev ? reversePolyline(segs[best]) : segs[best];
    // segments farther than gapTol are still joined (a straight bridge), never dropped
    if (atEnd) chain = chain.concat(bestD <= gapTol ? s.slice(3) : s);
    else chain = (bestD <= gapTol ? s.slice(0, -3) : s).concat(chain);
  }
  return chain;
}

/**
 * Per-sample frames along a trace (§5.3.2 steps 2–5): W interpolated between inclinations by arc
 * length and made orthogonal to the tangent; F = ±W × T with the sign of the nearest inclination's
 * flange direction.
 */
export function traceFrames(trace: number[], incl: Inclination[]): { F: Float64Array; W: Float64Array } {
  const n = trace.length / 3;
  const s = new Float64Array(n);
  for (let i = 1; i < n; i++) s[i] = s[i - 1] + Math.hypot(trace[3 * i] - trace[3 * i - 3], trace[3 * i + 1] - trace[3 * i - 2], trace[3 * i + 2] - trace[3 * i - 1]);
  const tangent = (i: number): Vec3 => {
    const a = Math.max(0, i - 1), b = Math.min(n - 1, i + 1);
    return normalize([trace[3 * b] - trace[3 * a], trace[3 * b + 1] - trace[3 * a + 1], trace[3 * b + 2] - trace[3 * a + 2]]);
  };
  // parameter of each inclination: nearest trace vertex (deduplicated by position). Its flange sign is
  // taken against W × T at its own position, so that it stays valid where the tangent turns (a flange
  // direction compared far from its position can be perpendicular to F and flip the profile).
  const params: { s: number; inc: Inclination; sign: number }[] = [];
  for (const inc of incl) {
    let best = 0, bd = Infinity;
    for (let i = 0; i < n; i++) {
      const d = Math.hypot(trace[3 * i] - inc.position[0], trace[3 * i + 1] - inc.position[1], trace[3 * i + 2] - inc.position[2]);
      if (d < bd) { bd = d; best = i; }
    }
    const T = tangent(best);
    const sign = inc.flange && dot(cross(inc.web, T), inc.flange) < 0 ? -1 : 1;
    if (!params.some((p) => Math.abs(p.s - s[best]) < 1e-6 && dot(p.inc.web, inc.web) > 0.999)) params.push({ s: s[best], inc, sign });
  }
  params.sort((a, b) => a.s - b.s);
  const F = new Float64Array(3 * n), W = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const T = tangent(i);
    let w: Vec3, sign = 1;
    if (params.length === 0) {
      w = perpendicular(T);
    } else {
      let k = 0;
      while (k + 1 < params.length && params[k + 1].s <= s[i]) k++;
      const p0 = params[k], p1 = params[Math.min(k + 1, params.length - 1)];
      const f = p1.s > p0.s ? Math.max(0, Math.min(1, (s[i] - p0.s) / (p1.s - p0.s))) : 0;
      w = [p0.inc.web[0] * (1 - f) + p1.inc.web[0] * f, p0.inc.web[1] * (1 - f) + p1.inc.web[1] * f, p0.inc.web[2] * (1 - f) + p1.inc.web[2] * f];
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

/**
 * Sweeps a section along a trace. @param offU/@param offV section offsets (mm) already including any
 * plate-thickness shift. @returns the mesh and the trace length (mm).
 */
export function meshMember(section: SectionPolygon, trace: number[], incl: Inclination[], offU: number, offV: number): { mesh: MeshBuilder; length: number; centroid: Vec3 } {
  const mb = new MeshBuilder();
  const frames = traceFrames(trace, incl);
  sweepSection(mb, section, trace, frames, offU, offV);
  // volume centroid: the section centroid carried along the trace, weighted by segment length (exact
  // for straight traces; independent of the mesh's triangle orientation)
  const [uc, vc] = sectionCentroid(section);
  const n = trace.length / 3;
  let L = 0;
  const c: Vec3 = [0, 0, 0];
  for (let i = 1; i < n; i++) {
    const l = Math.hypot(trace[3 * i] - trace[3 * i - 3], trace[3 * i + 1] - trace[3 * i - 2], trace[3 * i + 2] - trace[3 * i - 1]);
    for (let k = 0; k < 3; k++) {
      const p = (trace[3 * i + k] + trace[3 * i - 3 + k]) / 2;
      const f = (frames.F[3 * i + k] + frames.F[3 * i - 3 + k]) / 2, w = (frames.W[3 * i + k] + frames.W[3 * i - 3 + k]) / 2;
      c[k] += l * (p + (uc + offU) * f + (vc + offV) * w);
    }
    L += l;
  }
  return { mesh: mb, length: polylineLength(trace), centroid: L > 0 ? [c[0] / L, c[1] / L, c[2] / L] : [NaN, NaN, NaN] };
}

/** Area centroid (u, v) of a section polygon (outer minus inner), mm. */
export function sectionCentroid(section: SectionPolygon): [number, number] {
  const acc = (r: number[], sign: number, out: number[]) => {
    const m = r.length / 2;
    let a = 0, cu = 0, cv = 0;
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
