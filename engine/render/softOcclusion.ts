/**
 * Occlusion culling of whole chunks on the CPU, without GPU queries (viewer.md §4 "Scale": most of a
 * ship's structure lies behind its shell). Each frame the large triangles of the big plates that this
 * very frame draws (shell, decks, bulkheads: objects are stored largest first, so they lead every
 * chunk's index buffer) are rasterised into a coarse conservative depth buffer (./coarseDepth.ts), and
 * every chunk in the view whose world box lies wholly behind them is dropped for this frame.
 *
 * Why it is exact: occluders are taken from the index buffer the chunk really draws this frame (its
 * full-detail or LOD index, within the draw range; LOD triangles use the chunk's own vertices), and
 * only from objects that are drawn opaque (not hidden, opacity 1). A dropped chunk's triangles lie in
 * its box, so at every pixel of the box some drawn, opaque triangle is nearer: the chunk adds nothing
 * to the frame. Occluders of a chunk that is itself dropped stay valid: they are behind other drawn
 * occluders (induction on the nearest box depth). Unlike GPU queries, the answer is ready in the same
 * frame, so moving frames need no second frame and nothing appears late.
 *
 * Units: world mm; matrices column-major (THREE.Matrix4.elements). No DOM, no GPU.
 */
import type { SceneChunk } from '../package/types';
import { quantizedRangeBox } from '../scene/sizeOrder';
import { nearestDepth } from './chunkOcclusion';
import { CoarseDepthBuffer } from './coarseDepth';

/**
 * Objects whose world box diagonal is below this (mm) give no occluders: their triangles are too small
 * to cover a coarse pixel at usual views, and stopping at the first of them bounds the scan (rows are
 * largest first).
 */
export const OCCLUDER_MIN_OBJECT_MM = 1500;
/** Occluder triangles have at least this world area (mm²): plates, not stiffener flanges or hole slivers. */
export const OCCLUDER_MIN_AREA_MM2 = 100_000;
/** At most this many occluder triangles per chunk index buffer (the largest objects' come first). */
export const OCCLUDER_MAX_PER_CHUNK = 4096;
/** Width of the coarse depth buffer in pixels; the height follows the view's aspect ratio. */
export const SOFT_DEPTH_WIDTH = 320;

/** Occluder triangles of one index buffer, in index-buffer order. */
export interface OccluderSet {
  /** World corners (mm), 9 values per triangle. */
  corners: Float32Array;
  /** Triangle number in the index buffer (index offset / 3), ascending: a draw-range prefix keeps a prefix. */
  at: Uint32Array;
  /** Object index of each triangle (for the hidden / translucent test of the frame). */
  objects: Uint32Array;
  count: number;
}

/** What one chunk draws this frame: its quantised chunk, the index buffer in use and how many indices of it. */
export interface DrawnIndex {
  chunk: SceneChunk;
  index: Uint16Array;
  /** Indices drawn from the start of `index` (the draw range's count; larger values mean all). */
  count: number;
}

/** Per chunk: rows sorted by first vertex, to find a vertex's object by binary search. */
interface VertexRows {
  starts: Uint32Array;
  ends: Uint32Array;
  objects: Uint32Array;
}

const vertexRowsCache = new WeakMap<SceneChunk, VertexRows>();
const rowBoxesCache = new WeakMap<SceneChunk, Float64Array>();

/** A chunk with more object rows than this is tested by its box only (the row test would cost more than it saves). */
export const ROW_TEST_MAX_ROWS = 4096;

/**
 * World boxes (6 values per row: min xyz, max xyz, mm) of the chunk's object rows, from their vertices;
 * a row without vertices gets an empty box (min > max), which never shows.
 */
export function rowBoxes(chunk: SceneChunk): Float64Array {
  let out = rowBoxesCache.get(chunk);
  if (out) return out;
  const o = chunk.objects,
    q = chunk.positions,
    b = chunk.bounds;
  const rows = Math.floor(o.length / 5);
  const s = [0, 1, 2].map((a) => (b[a + 3] > b[a] ? (b[a + 3] - b[a]) / 65535 : 1));
  out = new Float64Array(rows * 6);
  const qb = new Float64Array(6);
  for (let r = 0; r < rows; r++) {
    const v0 = o[r * 5 + 1],
      vc = o[r * 5 + 2];
    if (!quantizedRangeBox(q, v0, vc, qb)) {
      out.set([1, 1, 1, 0, 0, 0], r * 6);
      continue;
    }
    for (let a = 0; a < 6; a++) out[r * 6 + a] = b[a % 3] + qb[a] * s[a % 3];
  }
  rowBoxesCache.set(chunk, out);
  return out;
}

