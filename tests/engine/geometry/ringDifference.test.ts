/**
 * outer − ∪ holes by engine/geometry/ringDifference.ts (holes crossing a plate's outline, without
 * polygon-clipping) against polygon-clipping itself:
 * - on random star-shaped outlines with holes placed across them, on a fine and on a coarse grid (so that
 *   hole vertices fall on outline edges and edges run along each other): whenever the method answers,
 *   the area is polygon-clipping's to 1e-9 of the outline's, outer rings run counter-clockwise and holes
 *   clockwise, and ear clipping each polygon covers its area once; it answers on most of them;
 * - the contacts it settles by perturbation (a hole vertex on the outline, a hole edge along it, a hole
 *   outside touching it, a hole covering it) and the input it leaves to the boolean (null): holes whose
 *   boxes meet, a hole inside touching the outline, a ring crossing itself;
 * - regionPolygons takes its answer and gives polygon-clipping's area on a plate cut at two corners.
 */
import earcut from 'earcut';
import polygonClipping, { type Ring } from 'polygon-clipping';
import { describe, expect, it } from 'vitest';
import { regionPolygons, signedArea2d } from '../../../engine/geometry/region2d';
import { ringDifference } from '../../../engine/geometry/ringDifference';
import { rngOf } from '../../fuzz/prng';

const toRing = (r: number[]): Ring => {
  const o: Ring = [];
  for (let i = 0; i < r.length; i += 2) o.push([r[i], r[i + 1]]);
  o.push(o[0]);
  return o;
};
const areaOf = (polys: number[][][]) =>
  polys.reduce((s, p) => s + p.reduce((t, r, k) => t + (k ? -1 : 1) * Math.abs(signedArea2d(r)), 0), 0);
/** Area of polygon-clipping's difference, or null when it throws. */
function pcArea(outer: number[], holes: number[][]): number | null {
  try {
    const res = polygonClipping.difference([toRing(outer)], ...holes.map((h) => [toRing(h)]));
    return areaOf(res.map((p) => p.map((r) => r.slice(0, -1).flat())));
  } catch {
    return null;
  }
}
const rect = (x0: number, y0: number, x1: number, y1: number) => [x0, y0, x1, y0, x1, y1, x0, y1];

/** A star-shaped ring around (cx, cy), counter-clockwise, snapped to a grid of `snap` when > 0. */
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

/** Checks orientation and that ear clipping covers each polygon's area. */
function expectWellFormed(polys: number[][][]): void {
  for (const p of polys) {
    expect(signedArea2d(p[0])).toBeGreaterThan(0);
    for (let k = 1; k < p.length; k++) expect(signedArea2d(p[k])).toBeLessThan(0);
    const flat = p.flat();
    const starts: number[] = [];
    let n = 0;
    for (let k = 0; k < p.length; k++) {
      if (k) starts.push(n);
      n += p[k].length / 2;
    }
    const tri = earcut(flat, starts, 2);
    let a = 0;
    for (let t = 0; t < tri.length; t += 3) {
      const [i, j, k] = [tri[t], tri[t + 1], tri[t + 2]];
      a += Math.abs(
        (flat[2 * j] - flat[2 * i]) * (flat[2 * k + 1] - flat[2 * i + 1]) -
          (flat[2 * k] - flat[2 * i]) * (flat[2 * j + 1] - flat[2 * i + 1]),
      );
    }
    expect(a / 2).toBeCloseTo(areaOf([p]), 6);
  }
}

