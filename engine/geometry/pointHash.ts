/**
 * A 30-bit hash of an exact point (xyz triplet in any unit), for maps keyed by a point's exact coordinates
 * without building a string per point. Points equal under `===` coordinate by coordinate hash alike (−0 is
 * made +0 before its bits are taken); different points may share a hash, so a map keyed by it compares
 * the coordinates of what it finds.
 */

const F = new Float64Array(1);
const W = new Uint32Array(F.buffer);

/** Mixes the two 32-bit words of x (−0 as +0) into h. */
function mix(h: number, x: number): number {
  F[0] = x + 0;
  h = Math.imul(h ^ W[0], 0x9e3779b1);
  return Math.imul(h ^ (W[1] + (h >>> 15)), 0x85ebca77);
}

/** The hash of point p[o..o+2]: a small non-negative integer (a V8 small integer, cheap as a Map key). */
export function pointHash3(p: ArrayLike<number>, o: number): number {
  const h = mix(mix(mix(0x811c9dc5, p[o]), p[o + 1]), p[o + 2]);
  return (h ^ (h >>> 16)) & 0x3fffffff;
}

/** pointHash3 of p[o..o+2] with one more integer `n` mixed in (e.g. a polyline's length). */
export function pointHash3n(p: ArrayLike<number>, o: number, n: number): number {
  const h = Math.imul(pointHash3(p, o) ^ n, 0xc2b2ae35);
  return (h ^ (h >>> 16)) & 0x3fffffff;
}
