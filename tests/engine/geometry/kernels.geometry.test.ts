/**
 * Unit tests of the pure geometry kernels (engine/geometry): NURBS evaluation with weights and repeated
 * knots, knot repair, adaptive discretisation, arcs, contour chaining, regions with holes, thickening,
 * section polygons, sweeps and mesh measures.
 */
import { describe, expect, it } from 'vitest';
import { sectionPolygon } from '../../../engine/geometry/barSections';
import { chainLoops } from '../../../engine/geometry/chainLoops';
import { circumArc, len, newellNormal, polylineLength, reversePolyline } from '../../../engine/geometry/curves';
import { MeshBuilder } from '../../../engine/geometry/MeshBuilder';
import { meshArea, meshVolume } from '../../../engine/geometry/meshMeasure';
import {
  curveDomain,
  evalCurve,
  findSpan,
  homogeneous,
  repairKnots,
  tessellateCurve,
  unwrapPeriodicKnots,
  usableKnots,
} from '../../../engine/geometry/nurbs';
import { triangulateGrid, triangulateRegion } from '../../../engine/geometry/region2d';
import { sweepSection } from '../../../engine/geometry/sweep';
import { thickenSheet } from '../../../engine/geometry/thicken';

const quarterCircle = () => ({
  degree: 2,
  knots: Float64Array.from([0, 0, 0, 1, 1, 1]),
  pw: homogeneous([1000, 0, 0, 1000, 1000, 0, 0, 1000, 0], [1, Math.SQRT1_2, 1]),
});

describe('NURBS', () => {
  it('evaluates a rational quarter circle exactly', () => {
    const c = quarterCircle();
    const p = [0, 0, 0];
    for (const t of [0, 0.13, 0.5, 0.77, 1]) {
      evalCurve(c, t, p);
      expect(Math.hypot(p[0], p[1])).toBeCloseTo(1000, 6);
    }
  });

  it('discretises within the chordal tolerance', () => {
    const pts = tessellateCurve(quarterCircle(), 1);
    for (let i = 3; i < pts.length; i += 3) {
      const mx = (pts[i] + pts[i - 3]) / 2,
        my = (pts[i + 1] + pts[i - 2]) / 2;
      expect(1000 - Math.hypot(mx, my)).toBeLessThan(1.01);
    }
    expect(polylineLength(pts)).toBeCloseTo((Math.PI / 2) * 1000, -1);
  });

  it('gives only the corners of a cubic polygon with tripled knots (NAPA contours)', () => {
    // a 2 m square as 4 straight cubic Bézier spans
    const corners = [
      [0, 0],
      [2000, 0],
      [2000, 2000],
      [0, 2000],
      [0, 0],
    ];
    const xyz: number[] = [];
    for (let s = 0; s < 4; s++) {
      const [a, b] = [corners[s], corners[s + 1]];
      for (let k = s === 0 ? 0 : 1; k <= 3; k++)
        xyz.push(a[0] + ((b[0] - a[0]) * k) / 3, a[1] + ((b[1] - a[1]) * k) / 3, 0);
    }
    const knots = [0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 4];
    const pts = tessellateCurve({ degree: 3, knots: Float64Array.from(knots), pw: homogeneous(xyz) }, 1);
    expect(pts.length / 3).toBe(5);
  });

  it('reads a vector of nCtrl + p + 2 knots repeating with a period as a closed spline (CADMATIC pipes)', () => {
    // CADMATIC's circle: 18 control points round it, knots −3, −2 ×3, −1 … 13, 14 ×3, 15 (period 16)
    const k = [-3, -2, -2, -2, ...Array.from({ length: 15 }, (_, i) => i - 1), 14, 14, 14, 15];
    const u = unwrapPeriodicKnots(k, 18, 3)!;
    expect(u.length).toBe(18 + 2 * 3 + 1);
    expect([u[3], u[18 + 3]]).toEqual([-2, 14]); // one whole period
    for (let i = 0; i + 18 < u.length; i++) expect(u[i + 18] - u[i]).toBe(16);
    expect(usableKnots(k, 18, 3)).toMatchObject({ wrap: 3 });
    expect(usableKnots(k, 18, 3, false)).toBeNull(); // healing off: the wrong length is refused
    // a clamped vector with one surplus end knot is not periodic: trimmed as before
    expect(unwrapPeriodicKnots([0, 0, 0, 0, 0.5, 1, 1, 1, 1, 1], 5, 3)).toBeNull();
    expect(usableKnots([0, 0, 0, 0, 0.5, 1, 1, 1, 1, 1], 5, 3)).toMatchObject({ wrap: 0 });
  });

  it('closes the unwrapped spline: its ends meet, also where the domain ends inside a repeated knot', () => {
    const n = 12,
      p = 3;
    const xyz: number[] = [];
    for (let j = 0; j < n; j++) xyz.push(Math.cos((2 * Math.PI * j) / n), Math.sin((2 * Math.PI * j) / n), 0);
    const k = [-3, -2, -2, -2, ...Array.from({ length: n - 3 }, (_, i) => i - 1), n - 4, n - 4, n - 4, n - 3];
    const u = usableKnots(k, n, p)!;
    for (let i = 0; i < u.wrap; i++) xyz.push(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]);
    const c = { degree: p, knots: u.knots, pw: homogeneous(xyz) };
    const [t0, t1] = curveDomain(c);
    const a = [0, 0, 0],
      b = [0, 0, 0];
    evalCurve(c, t0, a);
    evalCurve(c, t1, b);
    expect(Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2])).toBeLessThan(1e-12);
    expect(findSpan(n + p, p, u.knots, t1)).toBeLessThan(n + p - 1); // not the empty span [14, 14)
  });

  it('repairs a knot vector with one surplus knot and refuses a decreasing one', () => {
    expect(Array.from(repairKnots([0, 0, 0, 0, 0.5, 1, 1, 1, 1, 1], 5, 3)!)).toEqual([0, 0, 0, 0, 0.5, 1, 1, 1, 1]);
    expect(repairKnots([0, 0, 1, 0.5, 1, 1], 3, 2)).toBeNull();
  });
});

