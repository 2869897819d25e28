/**
 * Draw ranges of the visible object rows of one chunk index buffer (viewer.md §4 "Scale": most of a
 * ship's structure lies behind its shell). A chunk is drawn as one range even when the CPU occlusion
 * test (./softOcclusion.ts) proves many of its objects hidden; in the full-quality frame the engine
 * draws only the runs of rows that may show instead. Each range is a draw call, so runs are merged
 * across the smallest hidden gaps until at most `maxRanges` remain, and a gap under `minGap` indices is
 * always drawn (a draw call costs more than a few hidden triangles).
 *
 * Rows are the chunk's size-ordered object rows (scene/sizeOrder.ts); `ends[r]` is the end of row r's
 * indices in the buffer (prefix ends, non-decreasing), so row r spans [ends[r − 1], ends[r]). Ranges
 * are in indices of the buffer: whole rows, so whole triangles, and whole strips of an edge buffer.
 */

/** At most this many draw ranges per chunk buffer in a frame drawn by rows. */
export const ROW_RANGES_MAX = 16;
/**
 * At most about this many draw calls for the surfaces and edges of all chunks of a frame drawn by rows:
 * each buffer gets ROW_RANGES_MAX ranges or its share of this, at least one (which still leaves out a
 * hidden head and tail). The bench ships draw 352 calls at 10k parts and 915 at 100k.
 */
export const ROW_DRAWS_MAX = 2000;

/** Hidden gaps of fewer indices than this are drawn rather than split off (a draw call costs more). */
export const ROW_RANGE_MIN_GAP = 384;

/** Ranges per buffer when `buffers` chunk buffers (surfaces and edges) are drawn by rows in one frame. */
export function rangesPerBuffer(buffers: number): number {
  return Math.max(1, Math.min(ROW_RANGES_MAX, Math.floor(ROW_DRAWS_MAX / Math.max(1, buffers))));
}

/** Draw ranges of one buffer: `count` pairs of (start, length) in indices; `hidden` indices left out. */
export interface RowRanges {
  starts: Uint32Array;
  counts: Uint32Array;
  count: number;
  /** Indices of the drawn prefix that the ranges leave out (counted on `tally`'s ends when given). */
  hidden: number;
}

/**
 * The ranges drawing the visible rows among rows 0..rows−1 of a buffer whose row ends are `ends`
 * (`visible(r)` says whether row r may show; rows without indices count for nothing). Returns null when
 * the ranges would leave nothing out (every row visible, or every hidden gap too small to split off):
 * the buffer is then drawn as one prefix. An empty result (`count` 0) means no row shows. `tally`, row
 * ends of the same rows in other units (a strip buffer's triangle list, scene/triangleStrips.ts), counts
 * `hidden` in those units; gaps are measured in `ends`.
 * @throws RangeError when `maxRanges` < 1 or `rows` exceeds `ends.length` (or `tally.length`).
 */
export function visibleRowRanges(
  ends: ArrayLike<number>,
  rows: number,
  visible: (row: number) => boolean,
  maxRanges = ROW_RANGES_MAX,
  minGap = ROW_RANGE_MIN_GAP,
  tally: ArrayLike<number> = ends,
): RowRanges | null {
  if (!(maxRanges >= 1)) throw new RangeError(`Row ranges: at most ${maxRanges} ranges is not a positive count`);
  if (rows > ends.length || rows > tally.length)
    throw new RangeError(`Row ranges: ${rows} rows asked of a buffer with ${Math.min(ends.length, tally.length)}`);
  // Runs of visible rows, as (first row, row after the last); empty rows neither start nor end a run.
  const runs: number[] = [];
  let open = -1;
  for (let r = 0, from = 0; r < rows; r++) {
    const to = ends[r];
    if (to > from) {
      if (visible(r)) {
        if (open < 0) open = r;
      } else if (open >= 0) {
        runs.push(open, r);
        open = -1;
      }
    }
    from = to;
  }
  if (open >= 0) runs.push(open, rows);
  const at = (e: ArrayLike<number>, row: number) => (row > 0 ? e[row - 1] : 0);
  const n = runs.length / 2;
  // Gaps between runs worth a draw call of their own: the largest maxRanges − 1 of those ≥ minGap.
  const gap = (k: number) => at(ends, runs[k * 2]) - at(ends, runs[k * 2 - 1]);
  const gaps: number[] = [];
  for (let k = 1; k < n; k++) if (gap(k) >= minGap) gaps.push(k);
  gaps.sort((a, b) => gap(b) - gap(a) || a - b);
  const cut = new Uint8Array(n);
  for (let g = 0; g < Math.min(gaps.length, maxRanges - 1); g++) cut[gaps[g]] = 1;
  const starts: number[] = [];
  const counts: number[] = [];
  let drawn = 0,
    tallied = 0,
    first = 0;
  for (let k = 0; k < n; k++) {
    if (k === 0 || cut[k]) {
      first = runs[k * 2];
      starts.push(at(ends, first));
    }
    const last = k === n - 1 || cut[k + 1];
    if (last) {
      const end = runs[k * 2 + 1];
      counts.push(at(ends, end) - at(ends, first));
      drawn += at(ends, end) - at(ends, first);
      tallied += at(tally, end) - at(tally, first);
    }
  }
  // Too little left out to be worth drawing by ranges (a split-off gap alone is at least minGap).
  if (n > 0 && at(ends, rows) - drawn < minGap) return null;
  return {
    starts: Uint32Array.from(starts),
    counts: Uint32Array.from(counts),
    count: starts.length,
    hidden: at(tally, rows) - tallied,
  };
}
