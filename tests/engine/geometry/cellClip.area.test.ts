/**
 * The region ∩ cell pieces of engine/geometry/cellClip.ts (the grid triangulation of
 * plates with holes, without polygon-clipping) against polygon-clipping itself:
 * - on random outlines with random holes (crossing the outline, touching each other, on a coarse grid
 *   so that vertices and edges fall on cell borders), every cell's pieces have polygon-clipping's area
 *   to 1e-9 of the cell's area; outer rings run counter-clockwise, holes clockwise;
 * - the pieces of all cells of a grid tile the region: their areas add up to the region's area, ear
 *   clipping each piece covers it once, and sample points lie in exactly one piece inside the region
 *   and in none outside;
 * - regions that are not clean (holes overlapping each other or the outline) give null (the caller then
 *   uses the boolean), never a wrong answer; degenerate contacts with the cell border come out exact;
 * - the grid triangulation of a plate with holes has the region's area.
 */
import earcut from 'earcut';
import fc from 'fast-check';
import polygonClipping, { type Polygon, type Ring } from 'polygon-clipping';
import { describe, expect, it } from 'vitest';
import { cellClipper } from '../../../engine/geometry/cellClip';
import { clipRingToBox, pointInRing, signedArea2d, triangulateGrid } from '../../../engine/geometry/region2d';

const toRing = (r: number[]): Ring => {
  const o: Ring = [];
  for (let i = 0; i < r.length; i += 2) o.push([r[i], r[i + 1]]);
  o.push(o[0]);
  return o;
};
const fromPc = (mp: Ring[][]): number[][][] => mp.map((p) => p.map((r) => r.slice(0, -1).flat()));
const areaOf = (pieces: number[][][]) =>
  pieces.reduce((s, p) => s + p.reduce((t, r, k) => t + (k ? -1 : 1) * Math.abs(signedArea2d(r)), 0), 0);
const rect = (x0: number, y0: number, x1: number, y1: number) => [x0, y0, x1, y0, x1, y1, x0, y1];

/** A star-shaped ring around (cx, cy), counter-clockwise, optionally snapped to a grid of `snap`. */
function star(cx: number, cy: number, radii: number[], snap: number): number[] {
  const out: number[] = [];
  radii.forEach((r, i) => {
    const a = (2 * Math.PI * i) / radii.length;
    let x = cx + r * Math.cos(a),
      y = cy + r * Math.sin(a);
    if (snap) (x = Math.round(x / snap) * snap), (y = Math.round(y / snap) * snap);
    out.push(x, y);
  });
  return out;
}

const holeArb = (snap: boolean) =>
  fc
    .oneof(
      fc.record({
        kind: fc.constant('star' as const),
        cx: fc.integer({ min: -90, max: 90 }),
        cy: fc.integer({ min: -90, max: 90 }),
        radii: fc.array(fc.double({ min: 4, max: 30, noNaN: true }), { minLength: 3, maxLength: 24 }),
      }),
      fc.record({
        kind: fc.constant('rect' as const),
        cx: fc.integer({ min: -90, max: 90 }),
        cy: fc.integer({ min: -90, max: 90 }),
        w: fc.integer({ min: 1, max: 8 }),
        h: fc.integer({ min: 1, max: 8 }),
      }),
    )
    .map((h) =>
      h.kind === 'star'
        ? star(h.cx, h.cy, h.radii, snap ? 5 : 0)
        : rect(
            5 * Math.round(h.cx / 5),
            5 * Math.round(h.cy / 5),
            5 * Math.round(h.cx / 5) + 5 * h.w,
            5 * Math.round(h.cy / 5) + 5 * h.h,
          ),
    );

/** A region as regionPolygons gives it: an outline minus holes through polygon-clipping, or outline with holes. */
const regionArb = fc.boolean().chain((snap) =>
  fc.record({
    snap: fc.constant(snap),
    outer: fc
      .array(fc.double({ min: 50, max: 100, noNaN: true }), { minLength: 3, maxLength: 40 })
      .map((r) => star(0, 0, r, snap ? 5 : 0)),
    holes: fc.array(holeArb(snap), { maxLength: 6 }),
    reverse: fc.boolean(),
  }),
);

function regionOf(g: { outer: number[]; holes: number[][]; reverse: boolean }): number[][][] {
  const polys = fromPc(polygonClipping.difference([toRing(g.outer)], ...g.holes.map((h) => [toRing(h)] as Polygon)));
  // orientation must not matter
  return g.reverse
    ? polys.map((p) => p.map((r) => r.reduceRight<number[]>((o, _, i) => (i % 2 ? o : o.concat(r[i], r[i + 1])), [])))
    : polys;
}

/** polygon-clipping's region ∩ cell. */
function reference(polys: number[][][], ax: number, ay: number, bx: number, by: number): number[][][] {
  return fromPc(
    polygonClipping.intersection(
      [toRing(rect(ax, ay, bx, by))],
      polys.map((p) => p.map(toRing)),
    ),
  );
}

