/**
 * Chaining a trace of many segments costs distances in proportion to the segments, not their square: a
 * fuzzed trace of 100,000 copies of one segment took minutes when every step scanned every segment. The
 * distances (hypot3 calls) and the grid's steps (cells and entries looked at) are counted, never timed.
 */
import { describe, expect, it, vi } from 'vitest';

vi.mock('../../../engine/geometry/curves', async (original) =>
  (await import('./countingHypot3')).countingCurves(original),
);
const { hypot3Calls: counter } = await import('./countingHypot3');

const { traceLine } = await import('../../../engine/ocx/memberMesh');
const { segmentEndsWork } = await import('../../../engine/geometry/segmentEnds');

/** Work of one traceLine call: distances computed, and the grid's steps (cells and entries looked at). */
function workOf(segs: number[][]): { distances: number; steps: number } {
  counter.calls = 0;
  segmentEndsWork.steps = 0;
  traceLine(segs, 1);
  return { distances: counter.calls, steps: segmentEndsWork.steps };
}

describe('traceLine work', () => {
  const n = 4000;

  it('copies of one segment: a few distances per segment', () => {
    const segs = Array.from({ length: n }, () => [0, 0, 0, 1000, 0, 0]);
    // the scan: 4 per pair, n² / 2 pairs (32 million here)
    const w = workOf(segs);
    expect(w.distances).toBeLessThan(20 * n);
    expect(w.steps).toBeLessThan(50 * n);
  });

  it('a polyline cut into shuffled, reversed pieces: a few distances per segment', () => {
    const segs: number[][] = [];
    for (let k = 0; k < n; k++) {
      const s = [k * 100, Math.sin(k) * 50, 0, (k + 1) * 100, Math.sin(k + 1) * 50, 0];
      segs.push(k % 3 ? s : [...s.slice(3), ...s.slice(0, 3)]);
    }
    for (let i = n - 1; i > 0; i--) {
      const j = (i * 7919) % (i + 1);
      [segs[i], segs[j]] = [segs[j], segs[i]];
    }
    const w = workOf(segs);
    expect(w.distances).toBeLessThan(20 * n);
    expect(w.steps).toBeLessThan(100 * n);
  });
});