function vertexRows(chunk: SceneChunk): VertexRows {
  let v = vertexRowsCache.get(chunk);
  if (v) return v;
  const o = chunk.objects;
  const rows = Math.floor(o.length / 5);
  const order = Array.from({ length: rows }, (_, r) => r).sort((a, b) => o[a * 5 + 1] - o[b * 5 + 1]);
  v = { starts: new Uint32Array(rows), ends: new Uint32Array(rows), objects: new Uint32Array(rows) };
  order.forEach((r, k) => {
    v!.starts[k] = o[r * 5 + 1];
    v!.ends[k] = o[r * 5 + 1] + o[r * 5 + 2];
    v!.objects[k] = o[r * 5];
  });
  vertexRowsCache.set(chunk, v);
  return v;
}

/** Object owning vertex `vertex` of the chunk, or -1. */
function objectOfVertex(rows: VertexRows, vertex: number): number {
  let lo = 0,
    hi = rows.starts.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (rows.starts[mid] <= vertex) lo = mid + 1;
    else hi = mid - 1;
  }
  return hi >= 0 && vertex < rows.ends[hi] ? rows.objects[hi] : -1;
}

/**
 * Picks the occluder triangles of an index buffer of `chunk` (its full index or one of its LOD indices,
 * both largest object first): triangles of at least OCCLUDER_MIN_AREA_MM2 from the leading objects whose
 * world diagonal (`objectSizeMm`) is at least OCCLUDER_MIN_OBJECT_MM, at most OCCLUDER_MAX_PER_CHUNK.
 */
export function extractOccluders(
  chunk: SceneChunk,
  index: Uint16Array,
  objectSizeMm: (objectIndex: number) => number,
): OccluderSet {
  const rows = vertexRows(chunk);
  const q = chunk.positions,
    b = chunk.bounds;
  const s = [0, 1, 2].map((a) => (b[a + 3] > b[a] ? (b[a + 3] - b[a]) / 65535 : 1));
  const corners: number[] = [];
  const at: number[] = [];
  const objects: number[] = [];
  const p = new Float64Array(9);
  let lastObject = -2,
    lastBig = false;
  for (let t = 0; t * 3 + 2 < index.length && at.length < OCCLUDER_MAX_PER_CHUNK; t++) {
    const obj = objectOfVertex(rows, index[t * 3]);
    if (obj !== lastObject) {
      lastObject = obj;
      lastBig = obj >= 0 && objectSizeMm(obj) >= OCCLUDER_MIN_OBJECT_MM;
      // Rows come largest first: once an object is small, all after it are.
      if (obj >= 0 && !lastBig) break;
    }
    if (!lastBig) continue;
    for (let k = 0; k < 3; k++) {
      const v = index[t * 3 + k] * 3;
      p[k * 3] = b[0] + q[v] * s[0];
      p[k * 3 + 1] = b[1] + q[v + 1] * s[1];
      p[k * 3 + 2] = b[2] + q[v + 2] * s[2];
    }
    const ux = p[3] - p[0],
      uy = p[4] - p[1],
      uz = p[5] - p[2],
      vx = p[6] - p[0],
      vy = p[7] - p[1],
      vz = p[8] - p[2];
    const area = 0.5 * Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx);
    if (!(area >= OCCLUDER_MIN_AREA_MM2)) continue;
    for (let k = 0; k < 9; k++) corners.push(p[k]);
    at.push(t);
    objects.push(obj);
  }
  return {
    corners: Float32Array.from(corners),
    at: Uint32Array.from(at),
    objects: Uint32Array.from(objects),
    count: at.length,
  };
}

/** The CPU culler of one model's chunks. Keeps the occluders of each index buffer it has seen. */
export class SoftOcclusion {
  readonly buffer = new CoarseDepthBuffer();
  /** Chunks in the view dropped by the last select(). */
  occluded = 0;
  /** Occluder triangles rasterised by the last select() (that wrote a pixel). */
  occluderTriangles = 0;
  private readonly sets = new WeakMap<Uint16Array, OccluderSet>();
  /** Row tests of the last select()'s buffer, per chunk (0: not tested, 1: may show, 2: hidden). */
  private readonly rowTests = new Map<SceneChunk, Uint8Array>();

