/**
 * Feature edges as line strips (viewer.md §4 "Scale": GPU bytes per triangle). A chunk's edges arrive as
 * 16-bit index pairs, 4 bytes a segment; most of them are long outlines whose segments share their ends
 * (plate contours, holes, arcs), so chained into strips — one index per vertex along the outline and the
 * primitive-restart index (0xFFFF, always on in WebGL 2 for 16-bit indices) between strips — they need
 * little more than half of that. The set of segments drawn is the same: every segment of a range is in
 * exactly one strip, once (a segment repeated within the range, either way round, is written once; drawing
 * it twice gave the same pixels). Strips never cross ranges, so size prefixes (scene/sizeOrder.ts) and the
 * edge level of detail (scene/edgeLod.ts) still select edges by range.
 *
 * The restart index must not name a vertex, so a chunk with a vertex 65535 (the 65,536-vertex maximum)
 * keeps pairs (`EdgeWriter.strips` false); the same writer then writes each range's segments as pairs,
 * repeats dropped too.
 */

/** The 16-bit primitive-restart index: ends a line strip. */
export const STRIP_RESTART = 0xffff;

/**
 * Edges as strips (true, the default) or as index pairs everywhere (false: 4 B per segment, as the package
 * stores them), for the chunks built from now on. Strips halve the edge bytes, but a software rasteriser
 * (SwiftShader) draws primitive-restart line strips slower than pairs: the still frame of the 10k bench ship
 * took about twice as long (bench/README.md "GPU geometry bytes per triangle", round 4); hardware draws both
 * alike. The engine chooses at init (`Engine.init`, `EngineInitOptions.edgeStrips`).
 */
let edgeStrips = true;

/** Sets whether chunks built from now on write their edges as strips (see `edgeStrips`). */
export function setEdgeStrips(on: boolean): void {
  edgeStrips = on;
}

/**
 * Writes index ranges of a chunk's edge pairs as line strips (or as pairs, see `strips`), reusing its
 * per-vertex work arrays between ranges. One writer per chunk (vertex indices below `vertexCount`).
 */
export class EdgeWriter {
  /** True when ranges are written as strips (the chunk has at most 65,535 vertices), false for pairs. */
  readonly strips: boolean;
  /** First half-edge (2·segment + end) at each vertex within the current range, −1 for none. */
  private readonly head: Int32Array;
  /** Segments of the current range at each vertex (odd: a strip must start or end there). */
  private readonly degree: Uint32Array;
  /** Last half-edge in each vertex's list (valid while its head is ≥ 0). */
  private readonly tail: Int32Array;
  /** Per half-edge of the current range: the next one at the same vertex, −1 at the end. */
  private next = new Int32Array(0);
  /** Per segment of the current range: already in a strip. */
  private used = new Uint8Array(0);
  /** The current range's distinct segments, two vertex indices each (half-edge h is end h & 1 of segment h >> 1). */
  private seg = new Uint16Array(0);

  constructor(vertexCount: number) {
    this.strips = edgeStrips && vertexCount <= STRIP_RESTART;
    this.head = new Int32Array(vertexCount).fill(-1);
    this.tail = new Int32Array(vertexCount);
    this.degree = new Uint32Array(vertexCount);
  }

  /**
   * Largest number of indices `write` can produce for `segments` segments: 3 per segment as strips (a
   * strip of one segment and its restart), 2 as pairs.
   */
  bound(segments: number): number {
    return segments * (this.strips ? 3 : 2);
  }

  /**
   * Writes the segments `pairs[from..to)` (index pairs, `to − from` even) into `out` from `at` and returns
   * the end. Strips start where an odd number of the range's segments meet (an open outline's ends), then
   * close the remaining loops, in the order the segments come; each strip ends with STRIP_RESTART.
   * @throws RangeError when `out` is too short (`bound` of the range's segments always suffices).
   */
  write(pairs: ArrayLike<number>, from: number, to: number, out: Uint16Array, at: number): number {
    const n = this.link(pairs, from, to);
    const { head, degree, seg: s, next, used } = this;
    let o = at;
    if (!this.strips) {
      if (at + 2 * n > out.length) throw new RangeError(`edge buffer of ${out.length} too short`);
      out.set(s.subarray(0, 2 * n), at);
      o += 2 * n;
    } else {
      // Each segment adds at most its two ends and a restart.
      if (at + 3 * n > out.length) throw new RangeError(`edge buffer of ${out.length} too short`);
      for (let pass = 0; pass < 2; pass++)
        for (let h = 0; h < 2 * n; h++) {
          // First from the ends of open outlines (odd degree), then around what is left (loops).
          if (used[h >> 1] || (pass === 0 && (degree[s[h]] & 1) === 0)) continue;
          let v = s[h];
          out[o++] = v;
          for (;;) {
            let e = head[v];
            while (e >= 0 && used[e >> 1]) e = next[e];
            head[v] = e;
            if (e < 0) break;
            used[e >> 1] = 1;
            degree[v]--;
            v = s[e ^ 1];
            degree[v]--;
            out[o++] = v;
          }
          out[o++] = STRIP_RESTART;
        }
    }
    for (let h = 0; h < 2 * n; h++) {
      head[s[h]] = -1;
      degree[s[h]] = 0;
    }
    return o;
  }

