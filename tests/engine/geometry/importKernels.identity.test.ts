/**
 * The import's faster kernels give what the straightforward versions give —
 * - nthValue: the element a numeric sort puts at the index (NaNs last), for arrays with repeats and NaNs;
 * - evalSurfaceDerivs: S as evalSurface gives it (to round-off) and ∂S/∂u, ∂S/∂v as central differences
 *   give them (rational, degrees 1–4, repeated knots);
 * - tessellateCurve: the polyline of the subdivision that evaluated all five points of every span with
 *   the B-spline basis (to round-off: the kernel evaluates each span's Bézier form);
 * - traceLine: the chain of the version that re-copied the chain at every joined segment and scanned all
 *   segments for the nearest (the grid of many segments included: copies, shared ends, ties, outliers);
 * - regionPolygons: holes strictly inside and apart from the rest kept out of the polygon boolean give
 *   the area and pieces of the boolean over every hole, and are rings of the result as they were given.
 */
import fc from 'fast-check';
import polygonClipping, { type Polygon } from 'polygon-clipping';
import { describe, expect, it } from 'vitest';
import { hypot3, reversePolyline } from '../../../engine/geometry/curves';
import {
  distToSegment,
  evalCurve,
  evalSurface,
  evalSurfaceDerivs,
  homogeneous,
  type NurbsCurve,
  tessellateCurve,
} from '../../../engine/geometry/nurbs';
import { regionPolygons, signedArea2d } from '../../../engine/geometry/region2d';
import { nthValue } from '../../../engine/geometry/selectNth';
import { traceLine } from '../../../engine/ocx/memberMesh';
import { clampedKnots, randomSurface, uniform } from './randomNurbs';

describe('nthValue', () => {
  it('is the element a sort puts at the index', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(fc.integer({ min: -5, max: 5 }), fc.double({ noNaN: true, min: -1e6, max: 1e6 }), fc.constant(NaN)),
          {
            minLength: 1,
            maxLength: 80,
          },
        ),
        fc.nat(),
        (xs, k) => {
          const a = Float64Array.from(xs);
          const nth = k % a.length;
          const sorted = Float64Array.from(xs).sort();
          const v = nthValue(a, nth) as number;
          // −0 and +0 count as equal
          expect(v === sorted[nth] || (Number.isNaN(v) && Number.isNaN(sorted[nth]))).toBe(true);
          expect(Float64Array.from(a).sort()).toEqual(sorted); // reordered, nothing lost
        },
      ),
      { numRuns: 300 },
    );
    expect(nthValue(new Float64Array(3), 3)).toBeUndefined();
  });
});

