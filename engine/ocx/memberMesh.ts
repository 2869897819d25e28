/**
 * Stiffeners, edge reinforcements and pillars (OCX_GUIDE §5.3): the catalogue bar section swept along
 * the TraceLine, oriented by the Inclinations' web (v) and flange (u) directions, shifted by the
 * SectionRef OffsetU/OffsetV. Units: mm.
 */
import { chainLoops, cross, dot, normalize, perpendicular, polylineLength, type Vec3 } from '../geometry/curves';
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
 * Joins trace segments into one open polyline (xyz mm). Segments are chained by nearest ends; separate
 * chains are joined in order.
 */
export function traceLine(segments: number[][], gapTol: number): number[] {
  if (segments.length === 1) return segments[0];
  const { loops } = chainLoops(segments, 0.001, gapTol);
  const out: number[] = [];
  for (const l of loops) for (const v of l) out.push(v);
  return out;
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
  // parameter of each inclination: nearest trace vertex (deduplicated by position)
  const params: { s: number; inc: Inclination }[] = [];
  for (const inc of incl) {
    let best = 0, bd = Infinity;
    for (let i = 0; i < n; i++) {
      const d = Math.hypot(trace[3 * i] - inc.position[0], trace[3 * i + 1] - inc.position[1], trace[3 * i + 2] - inc.position[2]);
      if (d < bd) { bd = d; best = i; }
    }
    if (!params.some((p) => Math.abs(p.s - s[best]) < 1e-6 && dot(p.inc.web, inc.web) > 0.999)) params.push({ s: s[best], inc });
  }
  params.sort((a, b) => a.s - b.s);
  const F = new Float64Array(3 * n), W = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const a = Math.max(0, i - 1), b = Math.min(n - 1, i + 1);
    const T = normalize([trace[3 * b] - trace[3 * a], trace[3 * b + 1] - trace[3 * a + 1], trace[3 * b + 2] - trace[3 * a + 2]]);
    let w: Vec3, fl: Vec3 | null = null;
    if (params.length === 0) {
      w = perpendicular(T);
    } else {
      let k = 0;
      while (k + 1 < params.length && params[k + 1].s <= s[i]) k++;
      const p0 = params[k], p1 = params[Math.min(k + 1, params.length - 1)];
      const f = p1.s > p0.s ? Math.max(0, Math.min(1, (s[i] - p0.s) / (p1.s - p0.s))) : 0;
      w = [p0.inc.web[0] * (1 - f) + p1.inc.web[0] * f, p0.inc.web[1] * (1 - f) + p1.inc.web[1] * f, p0.inc.web[2] * (1 - f) + p1.inc.web[2] * f];
      fl = (f < 0.5 ? p0 : p1).inc.flange;
    }
    w = normalize([w[0] - dot(w, T) * T[0], w[1] - dot(w, T) * T[1], w[2] - dot(w, T) * T[2]]);
    if (w[0] === 0 && w[1] === 0 && w[2] === 0) w = perpendicular(T);
    let fv = normalize(cross(w, T));
    if (fl && dot(fv, fl) < 0) fv = [-fv[0], -fv[1], -fv[2]];
    F.set(fv, 3 * i);
    W.set(w, 3 * i);
  }
  return { F, W };
}

/**
 * Sweeps a section along a trace. @param offU/@param offV section offsets (mm) already including any
 * plate-thickness shift. @returns the mesh and the trace length (mm).
 */
export function meshMember(section: SectionPolygon, trace: number[], incl: Inclination[], offU: number, offV: number): { mesh: MeshBuilder; length: number } {
  const mb = new MeshBuilder();
  const frames = traceFrames(trace, incl);
  sweepSection(mb, section, trace, frames, offU, offV);
  return { mesh: mb, length: polylineLength(trace) };
}
