/**
 * How the `.sc` writer cuts a model into chunks (ARCHITECTURE.md "The `.sc` package": independent
 * chunks in an order that makes the first frame useful early). Pure functions over world-mm meshes.
 */
import type { Box3Tuple, PartMesh } from '../model/types';
import { emptyBox, growBox } from '../model/types';

/** One object's geometry ready for a chunk (normals are not stored: format version 2 shades flat). */
export interface ChunkPart {
  object: number;
  /** xyz, mm. */
  positions: Float32Array;
  /** Indices local to this part. */
  indices: Uint32Array;
  /** Segments x0 y0 z0 x1 y1 z1, mm, or null. */
  edges: Float32Array | null;
}

/** Fraction of the model diagonal above which a part counts as "large" and streams first. */
const LARGE_PART_FRACTION = 0.05;

/**
 * Merges meshes that share an object index into one part (so an object's vertices and indices are
 * contiguous in a chunk). Order of first appearance is kept.
 */
export function mergeMeshesByObject(meshes: PartMesh[]): ChunkPart[] {
  const byObject = new Map<number, PartMesh[]>();
  for (const m of meshes) {
    const list = byObject.get(m.object);
    if (list) list.push(m);
    else byObject.set(m.object, [m]);
  }
  const parts: ChunkPart[] = [];
  for (const [object, list] of byObject) {
    if (list.length === 1) {
      const m = list[0];
      parts.push({
        object,
        positions: m.positions,
        indices: m.indices,
        edges: m.edges?.length ? m.edges : null,
      });
      continue;
    }
    const nv = list.reduce((n, m) => n + m.positions.length, 0);
    const ni = list.reduce((n, m) => n + m.indices.length, 0);
    const ne = list.reduce((n, m) => n + (m.edges?.length ?? 0), 0);
    const positions = new Float32Array(nv),
      indices = new Uint32Array(ni);
    const edges = ne > 0 ? new Float32Array(ne) : null;
    let pv = 0,
      pi = 0,
      pe = 0;
    for (const m of list) {
      positions.set(m.positions, pv);
      for (let k = 0; k < m.indices.length; k++) indices[pi + k] = m.indices[k] + pv / 3;
      if (m.edges && edges) {
        edges.set(m.edges, pe);
        pe += m.edges.length;
      }
      pv += m.positions.length;
      pi += m.indices.length;
    }
    parts.push({ object, positions, indices, edges });
  }
  return parts;
}

/** Vertices a part may need in a chunk: its own plus one per edge end (an upper bound before welding). */
export function partVertexBound(p: ChunkPart): number {
  return p.positions.length / 3 + (p.edges ? p.edges.length / 3 : 0);
}

/**
 * Splits a part that exceeds the chunk limits into pieces by triangles, each within the limits and
 * with the same object index. Edges go with the first piece (its vertex budget is reduced by the edge
 * ends); edges of more than half the vertex limit go into edge-only pieces of their own. A part within
 * the limits is returned as is.
 */
export function splitPart(p: ChunkPart, maxV: number, maxT: number): ChunkPart[] {
  if (partVertexBound(p) <= maxV && p.indices.length / 3 <= maxT) return [p];
  if (p.edges && p.edges.length / 3 > maxV / 2) {
    const perPiece = Math.max(1, Math.floor(maxV / 2 / 2)) * 6;
    const edgePieces: ChunkPart[] = [];
    for (let k = 0; k < p.edges.length; k += perPiece)
      edgePieces.push({
        object: p.object,
        positions: new Float32Array(0),
        indices: new Uint32Array(0),
        edges: p.edges.slice(k, k + perPiece),
      });
    const body = p.indices.length > 0 ? splitPart({ ...p, edges: null }, maxV, maxT) : [];
    return [...body, ...edgePieces];
  }
  const edgeEnds = p.edges ? p.edges.length / 3 : 0;
  const pieces: ChunkPart[] = [];
  const remap = new Int32Array(p.positions.length / 3).fill(-1);
  let used: number[] = [];
  let tris: number[] = [];
  const flush = () => {
    const positions = new Float32Array(used.length * 3);
    used.forEach((v, k) => {
      positions.set(p.positions.subarray(v * 3, v * 3 + 3), k * 3);
      remap[v] = -1;
    });
    pieces.push({
      object: p.object,
      positions,
      indices: Uint32Array.from(tris),
      edges: pieces.length === 0 ? p.edges : null,
    });
    used = [];
    tris = [];
  };
  for (let t = 0; t < p.indices.length; t += 3) {
    let fresh = 0;
    for (let k = 0; k < 3; k++) if (remap[p.indices[t + k]] < 0) fresh++;
    const budget = pieces.length === 0 ? maxV - edgeEnds : maxV;
    if (used.length + fresh > budget || tris.length / 3 + 1 > maxT) flush();
    for (let k = 0; k < 3; k++) {
      const v = p.indices[t + k];
      if (remap[v] < 0) {
        remap[v] = used.length;
        used.push(v);
      }
      tris.push(remap[v]);
    }
  }
  if (tris.length > 0 || pieces.length === 0) flush();
  return pieces;
}

