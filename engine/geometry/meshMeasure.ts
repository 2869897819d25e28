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
    const ux = positions[b] - positions[a],
      uy = positions[b + 1] - positions[a + 1],
      uz = positions[b + 2] - positions[a + 2];
    const vx = positions[c] - positions[a],
      vy = positions[c + 1] - positions[a + 1],
      vz = positions[c + 2] - positions[a + 2];
    const ar = 0.5 * hypot3(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx);
    A += ar;
    mx += (ar * (positions[a] + positions[b] + positions[c])) / 3;
    my += (ar * (positions[a + 1] + positions[b + 1] + positions[c + 1])) / 3;
    mz += (ar * (positions[a + 2] + positions[b + 2] + positions[c + 2])) / 3;
  }
  return { area: A, mx, my, mz };
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