  /**
   * Copies the range's segments into `seg` without repeats (either way round: the other end already in
   * the first end's list) and links each end into its vertex's list, in the range's order. Returns their
   * number.
   */
  private link(pairs: ArrayLike<number>, from: number, to: number): number {
    const m = (to - from) >> 1;
    if (this.used.length < m) {
      this.seg = new Uint16Array(4 * m);
      this.next = new Int32Array(4 * m);
      this.used = new Uint8Array(2 * m);
    }
    const { head, tail, degree, seg: s, next, used } = this;
    let n = 0;
    for (let i = from; i + 1 < to; i += 2) {
      const a = pairs[i],
        b = pairs[i + 1];
      let h = head[a];
      while (h >= 0 && s[h ^ 1] !== b) h = next[h];
      if (h >= 0) continue;
      s[2 * n] = a;
      s[2 * n + 1] = b;
      used[n] = 0;
      // Both ends onto their vertices' lists, at the end.
      for (let e = 2 * n; e <= 2 * n + 1; e++) {
        const v = s[e];
        next[e] = -1;
        if (head[v] < 0) head[v] = e;
        else next[tail[v]] = e;
        tail[v] = e;
        degree[v]++;
      }
      n++;
    }
    return n;
  }
}

/**
 * Writes the strips `strips[from..to)` (as EdgeWriter wrote them; pairs when `asStrips` is false) into
 * `out` from `at` with only the segments `keep(a, b)` accepts. Other segments are cut out of a strip (a
 * strip's leading and trailing ones dropped, a run of two or more inside it replaced by a restart), except
 * that a single other segment between two kept ones is drawn instead of cut while `budget.bridges` lasts
 * (each one drawn takes one index less than cutting it; the count goes down). With bridges for every such
 * gap the result is never longer than the input. Returns the end.
 */
export function thinStrips(
  strips: ArrayLike<number>,
  from: number,
  to: number,
  keep: (a: number, b: number) => boolean,
  out: Uint16Array,
  at: number,
  budget: { bridges: number },
  asStrips = true,
): number {
  let o = at;
  if (!asStrips) {
    for (let i = from; i + 1 < to; i += 2)
      if (keep(strips[i], strips[i + 1])) {
        out[o++] = strips[i];
        out[o++] = strips[i + 1];
      }
    return o;
  }
  for (let s = from; s < to; ) {
    let e = s;
    while (e < to && strips[e] !== STRIP_RESTART) e++;
    // Strip s..e-1: segment i joins strips[i] and strips[i + 1].
    let first = -1,
      last = -1;
    for (let i = s; i + 1 < e; i++)
      if (keep(strips[i], strips[i + 1])) {
        if (first < 0) first = i;
        last = i;
      }
    if (first >= 0) {
      out[o++] = strips[first];
      for (let i = first; i <= last; ) {
        if (keep(strips[i], strips[i + 1])) {
          out[o++] = strips[++i];
          continue;
        }
        let j = i + 1;
        while (!keep(strips[j], strips[j + 1])) j++;
        if (j - i === 1 && budget.bridges > 0) {
          budget.bridges--;
          out[o++] = strips[++i];
        } else {
          out[o++] = STRIP_RESTART;
          out[o++] = strips[j];
          i = j;
        }
      }
      out[o++] = STRIP_RESTART;
    }
    s = e + 1;
  }
  return o;
}

/**
 * The segments an edge index buffer draws from `from` to `to`: line strips split at STRIP_RESTART when
 * `strips`, else pairs. Returns unordered pairs as keys min · 65536 + max (one per segment drawn, repeats
 * kept), for comparing what two buffers draw.
 */
export function drawnSegments(index: ArrayLike<number>, from: number, to: number, strips: boolean): number[] {
  const out: number[] = [];
  const key = (a: number, b: number) => (a < b ? a * 65536 + b : b * 65536 + a);
  if (!strips) {
    for (let i = from; i + 1 < to; i += 2) out.push(key(index[i], index[i + 1]));
    return out;
  }
  for (let i = from; i + 1 < to; i++)
    if (index[i] !== STRIP_RESTART && index[i + 1] !== STRIP_RESTART) out.push(key(index[i], index[i + 1]));
  return out;
}
