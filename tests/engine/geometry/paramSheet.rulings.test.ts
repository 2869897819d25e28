/**
 * Along a direction the surface is straight in (the rulings of a cylinder or an extrusion) the chordal
 * error does not grow with a cell's length (paramSheet.ts `stretch`): a band on a cylinder between two
 * circles is meshed with one row of cells from circle to circle — its vertices lie on the two circles
 * only — and its area is the cylinder's 2πrL within the chordal tolerance's bound.
 */
import { describe, expect, it } from 'vitest';
import { meshArea } from '../../../engine/geometry/meshMeasure';
import { paramSheet } from '../../../engine/geometry/paramSheet';
import { ConeParamSurface } from '../../../engine/geometry/paramSurfaces';

const R = 1000;

/** The circle of radius R about the x axis at x (mm), n points. */
function circle(x: number, n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = (2 * Math.PI * i) / n;
    out.push(x, R * Math.cos(t), R * Math.sin(t));
  }
  return out;
}

describe('a band on a cylinder', () => {
  it('is one row of cells between its two circles, with the cylinder’s area', () => {
    // the cylinder about the x axis from x = 0 to 2000 mm
    const s = new ConeParamSurface([0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], 2000, R, R);
    const chordMm = 1;
    for (const [x0, x1] of [
      [500, 1000],
      [200, 1800],
    ]) {
      const r = paramSheet(s, [circle(x0, 72), circle(x1, 72)], [], chordMm, 2);
      expect(r).not.toBeNull();
      const { positions, indices } = r!.sheet;
      const xs = new Set<number>();
      for (let i = 0; i < positions.length; i += 3) xs.add(Math.round(positions[i] * 1e3) / 1e3);
      expect([...xs].sort((a, b) => a - b)).toEqual([x0, x1]);
      // inscribed in the cylinder: below 2πRL by at most the chordal deficit (2/3 · chord / R of it)
      const want = 2 * Math.PI * R * (x1 - x0);
      const { area } = meshArea(positions, indices);
      expect(area).toBeLessThanOrEqual(want);
      expect((want - area) / want).toBeLessThan((2 / 3) * (chordMm / R) * 1.05);
    }
  });
});
