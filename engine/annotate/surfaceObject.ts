/**
 * Surface objects of planar parts (viewer.md §3 "Surface object" / "Parameter", §7 "Geometry"):
 * the definition plane (centroid + normal of the part's largest planar face,
 * planarFace.ts) and parameters read from its outline in that plane (outlineSegments.ts):
 *
 * - a box-like outline (convex, straight edges only along two perpendicular directions: rectangles,
 *   rounded rectangles, slots) gives its overall width and height as horizontalLength / verticalLength
 *   (horizontal = the direction nearer the plane's u axis), plus a 'radius' per arc;
 * - a circle gives one 'radius';
 * - another curved convex outline (an ellipse) gives its width and height along its principal axes;
 * - any other outline gives a 'length' per straight edge of at least 1 % of the part size (the outline's
 *   diagonal) and a 'radius' per arc;
 * - a bracket (option `bracket`) is never box-like and also gives the 'angle' between its two arms at their lines' meeting
 *   point (angleVertex), startAngle = direction of the first arm in the plane axes (degrees), the arc
 *   sweeping counter-clockwise about the normal from the first arm to the second.
 *
 * Output is the API shape: points and lengths in metres (rounded to 1 µm), angles in degrees. A radius
 * runs from the circle's centre (startPoint) to the arc's middle (endPoint).
 */
import { centroid2, findPlanarFace, type P3, type PartGeometry, type PlanarFace } from './planarFace';
import { segmentOutline, type ArcElement, type LineElement, type OutlineElement } from './outlineSegments';

/** A point in metres (API shape). */
export interface PointM {
  x: number;
  y: number;
  z: number;
}

/** A surface-object parameter (viewer.md §3): points and values in m, angles in degrees. */
export interface SurfaceParameter {
  parameterType: 'length' | 'angle' | 'horizontalLength' | 'verticalLength' | 'radius';
  /** m for lengths and radii, degrees for an angle. */
  parameterValue: number;
  startPoint?: PointM;
  endPoint?: PointM;
  cornerPoint?: PointM;
  angleVertex?: PointM;
  /** Degrees, direction of the first arm measured in coordinateSystem's axes (angle parameters). */
  startAngle?: number;
  /** The plane's frame: origin (m) and unit axes [u, v, normal] (angle parameters). */
  coordinateSystem?: { origin: PointM; axes: [PointM, PointM, PointM] };
}

/** A surface object (viewer.md §3): name, definition plane (point in m, unit normal), parameters. */
export interface SurfaceObject {
  name: string;
  definitionPlane: { point: PointM; normal: { nx: number; ny: number; nz: number } };
  parameters: SurfaceParameter[];
}

/** Options of deriveSurfaceObject. */
export interface SurfaceObjectOptions {
  /** The part is a bracket: add the angle between its arms. */
  bracket?: boolean;
  /** Geometric tolerance, mm (plane membership, arc fit); default 0.5. Raise it for quantised geometry. */
  tolerance?: number;
}

/** Straight edges shorter than this share of the part size are skipped. */
export const MIN_LENGTH_SHARE = 0.01;

type Pt = [number, number];
const r6 = (x: number) => Math.round(x * 1e6) / 1e6;
const deg = (rad: number) => (rad * 180) / Math.PI;

/**
 * The surface object of one part, or null when the part is not planar (no planar face holding ≥ 30 %
 * of its area, or an outline that is no closed planar loop). `geometry` is in world mm.
 */
export function deriveSurfaceObject(
  name: string,
  geometry: PartGeometry,
  options: SurfaceObjectOptions = {},
): SurfaceObject | null {
  const tol = options.tolerance ?? 0.5;
  const face = findPlanarFace(geometry, { planeTolerance: tol });
  if (!face) return null;
  const { origin, normal } = face.frame;
  return {
    name,
    definitionPlane: { point: toM(origin), normal: { nx: r6(normal[0]), ny: r6(normal[1]), nz: r6(normal[2]) } },
    parameters: faceParameters(face, options.bracket ?? false, Math.min(tol, 0.5)),
  };
}

