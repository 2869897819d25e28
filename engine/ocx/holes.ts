/**
 * Cut-out outlines in world mm (OCX_GUIDE §2.12, §2.15, §5.2.4): Hole2DContour = catalogue Hole2D shape
 * (ParametricCircle, RectangularHole, SymmetricalHole, SuperElliptical, RectangularMickeyMouseEars,
 * Contour) placed with its Transformation (P = Origin + x·PrimaryAxis + y·SecondaryAxis, axes as given);
 * InnerContour / SlotContour = explicit 3D curves chained into loops.
 */
import polygonClipping from 'polygon-clipping';
import { chainLoops } from '../geometry/chainLoops';
import { hypot2, cross, normalize, type Vec3 } from '../geometry/curves';
import { curveSegments, directionOf, type CurveContext } from './curveRead';
import { child, num, type XNode } from './xmlTree';

/**
 * The normal of the placing frame (PrimaryAxis × SecondaryAxis) of a Hole2DContour's world loops: the
 * direction along which the hole is projected onto a curved plate (OCX_GUIDE §5.2.4).
 */
const HOLE_AXES = new WeakMap<number[], Vec3>();

/** The projection direction of a hole loop made by holeOutline, when it was placed by a frame. */
export function holeAxis(loop: number[]): Vec3 | undefined {
  return HOLE_AXES.get(loop);
}

/** A resolved cut-out: world loops (xyz mm, closed, no repeated point) and a short shape description. */
export interface HoleOutline {
  loops: number[][];
  shape: string;
}

/**
 * Local 2D outline (xy pairs, mm) of a catalogue Hole2D, or a string with the reason it has none. A
 * Contour whose points leave the local plane z = 0 (3DEXPERIENCE writes the catalogue contour in global
 * coordinates, its Transformation the identity) also gives its 3D loops in `loops3` (mm).
 */
export function holeShape2d(
  hole: XNode,
  ctx: CurveContext,
): { ring: number[][]; shape: string; loops3?: number[][] } | string {
  const L = (n: XNode | undefined) => (ctx.units.value(n, 'length') ?? NaN) * 1000;
  for (const s of hole.c) {
    const H = L(child(s, 'Height')),
      W = L(child(s, 'Width'));
    switch (s.n) {
      case 'ParametricCircle': {
        const d = L(child(s, 'Diameter'));
        if (!(d > 0)) return 'ParametricCircle without Diameter';
        return { ring: [roundedRect(d, d, d / 2)], shape: `Circle D${fmt(d)}` };
      }
      case 'RectangularHole': {
        if (!(H > 0 && W > 0)) return 'RectangularHole without Height/Width';
        const fr = child(s, 'FilletRadius') ? L(child(s, 'FilletRadius')) : Math.min(H, W) / 2;
        return { ring: [roundedRect(W, H, Number.isFinite(fr) ? fr : 0)], shape: `Rectangle ${fmt(W)}x${fmt(H)}` };
      }
      case 'SymmetricalHole':
        if (!(H > 0 && W > 0)) return 'SymmetricalHole without Height/Width';
        return { ring: [roundedRect(W, H, Math.min(H, W) / 2)], shape: `Oblong ${fmt(W)}x${fmt(H)}` };
      case 'RectangularMickeyMouseEars':
        if (!(H > 0 && W > 0)) return 'RectangularMickeyMouseEars without Height/Width';
        return {
          ring: [mickeyMouse(W, H, L(child(s, 'Radius')), child(s, 'Displacement') ? L(child(s, 'Displacement')) : 0)],
          shape: `MickeyMouse ${fmt(W)}x${fmt(H)}`,
        };
      case 'SuperElliptical': {
        if (!(H > 0 && W > 0)) return 'SuperElliptical without Height/Width';
        const e = num(s.a.exponent) ?? 2;
        const out: number[] = [];
        const n = 64;
        for (let i = 0; i < n; i++) {
          const t = (2 * Math.PI * i) / n,
            c = Math.cos(t),
            si = Math.sin(t);
          // Height = semi-axis along x, Width = semi-axis along y (§2.15)
          out.push(H * Math.sign(c) * Math.abs(c) ** (2 / e), W * Math.sign(si) * Math.abs(si) ** (2 / e));
        }
        return { ring: [out], shape: `SuperEllipse ${fmt(2 * H)}x${fmt(2 * W)} e${e}` };
      }
      case 'Contour': {
        const { loops } = chainLoops(curveSegments(s, ctx), 0.01, 1);
        if (!loops.length) return 'Contour hole without a closed curve';
        const ring = loops.map((l) => l.filter((_, i) => i % 3 !== 2));
        const flat = loops.every((l) => l.every((v, i) => i % 3 !== 2 || Math.abs(v) <= LOCAL_PLANE_MM));
        return flat ? { ring, shape: 'Contour' } : { ring, shape: 'Contour', loops3: loops };
      }
    }
  }
  return `Hole2D ${hole.a.id ?? ''} has no known shape`;
}