describe('curves and contours', () => {
  it('builds an arc through three points', () => {
    const pts = circumArc([1000, 0, 0], [0, 1000, 0], [-1000, 0, 0], 1, Math.PI / 12);
    expect(pts.slice(-3).map(Math.round)).toEqual([-1000, 0, 0]);
    for (let i = 0; i < pts.length; i += 3) expect(Math.hypot(pts[i], pts[i + 1])).toBeCloseTo(1000, 6);
    expect(pts.some((_, i) => i % 3 === 1 && pts[i] > 999)).toBe(true); // passes through (0, 1000)
  });

  it('runs a contour on past its start when a segment continues it more closely (a narrow slit)', () => {
    // a 100 mm square whose bottom edge has a 1 mm slit up to its middle, chained with a 2 mm gap tolerance
    const segs = [
      [50.5, 0, 0, 100, 0, 0],
      [100, 0, 0, 100, 100, 0, 0, 100, 0, 0, 0, 0, 49.5, 0, 0],
      [49.5, 0, 0, 49.5, 50, 0],
      [49.5, 50, 0, 50.5, 50, 0],
      [50.5, 50, 0, 50.5, 0, 0],
    ];
    const { loops } = chainLoops(segs, 0.01, 2);
    expect(loops.length).toBe(1);
    expect(len(newellNormal(loops[0])) / 2).toBeCloseTo(100 * 100 - 50, 6);
  });

  it('chains unordered, reversed segments into one loop', () => {
    const segs = [
      [0, 0, 0, 100, 0, 0],
      [100, 100, 0, 100, 0, 0],
      [0, 100, 0, 0, 0, 0],
      reversePolyline([100, 100, 0, 0, 100, 0]),
    ];
    const { loops, gapsClosed } = chainLoops([segs[2], segs[0], segs[1], segs[3]], 0.01, 1);
    expect(loops).toHaveLength(1);
    expect(loops[0].length / 3).toBe(4);
    expect(gapsClosed).toBe(0);
  });
});