  /**
   * Decides which of the chunks in `draw` (1 = drawn this frame, after frustum and other culling) are
   * hidden behind the occluders drawn this frame, and clears their entry. `boxes` holds 6 values per
   * chunk (min xyz, max xyz, mm); `drawnIndex(i)` says what chunk `i` draws (null: nothing opaque, so
   * no occluders from it); `opaque(object)` is true when the object is drawn in the opaque pass (not
   * hidden, opacity 1); `objectSizeMm(object)` its world diagonal. `width` is the coarse buffer's
   * width in pixels and `aspect` the view's width / height. Returns `draw`, changed in place.
   */
  select(
    viewProjection: ArrayLike<number>,
    aspect: number,
    draw: Uint8Array,
    boxes: Float64Array,
    drawnIndex: (i: number) => DrawnIndex | null,
    opaque: (objectIndex: number) => boolean,
    objectSizeMm: (objectIndex: number) => number,
    width = SOFT_DEPTH_WIDTH,
  ): Uint8Array {
    const height = Math.max(8, Math.min(4 * width, Math.round(width / (aspect > 0 ? aspect : 1))));
    const buf = this.buffer;
    buf.begin(viewProjection, width, height);
    this.rowTests.clear();
    // Nearest chunks first: a chunk already hidden by what is drawn so far stays hidden (the buffer only
    // gets nearer) and its occluders, all inside its box, cannot add anything; later plates are mostly
    // skipped pixel by pixel behind the nearer ones.
    const ids: number[] = [];
    const near = new Float64Array(draw.length);
    for (let i = 0; i < draw.length; i++)
      if (draw[i]) {
        ids.push(i);
        near[i] = nearestDepth(viewProjection, boxes, i * 6);
      }
    ids.sort((a, b) => near[a] - near[b] || a - b);
    let occluded = 0;
    for (const i of ids) {
      if (!buf.boxVisible(boxes, i * 6)) {
        draw[i] = 0;
        occluded++;
        continue;
      }
      const d = drawnIndex(i);
      if (!d) continue;
      let set = this.sets.get(d.index);
      if (!set) {
        set = extractOccluders(d.chunk, d.index, objectSizeMm);
        this.sets.set(d.index, set);
      }
      const limit = d.count / 3;
      for (let k = 0; k < set.count && set.at[k] < limit; k++)
        if (opaque(set.objects[k])) buf.drawTriangle(set.corners, k * 9);
    }
    for (const i of ids) {
      if (!draw[i] || this.chunkVisible(boxes, i, drawnIndex)) continue;
      draw[i] = 0;
      occluded++;
    }
    this.occluded = occluded;
    this.occluderTriangles = buf.trianglesDrawn;
    return draw;
  }

  /**
   * Per object row of `chunk` (rows as in `chunk.objects`), whether its box may show in the depth buffer
   * of the last select(): the same test that drops whole chunks, so a row said hidden adds no pixel to
   * that frame. Each row is tested once per select(), when first asked (the chunk test shares the
   * answers). A chunk of more than ROW_TEST_MAX_ROWS rows is not tested: every row may show.
   */
  rowVisibility(chunk: SceneChunk): (row: number) => boolean {
    const rows = chunk.objects.length / 5;
    if (rows > ROW_TEST_MAX_ROWS) return () => true;
    const rb = rowBoxes(chunk);
    const buf = this.buffer;
    // Shared with the chunk test of the same select(): rows it found hidden are not tested again.
    let seen = this.rowTests.get(chunk);
    if (!seen) {
      seen = new Uint8Array(rows);
      this.rowTests.set(chunk, seen);
    }
    const tests = seen;
    return (r) => {
      if (tests[r] === 0) tests[r] = rb[r * 6] <= rb[r * 6 + 3] && buf.boxVisible(rb, r * 6) ? 1 : 2;
      return tests[r] === 1;
    };
  }

  /**
   * True when chunk `i` may show a pixel: its box is visible in the buffer, and so is the box of one of its
   * object rows (rows without vertices aside). The rows' boxes lie inside the chunk's and hold all its
   * triangles, so a chunk whose every row box is hidden is hidden, however much empty space its own box
   * encloses. A chunk without a drawn index, or of more than ROW_TEST_MAX_ROWS rows, is tested by its box alone.
   */
  private chunkVisible(boxes: Float64Array, i: number, drawnIndex: (i: number) => DrawnIndex | null): boolean {
    if (!this.buffer.boxVisible(boxes, i * 6)) return false;
    const d = drawnIndex(i);
    if (!d) return true;
    const shows = this.rowVisibility(d.chunk);
    for (let r = 0; r * 5 < d.chunk.objects.length; r++) if (shows(r)) return true;
    return false;
  }
}

/** Width / height of the view of a column-major view-projection matrix (|row 1| / |row 0| of its 3 × 3 part). */
export function viewAspect(m: ArrayLike<number>): number {
  const r0 = Math.hypot(m[0], m[4], m[8]),
    r1 = Math.hypot(m[1], m[5], m[9]);
  return r0 > 0 && r1 > 0 ? r1 / r0 : 1;
}
