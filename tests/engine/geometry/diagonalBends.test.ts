/**
 * diagonalBendsMore(g, k) answers kappaDiagonal(g) > k from bounds on the turns (no hypot3, no acos)
 * where they suffice: the answer must be kappaDiagonal's for every k — at the percentile's value itself
 * and the doubles either side of it, where the bounds cannot decide — on random rational surfaces of
 * degrees 1–5 (turns of any size, up to half turns) and on pipes and bands (small, even turns: the
 * bounds decide almost all).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ParamSurface } from '../../../engine/geometry/paramSheet';
import { diagonalBendsMore, kappaDiagonal, type Sampled, sample } from '../../../engine/geometry/surfaceSamples';
import { nurbsParamSurface } from '../../../engine/ocx/surfaces';
import { randomSurface, uniform } from './randomNurbs';

/** A cylinder band of radius r (mm), length h, as an analytic surface turned by `tilt` about x. */
function band(r: number, h: number, tilt: number): ParamSurface {
  const c = Math.cos(tilt),
    sn = Math.sin(tilt);
  return {
    u0: 0,
    u1: 2 * Math.PI,
    v0: 0,
    v1: h,
    eval: (t, v, out) => {
      const x = r * Math.cos(t),
        y = r * Math.sin(t);
      out[0] = x;
      out[1] = c * y - sn * v;
      out[2] = sn * y + c * v;
    },
  };
}

const bits = new Float64Array(1),
  word = new BigInt64Array(bits.buffer);
/** The double next to x (x > 0) upwards (+1) or downwards (−1). */
function step(x: number, dir: 1 | -1): number {
  bits[0] = x;
  word[0] += BigInt(dir);
  return bits[0];
}

/** diagonalBendsMore against kappaDiagonal for k around the percentile and elsewhere. */
function agrees(g: Sampled, extra: number[]): void {
  g.kappaD = NaN;
  const kd = kappaDiagonal(g);
  const ks = [kd, 0, kd / 2, 2 * kd, kd * (1 - 1e-13), kd * (1 + 1e-13), ...extra];
  if (kd > 0) ks.push(step(kd, 1), step(kd, -1));
  for (const k of ks) {
    g.kappaD = NaN; // not the cached values: the bounds' path
    g.diagK = NaN;
    expect(diagonalBendsMore(g, k)).toBe(kd > k);
    expect(diagonalBendsMore(g, k)).toBe(kd > k); // the kept answer
  }
}

describe('diagonalBendsMore', () => {
  it('gives kappaDiagonal(g) > k on random rational surfaces', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer(),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 8 }),
        (pu, pv, seed, ks) => {
          const g = sample(nurbsParamSurface(randomSurface(pu, pv, uniform(seed))), 1);
          agrees(g, ks);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('gives kappaDiagonal(g) > k on bands and pipes, at every sample’s own curvature too', () => {
    for (const [r, h, tilt] of [
      [300, 1000, 0],
      [150, 40, 0.3],
      [5000, 200, 1.1],
      [0.5, 3, 0.7],
    ]) {
      const g = sample(band(r, h, tilt), 1);
      agrees(g, [1 / r, 0.5 / r, 1 / (2 * r)]);
    }
  });
});