/** Largest |z| (mm) of a catalogue contour point still taken as lying in the hole's local xy plane. */
const LOCAL_PLANE_MM = 1;

const fmt = (v: number) => String(Math.round(v * 10) / 10);

/** Rectangle W × H centred on the origin with corner fillets of radius r (r = min/2 gives an oblong). */
function roundedRect(W: number, H: number, r: number): number[] {
  r = Math.max(0, Math.min(r, W / 2, H / 2));
  const out: number[] = [];
  const cx = W / 2 - r,
    cy = H / 2 - r;
  const corners: [number, number, number][] = [
    [cx, cy, 0],
    [-cx, cy, Math.PI / 2],
    [-cx, -cy, Math.PI],
    [cx, -cy, 1.5 * Math.PI],
  ];
  // segments per quarter: chordal error ≤ 0.1 mm (at least 8)
  const seg = r > 0 ? Math.max(8, Math.ceil(Math.PI / 2 / (2 * Math.acos(Math.max(-1, 1 - 0.1 / r))))) : 0;
  for (const [x, y, a0] of corners) {
    if (seg === 0) {
      out.push(x, y);
      continue;
    }
    for (let i = 0; i <= seg; i++) {
      const t = a0 + ((Math.PI / 2) * i) / seg;
      out.push(x + r * Math.cos(t), y + r * Math.sin(t));
    }
  }
  return dedupe2(out);
}

function dedupe2(r: number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < r.length; i += 2) {
    const n = out.length;
    if (n >= 2 && hypot2(r[i] - out[n - 2], r[i + 1] - out[n - 1]) < 1e-6) continue;
    out.push(r[i], r[i + 1]);
  }
  if (out.length >= 4 && hypot2(out[0] - out[out.length - 2], out[1] - out[out.length - 1]) < 1e-6) out.length -= 2;
  return out;
}

/**
 * Distance (mm) of a point from the surface of the part a hole cuts, when that surface is known (a
 * plane): decides whether a 3D catalogue contour is already in global coordinates.
 */
export type SurfaceDistance = (x: number, y: number, z: number) => number;

/**
 * World outline of a HOLE record (Hole2DContour, InnerContour, SlotContour). A Hole2D Contour given in 3D
 * (points off its local plane) is read both ways — as global coordinates and as local (x, y, z) placed by
 * the Transformation's frame — and the reading that lies on the cut part's surface (`distance`) wins;
 * without a known surface the placed reading (the same when the Transformation is the identity).
 * @returns the outline, or a string saying why it cannot be built.
 */
