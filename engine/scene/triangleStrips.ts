/**
 * Triangle strips for a chunk's surfaces (viewer.md §4 "Scale"; the GPU-bytes goal of bench/README.md):
 * a chunk's triangle list costs 3 indices (6 B) per triangle on the GPU; a strip of L triangles costs
 * L + 2. The chunk's index buffer becomes two parts: its long strips (at least STRIP_MIN_TRIANGLES
 * triangles: plates' side bands, stiffeners' sweeps, curved plates' grids), joined by degenerate
 * triangles, and a triangle list of the rest (caps and fans, whose strips are short). Short strips stay
 * in the list because every join draws two to four degenerate triangles: the rasteriser sets up each of
 * them, and with all strips joined a software rasteriser (SwiftShader) drew the bench ships' frames about
 * twice as slowly (bench/README.md "GPU geometry bytes per triangle", round 5). Joins never use primitive
 * restart, which software rasterisers pay for at each restart (scene/edgeStrips.ts), so 0xFFFF stays an
 * ordinary vertex index.
 *
 * Rows: each object row (size order, scene/sizeOrder.ts) has a range in each part, in row order, so a
 * run of whole rows is one range per part; in the strip part every row and every strip starts at an
 * even offset, so a range that starts at a row keeps its triangles' winding (a strip's odd triangles are
 * drawn with their first two vertices swapped, GL's rule, counted from the draw's first index). The
 * joins lie inside the row, so a row drawn alone draws exactly its own triangles, plus degenerate ones
 * that rasterise nothing.
 *
 * Drawing: three.js draws every Mesh as TRIANGLES. `installStripDraw` wraps the context's drawElements
 * so that a draw from an element buffer uploaded from a strip array (recognised when three uploads it),
 * at or after that array's strip part, is drawn as TRIANGLE_STRIP. The CPU keeps the triangle list for
 * picking, snapping, LOD building and occlusion.
 */

/** A chunk's surface indices as a list part and a strip part, and where each row's ranges end. */
export interface TriangleStrips {
  /** 16-bit indices: the list part [0, stripStart), then the strip part (degenerate joins included). */
  indices: Uint16Array;
  /** listEnds[k]: list-part indices of rows 0..k (multiples of 3). */
  listEnds: Uint32Array;
  /** First index of the strip part (drawn as TRIANGLE_STRIP). */
  stripStart: number;
  /** stripEnds[k]: strip-part indices of rows 0..k, counted from stripStart (even). */
  stripEnds: Uint32Array;
}

/**
 * Strips shorter than this many triangles stay in the list part: with them, the bench ships' strips
 * averaged 4.9 triangles and the joins drew 0.9 degenerate triangles per real one.
 */
export const STRIP_MIN_TRIANGLES = 8;

const EMPTY = 0xffffffff;
// Scratch reused across chunks, grown to the largest chunk seen (the worker strips one chunk at a time).
let keys = new Uint32Array(0);
let tris = new Int32Array(0);
let used = new Uint8Array(0);
let out = new Uint16Array(0);
let list = new Uint16Array(0);
let walk = new Int32Array(0);
let verts = new Uint16Array(0);

/** Slot of directed edge key k (a · 65536 + b) in the open-addressed table, or −1. */
function find(k: number, mask: number): number {
  for (let h = Math.imul(k, 0x9e3779b1) >>> 0; ; h++) {
    const s = h & mask;
    const x = keys[s];
    if (x === k) return tris[s];
    if (x === EMPTY) return -1;
  }
}

/**
 * The list and strip parts of the triangles `indices` (3 per triangle) in rows ending at `rowEnds` (prefix
 * ends, in indices, as sizeOrder's `indexEnd`). Greedy strips: from each unused triangle in row order, the
 * longest of the walks starting at its three edges, each walk stepping to the unused triangle across the
 * strip's last edge (triangles sharing a directed edge pair b→a / a→b: consistently wound neighbours).
 * Strips of at least `minStrip` triangles go to the strip part, the triangles of shorter ones to the list
 * part. Every triangle appears once, with its winding; triangles with a repeated vertex are left out (they
 * draw nothing). Returns null when the strip part would be empty or save nothing (the list is drawn).
 */