describe('evalSurfaceDerivs', () => {
  it('gives evalSurface’s point and the central differences’ derivatives', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }), fc.integer(), (pu, pv, seed) => {
        const r = uniform(seed);
        const s = randomSurface(pu, pv, r);
        const out = new Float64Array(9),
          q = new Float64Array(3),
          a = new Float64Array(3),
          b = new Float64Array(3);
        const h = 1e-7;
        const awayFromKnots = (t: number, U: Float64Array) => U.every((k) => Math.abs(k - t) > 1e-4);
        for (let n = 0; n < 12; n++) {
          const u = 0.001 + 0.998 * r(),
            v = 0.001 + 0.998 * r();
          evalSurfaceDerivs(s, u, v, out);
          evalSurface(s, u, v, q);
          for (let k = 0; k < 3; k++) expect(Math.abs(out[k] - q[k])).toBeLessThanOrEqual(1e-9 * (1 + Math.abs(q[k])));
          if (!awayFromKnots(u, s.knotsU) || !awayFromKnots(v, s.knotsV)) continue; // a kink: one-sided by design
          evalSurface(s, u + h, v, a);
          evalSurface(s, u - h, v, b);
          for (let k = 0; k < 3; k++) {
            const fd = (a[k] - b[k]) / (2 * h);
            expect(Math.abs(out[3 + k] - fd)).toBeLessThanOrEqual(1e-4 * (1 + Math.abs(fd)));
          }
          evalSurface(s, u, v + h, a);
          evalSurface(s, u, v - h, b);
          for (let k = 0; k < 3; k++) {
            const fd = (a[k] - b[k]) / (2 * h);
            expect(Math.abs(out[6 + k] - fd)).toBeLessThanOrEqual(1e-4 * (1 + Math.abs(fd)));
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});

/** tessellateCurve as it was written first: every span's ends, middle and quarter points evaluated anew. */
function referenceTessellate(c: NurbsCurve, tol: number, angTol = Math.PI / 12): number[] {
  const p = c.degree,
    n = c.pw.length / 4,
    U = c.knots;
  const out: number[] = [];
  const pt = [0, 0, 0];
  evalCurve(c, U[p], pt);
  out.push(...pt);
  const cosAng = Math.cos(angTol);
  const sub = (a: number, b: number, depth: number): void => {
    const [pa, pb, pm, pq, pr] = [a, b, (a + b) / 2, a + (b - a) / 4, a + (3 * (b - a)) / 4].map((t) => {
      const o = [0, 0, 0];
      evalCurve(c, t, o);
      return o;
    });
    const err = Math.max(distToSegment(pm, pa, pb), distToSegment(pq, pa, pb), distToSegment(pr, pa, pb));
    const d1 = [pm[0] - pa[0], pm[1] - pa[1], pm[2] - pa[2]],
      d2 = [pb[0] - pm[0], pb[1] - pm[1], pb[2] - pm[2]];
    const l1 = hypot3(d1[0], d1[1], d1[2]),
      l2 = hypot3(d2[0], d2[1], d2[2]);
    const cos = l1 > 0 && l2 > 0 ? (d1[0] * d2[0] + d1[1] * d2[1] + d1[2] * d2[2]) / (l1 * l2) : 1;
    if (depth < 12 && (err > tol || (cos < cosAng && l1 + l2 > tol))) {
      sub(a, (a + b) / 2, depth + 1);
      sub((a + b) / 2, b, depth + 1);
      return;
    }
    out.push(...pb);
  };
  for (let k = p; k < n; k++) if (U[k + 1] > U[k]) sub(U[k], U[k + 1], 0);
  return out;
}

/** True when no knot strictly inside the domain repeats more than p times (the curve has no jump). */
function continuous(U: Float64Array, p: number): boolean {
  const lo = U[p],
    hi = U[U.length - p - 1];
  let run = 0;
  for (let i = 0; i < U.length; i++) {
    run = i > 0 && U[i] === U[i - 1] ? run + 1 : 1;
    if (U[i] > lo && U[i] < hi && run > p) return false;
  }
  return true;
}

describe('tessellateCurve', () => {
  it('gives the polyline of the five-point subdivision to round-off (its points from each span’s Bézier form)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 4 }),
        fc.integer(),
        fc.double({ min: 0.01, max: 5, noNaN: true }),
        (p, seed, tol) => {
          const r = uniform(seed);
          const n = p + 1 + Math.floor(r() * 6);
          // control points off any line (no collinear span: those take their end points only)
          const c: NurbsCurve = {
            degree: p,
            knots: clampedKnots(n, p, r).map((k) => k * 37.5),
            pw: homogeneous(
              Array.from({ length: 3 * n }, () => (r() - 0.5) * 2000),
              Array.from({ length: n }, () => 0.5 + r()),
            ),
          };
          const got = tessellateCurve(c, tol),
            want = referenceTessellate(c, tol);
          // a first knot repeated more than p + 1 times: the B-spline basis at the domain's start
          // divides by zero and the reference starts at NaN; the kernel's points stay finite
          expect(got.every(Number.isFinite)).toBe(true);
          fc.pre(want.every(Number.isFinite));
          // an interior knot repeated more than p times breaks the curve: the reference takes a span's
          // end from the next piece (the basis is right-sided), the kernel from the span's own piece
          fc.pre(continuous(c.knots, p));
          // the same subdivision (a threshold met within round-off could split differently: not in
          // these runs) and the same points but for the last bits
          expect(got.length).toBe(want.length);
          for (let i = 0; i < got.length; i++) expect(Math.abs(got[i] - want[i])).toBeLessThan(1e-9);
        },
      ),
      { numRuns: 200 },
    );
  });
});

