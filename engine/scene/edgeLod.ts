/**
 * Level of detail of a chunk's feature edges in the full-quality frame (ARCHITECTURE.md "The `.sc` package":
 * edges are 16-bit index pairs on the chunk's vertices; README "interactive detail"): at a distance
 * where a cell of `cellMm` is at most LOD_MAX_PX pixels, most edge segments add no pixel of their own —
 * the thickness edges of plates (shorter than a cell) and the nearly coincident outlines of holes, arcs
 * and chamfers (both ends in the same two cells) — yet each costs a vertex pair and a line set-up on a
 * software rasteriser. A level keeps, per object row, one segment per pair of cells and drops segments
 * inside one cell. Cells are the surfaces' LOD grid (./lodCluster.ts) with the same facing classes, so the
 * two faces' outlines of a thin plate both stay (the one facing the viewer must be drawn, and which one
 * that is depends on the view). Kept segments keep their own vertices: nothing moves, only fewer segments
 * are drawn, and no GPU byte is added (ChunkEdgeOrder reorders the one edge index buffer).
 * Rows keep the chunk's size order (./sizeOrder.ts), so "edges of objects of at least s mm" stays a prefix.
 */
import { type BufferAttribute, BufferGeometry, LineSegments } from 'three';
import type { SceneChunk } from '../package/types';
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
 * The edge level of one chunk without extra GPU bytes: the chunk's one edge index buffer (a copy of
 * `chunk.edges`, which snapping indexes by segment number and so must keep its order) is reordered for
 * the level last wanted — every row's kept segments first, in row order, then every row's dropped ones —
 * and re-uploaded. The level is then a prefix (the `kept` lines); full edges add the `rest` lines, a
 * second draw range over the same buffer (a child of `kept`, so it shows and hides with it).
 */
export class ChunkEdgeOrder {
  /** The draws: kept segments (the chunk's edge lines) and the rest (child of `kept`). */
  readonly rest: LineSegments;
  /** Level the buffer is ordered for (-1: package order, i.e. all kept). */
  private level = -1;
  /** Levels that would keep too many segments (full edges are as cheap). */
  private readonly useless = new Set<number>();
  /** keptEnd[r] / restEnd[r]: indices of rows 0..r in the kept part / in the rest (after `keptTotal`). */
  private keptEnd: Uint32Array;
  private restEnd: Uint32Array;
  private keptTotal: number;

  /**
   * @param kept the chunk's edge lines; its geometry's index is the reorderable copy of `chunk.edges`.
   * @param cellMm cell size (mm) of level L.
   */
  constructor(
    private readonly chunk: SceneChunk,
    private readonly order: SizeOrder,
    private readonly kept: LineSegments,
    private readonly cellMm: (level: number) => number,
  ) {
    const g = new BufferGeometry();
    g.setAttribute('position', kept.geometry.getAttribute('position'));
    // The same attribute object: one GPU buffer for both draws.
    g.setIndex(kept.geometry.getIndex());
    g.boundingBox = kept.geometry.boundingBox;
    g.boundingSphere = kept.geometry.boundingSphere;
    this.rest = new LineSegments(g, kept.material);
    this.rest.name = `${kept.name}-rest`;
    this.rest.matrixAutoUpdate = false;
    this.rest.frustumCulled = false;
    kept.add(this.rest);
    this.keptEnd = order.edgeEnd;
    this.restEnd = new Uint32Array(order.edgeEnd.length);
    this.keptTotal = order.edgeEnd.length > 0 ? order.edgeEnd[order.edgeEnd.length - 1] : 0;
  }

  /**
   * Sets the draw ranges for the edges of rows 0..rows-1 at `level` (-1: full edges). When the buffer is
   * ordered for another level it is reordered now if `mayReorder` (else full edges or the finer ordered
   * level stand in, and the result is true: pending). `facing`: the chunk's vertex facing classes.
   * Returns whether the wanted level is still to come.
   */
  select(level: number, rows: number, mayReorder: boolean, facing: () => Uint8Array): boolean {
    if (level >= 0 && level !== this.level && mayReorder && !this.useless.has(level)) this.reorder(level, facing());
    const r = rows > 0 ? rows - 1 : -1;
    const kept = r >= 0 ? this.keptEnd[r] : 0;
    this.kept.geometry.setDrawRange(0, kept);
    // A coarser view than the ordered level may draw the finer level's segments; a finer one needs all.
    const levelOk = level >= 0 && this.level >= 0 && this.level <= level;
    const rest = levelOk || r < 0 ? 0 : this.restEnd[r];
    this.rest.geometry.setDrawRange(this.keptTotal, rest);
    this.rest.visible = rest > 0;
    return level >= 0 && level !== this.level && !this.useless.has(level);
  }

  private reorder(level: number, facing: Uint8Array): void {
    const lv = buildEdgeLodLevel(this.chunk, this.order, facing, this.cellMm(level));
    const total = this.order.edgeEnd.length > 0 ? this.order.edgeEnd[this.order.edgeEnd.length - 1] : 0;
    if (lv.indices.length > EDGE_LOD_KEEP_MAX * total) {
      this.useless.add(level);
      return;
    }
    const src = this.chunk.edges;
    const index = this.kept.geometry.getIndex() as BufferAttribute;
    const dst = index.array as Uint16Array;
    dst.set(lv.indices, 0);
    // The dropped segments of each row, in row order, after the kept ones (a segment is kept at most once
    // per row even when the row repeats it, so counts per pair decide).
    const restEnd = new Uint32Array(this.order.edgeEnd.length);
    const keptCount = new Map<number, number>();
    let n = lv.indices.length;
    for (let r = 0, s = 0, k = 0; r < this.order.edgeEnd.length; r++) {
      keptCount.clear();
      for (; k < lv.edgeEnd[r]; k += 2) {
        const key = lv.indices[k] * 65536 + lv.indices[k + 1];
        keptCount.set(key, (keptCount.get(key) ?? 0) + 1);
      }
      for (const e = this.order.edgeEnd[r]; s < e; s += 2) {
        const key = src[s] * 65536 + src[s + 1];
        const c = keptCount.get(key) ?? 0;
        if (c > 0) {
          keptCount.set(key, c - 1);
          continue;
        }
        dst[n++] = src[s];
        dst[n++] = src[s + 1];
      }
      restEnd[r] = n - lv.indices.length;
    }
    index.needsUpdate = true;
    this.keptEnd = lv.edgeEnd;
    this.restEnd = restEnd;
    this.keptTotal = lv.indices.length;
    this.level = level;
  }

  /** Frees the rest draw's geometry (the index and positions belong to the kept lines' geometry). */
  dispose(): void {
    this.rest.geometry.dispose();
    this.rest.removeFromParent();
  }
}
