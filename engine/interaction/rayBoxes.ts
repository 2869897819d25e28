/**
 * Which of many axis-aligned boxes a ray enters, nearest first: picking (viewer.md §4 "Selection") visits
 * the chunks of a model in this order and stops once a hit is nearer than the next chunk. One flat pass over
 * the boxes' numbers (a 500k-part ship has thousands of chunks; a pick must not allocate per chunk).
 */

/** Boxes a ray enters: box indices and entry distances (mm, 0 when the ray starts inside), nearest first. */
export interface RayBoxEntries {
  ids: number[];
  distances: number[];
}

/**
 * Fills `out` with the boxes among `boxes[0 .. count*6)` (min xyz, max xyz; mm) that the ray from `origin`
 * along `direction` (any length, not zero) meets at or after its origin, sorted by the distance from the
 * origin to where it enters (0 for a box containing the origin). The slab test is three.js Ray.intersectBox's
 * (same treatment of axis-parallel rays), so the same boxes are found. Returns the number of boxes.
 */
export function boxesAlongRay(
  boxes: Float64Array,
  count: number,
  origin: { x: number; y: number; z: number },
  direction: { x: number; y: number; z: number },
  out: RayBoxEntries,
): number {
  const ids = out.ids,
    dist = out.distances;
  ids.length = 0;
  dist.length = 0;
  const ox = origin.x,
    oy = origin.y,
    oz = origin.z;
  const ix = 1 / direction.x,
    iy = 1 / direction.y,
    iz = 1 / direction.z;
  const len = Math.hypot(direction.x, direction.y, direction.z);
  for (let i = 0; i < count; i++) {
    const o = i * 6;
    let tmin = ((ix >= 0 ? boxes[o] : boxes[o + 3]) - ox) * ix;
    let tmax = ((ix >= 0 ? boxes[o + 3] : boxes[o]) - ox) * ix;
    const tymin = ((iy >= 0 ? boxes[o + 1] : boxes[o + 4]) - oy) * iy;
    const tymax = ((iy >= 0 ? boxes[o + 4] : boxes[o + 1]) - oy) * iy;
    if (tmin > tymax || tymin > tmax) continue;
    if (tymin > tmin || tmin !== tmin) tmin = tymin;
    if (tymax < tmax || tmax !== tmax) tmax = tymax;
    const tzmin = ((iz >= 0 ? boxes[o + 2] : boxes[o + 5]) - oz) * iz;
    const tzmax = ((iz >= 0 ? boxes[o + 5] : boxes[o + 2]) - oz) * iz;
    if (tmin > tzmax || tzmin > tmax) continue;
    if (tzmin > tmin || tmin !== tmin) tmin = tzmin;
    if (tzmax < tmax || tmax !== tmax) tmax = tzmax;
    if (tmax < 0) continue;
    // Insertion into the sorted lists: only the few boxes on the ray get here.
    const d = tmin > 0 ? tmin * len : 0;
    let k = ids.length;
    ids.push(i);
    dist.push(d);
    while (k > 0 && dist[k - 1] > d) {
      ids[k] = ids[k - 1];
      dist[k] = dist[k - 1];
      k--;
    }
    ids[k] = i;
    dist[k] = d;
  }
  return ids.length;
}
