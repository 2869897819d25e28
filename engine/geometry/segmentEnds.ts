/**
 * The nearest unused end of a set of polyline segments (xyz, any unit), for chaining them into one line
 * (engine/ocx/memberMesh.ts traceLine). A linear scan over all segments per step made chaining n segments
 * quadratic: a trace of 100,000 copies of one segment (a fuzzed file) took minutes. SegmentEnds buckets the
 * ends in a uniform grid so a step looks only at the cells around the chain's ends, and it returns exactly
 * what the scan returns: the least (distance, segment index, candidate order), distances by hypot3.
 */
import { hypot3 } from './curves';

/** The best candidate so far: distance (hypot3 of query minus end), segment index, candidate order. */
export interface EndChoice {
  d: number;
  k: number;
  /** The caller's order of this candidate among those of one segment (ties on d and k go to the lower). */
  c: number;
}

/** A point whose nearest ends are sought, and the candidate orders of a segment's start and end seen from it. */
export interface EndQuery {
  x: number;
  y: number;
  z: number;
  cStart: number;
  cEnd: number;
}

/** Takes (d, k, c) into `best` when it is less in (distance, segment, order); NaN never is. */
function offer(best: EndChoice, d: number, k: number, c: number): void {
  if (d < best.d || (d === best.d && (k < best.k || (k === best.k && c < best.c)))) {
    best.d = d;
    best.k = k;
    best.c = c;
  }
}

/**
 * Offers the start (order cStart) and end (order cEnd) of every unused segment, seen from (x, y, z): the
 * scan the grid stands for, and its fallback.
 */
export function scanEnds(
  segs: readonly number[][],
  used: Uint8Array,
  x: number,
  y: number,
  z: number,
  cStart: number,
  cEnd: number,
  best: EndChoice,
): void {
  for (let k = 0; k < segs.length; k++) {
    if (used[k]) continue;
    const s = segs[k],
      se = s.length - 3;
    offer(best, hypot3(x - s[0], y - s[1], z - s[2]), k, cStart);
    offer(best, hypot3(x - s[se], y - s[se + 1], z - s[se + 2]), k, cEnd);
  }
}

/** Cells per axis at most (keys stay exact integers). */
const MAX_CELLS_PER_AXIS = 65536;
/** Coordinates beyond this magnitude (or non-finite) leave the grid unused: distances could overflow. */
const MAX_COORDINATE = 1e300;
/** Cell index error allowed for in the distance bounds (cells; round-off is below 1e-6). */
const INDEX_SLACK = 1e-3;

/**
 * One grid cell: ends as 2k (start) or 2k + 1 (end), ascending; `dead` of them belong to used segments,
 * all of those before `head` among them (segments are often taken in index order, copies of one above all).
 */
interface Cell {
  ends: number[];
  dead: number;
  head: number;
}

/**
 * Work of all SegmentEnds queries: cells looked up, entries looked at, segments scanned in a fallback
 * (tests check it grows in proportion to the segments).
 */
export const segmentEndsWork = { steps: 0 };

/**
 * A grid over the segments' ends. Build it with SegmentEnds.of (null when the coordinates are non-finite or
 * huge: then use scanEnds), mark a segment taken with take(k). `used` is shared with the caller (1 = taken).
 */
export class SegmentEnds {
  private readonly cells = new Map<number, Cell>();
  private alive: number;

  private constructor(
    private readonly segs: readonly number[][],
    private readonly used: Uint8Array,
    private readonly lo: readonly number[],
    private readonly dims: readonly number[],
    private readonly cell: number,
  ) {
    this.alive = 0;
    for (let k = 0; k < segs.length; k++) {
      if (used[k]) continue;
      const s = segs[k],
        se = s.length - 3;
      this.cellAt(s[0], s[1], s[2]).ends.push(2 * k);
      this.cellAt(s[se], s[se + 1], s[se + 2]).ends.push(2 * k + 1);
      this.alive += 2;
    }
  }

  /** A grid of the segments' ends (each segment ≥ 2 points), or null when one is non-finite or beyond 1e300. */
  static of(segs: readonly number[][], used: Uint8Array): SegmentEnds | null {
    const lo = [Infinity, Infinity, Infinity],
      hi = [-Infinity, -Infinity, -Infinity];
    for (const s of segs)
      for (const i of [0, s.length - 3])
        for (let a = 0; a < 3; a++) {
          const v = s[i + a];
          if (!(Math.abs(v) <= MAX_COORDINATE)) return null;
          if (v < lo[a]) lo[a] = v;
          if (v > hi[a]) hi[a] = v;
        }
    if (!segs.length) return null;
    const extent = Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
    const magnitude = Math.max(...lo.map(Math.abs), ...hi.map(Math.abs));
    // about one segment per cell along a line; never so fine that round-off of the coordinates matters
    const cell = Math.max(extent / Math.min(segs.length, MAX_CELLS_PER_AXIS - 1), magnitude * 1e-9) || 1;
    const dims = [0, 1, 2].map((a) => Math.min(MAX_CELLS_PER_AXIS, Math.floor((hi[a] - lo[a]) / cell) + 1));
    return new SegmentEnds(segs, used, lo, dims, cell);
  }