/** traceLine as it was written first: the chain re-copied at every joined segment. */
function referenceTrace(segments: number[][], gapTol: number): number[] {
  const segs = segments.filter((s) => s.length >= 6);
  if (segs.length <= 1) return segs[0] ?? [];
  const used = new Uint8Array(segs.length);
  used[0] = 1;
  let chain = segs[0].slice();
  const d = (p: number[], i: number, q: number[], j: number) =>
    hypot3(p[i] - q[j], p[i + 1] - q[j + 1], p[i + 2] - q[j + 2]);
  for (let added = 1; added < segs.length; added++) {
    let best = -1,
      bestD = Infinity,
      atEnd = true,
      rev = false;
    const e = chain.length - 3;
    for (let k = 0; k < segs.length; k++) {
      if (used[k]) continue;
      const s = segs[k],
        se = s.length - 3;
      const cands: [number, boolean, boolean][] = [
        [d(chain, e, s, 0), true, false],
        [d(chain, e, s, se), true, true],
        [d(chain, 0, s, se), false, false],
        [d(chain, 0, s, 0), false, true],
      ];
      for (const [dist, end, rr] of cands) if (dist < bestD) [bestD, best, atEnd, rev] = [dist, k, end, rr];
    }
    used[best] = 1;
    const s = rev ? reversePolyline(segs[best]) : segs[best];
    if (atEnd) chain = chain.concat(bestD <= gapTol ? s.slice(3) : s);
    else chain = (bestD <= gapTol ? s.slice(0, -3) : s).concat(chain);
  }
  return chain;
}

describe('traceLine', () => {
  it('chains shuffled, reversed and gapped segments as the re-copying version did', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 1, max: 12 }), (seed, m) => {
        const r = uniform(seed);
        // a polyline cut into m pieces, some with gaps or small jitter, shuffled, some reversed
        const pts: number[] = [];
        for (let i = 0; i <= 3 * m; i++) pts.push(i * 100 + r() * 10, Math.sin(i) * 50, r() < 0.2 ? 0 : r());
        const segs: number[][] = [];
        for (let k = 0; k < m; k++) {
          let s = pts.slice(9 * k, 9 * k + 12);
          if (r() < 0.3) s = s.map((v, i) => (i < 3 ? v + r() * 30 : v));
          if (r() < 0.5) s = reversePolyline(s);
          segs.push(s);
        }
        if (r() < 0.2) segs.push([1, 2, 3]); // too short: dropped
        for (let i = segs.length - 1; i > 0; i--) {
          const j = Math.floor(r() * (i + 1));
          [segs[i], segs[j]] = [segs[j], segs[i]];
        }
        const gap = r() * 20;
        expect(traceLine(segs, gap)).toEqual(referenceTrace(segs, gap));
      }),
      { numRuns: 300 },
    );
  });

  it('chains many segments through the grid as the scan did: copies, shared ends, ties, gaps, outliers', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 33, max: 400 }), (seed, m) => {
        const r = uniform(seed);
        // coarse lattice coordinates make equal distances (ties) and shared end points common
        const q = () => Math.round(r() * 6) * (r() < 0.5 ? 50 : 0.5);
        const p = (): number[] => [q(), q(), q()];
        const segs: number[][] = [];
        const base = [...p(), ...p()];
        for (let k = 0; k < m; k++) {
          const kind = r();
          if (kind < 0.3)
            segs.push(base.slice()); // a copy of one segment
          else if (kind < 0.35) segs.push(reversePolyline(base));
          else if (kind < 0.45 && segs.length)
            segs.push([...segs[segs.length - 1].slice(-3), ...p()]); // shared end
          else if (kind < 0.47)
            segs.push([r() * 1e9, 0, 0, 0, 0, 0]); // far out: a coarse grid
          else if (kind < 0.49) {
            const a = p();
            segs.push([...a, ...a]); // zero length
          } else segs.push([...p(), ...(r() < 0.5 ? p() : []), ...p()]);
        }
        const gap = r() * 60;
        expect(traceLine(segs, gap)).toEqual(referenceTrace(segs, gap));
      }),
      { numRuns: 150 },
    );
  });
});

