/**
 * Level of detail of a chunk's feature edges in the full-quality frame (ARCHITECTURE.md "The `.sc` package":
 * the package's edges are 16-bit index pairs on the chunk's vertices, drawn as strips, ./edgeStrips.ts;
 * README "interactive detail"): at a distance where a cell of `cellMm` is at most LOD_MAX_PX pixels, most
 * edge segments add no pixel of their own — the thickness edges of plates (shorter than a cell) and the
 * nearly coincident outlines of holes, arcs and chamfers (both ends in the same two cells) — yet each costs
 * a vertex pair and a line set-up on a software rasteriser. A level keeps, per object row, one segment per
 * pair of cells and drops segments inside one cell. Cells are the surfaces' LOD grid (./lodCluster.ts) with
 * the same facing classes, so the two faces' outlines of a thin plate both stay (the one facing the viewer
 * must be drawn, and which one that is depends on the view). Kept segments keep their own vertices:
 * nothing moves, only fewer segments are drawn, and no GPU byte is added (ChunkEdgeOrder rewrites the one
 * edge index buffer).
 * Rows keep the chunk's size order (./sizeOrder.ts), so "edges of objects of at least s mm" stays a prefix.
 */
import { BufferAttribute, BufferGeometry, Line, type LineBasicMaterial, LineSegments } from 'three';
import type { SceneChunk } from '../package/types';
import { EdgeWriter, thinStrips } from './edgeStrips';
import type { SizeOrder } from './sizeOrder';

/** One edge level: segment index pairs and, per row, the end of its segments' indices (prefix counts). */
export interface EdgeLodLevel {
  cellMm: number;
  indices: Uint16Array;
  edgeEnd: Uint32Array;
}

/** An edge level is kept only when it has at most this share of the chunk's edge segments. */
export const EDGE_LOD_KEEP_MAX = 0.75;

const QMAX = 65535;

/**
 * Builds the edge level of `chunk` for cells of `cellMm` (> 0): rows as in `order` (the chunk's
 * edges already in that order, scene/sizeOrder.ts), `facing` as scene/lodCluster.ts `vertexFacing`.
 * @throws Error when the cell size is not a positive number.
 */
export function buildEdgeLodLevel(
  chunk: SceneChunk,
  order: Pick<SizeOrder, 'edgeEnd'>,
  facing: Uint8Array,
  cellMm: number,
): EdgeLodLevel {
  if (!(cellMm > 0)) throw new Error(`Edge LOD cell size ${cellMm} mm is not positive`);
  const { positions: q, edges, bounds: b } = chunk;
  const cq = [0, 1, 2].map((a) => (b[a + 3] > b[a] ? Math.max(1, (cellMm * QMAX) / (b[a + 3] - b[a])) : QMAX + 1));
  const rows = order.edgeEnd.length;
  const out = new Uint16Array(order.edgeEnd.length > 0 ? order.edgeEnd[rows - 1] : 0);
  const edgeEnd = new Uint32Array(rows);
  // Per row: the first vertex seen in each (cell, facing) class stands for the class; pairs of such
  // representatives already drawn.
  const rep = new Map<number, number>();
  const pairs = new Set<number>();
  const cell = (v: number) =>
    (Math.floor(q[v * 3] / cq[0]) * 131072 + Math.floor(q[v * 3 + 1] / cq[1])) * 131072 +
    Math.floor(q[v * 3 + 2] / cq[2]);
  const representative = (v: number, c: number) => {
    const key = c * 8 + facing[v];
    const r = rep.get(key);
    if (r !== undefined) return r;
    rep.set(key, v);
    return v;
  };
  let n = 0;
  for (let r = 0, s = 0; r < rows; r++) {
    rep.clear();
    pairs.clear();
    for (const e = order.edgeEnd[r]; s < e; s += 2) {
      const a = edges[s],
        c = edges[s + 1];
      const ca = cell(a),
        cc = cell(c);
      if (ca === cc) continue;
      const ra = representative(a, ca),
        rc = representative(c, cc);
      const key = ra < rc ? ra * 65536 + rc : rc * 65536 + ra;
      if (pairs.has(key)) continue;
      pairs.add(key);
      out[n++] = a;
      out[n++] = c;
    }
    edgeEnd[r] = n;
  }
  return { cellMm, indices: out.slice(0, n), edgeEnd };
}

/**
 * The edge level of one chunk without extra GPU bytes. The chunk's one edge index buffer holds either its
 * full edges or the kept segments of the level last wanted, per row in row order, as line strips
 * (scene/edgeStrips.ts; pairs in a chunk with a vertex 65535), so a size prefix of rows is a prefix of
 * the buffer. Its length is that of the full edges as strips: a level is cut out of those strips
 * (thinStrips), and where cutting would outgrow the buffer a few single dropped segments between two
 * kept ones are drawn instead (each saves an index), so it always fits. The full edges stay on the CPU (`full`):
 * when a view needs more segments than the ordered level has (a finer level, or all edges while
 * clipping), they are copied back at once, so no frame draws fewer segments than it asks for; a finer
 * level is then built when building is allowed. Snapping indexes `chunk.edges` by segment and is not
 * affected.
 */
export class ChunkEdgeOrder {
  /** The chunk's edge lines (THREE.Line drawing strips, or LineSegments drawing pairs). */
  readonly lines: Line;
  /** GPU bytes of the edge index buffer. */
  readonly bytes: number;
  private readonly writer: EdgeWriter;
  /** The full edges as written at load, and the end of each row's indices in it. */
  private readonly full: Uint16Array;
  private readonly fullEnd: Uint32Array;
  /** Level the buffer holds (-1: the full edges). */
  private level = -1;
  /** Levels that would keep too many segments (full edges are as good). */
  private readonly useless = new Set<number>();
  /** keptEnd[r]: indices of rows 0..r in the buffer. */
  private keptEnd: Uint32Array;

