/**
 * The nearest surface of a model to a point, over a SectionIndex (the revision's `.sc` geometry, decoded on
 * the server): for `POST .../geometry/surface-normals-at-points` (viewer.md §7 "Geometry"). World
 * millimetres.
 */
import { triangleCross } from '../geometry/meshMeasure';
import type { SectionIndex } from './SectionIndex';

/** The nearest triangle to a point: the object it belongs to, its unit normal and the distance (mm). */
export interface NearestSurface {
  /** Object index (the engine's node id). */
  object: number;
  /** Unit normal of the triangle, turned toward the point when the point lies off the surface. */
  normal: [number, number, number];
  /** Distance from the point to the triangle, mm. */
  distance: number;
}

/**
 * Squared distance from p to triangle abc (Ericson, Real-Time Collision Detection §5.1.5) and the closest
 * point's offset p − q written into `out`.
 */
function distance2(
  px: number,
  py: number,
  pz: number,
  t: ArrayLike<number>,
  a: number,
  b: number,
  c: number,
  out: number[],
): number {
  const ax = t[a],
    ay = t[a + 1],
    az = t[a + 2];
  const abx = t[b] - ax,
    aby = t[b + 1] - ay,
    abz = t[b + 2] - az;
  const acx = t[c] - ax,
    acy = t[c + 1] - ay,
    acz = t[c + 2] - az;
  const apx = px - ax,
    apy = py - ay,
    apz = pz - az;
  const d1 = abx * apx + aby * apy + abz * apz,
    d2 = acx * apx + acy * apy + acz * apz;
  let u = 0,
    w = 0; // q = a + u·ab + w·ac
  if (d1 <= 0 && d2 <= 0) {
    u = 0;
    w = 0;
  } else {
    const bpx = px - t[b],
      bpy = py - t[b + 1],
      bpz = pz - t[b + 2];
    const d3 = abx * bpx + aby * bpy + abz * bpz,
      d4 = acx * bpx + acy * bpy + acz * bpz;
    const cpx = px - t[c],
      cpy = py - t[c + 1],
      cpz = pz - t[c + 2];
    const d5 = abx * cpx + aby * cpy + abz * cpz,
      d6 = acx * cpx + acy * cpy + acz * cpz;
    const vc = d1 * d4 - d3 * d2,
      vb = d5 * d2 - d1 * d6,
      va = d3 * d6 - d5 * d4;
    if (d3 >= 0 && d4 <= d3) u = 1;
    else if (d6 >= 0 && d5 <= d6) w = 1;
    else if (vc <= 0 && d1 >= 0 && d3 <= 0) u = d1 / (d1 - d3);
    else if (vb <= 0 && d2 >= 0 && d6 <= 0) w = d2 / (d2 - d6);
    else if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
      w = (d4 - d3) / (d4 - d3 + (d5 - d6));
      u = 1 - w;
    } else {
      const den = 1 / (va + vb + vc);
      u = vb * den;
      w = vc * den;
    }
  }
  out[0] = apx - u * abx - w * acx;
  out[1] = apy - u * aby - w * acy;
  out[2] = apz - u * abz - w * acz;
  return out[0] * out[0] + out[1] * out[1] + out[2] * out[2];
}

/** Squared distance from p to a box [minX, minY, minZ, maxX, maxY, maxZ]. */
function boxDistance2(p: readonly number[], b: ArrayLike<number>): number {
  let s = 0;
  for (let k = 0; k < 3; k++) {
    const d = p[k] < b[k] ? b[k] - p[k] : p[k] > b[k + 3] ? p[k] - b[k + 3] : 0;
    s += d * d;
  }
  return s;
}

/**
 * The nearest triangle of the index to `point` (mm), optionally among `objects` only; null when the index
 * has no triangles. The search looks within a radius first (the index's slab query, then the box distance),
 * growing it fourfold until a triangle within it is found — ranges outside a radius cannot hold a nearer one —
 * and within it visits ranges nearest box first, stopping once a box lies farther than the best triangle.
 */
export function nearestSurface(
  index: SectionIndex,
  point: readonly [number, number, number],
  objects?: ReadonlySet<number>,
): NearestSurface | null {
  const b = index.bounds();
  const reach = Math.sqrt(boxDistance2(point, b)) + Math.hypot(b[3] - b[0], b[4] - b[1], b[5] - b[2]);
  for (let r = 1000; ; r *= 4) {
    const all = r >= reach;
    const found = nearestWithin(index, point, all ? Infinity : r, objects);
    if (found && (all || found.distance <= r)) return found;
    if (all) return null;
  }
}

function nearestWithin(
  index: SectionIndex,
  point: readonly [number, number, number],
  radius: number,
  objects?: ReadonlySet<number>,
): NearestSurface | null {
  const candidates =
    radius === Infinity ? index.ranges.map((_, i) => i) : index.rangesInSlab(0, point[0] - radius, point[0] + radius);
  const r2 = radius * radius;
  const order = candidates
    .map((i) => {
      const r = index.ranges[i];
      return { i, d: objects && !objects.has(r.object) ? Infinity : boxDistance2(point, r.bounds) };
    })
    .filter((x) => x.d <= r2 && x.d < Infinity && index.ranges[x.i].indexCount >= 3)
    .sort((a, b) => a.d - b.d);
  let best = Infinity,
    bestObject = -1;
  const tri = new Float64Array(3); // a triangle's cross product (no vector per triangle)
  const off = [0, 0, 0],
    bestOff = [0, 0, 0],
    bestNormal: [number, number, number] = [0, 0, 0];
  const [px, py, pz] = point;
  for (const { i, d } of order) {
    if (d > best) break;
    const r = index.ranges[i];
    const batch = index.batches[r.batch];
    const pos = batch.positions,
      ix = batch.indices;
    for (let k = r.indexStart; k + 2 < r.indexStart + r.indexCount; k += 3) {
      const a = ix[k] * 3,
        b = ix[k + 1] * 3,
        c = ix[k + 2] * 3;
      const d2 = distance2(px, py, pz, pos, a, b, c, off);
      if (d2 >= best) continue;
      triangleCross(pos, a, b, c, tri);
      const nx = tri[0],
        ny = tri[1],
        nz = tri[2];
      const l = Math.hypot(nx, ny, nz);
      if (!(l > 0)) continue; // a degenerate triangle has no normal
      best = d2;
      bestObject = r.object;
      bestNormal[0] = nx / l;
      bestNormal[1] = ny / l;
      bestNormal[2] = nz / l;
      bestOff[0] = off[0];
      bestOff[1] = off[1];
      bestOff[2] = off[2];
    }
  }
  if (bestObject < 0) return null;
  const distance = Math.sqrt(best);
  // the side the point is on decides the sign (both faces of a thin sheet are near; windings vary by writer)
  if (distance > 1e-6 && bestOff[0] * bestNormal[0] + bestOff[1] * bestNormal[1] + bestOff[2] * bestNormal[2] < 0)
    for (let k = 0; k < 3; k++) bestNormal[k] = -bestNormal[k];
  return { object: bestObject, normal: bestNormal.map((x) => x || 0) as [number, number, number], distance };
}
