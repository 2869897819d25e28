/**
 * Culling by spatial chunk ("culling by spatial chunk"). Pure kernels: the six frustum
 * planes of a view-projection matrix and an axis-aligned-box test against them, so the engine hides
 * chunks outside the view before drawing (each chunk is spatially compact, see package/chunking.ts).
 * No three.js objects needed: matrices are 16 numbers in column-major order (THREE.Matrix4.elements).
 */

/** Six planes (a, b, c, d) with a·x + b·y + c·z + d ≥ 0 inside: left, right, bottom, top, near, far. */
export type FrustumPlanes = Float64Array;

/**
 * Frustum planes of a column-major view-projection matrix (clip = M × world), normalised.
 * @throws Error when the matrix does not have 16 finite values.
 */
export function frustumPlanes(m: ArrayLike<number>): FrustumPlanes {
  if (m.length !== 16) throw new Error(`frustumPlanes: matrix has ${m.length} values, expected 16`);
  for (let i = 0; i < 16; i++)
    if (!Number.isFinite(m[i])) throw new Error(`frustumPlanes: matrix value ${i} is not finite`);
  // Row r of the matrix is (m[r], m[4 + r], m[8 + r], m[12 + r]).
  const row = (r: number) => [m[r], m[4 + r], m[8 + r], m[12 + r]];
  const r0 = row(0),
    r1 = row(1),
    r2 = row(2),
    r3 = row(3);
  const planes = new Float64Array(24);
  const set = (i: number, s: number, r: number[]) => {
    const a = r3[0] + s * r[0],
      b = r3[1] + s * r[1],
      c = r3[2] + s * r[2],
      d = r3[3] + s * r[3];
    const l = Math.hypot(a, b, c) || 1;
    planes.set([a / l, b / l, c / l, d / l], i * 4);
  };
  set(0, 1, r0); // left:   w + x ≥ 0
  set(1, -1, r0); // right:  w − x ≥ 0
  set(2, 1, r1); // bottom
  set(3, -1, r1); // top
  set(4, 1, r2); // near
  set(5, -1, r2); // far
  return planes;
}

/**
 * True when the box [minX, minY, minZ, maxX, maxY, maxZ] (at `offset` in `boxes`) is at least partly
 * inside the frustum (conservative: a box near a frustum corner may count as inside).
 */
export function boxIntersectsFrustum(planes: FrustumPlanes, boxes: ArrayLike<number>, offset = 0): boolean {
  for (let p = 0; p < 24; p += 4) {
    const a = planes[p],
      b = planes[p + 1],
      c = planes[p + 2],
      d = planes[p + 3];
    // The box corner furthest along the plane normal.
    const x = a >= 0 ? boxes[offset + 3] : boxes[offset];
    const y = b >= 0 ? boxes[offset + 4] : boxes[offset + 1];
    const z = c >= 0 ? boxes[offset + 5] : boxes[offset + 2];
    if (a * x + b * y + c * z + d < 0) return false;
  }
  return true;
}

/** Culls boxes (6 values each) against a view-projection matrix: 1 = draw, 0 = outside the view. */
export function cullBoxes(viewProjection: ArrayLike<number>, boxes: ArrayLike<number>): Uint8Array {
  const planes = frustumPlanes(viewProjection);
  const n = Math.floor(boxes.length / 6);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = boxIntersectsFrustum(planes, boxes, i * 6) ? 1 : 0;
  return out;
}
