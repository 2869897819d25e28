/**
 * Sweeps a section polygon along a trace polyline (OCX_GUIDE §5.3.2): one ring per trace sample, vertex
 * = C(s) + (u + offU)·F(s) + (v + offV)·W(s); side faces with per-edge normals, earcut end caps. The
 * caller supplies the frame (F, W) per sample. Units: mm.
 */
import earcut from 'earcut';
import type { SectionPolygon } from './barSections';
import type { MeshBuilder } from './MeshBuilder';
import { hypot2, hypot3 } from './curves';

/** Per-sample frames: F (flange/u) and W (web/v) unit vectors, xyz triplets, one per trace point. */
export interface SweepFrames {
  F: Float64Array;
  W: Float64Array;
}

function ccw(r: number[]): boolean {
  let s = 0;
  const n = r.length / 2;
  for (let i = 0, j = n - 1; i < n; j = i++) s += r[2 * j] * r[2 * i + 1] - r[2 * i] * r[2 * j + 1];
  return s > 0;
}

/** Re-orders earcut triangles so that each is counter-clockwise in (u, v). */
export function ccwTriangles(flat: ArrayLike<number>, tris: number[]): number[] {
  for (let t = 0; t + 2 < tris.length; t += 3) {
    const a = tris[t],
      b = tris[t + 1],
      c = tris[t + 2];
    const cr =
      (flat[2 * b] - flat[2 * a]) * (flat[2 * c + 1] - flat[2 * a + 1]) -
      (flat[2 * b + 1] - flat[2 * a + 1]) * (flat[2 * c] - flat[2 * a]);
    if (cr < 0) {
      tris[t + 1] = c;
      tris[t + 2] = b;
    }
  }
  return tris;
}

function rev(r: number[]): number[] {
  const out: number[] = [];
  for (let i = r.length - 2; i >= 0; i -= 2) out.push(r[i], r[i + 1]);
  return out;
}

/**
 * Section point (u, v) (mm, before the offsets) at trace sample s in world coordinates, into out: a
 * module function rather than a closure made per member (whose optimised code V8 lets go with it).
 */
function world(
  trace: ArrayLike<number>,
  frames: SweepFrames,
  offU: number,
  offV: number,
  s: number,
  u: number,
  v: number,
  out: number[],
): void {
  const uu = u + offU,
    vv = v + offV;
  for (let k = 0; k < 3; k++) out[k] = trace[3 * s + k] + uu * frames.F[3 * s + k] + vv * frames.W[3 * s + k];
}

/**
 * Appends the swept solid to mb and the trace outline edges (section corners along the trace are not
 * added; the two end outlines are).
 * @param trace xyz triplets, ≥ 2 points; @param frames F and W per trace point; @param offU/offV mm.
 */
export function sweepSection(
  mb: MeshBuilder,
  section: SectionPolygon,
  trace: ArrayLike<number>,
  frames: SweepFrames,
  offU: number,
  offV: number,
): void {
  const ns = Math.floor(trace.length / 3);
  if (ns < 2) return;
  const outer = ccw(section.outer) ? section.outer : rev(section.outer);
  const inner = section.inner ? (ccw(section.inner) ? rev(section.inner) : section.inner) : null; // inner CW
  // T·(F×W) sign decides whether (u, v) → world keeps or flips orientation
  const t0 = [trace[3] - trace[0], trace[4] - trace[1], trace[5] - trace[2]];
  const F0 = frames.F,
    W0 = frames.W;
  const c = [F0[1] * W0[2] - F0[2] * W0[1], F0[2] * W0[0] - F0[0] * W0[2], F0[0] * W0[1] - F0[1] * W0[0]];
  const flip = c[0] * t0[0] + c[1] * t0[1] + c[2] * t0[2] < 0;
  const p = [0, 0, 0],
    q = [0, 0, 0],
    r = [0, 0, 0],
    w = [0, 0, 0];
  for (const ring of inner ? [outer, inner] : [outer]) {
    const n = ring.length / 2;
    for (let e = 0; e < n; e++) {
      const a = e,
        b = (e + 1) % n;
      // outward normal of edge ab in (u, v) for a CCW ring: (dv, -du)
      const du = ring[2 * b] - ring[2 * a],
        dv = ring[2 * b + 1] - ring[2 * a + 1];
      const l = hypot2(du, dv) || 1;
      const nu = dv / l,
        nvv = -du / l;
      let prevA = -1,
        prevB = -1;
      for (let s = 0; s < ns; s++) {
        const nx = nu * frames.F[3 * s] + nvv * frames.W[3 * s];
        const ny = nu * frames.F[3 * s + 1] + nvv * frames.W[3 * s + 1];
        const nz = nu * frames.F[3 * s + 2] + nvv * frames.W[3 * s + 2];
        world(trace, frames, offU, offV, s, ring[2 * a], ring[2 * a + 1], p);
        world(trace, frames, offU, offV, s, ring[2 * b], ring[2 * b + 1], q);
        const ia = mb.vertex(p[0], p[1], p[2], nx, ny, nz);
        const ib = mb.vertex(q[0], q[1], q[2], nx, ny, nz);
        if (s > 0) {
          if (!flip) {
            mb.triangle(prevA, prevB, ib);
            mb.triangle(prevA, ib, ia);
          } else {
            mb.triangle(prevA, ib, prevB);
            mb.triangle(prevA, ia, ib);
          }
        }
        prevA = ia;
        prevB = ib;
      }
    }
  }
  // end caps
  const flat = inner ? [...outer, ...inner] : outer;
  const tris = ccwTriangles(flat, earcut(flat, inner ? [outer.length / 2] : undefined, 2));
  for (const [s, sign] of [
    [0, -1],
    [ns - 1, 1],
  ] as const) {
    const tx = trace[3 * Math.min(s + (s === 0 ? 1 : 0), ns - 1)] - trace[3 * Math.max(s - (s === 0 ? 0 : 1), 0)];
    const ty =
      trace[3 * Math.min(s + (s === 0 ? 1 : 0), ns - 1) + 1] - trace[3 * Math.max(s - (s === 0 ? 0 : 1), 0) + 1];
    const tz =
      trace[3 * Math.min(s + (s === 0 ? 1 : 0), ns - 1) + 2] - trace[3 * Math.max(s - (s === 0 ? 0 : 1), 0) + 2];
    const l = hypot3(tx, ty, tz) || 1;
    const base = mb.vertexCount;
    for (let i = 0; i < flat.length; i += 2) {
      world(trace, frames, offU, offV, s, flat[i], flat[i + 1], r);
      mb.vertex(r[0], r[1], r[2], (sign * tx) / l, (sign * ty) / l, (sign * tz) / l);
    }
    const outward = sign > 0 !== flip;
    for (let t = 0; t < tris.length; t += 3)
      if (outward) mb.triangle(base + tris[t], base + tris[t + 1], base + tris[t + 2]);
      else mb.triangle(base + tris[t], base + tris[t + 2], base + tris[t + 1]);
    for (const ring of inner ? [outer, inner] : [outer]) {
      const n = ring.length / 2;
      for (let e = 0; e < n; e++) {
        world(trace, frames, offU, offV, s, ring[2 * e], ring[2 * e + 1], r);
        world(trace, frames, offU, offV, s, ring[(2 * e + 2) % ring.length], ring[(2 * e + 3) % ring.length], w);
        mb.edge(r[0], r[1], r[2], w[0], w[1], w[2]);
      }
    }
  }
}