/** What chunk planning needs of a part (or a piece of one within the chunk limits): its box and counts. */
export interface ChunkItemSize {
  /** World box of its positions and edges, mm. */
  box: Box3Tuple;
  /** partVertexBound of the part. */
  vertices: number;
  /** Triangles. */
  triangles: number;
}

interface Item extends ChunkItemSize {
  /** Position in the planned list. */
  at: number;
  centre: [number, number, number];
  diagonal: number;
}

/** The box and counts of a part within the chunk limits (planChunks' input). */
export function chunkItemSize(part: ChunkPart): ChunkItemSize {
  const box = growBox(emptyBox(), part.positions);
  if (part.edges) growBox(box, part.edges);
  return { box, vertices: partVertexBound(part), triangles: part.indices.length / 3 };
}

function toItem(size: ChunkItemSize, at: number): Item {
  const box = size.box;
  const centre: [number, number, number] = [(box[0] + box[3]) / 2, (box[1] + box[4]) / 2, (box[2] + box[5]) / 2];
  const diagonal = Math.hypot(box[3] - box[0], box[4] - box[1], box[5] - box[2]);
  return { ...size, at, centre, diagonal };
}

/**
 * Groups parts into chunks of at most maxV vertices and maxT triangles, spatially (recursive median
 * split of part centres along the longest axis), and orders the chunks for streaming: chunks of large
 * parts (diagonal ≥ 5 % of the model's) first, then the rest; within each tier, chunks nearer the
 * model centre first. A model that fits one chunk gives one chunk.
 */
export function groupIntoChunks(parts: ChunkPart[], modelBounds: Box3Tuple, maxV: number, maxT: number): ChunkPart[][] {
  const pieces = parts.flatMap((p) => splitPart(p, maxV, maxT));
  return planChunks(pieces.map(chunkItemSize), modelBounds, maxV, maxT).map((g) => g.map((i) => pieces[i]));
}

/**
 * groupIntoChunks on the parts' sizes alone (each within the chunk limits, e.g. splitPart's pieces), so a
 * model whose geometry does not fit in memory can be planned first and encoded chunk by chunk.
 * @returns the chunks in streaming order, each as positions in `sizes`.
 */
export function planChunks(sizes: ChunkItemSize[], modelBounds: Box3Tuple, maxV: number, maxT: number): number[][] {
  const items = sizes.map(toItem);
  const totalV = items.reduce((n, i) => n + i.vertices, 0);
  const totalT = items.reduce((n, i) => n + i.triangles, 0);
  if (items.length === 0) return [];
  if (totalV <= maxV && totalT <= maxT) return [items.map((i) => i.at)];

  const mb = modelBounds;
  const modelCentre = [(mb[0] + mb[3]) / 2, (mb[1] + mb[4]) / 2, (mb[2] + mb[5]) / 2];
  const modelDiagonal = Math.hypot(mb[3] - mb[0], mb[4] - mb[1], mb[5] - mb[2]);
  const large = items.filter((i) => i.diagonal >= LARGE_PART_FRACTION * modelDiagonal);
  const small = items.filter((i) => i.diagonal < LARGE_PART_FRACTION * modelDiagonal);
  const byCentrality = (groups: Item[][]) =>
    groups
      .map((g) => {
        const box = emptyBox();
        for (const i of g) growBox(box, i.centre);
        const d = Math.hypot(
          (box[0] + box[3]) / 2 - modelCentre[0],
          (box[1] + box[4]) / 2 - modelCentre[1],
          (box[2] + box[5]) / 2 - modelCentre[2],
        );
        return { g, d };
      })
      .sort((a, b) => a.d - b.d)
      .map((x) => x.g.map((i) => i.at));
  return [...byCentrality(splitSpatially(large, maxV, maxT)), ...byCentrality(splitSpatially(small, maxV, maxT))];
}

function splitSpatially(items: Item[], maxV: number, maxT: number): Item[][] {
  if (items.length === 0) return [];
  const v = items.reduce((n, i) => n + i.vertices, 0);
  const t = items.reduce((n, i) => n + i.triangles, 0);
  if ((v <= maxV && t <= maxT) || items.length === 1) return [items];
  const box = emptyBox();
  for (const i of items) growBox(box, i.centre);
  const ext = [box[3] - box[0], box[4] - box[1], box[5] - box[2]];
  const axis = ext[0] >= ext[1] && ext[0] >= ext[2] ? 0 : ext[1] >= ext[2] ? 1 : 2;
  const sorted = [...items].sort((a, b) => a.centre[axis] - b.centre[axis]);
  // Split where the cumulative load (vertices and triangles, as fractions of the limits) reaches half.
  const load = (i: Item) => Math.max(i.vertices / maxV, i.triangles / maxT);
  const half = sorted.reduce((n, i) => n + load(i), 0) / 2;
  let acc = 0,
    cut = 0;
  while (cut < sorted.length - 1 && acc + load(sorted[cut]) <= half) acc += load(sorted[cut++]);
  if (cut === 0) cut = 1;
  return [...splitSpatially(sorted.slice(0, cut), maxV, maxT), ...splitSpatially(sorted.slice(cut), maxV, maxT)];
}
