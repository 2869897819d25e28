/**
 * Welding joins points within the tolerance even when they
 * straddle a grid cell border, and T-junctions of facetted surfaces are split so every interior edge is
 * shared by exactly two triangles.
 */
import { describe, expect, it } from 'vitest';
import { boundaryRings, splitTJunctions, weld } from '../../../engine/geometry/surfaceMesh';

describe('weld', () => {
  it('joins points closer than tol across a cell border and keeps farther ones', () => {
    const w = weld({ positions: [0.0499, 0, 0, 0.0501, 0, 0, 1, 0, 0, 0, 1, 0], indices: [0, 2, 3, 1, 2, 3] }, 0.05);
    expect(w.positions.length / 3).toBe(3);
    expect(w.indices).toEqual([0, 1, 2, 0, 1, 2]); // both triangles now use the same three vertices
  });
});

describe('splitTJunctions', () => {
  it('splits a triangle whose edge carries a vertex of its neighbours', () => {
    // left: one triangle (0,1,2) with edge 1–2 on x = 1; right: two triangles meeting at 4 = (1, 0.5)
    const P = [0, 0, 0, 1, 0, 0, 1, 1, 0, 2, 0.5, 0, 1, 0.5, 0];
    const I = [0, 1, 2, 1, 3, 4, 4, 3, 2];
    expect(boundaryRings(I).reduce((n, r) => n + r.length, 0)).toBeGreaterThan(4);
    const J = splitTJunctions(P, I, 1e-6);
    expect(J.length / 3).toBe(4);
    const rings = boundaryRings(J);
    expect(rings).toHaveLength(1);
    expect([...rings[0]].sort()).toEqual([0, 1, 2, 3]);
  });
});