  /** Cell index along axis a of coordinate v. */
  private index(v: number, a: number): number {
    return Math.min(this.dims[a] - 1, Math.max(0, Math.floor((v - this.lo[a]) / this.cell)));
  }

  private key(i: number, j: number, k: number): number {
    return (i * this.dims[1] + j) * this.dims[2] + k;
  }

  private cellAt(x: number, y: number, z: number): Cell {
    const key = this.key(this.index(x, 0), this.index(y, 1), this.index(z, 2));
    let c = this.cells.get(key);
    if (!c) {
      c = { ends: [], dead: 0, head: 0 };
      this.cells.set(key, c);
    }
    return c;
  }

  /** Marks segment k taken (its ends are dropped from their cells, lazily). */
  take(k: number): void {
    if (k < 0 || this.used[k]) return;
    this.used[k] = 1;
    this.alive -= 2;
    const s = this.segs[k],
      se = s.length - 3;
    for (const c of [this.cellAt(s[0], s[1], s[2]), this.cellAt(s[se], s[se + 1], s[se + 2])]) {
      c.dead++;
      // compacted once half is dead, so a scan passes over at most as many dead ends as live ones
      if (c.dead * 2 > c.ends.length) {
        c.ends = c.ends.filter((e) => !this.used[e >> 1]);
        c.dead = 0;
        c.head = 0;
      }
    }
  }

  /**
   * Offers the unused segments' ends seen from each query point to `best`, as scanEnds does for each: the
   * points' cells and then rings around them, ring by ring for all points at once (a point with no end
   * near, like an exhausted end of the chain, stops once another found a nearer one), until no nearer or
   * equally near end with a lower index can remain (a cell r rings away is at least r - 1 cells away);
   * past as many cells as live ends, the rest is scanned linearly.
   */
  nearest(queries: readonly EndQuery[], best: EndChoice): void {
    const cells = queries.map((q) => [this.index(q.x, 0), this.index(q.y, 1), this.index(q.z, 2)]);
    const rMax = Math.max(...this.dims);
    let visited = 0;
    for (let r = 0; r <= rMax; r++) {
      const lb = Math.max(0, r - 1 - INDEX_SLACK) * this.cell;
      if (lb > best.d) return;
      visited += queries.length * (r === 0 ? 1 : (2 * r + 1) ** 3 - (2 * r - 1) ** 3);
      if (visited > this.alive + 64) {
        segmentEndsWork.steps += queries.length * this.segs.length;
        for (const q of queries) scanEnds(this.segs, this.used, q.x, q.y, q.z, q.cStart, q.cEnd, best);
        return;
      }
      for (let n = 0; n < queries.length; n++) this.scanRing(cells[n], r, lb, queries[n], best);
    }
  }

  /** Offers the ends in the cells r rings around cell [qi, qj, qk]. */
  private scanRing([qi, qj, qk]: number[], r: number, lb: number, q: EndQuery, best: EndChoice): void {
    for (let i = Math.max(0, qi - r); i <= Math.min(this.dims[0] - 1, qi + r); i++)
      for (let j = Math.max(0, qj - r); j <= Math.min(this.dims[1] - 1, qj + r); j++) {
        // inside the ring's cube only its two z faces belong to ring r
        const step = Math.abs(i - qi) < r && Math.abs(j - qj) < r ? 2 * r : 1;
        for (let k = qk - r; k <= qk + r; k += step) {
          if (k < 0 || k >= this.dims[2]) continue;
          const c = this.cells.get(this.key(i, j, k));
          segmentEndsWork.steps++;
          if (c) this.scanCell(c, lb, q, best);
        }
      }
  }

  /** Offers a cell's live ends; `lb` bounds their distances from below. */
  private scanCell(c: Cell, lb: number, q: EndQuery, best: EndChoice): void {
    const ends = c.ends;
    while (c.head < ends.length && this.used[ends[c.head] >> 1]) {
      c.head++;
      segmentEndsWork.steps++;
    }
    for (let n = c.head; n < ends.length; n++) {
      const e = ends[n],
        k = e >> 1;
      segmentEndsWork.steps++;
      // the ends come by ascending segment: past the best one, none can win unless it is nearer
      if (k > best.k && lb >= best.d) return;
      if (this.used[k]) continue;
      const s = this.segs[k],
        i = e & 1 ? s.length - 3 : 0;
      offer(best, hypot3(q.x - s[i], q.y - s[i + 1], q.z - s[i + 2]), k, e & 1 ? q.cEnd : q.cStart);
    }
  }
}