export function holeOutline(
  node: XNode,
  catalogue: Map<string, XNode>,
  ctx: CurveContext,
  distance?: SurfaceDistance,
): HoleOutline | string {
  if (node.n !== 'Hole2DContour') {
    const { loops } = chainLoops(curveSegments(node, ctx), 0.01, 1);
    return loops.length ? { loops, shape: node.n } : `${node.n} has no closed curve`;
  }
  const ref = child(node, 'HoleRef')?.a.localRef ?? '';
  const hole = catalogue.get(ref);
  if (!hole) return `HoleRef to unknown Hole2D "${ref}"`;
  const shape = holeShape2d(hole, ctx);
  if (typeof shape === 'string') return shape;
  const tr = child(node, 'Transformation');
  const o: Vec3 = ctx.units.pointMm(child(tr, 'Origin')) ?? [0, 0, 0];
  const px = normalize(directionOf(child(tr, 'PrimaryAxis')) ?? [1, 0, 0]);
  const py = normalize(directionOf(child(tr, 'SecondaryAxis')) ?? [0, 1, 0]);
  if (shape.loops3) {
    const pz = normalize(cross(px, py));
    const placed = shape.loops3.map((l) => {
      const out: number[] = [];
      for (let i = 0; i < l.length; i += 3) {
        const x = l[i],
          y = l[i + 1],
          z = l[i + 2];
        for (let k = 0; k < 3; k++) out.push(o[k] + x * px[k] + y * py[k] + z * pz[k]);
      }
      return out;
    });
    const global = distance && meanDistance(shape.loops3, distance) < meanDistance(placed, distance);
    const loops = global ? shape.loops3 : placed;
    for (const l of loops) HOLE_AXES.set(l, pz);
    return { loops, shape: `${hole.a.name ?? ref}: ${shape.shape}` };
  }
  const loops = shape.ring.map((r) => {
    const out: number[] = [];
    for (let i = 0; i < r.length; i += 2) {
      const x = r[i],
        y = r[i + 1];
      out.push(o[0] + x * px[0] + y * py[0], o[1] + x * px[1] + y * py[1], o[2] + x * px[2] + y * py[2]);
    }
    return out;
  });
  const axis = normalize(cross(px, py));
  for (const l of loops) HOLE_AXES.set(l, axis);
  return { loops, shape: `${hole.a.name ?? ref}: ${shape.shape}` };
}

/** Mean distance (mm) of the loops' points from a surface. */
function meanDistance(loops: number[][], distance: SurfaceDistance): number {
  let s = 0,
    n = 0;
  for (const l of loops) for (let i = 0; i + 2 < l.length; i += 3, n++) s += distance(l[i], l[i + 1], l[i + 2]);
  return n ? s / n : Infinity;
}

/**
 * RectangularMickeyMouseEars (schema 3.1: "a rectangular hole with corner radii in the form of Mickey
 * Mouse ears"; not in the corpus): the W × H rectangle (Width along local x) united with a circle of
 * radius R at each corner, its centre moved from the corner towards the hole's centre by Displacement
 * along both axes (0 when absent: the ears are centred on the corners). Without a usable radius the
 * plain rectangle. xy pairs, mm, counter-clockwise.
 */
export function mickeyMouse(W: number, H: number, R: number, disp: number): number[] {
  const rect = roundedRect(W, H, 0);
  if (!(R > 0) || !Number.isFinite(disp)) return rect;
  const toRing = (r: number[]): [number, number][] => {
    const out: [number, number][] = [];
    for (let i = 0; i < r.length; i += 2) out.push([r[i], r[i + 1]]);
    out.push(out[0]);
    return out;
  };
  const ears = [-1, 1].flatMap((sx) =>
    [-1, 1].map((sy) => {
      const cx = sx * (W / 2 - disp),
        cy = sy * (H / 2 - disp),
        ring: number[] = [];
      for (let i = 0; i < 48; i++)
        ring.push(cx + R * Math.cos((2 * Math.PI * i) / 48), cy + R * Math.sin((2 * Math.PI * i) / 48));
      return [toRing(ring)];
    }),
  );
  const u = polygonClipping.union([toRing(rect)], ...ears);
  const outer = u[0]?.[0];
  return outer ? outer.slice(0, -1).flat() : rect;
}
