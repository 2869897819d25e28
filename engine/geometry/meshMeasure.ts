/**
 * Mesh quantities: surface area with area centroid, and enclosed volume with volume centroid of a closed,
 * consistently oriented triangle mesh (divergence theorem). Units follow the input (mm → mm², mm³).
 */
import { hypot3 } from './curves';

/** Area and area-weighted centroid of triangles. */
export interface AreaResult {
  area: number;
  centroid: [number, number, number];
}

/** Summed triangle area and its first moments (area × centroid per axis): sums that add over pieces of a part. */
export interface AreaMoments {
  area: number;
  mx: number;
  my: number;
  mz: number;
}

/**
 * The cross product (b − a) × (c − a) of the triangle whose corners start at offsets `a`, `b`, `c` of
 * `positions` (xyz triples): its normal times twice its area (unit² of the input), written to out[o..o+3).
 * Scalar arithmetic, no vectors per triangle: the one definition for every mesh loop.
 */
export function triangleCross(
  positions: ArrayLike<number>,
  a: number,
  b: number,
  c: number,
  out: { [i: number]: number },
  o = 0,
): void {
  const ux = positions[b] - positions[a],
    uy = positions[b + 1] - positions[a + 1],
    uz = positions[b + 2] - positions[a + 2];
  const vx = positions[c] - positions[a],
    vy = positions[c + 1] - positions[a + 1],
    vz = positions[c + 2] - positions[a + 2];
  out[o] = uy * vz - uz * vy;
  out[o + 1] = uz * vx - ux * vz;
  out[o + 2] = ux * vy - uy * vx;
}

const CROSS = new Float64Array(3);

/** Area of the triangle whose corners start at offsets `a`, `b`, `c` of `positions` (xyz triples). */
function triangleArea(positions: ArrayLike<number>, a: number, b: number, c: number): number {
  triangleCross(positions, a, b, c, CROSS);
  return 0.5 * hypot3(CROSS[0], CROSS[1], CROSS[2]);
}

/**
 * Area and first moments of the triangles `indices[start, end)` (whole triangles; `positions` xyz per vertex).
 * Parts split over several meshes add their moments and divide by the summed area once.
 */
export function meshAreaMoments(
  positions: ArrayLike<number>,
  indices: ArrayLike<number>,
  start = 0,
  end = indices.length,
): AreaMoments {
  let A = 0,
    mx = 0,
    my = 0,
    mz = 0;
  for (let t = start; t + 2 < end; t += 3) {
    const a = 3 * indices[t],
      b = 3 * indices[t + 1],
      c = 3 * indices[t + 2];
    const ar = triangleArea(positions, a, b, c);
    A += ar;
    mx += (ar * (positions[a] + positions[b] + positions[c])) / 3;
    my += (ar * (positions[a + 1] + positions[b + 1] + positions[c + 1])) / 3;
    mz += (ar * (positions[a + 2] + positions[b + 2] + positions[c + 2])) / 3;
  }
  return { area: A, mx, my, mz };
}

/**
 * Area-weighted mean of a sheet's unit vertex normals (each triangle weighs its area times the mean of its
 * three vertex normals): n for a flat sheet, shorter the more the sheet curves, 0 for a closed ring. The
 * centroid of the sheet offset by h along its normals is, to first order, the sheet's centroid + h × this.
 */
export function meanNormal(
  positions: ArrayLike<number>,
  normals: ArrayLike<number>,
  indices: ArrayLike<number>,
): [number, number, number] {
  let A = 0;
  const m: [number, number, number] = [0, 0, 0];
  for (let t = 0; t + 2 < indices.length; t += 3) {
    const a = 3 * indices[t],
      b = 3 * indices[t + 1],
      c = 3 * indices[t + 2];
    const ar = triangleArea(positions, a, b, c);
    A += ar;
    for (let k = 0; k < 3; k++) m[k] += (ar * (normals[a + k] + normals[b + k] + normals[c + k])) / 3;
  }
  return A > 0 ? [m[0] / A, m[1] / A, m[2] / A] : [0, 0, 0];
}