describe('ringDifference: holes crossing an outline', () => {
  for (const snap of [0, 5]) {
    it(`random outlines and holes across them (grid ${snap || 'none'}): polygon-clipping's area whenever it answers`, () => {
      let answered = 0,
        compared = 0;
      const cases = 300;
      for (let seed = 1; seed <= cases; seed++) {
        const rng = rngOf(seed * 7919 + snap);
        const radii = Array.from({ length: rng.range(3, 12) }, () => 40 + 60 * rng.next());
        const outer = star(0, 0, radii, snap);
        if (rng.chance(0.5)) outer.reverse(); // any orientation (pairs reversed: x and y swap roles, still a ring)
        const holes: number[][] = [];
        const nh = rng.range(1, 3);
        for (let h = 0; h < nh; h++) {
          // centred on a random outline vertex or edge midpoint, sizes from tiny to larger than the outline
          const i = rng.int(outer.length / 2),
            j = (i + 1) % (outer.length / 2),
            t = rng.pick([0, 0.5, rng.next()]);
          const cx = outer[2 * i] + t * (outer[2 * j] - outer[2 * i]),
            cy = outer[2 * i + 1] + t * (outer[2 * j + 1] - outer[2 * i + 1]);
          const r = rng.pick([5, 15, 30, 150]);
          holes.push(
            star(
              cx,
              cy,
              Array.from({ length: rng.range(3, 10) }, () => r * (0.5 + rng.next())),
              snap,
            ),
          );
        }
        const res = ringDifference(outer, holes);
        if (!res) continue;
        answered++;
        expectWellFormed(res);
        const ref = pcArea(outer, holes);
        if (ref === null) continue;
        compared++;
        expect(Math.abs(areaOf(res) - ref), `seed ${seed}`).toBeLessThan(1e-9 * Math.abs(signedArea2d(outer)));
      }
      expect(answered).toBeGreaterThan(cases * 0.4);
      expect(compared).toBeGreaterThan(cases * 0.3);
    });
  }

  it('a circle on a corner and a slot on another: polygon-clipping’s polygons', () => {
    const circle = star(5000, 5000, Array(26).fill(125), 0);
    const slot = star(0, 0, Array(32).fill(300), 0);
    const outer = rect(0, 0, 5000, 5000);
    const res = ringDifference(outer, [circle, slot])!;
    expect(res).toHaveLength(1);
    expect(res[0]).toHaveLength(1);
    expect(areaOf(res)).toBeCloseTo(pcArea(outer, [circle, slot])!, 6);
    // rings start at their lowest point (x, then y), as polygon-clipping gives them
    const r = res[0][0];
    for (let i = 2; i < r.length; i += 2) expect(r[i] > r[0] || (r[i] === r[0] && r[i + 1] > r[1])).toBe(true);
  });

  it('settles exact contacts: a vertex on the outline, an edge along it, a hole outside touching it, one covering it', () => {
    const outer = rect(0, 0, 100, 100);
    // a square hole with one vertex on the right edge and an edge along the bottom
    const along = [80, 0, 120, 0, 120, 20, 100, 30, 80, 20];
    const a = ringDifference(outer, [along])!;
    expect(areaOf(a)).toBeCloseTo(pcArea(outer, [along])!, 9);
    expectWellFormed(a);
    // a dart whose reflex vertex lies exactly on the top edge, its two lower edges crossing it: the
    // triangle (45, 100), (55, 100), (50, 90) is cut
    const notch = [40, 110, 50, 100, 60, 110, 50, 90];
    const b = ringDifference(outer, [notch])!;
    expect(areaOf(b)).toBeCloseTo(10000 - 50, 9);
    expect(areaOf(b)).toBeCloseTo(pcArea(outer, [notch])!, 9);
    // outside, sharing the left edge: nothing is cut
    const c = ringDifference(outer, [rect(-50, 0, 0, 100)])!;
    expect(c).toEqual([[[0, 0, 100, 0, 100, 100, 0, 100]]]);
    // covering the outline with a shared edge: nothing is left
    expect(ringDifference(outer, [rect(0, 0, 100, 200)])).toEqual([]);
    // a hole's vertex at an outline vertex, crossing two edges
    const corner = [100, 100, 90, 110, 80, 100, 90, 90];
    expect(areaOf(ringDifference(outer, [corner])!)).toBeCloseTo(10000 - 100, 9);
  });

  it('leaves to the boolean what it does not take (null)', () => {
    const outer = rect(0, 0, 100, 100);
    // holes whose boxes meet
    expect(ringDifference(outer, [rect(90, 10, 110, 30), rect(95, 25, 115, 40)])).toBeNull();
    // a hole inside touching the outline along an edge
    expect(ringDifference(outer, [rect(0, 40, 20, 60)])).toBeNull();
    // an outline crossing itself
    expect(ringDifference([0, 0, 100, 100, 100, 0, 0, 100], [rect(90, 40, 110, 60)])).toBeNull();
    // fewer than three distinct points
    expect(ringDifference([0, 0, 100, 0, 0, 0], [rect(90, 40, 110, 60)])).toBeNull();
  });

  it('regionPolygons uses it for holes across the outline: the same area as the boolean', () => {
    const outer = rect(0, 0, 5000, 3000);
    const holes = [star(5000, 3000, Array(24).fill(200), 0), star(0, 1500, Array(16).fill(100), 0)];
    const polys = regionPolygons(outer, holes);
    expect(areaOf(polys)).toBeCloseTo(pcArea(outer, holes)!, 6);
    expect(ringDifference(outer, holes)).toEqual(polys);
  });
});