/** Parameters of a planar face's outer loop (see the file comment). */
export function faceParameters(face: PlanarFace, bracket: boolean, tolerance = 0.1): SurfaceParameter[] {
  const loop = face.loops[0];
  const els = segmentOutline(loop, { tolerance });
  if (els.length === 0) return [];
  const at = (p: Pt): PointM => toM(to3(face, p));
  const [x0, y0, x1, y1] = bounds(loop);
  const size = Math.hypot(x1 - x0, y1 - y0);
  const lines = els.filter((e): e is LineElement => e.kind === 'line');
  const arcs = els.filter((e): e is ArcElement => e.kind === 'arc');
  const radius = (a: ArcElement): SurfaceParameter => ({
    parameterType: 'radius',
    parameterValue: r6(a.radius / 1000),
    startPoint: at(a.center),
    endPoint: at(a.mid),
  });
  const out: SurfaceParameter[] = [];
  if (arcs.length === 1 && arcs[0].full) return [radius(arcs[0])];
  const convex = isConvex(loop);
  const longest = lines.reduce<LineElement | null>((b, l) => (!b || l.length > b.length ? l : b), null);
  const dir = longest ? angleOf(longest) : principalAngle(loop);
  const aligned = lines.every((l) => {
    const d = Math.abs((((angleOf(l) - dir) % (Math.PI / 2)) + Math.PI / 2) % (Math.PI / 2));
    return Math.min(d, Math.PI / 2 - d) < (0.5 * Math.PI) / 180;
  });
  if (
    !bracket &&
    convex &&
    aligned &&
    lines.length <= 4 &&
    (lines.length > 0 || !arcs.length || els.some((e) => e.kind === 'curve'))
  ) {
    out.push(...boxDimensions(loop, dir, at));
    out.push(...arcs.map(radius));
  } else {
    for (const l of lines)
      if (l.length >= MIN_LENGTH_SHARE * size)
        out.push({
          parameterType: 'length',
          parameterValue: r6(l.length / 1000),
          startPoint: at(l.a),
          endPoint: at(l.b),
        });
    out.push(...arcs.map(radius));
  }
  if (bracket) {
    const a = bracketAngle(face, lines, size, at);
    if (a) out.push(a);
  }
  return out;
}

/** Overall width and height of the loop along `dir` and its perpendicular (horizontal = nearer the u axis). */
function boxDimensions(loop: number[], dir: number, at: (p: Pt) => PointM): SurfaceParameter[] {
  // Use the axis pair so that the first axis is the one closest to u (angle within ±45°).
  let a = ((dir % (Math.PI / 2)) + Math.PI / 2) % (Math.PI / 2);
  if (a > Math.PI / 4) a -= Math.PI / 2;
  const e1: Pt = [Math.cos(a), Math.sin(a)],
    e2: Pt = [-Math.sin(a), Math.cos(a)];
  let s0 = Infinity,
    s1 = -Infinity,
    t0 = Infinity,
    t1 = -Infinity;
  for (let i = 0; i < loop.length; i += 2) {
    const s = loop[i] * e1[0] + loop[i + 1] * e1[1],
      t = loop[i] * e2[0] + loop[i + 1] * e2[1];
    s0 = Math.min(s0, s);
    s1 = Math.max(s1, s);
    t0 = Math.min(t0, t);
    t1 = Math.max(t1, t);
  }
  const P = (s: number, t: number): Pt => [s * e1[0] + t * e2[0], s * e1[1] + t * e2[1]];
  const corner = at(P(s0, t0));
  return [
    {
      parameterType: 'horizontalLength',
      parameterValue: r6((s1 - s0) / 1000),
      startPoint: corner,
      endPoint: at(P(s1, t0)),
      cornerPoint: corner,
    },
    {
      parameterType: 'verticalLength',
      parameterValue: r6((t1 - t0) / 1000),
      startPoint: corner,
      endPoint: at(P(s0, t1)),
      cornerPoint: corner,
    },
  ];
}

/**
 * The bracket's arms: of the pairs of straight edges, each at least 40 % of the longest, whose lines
 * meet at 20°–160° near one end of each (within 35 % of the edge's length) with the face's centroid
 * inside the wedge, the pair nearest a right angle (then the longer pair). null when there is none.
 */