/** Area covered by ear clipping the pieces (each triangle's unsigned area). */
function earcutArea(pieces: number[][][]): number {
  let s = 0;
  for (const p of pieces) {
    const flat = p.flat(),
      starts: number[] = [];
    let n = 0;
    p.forEach((r, k) => {
      if (k) starts.push(n);
      n += r.length / 2;
    });
    const t = earcut(flat, starts, 2);
    for (let i = 0; i < t.length; i += 3) {
      const a = 2 * t[i],
        b = 2 * t[i + 1],
        c = 2 * t[i + 2];
      s +=
        Math.abs(
          (flat[b] - flat[a]) * (flat[c + 1] - flat[a + 1]) - (flat[c] - flat[a]) * (flat[b + 1] - flat[a + 1]),
        ) / 2;
    }
  }
  return s;
}

const inPieces = (pieces: number[][][], x: number, y: number) =>
  pieces.filter((p) => pointInRing(p[0], x, y) && !p.slice(1).some((h) => pointInRing(h, x, y))).length;

describe('cellClip: region ∩ cell as polygon-clipping computes it', () => {
  it('random regions and cells: the area of polygon-clipping, consistent orientation, ear clipping covers each piece once', () => {
    fc.assert(
      fc.property(
        regionArb,
        fc.array(
          fc.tuple(
            fc.integer({ min: -110, max: 100 }),
            fc.integer({ min: -110, max: 100 }),
            fc.integer({ min: 1, max: 8 }),
            fc.double({ min: 0, max: 1, noNaN: true }),
          ),
          { minLength: 1, maxLength: 12 },
        ),
        (g, cells) => {
          const polys = regionOf(g);
          const clip = cellClipper(polys);
          for (const [cx, cy, w, jitter] of cells) {
            // on the coarse grid (borders through vertices and along edges) or anywhere
            const ax = g.snap ? cx - (cx % 5) : cx + jitter,
              ay = g.snap ? cy - (cy % 5) : cy - jitter,
              s = g.snap ? 5 * w : 3 * w + jitter;
            const mine = clip(ax, ay, ax + s, ay + s);
            expect(mine).not.toBeNull();
            const ref = reference(polys, ax, ay, ax + s, ay + s);
            expect(Math.abs(areaOf(mine!) - areaOf(ref))).toBeLessThanOrEqual(1e-9 * s * s);
            for (const p of mine!) {
              expect(signedArea2d(p[0])).toBeGreaterThan(0);
              for (const h of p.slice(1)) expect(signedArea2d(h)).toBeLessThan(0);
              for (const r of p)
                for (let i = 0; i < r.length; i += 2) {
                  expect(r[i]).toBeGreaterThanOrEqual(ax);
                  expect(r[i]).toBeLessThanOrEqual(ax + s);
                  expect(r[i + 1]).toBeGreaterThanOrEqual(ay);
                  expect(r[i + 1]).toBeLessThanOrEqual(ay + s);
                }
            }
            expect(Math.abs(earcutArea(mine!) - areaOf(mine!))).toBeLessThanOrEqual(1e-9 * s * s);
          }
        },
      ),
      { numRuns: 150, seed: 20261121 },
    );
  });

  it('a grid of cells tiles the region: no overlap, no gap', () => {
    fc.assert(
      fc.property(regionArb, fc.integer({ min: 7, max: 40 }), (g, cell) => {
        const polys = regionOf(g);
        const clip = cellClipper(polys);
        let sum = 0;
        const all: number[][][] = [];
        for (let x = -105; x < 105; x += cell)
          for (let y = -105; y < 105; y += cell) {
            // outer rings given as their clip to the cell's column, as triangulateGrid does
            const strips = polys.map((p) => clipRingToBox(p[0], x, -1e9, x + cell, 1e9));
            const pieces = clip(x, y, x + cell, y + cell, strips);
            expect(pieces).not.toBeNull();
            sum += areaOf(pieces!);
            all.push(...pieces!);
          }
        expect(Math.abs(sum - areaOf(polys))).toBeLessThanOrEqual(1e-9 * 210 * 210);
        for (let k = 0; k < 200; k++) {
          const x = -105 + ((k * 0.6180339887) % 1) * 210 + 0.0123,
            y = -105 + ((k * 0.7548776662) % 1) * 210 + 0.0371;
          expect(inPieces(all, x, y)).toBe(inPieces(polys, x, y));
        }
      }),
      { numRuns: 60, seed: 7 },
    );
  });

  it("a region that is not clean gives null or polygon-clipping's area, never something else", () => {
    fc.assert(
      fc.property(regionArb, fc.integer({ min: 5, max: 30 }), (g, cell) => {
        const polys = [[g.outer, ...g.holes]]; // holes may overlap each other and cross the outline
        const clip = cellClipper(polys);
        const clean = (() => {
          try {
            return fromPc(polygonClipping.difference([toRing(g.outer)], ...g.holes.map((h) => [toRing(h)] as Polygon)));
          } catch {
            return null;
          }
        })();
        if (!clean) return;
        for (let x = -100; x < 100; x += 3 * cell)
          for (let y = -100; y < 100; y += 3 * cell) {
            const mine = clip(x, y, x + cell, y + cell);
            if (mine)
              expect(Math.abs(areaOf(mine) - areaOf(reference(clean, x, y, x + cell, y + cell)))).toBeLessThanOrEqual(
                1e-9 * cell * cell,
              );
          }
      }),
      { numRuns: 60, seed: 11 },
    );
    // two overlapping holes: not clean
    const clip = cellClipper([[rect(0, 0, 10, 10), rect(2, 2, 6, 6), rect(4, 4, 8, 8)]]);
    expect(clip(3, 3, 7, 7)).toBeNull();
  });

  it('degenerate contacts with the cell border', () => {
    const outer = rect(0, 0, 10, 10);
    const cases: [number[][], number[], number][] = [
      [[outer], [2, 2, 4, 4], 4], // wholly inside: the cell
      [[outer, rect(2, 2, 4, 4).reverse()], [2, 2, 4, 4], 0], // hole equal to the cell
      [[outer, rect(1, 1, 5, 5)], [2, 2, 4, 4], 0], // hole covering the cell
      [[outer, rect(2, 2, 3, 4)], [2, 2, 4, 4], 2], // hole on three sides of the cell
      [[outer, [3, 2, 3.5, 3, 2.5, 3]], [2, 2, 4, 4], 3.5], // hole touching the border at a vertex
      [[outer, [2, 2, 3, 2.5, 2.5, 3]], [2, 2, 4, 4], 3.625], // hole at the cell's corner
      [[outer, rect(4, 2, 5, 4)], [2, 2, 4, 4], 4], // hole along a side, outside
      [[outer, rect(2, 2, 4, 4), rect(6, 6, 8, 8)], [0, 0, 10, 10], 92], // whole plate cell
      [[outer], [8, 8, 12, 12], 4], // outline along two sides
      [[outer], [10, 0, 12, 2], 0], // outline along a side, outside
      [[[0, 0, 10, 0, 5, 5, 10, 10, 0, 10]], [4, 4, 6, 6], 3], // concave vertex inside
      [[[0, 0, 10, 0, 5, 5, 10, 10, 0, 10]], [5, 0, 10, 10], 25], // concave vertex on the border: two pieces
    ];
    for (const [polys, [ax, ay, bx, by], area] of cases) {
      const got = cellClipper([polys])(ax, ay, bx, by);
      expect(got, JSON.stringify(polys)).not.toBeNull();
      expect(areaOf(got!)).toBeCloseTo(area, 12);
      expect(areaOf(reference([polys], ax, ay, bx, by))).toBeCloseTo(area, 12); // the expectation is polygon-clipping's
    }
    expect(cellClipper([[[0, 0, 10, 0, 5, 5, 10, 10, 0, 10]]])(5, 0, 10, 10)!.length).toBe(2);
  });

  it('refuses an empty cell and a wrong number of outer rings', () => {
    const clip = cellClipper([[rect(0, 0, 10, 10)]]);
    expect(() => clip(1, 1, 1, 2)).toThrow(/empty cell/);
    expect(() => clip(0, 0, 1, 1, [])).toThrow(/0 outer rings for 1 polygons/);
  });

  it("the grid triangulation of a plate with holes crossing many cells has the region's area", () => {
    const outer = star(
      0,
      0,
      Array.from({ length: 90 }, (_, i) => 4000 + 600 * Math.sin(i / 3)),
      0,
    );
    const holes = [
      star(-1500, 0, Array(48).fill(700), 0),
      star(1200, 800, Array(64).fill(900), 0),
      rect(-600, -2600, 900, -1900),
      star(3900, 0, Array(32).fill(500), 0),
    ];
    const r = triangulateGrid(outer, holes, 306);
    let tri = 0;
    for (let t = 0; t < r.indices.length; t += 3) {
      const a = 2 * r.indices[t],
        b = 2 * r.indices[t + 1],
        c = 2 * r.indices[t + 2],
        p = r.points;
      tri += ((p[b] - p[a]) * (p[c + 1] - p[a + 1]) - (p[c] - p[a]) * (p[b + 1] - p[a + 1])) / 2;
    }
    const ref = areaOf(
      fromPc(polygonClipping.difference([toRing(outer)], ...holes.map((h) => [toRing(h)] as Polygon))),
    );
    expect(Math.abs(tri - ref) / ref).toBeLessThan(1e-9);
    expect(Math.abs(r.area - ref) / ref).toBeLessThan(1e-9);
  });
});
