/**
 * Draw ranges of the visible rows of a chunk buffer (engine/render/rowRanges.ts): whole rows only, the
 * largest hidden gaps split off first, small gaps drawn, empty rows neutral.
 */
import { describe, expect, it } from 'vitest';
import { ROW_DRAWS_MAX, ROW_RANGES_MAX, rangesPerBuffer, visibleRowRanges } from '../../../engine/render/rowRanges';

/** Prefix ends of rows with these index counts. */
const ends = (counts: number[]) => {
  let n = 0;
  return counts.map((c) => (n += c));
};
const pairs = (r: ReturnType<typeof visibleRowRanges>) => (r ? Array.from(r.starts, (s, k) => [s, r.counts[k]]) : null);

describe('visibleRowRanges', () => {
  it('draws the prefix as it is when nothing, or too little, is hidden', () => {
    const e = ends([300, 300, 300]);
    expect(visibleRowRanges(e, 3, () => true)).toBeNull();
    // 300 indices hidden at the tail: under the minimum gap.
    expect(visibleRowRanges(e, 3, (r) => r < 2, 16, 384)).toBeNull();
    expect(pairs(visibleRowRanges(e, 3, (r) => r < 2, 16, 300))).toEqual([[0, 600]]);
  });

  it('splits off hidden gaps of whole rows, largest first, within the range budget', () => {
    // Rows: 0 shown, 1 hidden (400), 2 shown, 3 hidden (900), 4 shown, 5 hidden (500), 6 shown.
    const e = ends([60, 400, 60, 900, 60, 500, 60]);
    const shown = (r: number) => r % 2 === 0;
    const all = visibleRowRanges(e, 7, shown, 16, 384)!;
    expect(pairs(all)).toEqual([
      [0, 60],
      [460, 60],
      [1420, 60],
      [1980, 60],
    ]);
    expect(all.hidden).toBe(1800);
    // Two ranges: only the largest gap (row 3) is split off.
    const two = visibleRowRanges(e, 7, shown, 2, 384)!;
    expect(pairs(two)).toEqual([
      [0, 520],
      [1420, 620],
    ]);
    expect(two.hidden).toBe(900);
    // Gaps under the minimum are drawn: only row 3's gap is worth a draw call.
    expect(pairs(visibleRowRanges(e, 7, shown, 16, 600))).toEqual([
      [0, 520],
      [1420, 620],
    ]);
  });

  it('considers only the drawn prefix of rows, skips empty rows and leaves a hidden head out', () => {
    const e = ends([500, 0, 60, 0, 500, 60]);
    // Row 0 hidden (the head), rows 1 and 3 empty, row 4 hidden, row 5 beyond the prefix.
    const r = visibleRowRanges(e, 5, (k) => k === 1 || k === 2 || k === 3, 16, 384)!;
    expect(pairs(r)).toEqual([[500, 60]]);
    expect(r.hidden).toBe(1000);
    expect(visibleRowRanges(e, 5, () => false)).toEqual({
      starts: new Uint32Array(0),
      counts: new Uint32Array(0),
      count: 0,
      hidden: 1060,
    });
  });

  it('refuses a range budget under one and more rows than the buffer has', () => {
    expect(() => visibleRowRanges([3], 1, () => true, 0)).toThrow(/not a positive count/);
    expect(() => visibleRowRanges([3], 2, () => true)).toThrow(/2 rows asked of a buffer with 1/);
  });
});

describe('rangesPerBuffer', () => {
  it('shares the frame budget of draw calls, between one and ROW_RANGES_MAX per buffer', () => {
    expect(rangesPerBuffer(0)).toBe(ROW_RANGES_MAX);
    expect(rangesPerBuffer(100)).toBe(Math.min(ROW_RANGES_MAX, ROW_DRAWS_MAX / 100));
    expect(rangesPerBuffer(1000)).toBe(ROW_DRAWS_MAX / 1000);
    expect(rangesPerBuffer(10 * ROW_DRAWS_MAX)).toBe(1);
  });
});
