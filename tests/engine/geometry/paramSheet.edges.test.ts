/**
 * The loop's edges in the parameter plane (paramSheet.ts toPlane): an edge is split where its image in the
 * plane bends away from the chord, not where the parametrisation runs faster along it.
 * - A flat square on a NURBS surface whose u runs ten times faster at one end: the edges along u are
 *   straight in (u, v), so the sheet has no boundary vertex on them beyond the grid's; the area is exact.
 * - The same surface cut by a diagonal: its image in (u, v) is curved, so it is still split, and the
 *   sheet's boundary follows the straight line in space within the chordal tolerance.
 */
import { describe, expect, it } from 'vitest';
import { meshArea } from '../../../engine/geometry/meshMeasure';
import { paramSheet } from '../../../engine/geometry/paramSheet';
import { NurbsParamSurface } from '../../../engine/geometry/paramSurfaces';

/** z = 0, x = 200u + 800u² (degree 2 in u: control x 0, 100, 1000), y = 1000 v (degree 1), mm. */
function unevenPlane(): NurbsParamSurface {
  const xs = [0, 100, 1000];
  const pw: number[] = [];
  for (const x of xs) for (const y of [0, 1000]) pw.push(x, y, 0, 1);
  return new NurbsParamSurface({
    degreeU: 2,
    degreeV: 1,
    knotsU: Float64Array.of(0, 0, 0, 1, 1, 1),
    knotsV: Float64Array.of(0, 0, 1, 1),
    nU: 3,
    nV: 2,
    pw: Float64Array.from(pw),
  });
}

/**
 * The x (mm, rounded to 1e-6) of the sheet's vertices on the edge y = `y` that lie on no grid line: not a
 * corner (x within 1e-3 mm of 0 or 1000) and not the x of a vertex inside the square (on this surface x depends on u
 * alone, so every grid line of constant u has one x from edge to edge).
 */
function offGridOnEdge(positions: ArrayLike<number>, y: number): number[] {
  const key = (x: number) => Math.round(x * 1e6) / 1e6;
  const inner = new Set<number>();
  for (let i = 0; i < positions.length; i += 3)
    if (positions[i + 1] > 1e-6 && positions[i + 1] < 1000 - 1e-6) inner.add(key(positions[i]));
  const off = new Set<number>();
  for (let i = 0; i < positions.length; i += 3) {
    const x = key(positions[i]);
    if (Math.abs(positions[i + 1] - y) < 1e-6 && Math.abs(x) > 1e-3 && Math.abs(x - 1000) > 1e-3 && !inner.has(x))
      off.add(x);
  }
  return [...off];
}

describe('paramSheet: loop edges in the parameter plane', () => {
  const CHORD_MM = 1;
  const TOL_MM = 2;

  it('does not split an edge that is straight in (u, v) however unevenly u runs along it', () => {
    const square = [0, 0, 0, 1000, 0, 0, 1000, 1000, 0, 0, 1000, 0];
    const r = paramSheet(unevenPlane(), [square], [], CHORD_MM, TOL_MM);
    expect(r).not.toBeNull();
    const { positions, indices } = r!.sheet;
    expect(Math.abs(meshArea(positions, indices).area - 1e6)).toBeLessThan(1);
    // The edges along u have their corners and the grid lines' crossings, nothing else. (Split where the
    // mapped midpoint was off the chord's middle, y = 0 had points at x = 500, 531.25, 562.5, 875, 937.5.)
    expect(offGridOnEdge(positions, 0)).toEqual([]);
    expect(offGridOnEdge(positions, 1000)).toEqual([]);
  });

  it('still splits a straight edge in space whose image in (u, v) bends, and follows it', () => {
    const triangle = [0, 0, 0, 1000, 0, 0, 1000, 1000, 0];
    const r = paramSheet(unevenPlane(), [triangle], [], CHORD_MM, TOL_MM);
    expect(r).not.toBeNull();
    const { positions, indices } = r!.sheet;
    // the diagonal y = x: its points in (u, v) lie on v = 200u + 800u² over 1000, a curve
    let onDiagonal = 0;
    for (let i = 0; i < positions.length; i += 3) {
      const [x, y] = [positions[i], positions[i + 1]];
      expect(y).toBeLessThanOrEqual(x + CHORD_MM); // no vertex beyond the diagonal
      if (Math.abs(x - y) < 1e-3 && x > 1 && x < 999) onDiagonal++;
    }
    expect(onDiagonal).toBeGreaterThan(4);
    expect(Math.abs(meshArea(positions, indices).area - 5e5)).toBeLessThan(CHORD_MM * Math.SQRT2 * 1000);
  });
});