export function stripChunk(
  indices: Uint16Array,
  rowEnds: ArrayLike<number>,
  minStrip = STRIP_MIN_TRIANGLES,
): TriangleStrips | null {
  const T = indices.length / 3;
  if (T === 0) return null;
  if (used.length < T) {
    used = new Uint8Array(T);
    walk = new Int32Array(T);
    verts = new Uint16Array(T + 2);
  }
  const rows = rowEnds.length;
  const need = 6 * T + 2 * rows + 8;
  if (out.length < need) out = new Uint16Array(need);
  if (list.length < indices.length) list = new Uint16Array(indices.length);
  const stripEnds = new Uint32Array(rows);
  const listEnds = new Uint32Array(rows);
  let n = 0,
    m = 0;
  let from = 0;
  for (let r = 0; r < rows; r++) {
    // Each row starts at an even offset of the strip part; the joins to its strips are its own head.
    if (n % 2 === 1) {
      out[n] = out[n - 1];
      n++;
    }
    if (r > 0) stripEnds[r - 1] = n;
    const to = rowEnds[r];
    const mask = edgeTable(indices, from / 3, to / 3);
    for (let s = from / 3; s < to / 3; s++) {
      if (used[s]) continue;
      // The longest walk of the three rotations of the seed.
      let bestRot = 0,
        bestLen = -1;
      for (let rot = 0; rot < 3; rot++) {
        const len = stripWalk(indices, s, rot, mask, false);
        if (len > bestLen) {
          bestLen = len;
          bestRot = rot;
        }
      }
      stripWalk(indices, s, bestRot, mask, true);
      if (bestLen < minStrip) {
        // The short strip's triangles, as they are, into the list part.
        for (let k = 0; k < bestLen; k++) {
          const t = walk[k];
          list[m++] = indices[3 * t];
          list[m++] = indices[3 * t + 1];
          list[m++] = indices[3 * t + 2];
        }
        continue;
      }
      // Join: the last index repeated (once more when the strip would start at an odd offset), then the
      // strip's first index: the triangles between draw nothing.
      if (n > 0) {
        out[n] = out[n - 1];
        n++;
        if (n % 2 === 0) {
          out[n] = out[n - 1];
          n++;
        }
        out[n] = verts[0];
        n++;
      }
      out.set(verts.subarray(0, bestLen + 2), n);
      n += bestLen + 2;
    }
    listEnds[r] = m;
    from = to;
  }
  if (n % 2 === 1) {
    out[n] = out[n - 1];
    n++;
  }
  if (rows > 0) stripEnds[rows - 1] = n;
  if (n === 0 || m + n >= indices.length) return null;
  const both = new Uint16Array(m + n);
  both.set(list.subarray(0, m), 0);
  both.set(out.subarray(0, n), m);
  return { indices: both, listEnds, stripStart: m, stripEnds };
}

/**
 * Fills the directed-edge table with the triangles t0..t1−1 (one row: vertices are welded per object, so
 * no edge is shared across rows) and marks their degenerate triangles used; returns the table's mask.
 * A directed edge met twice (inconsistent winding, a repeated triangle) keeps its first triangle; the
 * other is still drawn, from its own seed.
 */
function edgeTable(indices: Uint16Array, t0: number, t1: number): number {
  let cap = 16;
  while (cap < 6 * (t1 - t0)) cap <<= 1;
  if (keys.length < cap) {
    keys = new Uint32Array(cap);
    tris = new Int32Array(cap);
  }
  const mask = cap - 1;
  keys.fill(EMPTY, 0, cap);
  for (let t = t0; t < t1; t++) {
    used[t] = 0;
    const a = indices[3 * t],
      b = indices[3 * t + 1],
      c = indices[3 * t + 2];
    if (a === b || b === c || c === a) {
      used[t] = 1;
      continue;
    }
    for (let e = 0; e < 3; e++) {
      const p = e === 0 ? a : e === 1 ? b : c,
        q = e === 0 ? b : e === 1 ? c : a;
      const k = p * 65536 + q;
      for (let h = Math.imul(k, 0x9e3779b1) >>> 0; ; h++) {
        const s = h & mask;
        if (keys[s] === EMPTY) {
          keys[s] = k;
          tris[s] = t;
          break;
        }
        if (keys[s] === k) break;
      }
    }
  }
  return mask;
}

/**
 * Walks a strip from seed triangle s started at its edge `rot`; returns its triangle count L, its
 * triangles in `walk` and its L + 2 vertices in `verts`. The walk marks the triangles in `used` while it
 * runs and clears them again unless `keep`.
 */
function stripWalk(indices: Uint16Array, s: number, rot: number, mask: number, keep: boolean): number {
  let p = indices[3 * s + ((rot + 1) % 3)],
    q = indices[3 * s + ((rot + 2) % 3)];
  verts[0] = indices[3 * s + rot];
  verts[1] = p;
  verts[2] = q;
  used[s] = 1;
  walk[0] = s;
  let len = 1;
  for (let i = 1; ; i++) {
    // Triangle i of the strip is (p, q, x) when i is even and (q, p, x) when odd: the neighbour across
    // the strip's last edge holds that edge in that direction.
    const t = i % 2 === 0 ? find(p * 65536 + q, mask) : find(q * 65536 + p, mask);
    if (t < 0 || used[t]) break;
    used[t] = 1;
    walk[len++] = t;
    const x = third(indices, t, p, q);
    verts[len + 1] = x;
    p = q;
    q = x;
  }
  if (!keep) for (let k = 0; k < len; k++) used[walk[k]] = 0;
  return len;
}

