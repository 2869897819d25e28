/**
 * Contour chaining through the grid of segment ends (engine/geometry/chainLoops.ts): the same loops as the
 * scan of every segment at every step, on random contours cut into shuffled, reversed pieces with gaps
 * around the gap tolerance, ties and slivers; and work in proportion to the segments where the scan's is
 * their square. Distances (hypot3 calls) are counted, never timed.
 */
import { describe, expect, it, vi } from 'vitest';
import { rngOf } from '../../fuzz/prng';

vi.mock('../../../engine/geometry/curves', async (original) =>
  (await import('./countingHypot3')).countingCurves(original),
);
const { hypot3Calls: counter } = await import('./countingHypot3');

const { chainLoops, CHAIN_GRID_SEGMENTS } = await import('../../../engine/geometry/chainLoops');

/** Deterministic random numbers in [0, 1) (the fuzzers' mulberry32). */
const random = (seed: number): (() => number) => rngOf(seed).next;

/**
 * Closed polygons (mm, on a coarse lattice so that points and distances repeat) cut into pieces of one to
 * three edges; each piece's start moved off its neighbour's end by a gap of up to `gapMax` (often 0), some
 * pieces reversed, a few repeated, slivers and stray pieces mixed in, all shuffled.
 */
function contours(rand: () => number, loops: number, gapMax: number): number[][] {
  const pieces: number[][] = [];
  const lattice = (v: number) => Math.round(v / 5) * 5;
  for (let l = 0; l < loops; l++) {
    const n = 3 + Math.floor(rand() * 30);
    const cx = lattice(rand() * 4000),
      cy = lattice(rand() * 4000),
      r = 50 + lattice(rand() * 600),
      z = rand() < 0.5 ? 0 : lattice(rand() * 100);
    const pts: number[][] = [];
    for (let i = 0; i < n; i++) {
      const a = (2 * Math.PI * i) / n;
      pts.push([lattice(cx + r * Math.cos(a)), lattice(cy + r * Math.sin(a)), z]);
    }
    for (let i = 0; i < n; ) {
      const m = Math.min(n - i, 1 + Math.floor(rand() * 3));
      const piece: number[] = [];
      for (let k = 0; k <= m; k++) piece.push(...pts[(i + k) % n]);
      if (rand() < 0.5) {
        const g = rand() < 0.4 ? 0 : Math.round(rand() * gapMax * 4) / 4;
        piece[0] += g;
        piece[1] -= rand() < 0.5 ? g : 0;
      }
      pieces.push(rand() < 0.4 ? reverse(piece) : piece);
      if (rand() < 0.05) pieces.push(piece.slice());
      i += m;
    }
  }
  for (let i = 0; i < loops; i++) {
    const x = lattice(rand() * 4000),
      y = lattice(rand() * 4000);
    // slivers shorter than eps, and stray open pieces
    pieces.push(rand() < 0.5 ? [x, y, 0, x + 0.001, y, 0] : [x, y, 0, x + 25, y + 5, 0]);
  }
  for (let i = pieces.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [pieces[i], pieces[j]] = [pieces[j], pieces[i]];
  }
  return pieces;
}

function reverse(p: number[]): number[] {
  const out: number[] = [];
  for (let i = p.length - 3; i >= 0; i -= 3) out.push(p[i], p[i + 1], p[i + 2]);
  return out;
}

describe('chainLoops through the grid of segment ends', () => {
  it('gives the scan’s loops, gaps and repeats on random contours (200 cases of up to a thousand pieces)', () => {
    let gridded = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const rand = random(seed);
      const segs = contours(rand, 1 + Math.floor(rand() * 60), seed % 3 === 0 ? 3 : 1.5);
      const gapTol = seed % 4 === 0 ? 2 : 1;
      const viaGrid = chainLoops(segs, 0.01, gapTol);
      const viaScan = chainLoops(segs, 0.01, gapTol, Infinity);
      expect(viaGrid, `seed ${seed}`).toEqual(viaScan);
      if (segs.length > CHAIN_GRID_SEGMENTS) gridded++;
    }
    // most cases are past the grid's threshold
    expect(gridded).toBeGreaterThan(150);
  });

  it('falls back to the scan for non-finite coordinates, with the same result', () => {
    const rand = random(7);
    const segs = contours(rand, 20, 1.5);
    segs.push([Number.NaN, 0, 0, 1, 1, 1], [0, Number.POSITIVE_INFINITY, 0, 5, 5, 5]);
    expect(chainLoops(segs, 0.01, 1)).toEqual(chainLoops(segs, 0.01, 1, Infinity));
  });

  it('a contour of 4,000 pieces that never meet exactly: distances in proportion to the pieces', () => {
    const n = 4000;
    const segs: number[][] = [];
    for (let k = 0; k < n; k++) {
      // pieces around a 4,000-gon, each starting 0.5 mm off the previous one's end
      const a0 = (2 * Math.PI * k) / n,
        a1 = (2 * Math.PI * (k + 1)) / n;
      const s = [1e5 * Math.cos(a0) + 0.5, 1e5 * Math.sin(a0), 0, 1e5 * Math.cos(a1), 1e5 * Math.sin(a1), 0];
      segs.push(k % 3 ? s : reverse(s));
    }
    const rand = random(3);
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [segs[i], segs[j]] = [segs[j], segs[i]];
    }
    counter.calls = 0;
    const viaGrid = chainLoops(segs, 0.01, 1);
    const gridCalls = counter.calls;
    expect(viaGrid.loops).toHaveLength(1);
    // each piece adds its end: the gap to the next piece's start is bridged
    expect(viaGrid.loops[0].length / 3).toBe(n);
    // the scan: two distances per unused piece per step, about n² in all (16 million here)
    expect(gridCalls).toBeLessThan(40 * n);
    counter.calls = 0;
    expect(chainLoops(segs, 0.01, 1, Infinity)).toEqual(viaGrid);
    expect(counter.calls).toBeGreaterThan((n * n) / 2);
  });
});