  /**
   * Writes the edges of the rows of `order` (segments no row names are never drawn and are left out).
   * @param position the chunk's position attribute (shared with its surfaces: one GPU buffer).
   * @param cellMm cell size (mm) of level L.
   */
  constructor(
    private readonly chunk: SceneChunk,
    private readonly order: SizeOrder,
    position: BufferAttribute,
    material: LineBasicMaterial,
    private readonly cellMm: (level: number) => number,
  ) {
    this.writer = new EdgeWriter(chunk.positions.length / 3);
    const ends = order.edgeEnd;
    const rows = ends.length;
    const scratch = new Uint16Array(this.writer.bound(rows > 0 ? ends[rows - 1] / 2 : 0));
    this.fullEnd = new Uint32Array(rows);
    let n = 0;
    for (let r = 0, s = 0; r < rows; r++) {
      n = this.writer.write(chunk.edges, s, ends[r], scratch, n);
      this.fullEnd[r] = n;
      s = ends[r];
    }
    this.full = scratch.slice(0, n);
    this.keptEnd = this.fullEnd;
    const g = new BufferGeometry();
    g.setAttribute('position', position);
    g.setIndex(new BufferAttribute(this.full.slice(), 1));
    this.lines = this.writer.strips ? new Line(g, material) : new LineSegments(g, material);
    this.bytes = this.full.byteLength;
  }

  /** True when the buffer holds line strips (false: index pairs). */
  get strips(): boolean {
    return this.writer.strips;
  }

  /**
   * Sets the draw range for the edges of rows 0..rows-1 at `level` (-1: full edges). When the buffer holds
   * another level, the wanted one is written now if `mayReorder`; else, when the held level is coarser
   * than the wanted one, the full edges are copied back. Returns whether the wanted level is still to
   * come. `facing`: the chunk's vertex facing classes (scene/lodCluster.ts vertexFacing).
   */
  select(level: number, rows: number, mayReorder: boolean, facing: () => Uint8Array): boolean {
    if (level >= 0 && level !== this.level && mayReorder && !this.useless.has(level)) this.reorder(level, facing());
    // A coarser view may draw the finer level held; a finer one needs segments it lacks.
    if (this.level >= 0 && (level < 0 || level < this.level)) this.restore();
    this.lines.geometry.setDrawRange(0, rows > 0 ? this.keptEnd[rows - 1] : 0);
    return level >= 0 && level !== this.level && !this.useless.has(level);
  }

  /** End of each row's indices in the buffer as it is now (rows 0..r: rowEnds[r]; size order). */
  get rowEnds(): Uint32Array {
    return this.keptEnd;
  }

  /** The edge index buffer's current contents (what the draw range selects from). */
  get index(): Uint16Array {
    return this.lines.geometry.getIndex()!.array as Uint16Array;
  }

  private reorder(level: number, facing: Uint8Array): void {
    const lv = buildEdgeLodLevel(this.chunk, this.order, facing, this.cellMm(level));
    const ends = this.order.edgeEnd;
    const total = ends.length > 0 ? ends[ends.length - 1] : 0;
    if (lv.indices.length > EDGE_LOD_KEEP_MAX * total) {
      this.useless.add(level);
      return;
    }
    // The level is cut out of the full strips. Cutting out a single dropped segment between two kept ones
    // costs an index, so when cutting all of them would outgrow the buffer, the first ones are drawn
    // instead, as many as needed (a level then draws a few more segments, never fewer).
    const keep = new Set<number>();
    const kept = (a: number, b: number) => keep.has(a < b ? a * 65536 + b : b * 65536 + a);
    const write = (out: Uint16Array, budget: { bridges: number }) => {
      const keptEnd = new Uint32Array(ends.length);
      let n = 0;
      for (let r = 0, k = 0; r < ends.length; r++) {
        keep.clear();
        for (; k < lv.edgeEnd[r]; k += 2) {
          const a = lv.indices[k],
            b = lv.indices[k + 1];
          keep.add(a < b ? a * 65536 + b : b * 65536 + a);
        }
        const from = r > 0 ? this.fullEnd[r - 1] : 0;
        n = thinStrips(this.full, from, this.fullEnd[r], kept, out, n, budget, this.writer.strips);
        keptEnd[r] = n;
      }
      return { n, keptEnd };
    };
    // Cutting every gap adds at most one index per segment of the full strips.
    const scratch = new Uint16Array(2 * this.full.length);
    const cut = write(scratch, { bridges: 0 });
    const fits = cut.n <= this.full.length;
    const { keptEnd } = fits ? cut : write(this.index, { bridges: cut.n - this.full.length });
    if (fits) this.index.set(scratch.subarray(0, cut.n));
    (this.lines.geometry.getIndex() as BufferAttribute).needsUpdate = true;
    this.keptEnd = keptEnd;
    this.level = level;
  }

  /** The full edges back into the buffer. */
  private restore(): void {
    this.upload(this.full);
    this.keptEnd = this.fullEnd;
    this.level = -1;
  }

  private upload(indices: Uint16Array): void {
    const index = this.lines.geometry.getIndex() as BufferAttribute;
    (index.array as Uint16Array).set(indices, 0);
    index.needsUpdate = true;
  }

  /** Frees the edge geometry's index buffer (the positions belong to the chunk's surfaces). */
  dispose(): void {
    this.lines.geometry.dispose();
    this.lines.removeFromParent();
  }
}