describe('regions, thickening and measures', () => {
  const square = [0, 0, 1000, 0, 1000, 1000, 0, 1000];
  const hole = [200, 200, 400, 200, 400, 400, 200, 400];
  const straddling = [900, 400, 1100, 400, 1100, 600, 900, 600];

  it('subtracts inner and boundary-crossing holes', () => {
    const r = triangulateRegion(square, [hole, straddling]);
    expect(r.area).toBeCloseTo(1e6 - 4e4 - 2e4, 3);
    expect(
      meshArea(
        Array.from(r.points).flatMap((v, i) => (i % 2 ? [v, 0] : [v])),
        r.indices,
      ).area,
    ).toBeCloseTo(r.area, 0);
    const g = triangulateGrid(square, [hole], 100);
    const flat3 = Array.from(g.points).flatMap((v, i) => (i % 2 ? [v, 0] : [v]));
    expect(meshArea(flat3, g.indices).area).toBeCloseTo(1e6 - 4e4, 0);
    expect(g.rings).toHaveLength(2);
  });

  it('thickens a sheet into a closed solid of area × thickness on the offset side', () => {
    const r = triangulateRegion(square, [hole]);
    const n = r.points.length / 2;
    const positions = new Float64Array(3 * n),
      normals = new Float64Array(3 * n);
    for (let i = 0; i < n; i++) {
      positions.set([r.points[2 * i], r.points[2 * i + 1], 0], 3 * i);
      normals.set([0, 0, 1], 3 * i);
    }
    const mb = new MeshBuilder();
    thickenSheet(mb, { positions, normals, indices: r.indices, rings: r.rings }, -10, 0);
    const v = meshVolume(mb.positions, mb.indices);
    expect(v.volume).toBeCloseTo(r.area * 10, -1);
    expect(v.centroid[2]).toBeCloseTo(-5, 6);
  });

  it('sweeps a flat bar along a line into a closed solid of the right volume and side', () => {
    const fb = sectionPolygon('FlatBar', { height: 200, width: 10 });
    expect(fb.area).toBeCloseTo(2000, 9);
    const mb = new MeshBuilder();
    const F = Float64Array.from([1, 0, 0, 1, 0, 0]),
      W = Float64Array.from([0, 0, 1, 0, 0, 1]);
    sweepSection(mb, fb, [0, 0, 0, 0, 3000, 0], { F, W }, 0, 0);
    const v = meshVolume(mb.positions, mb.indices);
    expect(v.volume).toBeCloseTo(2000 * 3000, -1);
    expect(v.centroid.map((c) => Math.round(c))).toEqual([5, 1500, 100]);
  });

  it('builds every section kind of the corpus with a positive area', () => {
    const d = { height: 200, width: 100, webThickness: 10, flangeThickness: 12, diameter: 160, thickness: 6 };
    for (const k of [
      'FlatBar',
      'BulbFlat',
      'LBar',
      'TBar',
      'IBar',
      'UBar',
      'ZBar',
      'Tube',
      'RectangularTube',
      'RoundBar',
      'HalfRoundBar',
      'SquareBar',
      'HexagonBar',
      'OctagonBar',
    ])
      expect(sectionPolygon(k, d).area, k).toBeGreaterThan(0);
    expect(sectionPolygon('TBar', d).area).toBeCloseTo(100 * 12 + 10 * 188, 6);
    expect(() => sectionPolygon('TBar', { height: 200 })).toThrow(/TBar section needs a positive width/);
  });
});
