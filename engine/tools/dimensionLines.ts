/**
 * Dimension lines of surface-object parameters (viewer.md §3 "Surface object", §5 "A parameter with
 * value zero draws no dimension line", §9 "Drawing": parameter values in mm (value × 1000, no decimals),
 * radius prefixed 'R ', arrow head 50). Pure geometry: the input is the API shape
 * (points and lengths in m, angles in degrees), the output world segments and a label in mm.
 */
import type { SurfaceObjectInput, SurfaceParameterInput } from '../EngineApi';

/** Arrow head length, mm (viewer.md §9). */
export const ARROW_HEAD_MM = 50;
/** Segments of an angle arc. */
const ARC_STEPS = 24;

/** A dimension: segments (x0 y0 z0 x1 y1 z1)*, mm, and its label. */
export interface Dimension {
  object: string;
  parameterType: SurfaceParameterInput['parameterType'];
  segments: number[];
  label: { text: string; position: [number, number, number] };
}

type V = [number, number, number];
const mm = (p: { x: number; y: number; z: number }): V => [p.x * 1000, p.y * 1000, p.z * 1000];
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a: V, b: V): V => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const mul = (a: V, s: number): V => [a[0] * s, a[1] * s, a[2] * s];
const len = (a: V) => Math.hypot(a[0], a[1], a[2]);
const cross = (a: V, b: V): V => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a: V): V => {
  const l = len(a);
  return l > 0 ? mul(a, 1 / l) : [0, 0, 0];
};

/** Label text of a parameter: mm without decimals ('R ' before a radius), degrees for an angle. */
export function parameterText(p: SurfaceParameterInput): string {
  if (p.parameterType === 'angle') return `${Math.round(p.parameterValue)}°`;
  const v = String(Math.round(p.parameterValue * 1000));
  return p.parameterType === 'radius' ? `R ${v}` : v;
}

/** A unit vector perpendicular to `d` lying in the plane with normal `n` (or any perpendicular). */
function sideways(d: V, n: V | null): V {
  let s = n ? cross(n, d) : ([0, 0, 0] as V);
  if (len(s) < 1e-9) s = cross(d, Math.abs(d[2]) < 0.9 ? [0, 0, 1] : [1, 0, 0]);
  return norm(s);
}

/** Two arrow-head strokes at `tip` pointing along `dir` (unit), in the plane spanned with `side`. */
function arrow(tip: V, dir: V, side: V, out: number[]): void {
  const back = mul(dir, -ARROW_HEAD_MM),
    w = mul(side, ARROW_HEAD_MM * 0.35);
  out.push(...tip, ...add(add(tip, back), w), ...tip, ...add(add(tip, back), mul(w, -1)));
}

/**
 * The dimension of one parameter, or null when it draws nothing: a zero value, or points missing for
 * its type. length / horizontalLength / verticalLength / radius: the line start → end with arrow heads
 * (radius: at the end only), label at the middle; angle: an arc at angleVertex from startPoint (or
 * startAngle, degrees) sweeping the value, label at the arc's middle.
 */
export function parameterDimension(object: SurfaceObjectInput, p: SurfaceParameterInput): Dimension | null {
  if (!Number.isFinite(p.parameterValue) || p.parameterValue === 0) return null;
  const n: V | null = object.definitionPlane
    ? norm([object.definitionPlane.normal.nx, object.definitionPlane.normal.ny, object.definitionPlane.normal.nz])
    : null;
  const segments: number[] = [];
  const text = parameterText(p);
  if (p.parameterType === 'angle') {
    if (!p.angleVertex) return null;
    const c = mm(p.angleVertex);
    const axis: V = n && len(n) > 0 ? n : [0, 0, 1];
    let u: V, r: number;
    if (p.startPoint) {
      const d = sub(mm(p.startPoint), c);
      r = len(d) || 500;
      u = norm(d);
    } else {
      r = 500;
      const base = sideways(axis, null);
      const a0 = ((p.startAngle ?? 0) * Math.PI) / 180;
      u = add(mul(base, Math.cos(a0)), mul(cross(axis, base), Math.sin(a0)));
    }
    const v = norm(cross(axis, u));
    const sweep = (p.parameterValue * Math.PI) / 180;
    const at = (t: number): V => add(c, add(mul(u, r * Math.cos(t)), mul(v, r * Math.sin(t))));
    for (let i = 0; i < ARC_STEPS; i++)
      segments.push(...at((sweep * i) / ARC_STEPS), ...at((sweep * (i + 1)) / ARC_STEPS));
    segments.push(...c, ...at(0), ...c, ...at(sweep));
    return { object: object.name, parameterType: p.parameterType, segments, label: { text, position: at(sweep / 2) } };
  }
  if (!p.startPoint || !p.endPoint) return null;
  const a = mm(p.startPoint),
    b = mm(p.endPoint);
  const d = sub(b, a);
  if (len(d) === 0) return null;
  const dir = norm(d),
    side = sideways(dir, n);
  segments.push(...a, ...b);
  arrow(b, dir, side, segments);
  if (p.parameterType !== 'radius') arrow(a, mul(dir, -1), side, segments);
  return {
    object: object.name,
    parameterType: p.parameterType,
    segments,
    label: { text, position: mul(add(a, b), 0.5) },
  };
}

/** All dimensions of the surface objects (parameters that draw nothing left out). */
export function surfaceDimensions(objects: readonly SurfaceObjectInput[]): Dimension[] {
  const out: Dimension[] = [];
  for (const o of objects)
    for (const p of o.parameters ?? []) {
      const d = parameterDimension(o, p);
      if (d) out.push(d);
    }
  return out;
}