/** A closed polygon-clipping ring of a regular n-gon. */
function ngon(cx: number, cy: number, rad: number, n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++)
    out.push(cx + rad * Math.cos((2 * Math.PI * i) / n), cy + rad * Math.sin((2 * Math.PI * i) / n));
  return out;
}

const area = (polys: number[][][]) =>
  polys.reduce((a, p) => a + p.reduce((b, r, k) => b + (k ? -1 : 1) * Math.abs(signedArea2d(r)), 0), 0);

describe('regionPolygons with holes inside and holes across the outline', () => {
  it('keeps the boolean’s area and pieces', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const r = uniform(seed);
        const outer = [0, 0, 1000, 0, 1000, 600, 0, 600];
        const holes: number[][] = [];
        // small holes on a grid of cells inside (apart), some overlapping pairs, some across the edges
        for (let i = 0; i < 5; i++)
          for (let j = 0; j < 3; j++)
            if (r() < 0.4) holes.push(ngon(100 + 200 * i, 100 + 200 * j, 20 + 40 * r(), 12 + Math.floor(r() * 20)));
        if (r() < 0.7) holes.push(ngon(500, 600, 80, 16)); // across the top edge
        if (r() < 0.5) holes.push(ngon(0, 300, 50, 10)); // across the left edge
        if (r() < 0.4) holes.push(ngon(130, 130, 30, 8)); // may overlap the first inside hole
        const ref = polygonClipping.difference(
          [outer.reduce<[number, number][]>((a, _, i) => (i % 2 ? a : [...a, [outer[i], outer[i + 1]]]), [])],
          ...holes.map(
            (h): Polygon => [h.reduce<[number, number][]>((a, _, i) => (i % 2 ? a : [...a, [h[i], h[i + 1]]]), [])],
          ),
        );
        const refArea = ref.reduce(
          (a, p) =>
            a + p.reduce((b, ring, k) => b + (k ? -1 : 1) * Math.abs(signedArea2d(ring.slice(0, -1).flat())), 0),
          0,
        );
        const got = regionPolygons(outer, holes);
        expect(Math.abs(area(got) - refArea)).toBeLessThanOrEqual(1e-9 * 600000);
        expect(got.length).toBe(ref.length);
      }),
      { numRuns: 100 },
    );
  });

  it('hands the inside holes over as they were given next to the boolean’s pieces', () => {
    const outer = [0, 0, 1000, 0, 1000, 600, 0, 600];
    const inside = [ngon(200, 300, 50, 24), ngon(700, 250, 80, 40)];
    const across = ngon(1000, 300, 100, 16); // across the right edge
    const got = regionPolygons(outer, [inside[0], across, inside[1]]);
    expect(got.length).toBe(1);
    for (const h of inside) expect(got[0]).toContainEqual(h);
    expect(area(got)).toBeCloseTo(
      600000 -
        Math.abs(signedArea2d(inside[0])) -
        Math.abs(signedArea2d(inside[1])) -
        Math.abs(signedArea2d(across)) / 2,
      6,
    );
  });
});
