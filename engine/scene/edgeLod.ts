/**
 * Level of detail of a chunk's feature edges (the still frame's edges, viewer.md §2 "Scale"): at a distance
 * where a cell of `cellMm` is at most LOD_MAX_PX pixels, most edge segments add no pixel of their own —
 * the thickness edges of plates (shorter than a cell) and the nearly coincident outlines of holes, arcs
 * and chamfers (both ends in the same two cells) — yet each costs a vertex pair and a line set-up on a
 * software rasteriser. A level keeps, per object row, one segment per pair of cells and drops segments
 * inside one cell. Cells are the surfaces' LOD grid (./lodCluster.ts) with the same facing classes, so the
 * two faces' outlines of a thin plate both stay (the one facing the viewer must be drawn, and which one
 * that is depends on the view). Kept segments keep their own vertices: nothing moves, only fewer segments
 * are drawn, and the level is a second Uint16 index buffer on the chunk's vertex buffer.
 * Rows keep the chunk's size order (./sizeOrder.ts), so "edges of objects of at least s mm" stays a prefix.
 */
import { BufferAttribute, BufferGeometry } from 'three';
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
/** Edge levels kept per chunk at most (the least recently used goes). */
export const EDGE_LOD_LEVELS_KEPT = 2;

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
 * The edge levels of one chunk and the choice per frame. Levels share the chunk's position attribute;
 * `bytes` counts their indices (GPU bytes beyond the chunk's own buffers).
 */
export class ChunkEdgeLods {
  private readonly levels = new Map<number, { level: EdgeLodLevel; geometry: BufferGeometry; used: number }>();
  /** Levels that would keep too many segments (the full edges are as cheap). */
  private readonly useless = new Set<number>();
  private clock = 0;
  /** Index bytes of the levels held. */
  bytes = 0;

  /**
   * @param full the chunk's full edge geometry (position attribute and edge indices in size order).
   * @param cellMm cell size (mm) of level L.
   */
  constructor(
    private readonly chunk: SceneChunk,
    private readonly order: SizeOrder,
    private readonly full: BufferGeometry,
    private readonly cellMm: (level: number) => number,
  ) {}

  /**
   * The geometry and draw count for the edges of rows 0..rows-1 at `level` (-1: full edges). A level
   * not built yet is built when `mayBuild` (else the nearest finer built level, or the full edges, stand
   * in and `pending` is true). `facing` gives the chunk's vertex facing classes (built on first need).
   */
  select(
    level: number,
    rows: number,
    mayBuild: boolean,
    facing: () => Uint8Array,
  ): { geometry: BufferGeometry; count: number; pending: boolean } {
    if (level >= 0 && mayBuild && !this.levels.has(level) && !this.useless.has(level)) this.build(level, facing());
    for (let l = level; l >= 0; l--) {
      const lv = this.levels.get(l);
      if (this.useless.has(l)) break;
      if (!lv) continue;
      lv.used = ++this.clock;
      return {
        geometry: lv.geometry,
        count: rows > 0 ? lv.level.edgeEnd[rows - 1] : 0,
        pending: l !== level,
      };
    }
    return {
      geometry: this.full,
      count: rows > 0 ? this.order.edgeEnd[rows - 1] : 0,
      pending: level >= 0 && !this.useless.has(level),
    };
  }

  private build(level: number, facing: Uint8Array): void {
    const lv = buildEdgeLodLevel(this.chunk, this.order, facing, this.cellMm(level));
    const total = this.order.edgeEnd.length > 0 ? this.order.edgeEnd[this.order.edgeEnd.length - 1] : 0;
    if (lv.indices.length > EDGE_LOD_KEEP_MAX * total) {
      this.useless.add(level);
      return;
    }
    while (this.levels.size >= EDGE_LOD_LEVELS_KEPT) {
      let oldest = -1,
        at = Infinity;
      for (const [l, v] of this.levels)
        if (v.used < at) {
          at = v.used;
          oldest = l;
        }
      const drop = this.levels.get(oldest)!;
      drop.geometry.dispose();
      this.bytes -= drop.level.indices.byteLength;
      this.levels.delete(oldest);
    }
    const g = new BufferGeometry();
    g.setAttribute('position', this.full.getAttribute('position'));
    g.setIndex(new BufferAttribute(lv.indices, 1));
    g.boundingBox = this.full.boundingBox;
    g.boundingSphere = this.full.boundingSphere;
    this.levels.set(level, { level: lv, geometry: g, used: ++this.clock });
    this.bytes += lv.indices.byteLength;
  }

  /** Frees the levels' geometries and the full edge geometry. */
  dispose(): void {
    this.full.dispose();
    for (const l of this.levels.values()) l.geometry.dispose();
    this.levels.clear();
    this.bytes = 0;
  }
}
