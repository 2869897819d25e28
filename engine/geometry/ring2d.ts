/**
 * Measures of one planar ring of xy pairs (OCX_GUIDE §5.2.2): signed area and point containment, shared by
 * the region triangulation (region2d.ts) and the cell clipper (cellClip.ts). Units: those of the input.
 */

/** Signed area of a ring of xy pairs (positive = counter-clockwise). */
export function signedArea2d(ring: ArrayLike<number>): number {
  let s = 0;
  const n = Math.floor(ring.length / 2);
  for (let i = 0, j = n - 1; i < n; j = i++) s += (ring[2 * j] - ring[2 * i]) * (ring[2 * j + 1] + ring[2 * i + 1]);
  return s / 2;
}

/** True when (x, y) is inside the ring (even-odd rule). */
export function pointInRing(ring: ArrayLike<number>, x: number, y: number): boolean {
  let inside = false;
  const n = Math.floor(ring.length / 2);
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const xi = ring[2 * i],
      yi = ring[2 * i + 1],
      xj = ring[2 * j],
      yj = ring[2 * j + 1];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
