/**
 * boxesAlongRay (engine/interaction/rayBoxes.ts) finds the same boxes as three.js Ray.intersectBox /
 * Box3.containsPoint, in the order of their entry distance, on random boxes and rays (axis-parallel rays
 * included), and reuses its output lists.
 */
import fc from 'fast-check';
import { Box3, Ray, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { boxesAlongRay, type RayBoxEntries } from '../../../engine/interaction/rayBoxes';

const coord = fc.integer({ min: -1000, max: 1000 });
const box = fc
  .tuple(coord, coord, coord, fc.nat(400), fc.nat(400), fc.nat(400))
  .map(([x, y, z, w, h, d]) => [x, y, z, x + w, y + h, z + d]);
/** Directions: random, or along an axis (zero components) as orthographic views along X, Y, Z give. */
const direction = fc.oneof(
  fc.tuple(fc.integer({ min: -9, max: 9 }), fc.integer({ min: -9, max: 9 }), fc.integer({ min: -9, max: 9 })),
  fc.constantFrom([1, 0, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]),
);

/** The reference: three.js per box, sorted by entry distance (box index breaks ties). */
function reference(boxes: number[][], ray: Ray): { ids: number[]; distances: number[] } {
  const hits: { id: number; t: number }[] = [];
  boxes.forEach((b, id) => {
    const b3 = new Box3(new Vector3(b[0], b[1], b[2]), new Vector3(b[3], b[4], b[5]));
    const p = b3.containsPoint(ray.origin) ? ray.origin : ray.intersectBox(b3, new Vector3());
    if (p) hits.push({ id, t: p.distanceTo(ray.origin) });
  });
  hits.sort((a, b) => a.t - b.t || a.id - b.id);
  return { ids: hits.map((h) => h.id), distances: hits.map((h) => h.t) };
}

describe('boxes along a ray', () => {
  it('meets the boxes three.js meets, nearest entry first', () => {
    const out: RayBoxEntries = { ids: [], distances: [] };
    fc.assert(
      fc.property(
        fc.array(box, { maxLength: 60 }),
        fc.tuple(coord, coord, coord),
        direction.filter(([x, y, z]) => x !== 0 || y !== 0 || z !== 0),
        (boxes, o, d) => {
          const ray = new Ray(new Vector3(...o), new Vector3(...d).normalize());
          const n = boxesAlongRay(Float64Array.from(boxes.flat()), boxes.length, ray.origin, ray.direction, out);
          const want = reference(boxes, ray);
          expect(n).toBe(want.ids.length);
          expect([...out.ids].sort((a, b) => a - b)).toEqual([...want.ids].sort((a, b) => a - b));
          for (let k = 0; k < n; k++) expect(out.distances[k]).toBeCloseTo(want.distances[k], 6);
          for (let k = 1; k < n; k++) expect(out.distances[k]).toBeGreaterThanOrEqual(out.distances[k - 1]);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('gives 0 for a box holding the origin, nothing behind the origin, and measures along an unnormalised direction', () => {
    const boxes = Float64Array.from([0, 0, 0, 10, 10, 10, 20, 0, 0, 30, 10, 10, -30, 0, 0, -20, 10, 10]);
    const out: RayBoxEntries = { ids: [7], distances: [7] };
    expect(boxesAlongRay(boxes, 3, { x: 5, y: 5, z: 5 }, { x: 2, y: 0, z: 0 }, out)).toBe(2);
    expect(out).toEqual({ ids: [0, 1], distances: [0, 15] });
  });
});
