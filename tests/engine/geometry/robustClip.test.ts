/**
 * A polygon boolean that throws on near-degenerate input does not drop a plate's holes: the cut is
 * retried on snapped coordinates, then hole by hole, and a hole that still cannot be cut is reported
 * (and its area kept) instead of vanishing with the others.
 */
import { describe, expect, it } from 'vitest';
import polygonClipping from 'polygon-clipping';
import { regionPolygons, signedArea2d, triangulateGrid, triangulateRegion } from '../../../engine/geometry/region2d';
import { meshPlate } from '../../../engine/ocx/plateMesh';

/** A 5 m square plate as AVEVA E3D wrote it (mm, corners a rounding error off 5000). */
const SQUARE = [
  0, 0, 4999.999999999996, 4.55787251796493e-72, 4999.999999999985, 4999.999999999811, 4.3655745685100555e-11,
  4999.999999999985,
];
/** A Ø250 mm hole (26-gon) centred on the square's corner, one vertex on its edge x ≈ 5000. */
const CORNER_HOLE = [
  4999.999999999985, 5125, 4970.085541964041, 5121.367727178256, 4941.909603494514, 5110.682003206652,
  4917.109667719886, 5093.563843521388, 4897.127016763278, 5071.008093341395, 4883.122969664309, 5044.325610880317,
  4875.911390737729, 5015.067085031916, 4875.911390737729, 4984.932914968084, 4883.122969664309, 4955.674389119683,
  4897.127016763278, 4928.991906658605, 4917.109667719886, 4906.436156478612, 4941.909603494514, 4889.317996793348,
  4970.085541964041, 4878.632272821744, 4999.999999999985, 4875, 5029.91445803593, 4878.632272821744, 5058.090396505457,
  4889.317996793348, 5082.890332280085, 4906.436156478612, 5102.872983236693, 4928.991906658605, 5116.877030335662,
  4955.674389119683, 5124.088609262242, 4984.932914968084, 5124.088609262242, 5015.067085031916, 5116.877030335662,
  5044.325610880317, 5102.872983236693, 5071.008093341395, 5082.890332280085, 5093.563843521388, 5058.090396505457,
  5110.682003206652, 5029.91445803593, 5121.367727178256,
];

const ring = (r: number[]): [number, number][] => {
  const out: [number, number][] = [];
  for (let i = 0; i < r.length; i += 2) out.push([r[i], r[i + 1]]);
  return out;
};
const regionArea = (polys: number[][][]) =>
  polys.reduce((s, p) => s + p.reduce((t, r, k) => t + (k ? -1 : 1) * Math.abs(signedArea2d(r)), 0), 0);

describe('robust cutting of holes', () => {
  it('the input makes polygon-clipping throw (the case this guards against)', () => {
    expect(() => polygonClipping.difference([ring(SQUARE)], [ring(CORNER_HOLE)])).toThrow();
  });

  it('a hole straddling the corner is still cut: a quarter of its area leaves the plate', () => {
    const hole = Math.abs(signedArea2d(CORNER_HOLE));
    const inner = [1000, 1000, 1200, 1000, 1200, 1200, 1000, 1200];
    const uncut: number[] = [];
    const polys = regionPolygons(SQUARE, [CORNER_HOLE, inner], uncut);
    expect(uncut).toEqual([]);
    expect(regionArea(polys)).toBeCloseTo(25e6 - hole / 4 - 40_000, -1);
    const r = triangulateRegion(SQUARE, [CORNER_HOLE, inner]);
    expect(r.area).toBeCloseTo(25e6 - hole / 4 - 40_000, -1);
    const g = triangulateGrid(SQUARE, [CORNER_HOLE, inner], 250);
    expect(g.area).toBeCloseTo(25e6 - hole / 4 - 40_000, -1);
    expect(g.lostCells).toBe(0);
  });

  it('a hole that cannot be cut at all is reported by index and the other holes are still cut', () => {
    const outer = [0, 0, 100, 0, 100, 100, 0, 100];
    const broken = [90, 10, 110, 10, Number.NaN, 20, 90, 20];
    const corner = [95, 95, 105, 95, 105, 105];
    const uncut: number[] = [];
    const polys = regionPolygons(outer, [[40, 40, 60, 40, 60, 60, 40, 60], broken, corner], uncut);
    expect(uncut).toEqual([1]);
    expect(regionArea(polys)).toBeCloseTo(10_000 - 400 - 12.5, 6);
  });

  it('a plate reports the loops it could not cut', () => {
    const z = (r: number[]) => r.flatMap((v, i) => (i % 2 ? [v, 0] : [v]));
    const broken = z([90, 10, 110, 10, Number.NaN, 20, 90, 20]);
    const res = meshPlate(
      [z([0, 0, 100, 0, 100, 100, 0, 100, 0, 0])],
      [z([40, 40, 60, 40, 60, 60, 40, 60]), broken, z([95, 95, 105, 95, 105, 105])],
      { kind: 'plane', origin: [0, 0, 0], normal: [0, 0, 1] },
      0,
      10,
      1,
    );
    expect(res.uncut).toEqual([broken]);
    expect(res.area).toBeCloseTo(10_000 - 400 - 12.5, 6);
  });
});
