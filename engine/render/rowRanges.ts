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
  /** Indices of the drawn prefix that the ranges leave out. */
  hidden: number;
}

/**
 * The ranges drawing the visible rows among rows 0..rows−1 of a buffer whose row ends are `ends`
 * (`visible(r)` says whether row r may show; rows without indices count for nothing). Returns null when
 * the ranges would leave nothing out (every row visible, or every hidden gap too small to split off):
 * the buffer is then drawn as one prefix. An empty result (`count` 0) means no row shows.
 * @throws RangeError when `maxRanges` < 1 or `rows` exceeds `ends.length`.
 */
export function visibleRowRanges(
  ends: ArrayLike<number>,
  rows: number,
  visible: (row: number) => boolean,
  maxRanges = ROW_RANGES_MAX,
  minGap = ROW_RANGE_MIN_GAP,
): RowRanges | null {
  if (!(maxRanges >= 1)) throw new RangeError(`Row ranges: at most ${maxRanges} ranges is not a positive count`);
  if (rows > ends.length) throw new RangeError(`Row ranges: ${rows} rows asked of a buffer with ${ends.length}`);
  // Runs of visible rows, as (start, end) in indices; empty rows neither start nor end a run.
  const runs: number[] = [];
  let open = -1;
  for (let r = 0, from = 0; r < rows; r++) {
    const to = ends[r];
    if (to > from) {
      if (visible(r)) {
        if (open < 0) open = from;
      } else if (open >= 0) {
        runs.push(open, from);
        open = -1;
      }
    }
    from = to;
  }
  const end = rows > 0 ? ends[rows - 1] : 0;
  if (open >= 0) runs.push(open, end);
  const n = runs.length / 2;
  // Gaps between runs worth a draw call of their own: the largest maxRanges − 1 of those ≥ minGap.
  const gaps: number[] = [];
  for (let k = 1; k < n; k++) if (runs[k * 2] - runs[k * 2 - 1] >= minGap) gaps.push(k);
  gaps.sort((a, b) => runs[b * 2] - runs[b * 2 - 1] - (runs[a * 2] - runs[a * 2 - 1]) || a - b);
  const cut = new Uint8Array(n);
  for (let g = 0; g < Math.min(gaps.length, maxRanges - 1); g++) cut[gaps[g]] = 1;
  const starts: number[] = [];
  const counts: number[] = [];
  let drawn = 0;
  for (let k = 0; k < n; k++) {
    if (k === 0 || cut[k]) starts.push(runs[k * 2]);
    const last = k === n - 1 || cut[k + 1];
    if (last) {
      const s = starts[starts.length - 1];
      counts.push(runs[k * 2 + 1] - s);
      drawn += runs[k * 2 + 1] - s;
    }
  }
  const hidden = end - drawn;
  // Too little left out to be worth drawing by ranges (a split-off gap alone is at least minGap).
  if (n > 0 && hidden < minGap) return null;
  return { starts: Uint32Array.from(starts), counts: Uint32Array.from(counts), count: starts.length, hidden };
}