function bracketAngle(
  face: PlanarFace,
  lines: LineElement[],
  size: number,
  at: (p: Pt) => PointM,
): SurfaceParameter | null {
  const longest = Math.max(0, ...lines.map((l) => l.length));
  const arms = lines.filter((l) => l.length >= 0.4 * longest && l.length >= MIN_LENGTH_SHARE * size);
  const c = centroid2(face.loops[0]);
  let best: { score: number; vertex: Pt; d1: Pt; d2: Pt; reach: number } | null = null;
  for (let i = 0; i < arms.length; i++)
    for (let j = i + 1; j < arms.length; j++) {
      const A = arms[i],
        B = arms[j];
      const V = intersect(A, B);
      if (!V) continue;
      const far = (l: LineElement): Pt | null => {
        const da = Math.hypot(l.a[0] - V[0], l.a[1] - V[1]),
          db = Math.hypot(l.b[0] - V[0], l.b[1] - V[1]);
        if (Math.min(da, db) > 0.35 * l.length) return null;
        const f = da > db ? l.a : l.b,
          d = Math.hypot(f[0] - V[0], f[1] - V[1]);
        return [(f[0] - V[0]) / d, (f[1] - V[1]) / d];
      };
      let d1 = far(A),
        d2 = far(B);
      if (!d1 || !d2) continue;
      const angle = Math.acos(Math.max(-1, Math.min(1, d1[0] * d2[0] + d1[1] * d2[1])));
      if (angle < (20 * Math.PI) / 180 || angle > (160 * Math.PI) / 180) continue;
      // Counter-clockwise from d1 to d2 about the normal.
      if (d1[0] * d2[1] - d1[1] * d2[0] < 0) [d1, d2] = [d2, d1];
      const w: Pt = [c[0] - V[0], c[1] - V[1]];
      if (d1[0] * w[1] - d1[1] * w[0] < 0 || w[0] * d2[1] - w[1] * d2[0] < 0) continue;
      const score = Math.abs(angle - Math.PI / 2) - 1e-9 * (A.length + B.length);
      if (!best || score < best.score) best = { score, vertex: V, d1, d2, reach: 0.4 * Math.min(A.length, B.length) };
    }
  if (!best) return null;
  const { vertex: V, d1, d2, reach } = best;
  const angle = deg(Math.acos(Math.max(-1, Math.min(1, d1[0] * d2[0] + d1[1] * d2[1]))));
  const { u, v, normal } = face.frame;
  const vec = (p: P3): PointM => ({ x: r6(p[0]), y: r6(p[1]), z: r6(p[2]) });
  return {
    parameterType: 'angle',
    parameterValue: Math.round(angle * 1e4) / 1e4,
    angleVertex: at(V),
    startPoint: at([V[0] + d1[0] * reach, V[1] + d1[1] * reach]),
    endPoint: at([V[0] + d2[0] * reach, V[1] + d2[1] * reach]),
    startAngle: Math.round(deg(Math.atan2(d1[1], d1[0])) * 1e4) / 1e4,
    coordinateSystem: { origin: at(V), axes: [vec(u), vec(v), vec(normal)] },
  };
}

/** Meeting point of the lines through two edges, or null when they are parallel. */
function intersect(A: LineElement, B: LineElement): Pt | null {
  const r: Pt = [A.b[0] - A.a[0], A.b[1] - A.a[1]],
    s: Pt = [B.b[0] - B.a[0], B.b[1] - B.a[1]];
  const den = r[0] * s[1] - r[1] * s[0];
  if (Math.abs(den) < 1e-9 * Math.hypot(...r) * Math.hypot(...s)) return null;
  const t = ((B.a[0] - A.a[0]) * s[1] - (B.a[1] - A.a[1]) * s[0]) / den;
  return [A.a[0] + t * r[0], A.a[1] + t * r[1]];
}

const angleOf = (l: LineElement) => Math.atan2(l.b[1] - l.a[1], l.b[0] - l.a[0]);

/** Direction (radians) of the loop's principal axis (vertex covariance). */
function principalAngle(loop: number[]): number {
  const n = loop.length / 2;
  let mx = 0,
    my = 0;
  for (let i = 0; i < loop.length; i += 2) {
    mx += loop[i] / n;
    my += loop[i + 1] / n;
  }
  let sxx = 0,
    syy = 0,
    sxy = 0;
  for (let i = 0; i < loop.length; i += 2) {
    const x = loop[i] - mx,
      y = loop[i + 1] - my;
    sxx += x * x;
    syy += y * y;
    sxy += x * y;
  }
  const a = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  // Axis-aligned within 1°: keep the plane axes.
  return Math.abs(Math.sin(2 * a)) < Math.sin((2 * Math.PI) / 180) ? 0 : a;
}

/** True when no vertex of the counter-clockwise loop turns clockwise by more than 1°. */
function isConvex(loop: number[]): boolean {
  const n = loop.length / 2;
  for (let i = 0; i < n; i++) {
    const a = (i + n - 1) % n,
      b = (i + 1) % n;
    const ux = loop[i * 2] - loop[a * 2],
      uy = loop[i * 2 + 1] - loop[a * 2 + 1],
      vx = loop[b * 2] - loop[i * 2],
      vy = loop[b * 2 + 1] - loop[i * 2 + 1];
    if (Math.atan2(ux * vy - uy * vx, ux * vx + uy * vy) < (-1 * Math.PI) / 180) return false;
  }
  return true;
}

function bounds(loop: number[]): [number, number, number, number] {
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  for (let i = 0; i < loop.length; i += 2) {
    x0 = Math.min(x0, loop[i]);
    x1 = Math.max(x1, loop[i]);
    y0 = Math.min(y0, loop[i + 1]);
    y1 = Math.max(y1, loop[i + 1]);
  }
  return [x0, y0, x1, y1];
}

function to3(face: PlanarFace, p: Pt): P3 {
  const { origin: o, u, v } = face.frame;
  return [o[0] + p[0] * u[0] + p[1] * v[0], o[1] + p[0] * u[1] + p[1] * v[1], o[2] + p[0] * u[2] + p[1] * v[2]];
}

function toM(p: P3): PointM {
  return { x: r6(p[0] / 1000), y: r6(p[1] / 1000), z: r6(p[2] / 1000) };
}

/** Re-export for callers that only need the outline elements. */
export type { OutlineElement };