/** The vertex of triangle t that is neither p nor q. */
function third(indices: Uint16Array, t: number, p: number, q: number): number {
  const a = indices[3 * t],
    b = indices[3 * t + 1];
  if (a !== p && a !== q) return a;
  if (b !== p && b !== q) return b;
  return indices[3 * t + 2];
}

/** Index arrays made by chunkStrips → byte offset of their strip part (weak: a chunk's array goes with it). */
const stripArrays = new WeakMap<ArrayBufferView, number>();
/** Whether chunks built from now on draw their surfaces as strips (see `setTriangleStrips`). */
let triangleStrips = true;

/**
 * Sets whether chunks built from now on draw their surfaces as strips. The engine turns them off when it
 * cannot install the strip draw on its context (`installStripDraw`); tests compare both.
 */
export function setTriangleStrips(on: boolean): void {
  triangleStrips = on;
}

/** stripChunk for a chunk about to be built, or null when strips are off or would not save bytes. */
export function chunkStrips(indices: Uint16Array, rowEnds: ArrayLike<number>): TriangleStrips | null {
  if (!triangleStrips) return null;
  const s = stripChunk(indices, rowEnds);
  if (s) stripArrays.set(s.indices, s.stripStart * s.indices.BYTES_PER_ELEMENT);
  return s;
}

/** The part of a WebGL context the strip draw wraps. */
interface StripDrawContext {
  readonly TRIANGLES: number;
  readonly TRIANGLE_STRIP: number;
  readonly ELEMENT_ARRAY_BUFFER: number;
  readonly ELEMENT_ARRAY_BUFFER_BINDING: number;
  drawElements(mode: number, count: number, type: number, offset: number): void;
  bufferData(target: number, data: unknown, usage: number, ...rest: unknown[]): void;
  getParameter(name: number): unknown;
}

const installed = new WeakSet<object>();

/**
 * Makes `gl` draw the strip parts of chunkStrips' index buffers as TRIANGLE_STRIP: bufferData records the
 * element buffers uploaded from those arrays (three.js uploads an index attribute's own array) with the
 * byte offset of their strip part, and drawElements draws TRIANGLES from such a buffer (the one bound to
 * the current vertex array) at or after that offset as a strip. Every other draw is unchanged (ranges
 * never straddle the two parts). Returns false, changing nothing, when `gl` is not a WebGL context.
 */
export function installStripDraw(gl: unknown): boolean {
  const g = gl as StripDrawContext | null;
  if (!g || typeof g.drawElements !== 'function' || typeof g.bufferData !== 'function') return false;
  if (typeof g.getParameter !== 'function' || typeof g.TRIANGLE_STRIP !== 'number') return false;
  if (installed.has(g)) return true;
  installed.add(g);
  const strips = new WeakMap<object, number>();
  const bufferData = g.bufferData.bind(g);
  const drawElements = g.drawElements.bind(g);
  g.bufferData = (target: number, data: unknown, usage: number, ...rest: unknown[]) => {
    bufferData(target, data, usage, ...rest);
    if (target !== g.ELEMENT_ARRAY_BUFFER || typeof data !== 'object' || data === null) return;
    const bound = g.getParameter(g.ELEMENT_ARRAY_BUFFER_BINDING) as object | null;
    if (!bound) return;
    const start = stripArrays.get(data as ArrayBufferView);
    if (start !== undefined) strips.set(bound, start);
    else strips.delete(bound);
  };
  g.drawElements = (mode: number, count: number, type: number, offset: number) => {
    if (mode === g.TRIANGLES) {
      const bound = g.getParameter(g.ELEMENT_ARRAY_BUFFER_BINDING) as object | null;
      const start = bound ? strips.get(bound) : undefined;
      if (start !== undefined && offset >= start) {
        drawStripTriangles += Math.max(0, count - 2) - count / 3;
        mode = g.TRIANGLE_STRIP;
      }
    }
    drawElements(mode, count, type, offset);
  };
  return true;
}

/** Triangles the strip draws drew beyond what three.js counted for them (it counts TRIANGLES). */
let drawStripTriangles = 0;

/**
 * Takes the difference between the strip draws' primitives (count − 2 each, degenerate joins included)
 * and three.js's count/3 since the last call: add it to WebGLRenderer.info.render.triangles.
 */
export function takeStripTriangleCorrection(): number {
  const d = drawStripTriangles;
  drawStripTriangles = 0;
  return d;
}