/**
 * Volume (mm³) of the solid a sheet sweeps between offsets o1 and o2 along its unit vertex normals,
 * divided by o2 − o1: the sheet's area at mid-thickness in the mean (Simpson's rule over the offset area,
 * which is close to quadratic in the offset for a plate thin against its radius of curvature). Equals the
 * area for a flat sheet.
 */
export function solidMeanArea(
  positions: ArrayLike<number>,
  normals: ArrayLike<number>,
  indices: ArrayLike<number>,
  o1: number,
  o2: number,
): number {
  // The area of the sheet offset by h along its normals (larger on the convex side of a curved sheet) at
  // the three offsets, in one pass over the triangles with no moved copy of the positions per offset.
  const hm = (o1 + o2) / 2;
  let A1 = 0,
    Am = 0,
    A2 = 0;
  for (let t = 0; t + 2 < indices.length; t += 3) {
    const a = 3 * indices[t],
      b = 3 * indices[t + 1],
      c = 3 * indices[t + 2];
    A1 += movedTriangleArea(positions, normals, a, b, c, o1);
    Am += movedTriangleArea(positions, normals, a, b, c, hm);
    A2 += movedTriangleArea(positions, normals, a, b, c, o2);
  }
  return (A1 + 4 * Am + A2) / 6;
}

/** The three moved corners of movedTriangleArea (xyz each), for triangleArea. */
const MOVED = new Float64Array(9);

/**
 * Area of triangle a, b, c (offsets into `positions`) with its corners moved by h along `normals`
 * (h = 0: not moved, whatever the normals hold): triangleArea of the moved corners.
 */
function movedTriangleArea(
  positions: ArrayLike<number>,
  normals: ArrayLike<number>,
  a: number,
  b: number,
  c: number,
  h: number,
): number {
  if (h === 0) return triangleArea(positions, a, b, c);
  for (let k = 0; k < 3; k++) {
    MOVED[k] = positions[a + k] + h * normals[a + k];
    MOVED[3 + k] = positions[b + k] + h * normals[b + k];
    MOVED[6 + k] = positions[c + k] + h * normals[c + k];
  }
  return triangleArea(MOVED, 0, 3, 6);
}

/** Sum of triangle areas and their area-weighted centroid. Empty input gives area 0 and centroid NaN. */
export function meshArea(positions: ArrayLike<number>, indices: ArrayLike<number>): AreaResult {
  const { area: A, mx, my, mz } = meshAreaMoments(positions, indices);
  return { area: A, centroid: A > 0 ? [mx / A, my / A, mz / A] : [NaN, NaN, NaN] };
}

/** Volume and volume centroid of a closed mesh. */
export interface VolumeResult {
  volume: number;
  centroid: [number, number, number];
}

/**
 * Signed volume (positive for outward-facing triangles) and centroid of a closed mesh, from tetrahedra
 * against the first vertex (reduces round-off far from the origin).
 */
export function meshVolume(positions: ArrayLike<number>, indices: ArrayLike<number>): VolumeResult {
  if (positions.length < 3) return { volume: 0, centroid: [NaN, NaN, NaN] };
  const ox = positions[0],
    oy = positions[1],
    oz = positions[2];
  let V = 0,
    cx = 0,
    cy = 0,
    cz = 0;
  for (let t = 0; t + 2 < indices.length; t += 3) {
    const a = 3 * indices[t],
      b = 3 * indices[t + 1],
      c = 3 * indices[t + 2];
    const ax = positions[a] - ox,
      ay = positions[a + 1] - oy,
      az = positions[a + 2] - oz;
    const bx = positions[b] - ox,
      by = positions[b + 1] - oy,
      bz = positions[b + 2] - oz;
    const qx = positions[c] - ox,
      qy = positions[c + 1] - oy,
      qz = positions[c + 2] - oz;
    const v = (ax * (by * qz - bz * qy) - ay * (bx * qz - bz * qx) + az * (bx * qy - by * qx)) / 6;
    V += v;
    cx += (v * (ax + bx + qx)) / 4;
    cy += (v * (ay + by + qy)) / 4;
    cz += (v * (az + bz + qz)) / 4;
  }
  if (V === 0) return { volume: 0, centroid: [NaN, NaN, NaN] };
  return { volume: V, centroid: [ox + cx / V, oy + cy / V, oz + cz / V] };
}
