/**
 * `npm run bench -- lod`: the chunks' LOD levels as the viewer builds them (vertex clustering,
 * engine/scene/lodCluster.ts, with ChunkBatch's sliver rule) beside meshoptimizer's simplifiers on the same
 * chunks of a generated ship (bench/out/ship-N.sc, made as the tools bench makes it; BENCH_SIZES, default 10000).
 *
 * Per level L (cell LOD_BASE_MM · 2^L mm) and method: the CPU time to build the level for every chunk, the
 * triangles it keeps, the triangles drawn when a chunk uses the level only where it keeps at most LOD_KEEP_MAX
 * of its triangles (as ChunkBatch does), and the geometric error in cells: distances from sample points of
 * the full surface (triangle centroids) to the level's surface and back (centroids of the level's triangles
 * to the full surface), by three-mesh-bvh closest-point queries; p50, p99 and max over the samples.
 *
 * meshoptimizer runs once per chunk (objects share no vertex, so no collapse crosses objects):
 * - `simplify` alone with an absolute error of half a cell (its quadric error is a distance; clustering moves
 *   a corner by up to a cell diagonal) and of a whole cell, `Prune` dropping components smaller than that;
 * - `simplify` then the viewer's clustering (engine/scene/lodSimplify.ts), with half the level's cell and with
 *   LOD_SIMPLIFY_MM at every level (what ChunkBatch builds; the simplification is made once per chunk there,
 *   here per level, so its build time counts it every time);
 * - `simplifySloppy` (its own vertex-grid clustering) at the same relative error.
 * Only the levels of the viewer's methods are grouped by object row; the others' counts and errors do not
 * need it.
 * Timings are reported, never asserted.
 */
import { BufferAttribute, BufferGeometry, Vector3 } from 'three';
import { MeshBVH } from 'three-mesh-bvh';
import { MeshoptSimplifier } from 'meshoptimizer';
import { decodeChunkPositions, decodeScenePackage } from '../../engine/package/reader';
import type { SceneChunk } from '../../engine/package/types';
import { buildLodLevel, vertexFacing } from '../../engine/scene/lodCluster';
import { LOD_BASE_MM, LOD_KEEP_MAX, LOD_SIMPLIFY_MM, LOD_SLIVER } from '../../engine/scene/ChunkBatch';
import { simplifierLoaded, simplifyChunk } from '../../engine/scene/lodSimplify';
import { benchNow as now } from '../benchClock';
import type { BenchRow } from '../run';
import { prepareShip } from '../tools/toolsSuite';

type Row = BenchRow;

/** A level's triangles per chunk (indices into the chunk's vertices). */
type Level = Uint32Array[];
type Method = { name: string; build: (c: SceneChunk, world: Float32Array, cellMm: number) => Uint32Array };

/** The level ChunkBatch builds from `source` (the chunk or its simplified copy) for cells of `cell` mm. */
function clustered(source: SceneChunk, chunk: SceneChunk, cell: number): Uint32Array {
  return Uint32Array.from(buildLodLevel(source, vertexFacing(chunk), cell, LOD_SLIVER * cell).indices);
}

const METHODS: Method[] = [
  {
    name: 'vertex clustering (Keelson, sliver rule)',
    build: (c, _w, cell) => clustered(c, c, cell),
  },
  {
    name: 'meshoptimizer simplify, error ½ cell, Prune',
    build: (c, w, cell) =>
      MeshoptSimplifier.simplify(Uint32Array.from(c.indices), w, 3, 0, cell / 2, ['ErrorAbsolute', 'Prune'])[0],
  },
  {
    name: 'meshoptimizer simplify, error 1 cell, Prune',
    build: (c, w, cell) =>
      MeshoptSimplifier.simplify(Uint32Array.from(c.indices), w, 3, 0, cell, ['ErrorAbsolute', 'Prune'])[0],
  },
  {
    name: 'meshoptimizer simplify ½ cell, then vertex clustering',
    build: (c, _w, cell) => clustered(simplifyChunk(c, cell / 2)!, c, cell),
  },
  {
    name: `meshoptimizer simplify ${LOD_SIMPLIFY_MM} mm, then vertex clustering (Keelson)`,
    build: (c, _w, cell) => clustered(simplifyChunk(c, LOD_SIMPLIFY_MM)!, c, cell),
  },
  {
    name: 'meshoptimizer simplifySloppy, error 1 cell',
    build: (c, w, cell) =>
      MeshoptSimplifier.simplifySloppy(
        Uint32Array.from(c.indices),
        w,
        3,
        null,
        0,
        cell / MeshoptSimplifier.getScale(w, 3),
      )[0],
  },
];

function bvhOf(world: Float32Array, idx: Uint32Array): MeshBVH | null {
  if (!idx.length) return null;
  const g = new BufferGeometry();
  g.setAttribute('position', new BufferAttribute(world, 3));
  g.setIndex(new BufferAttribute(idx.slice(), 1));
  return new MeshBVH(g, { maxLeafSize: 10 });
}

/** Distances (mm) from every `step`-th triangle centroid of `from` to the surface of `to` (Infinity: none). */
function centroidDistances(
  world: Float32Array,
  from: Uint32Array,
  to: MeshBVH | null,
  step: number,
  out: number[],
): void {
  const p = new Vector3();
  for (let t = 0; t < from.length; t += 3 * step) {
    const a = from[t] * 3,
      b = from[t + 1] * 3,
      c = from[t + 2] * 3;
    p.set(
      (world[a] + world[b] + world[c]) / 3,
      (world[a + 1] + world[b + 1] + world[c + 1]) / 3,
      (world[a + 2] + world[b + 2] + world[c + 2]) / 3,
    );
    out.push(to ? to.closestPointToPoint(p)!.distance : Number.POSITIVE_INFINITY);
  }
}

function quantile(sorted: number[], q: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] : 0;
}

/** The rows of one ship: every method at levels 0..BENCH_LOD_LEVELS−1 (default 5). */
async function runSize(parts: number): Promise<Row[]> {
  const rows: Row[] = [];
  const { bytes } = await prepareShip(parts);
  const { chunks } = decodeScenePackage(bytes);
  const world = chunks.map((c) => decodeChunkPositions(c));
  const full = chunks.map((c) => Uint32Array.from(c.indices));
  const fullBvh = chunks.map((c, i) => bvhOf(world[i], full[i]));
  const triangles = chunks.reduce((n, c) => n + c.indices.length / 3, 0);
  const add = (c: string, value: number, unit: string) =>
    rows.push({ suite: 'lod', case: `${parts} parts: ${c}`, value, unit });
  add('triangles (full detail)', triangles, 'tris');
  // About 40,000 error samples per direction and level.
  const step = Math.max(1, Math.round(triangles / 40000));
  const levels = Number(process.env.BENCH_LOD_LEVELS ?? 5);
  for (let l = 0; l < levels; l++) {
    const cell = LOD_BASE_MM * 2 ** l;
    for (const m of METHODS) {
      const times: number[] = [];
      let level: Level = [];
      for (let rep = 0; rep < 3; rep++) {
        const t = now();
        level = chunks.map((c, i) => m.build(c, world[i], cell));
        times.push(now() - t);
      }
      times.sort((a, b) => a - b);
      let kept = 0,
        drawn = 0,
        used = 0;
      const err: number[] = [];
      chunks.forEach((c, i) => {
        const n = level[i].length / 3;
        kept += n;
        const use = n <= LOD_KEEP_MAX * (c.indices.length / 3);
        if (use) used++;
        drawn += use ? n : c.indices.length / 3;
        centroidDistances(world[i], full[i], bvhOf(world[i], level[i]), step, err);
        centroidDistances(world[i], level[i], fullBvh[i], step, err);
      });
      err.sort((a, b) => a - b);
      const tag = `level ${l} (${cell} mm): ${m.name}:`;
      add(`${tag} build, every chunk (median of 3)`, times[1], 'ms');
      add(`${tag} triangles kept`, (100 * kept) / triangles, '%');
      add(`${tag} chunks using the level (≤ ${LOD_KEEP_MAX * 100} % kept)`, used, `of ${chunks.length}`);
      add(`${tag} triangles drawn with the level where used`, (100 * drawn) / triangles, '%');
      add(`${tag} error p50`, quantile(err, 0.5) / cell, 'cells');
      add(`${tag} error p99`, quantile(err, 0.99) / cell, 'cells');
      add(`${tag} error max`, quantile(err, 1) / cell, 'cells');
      console.error(
        `lod ${parts} L${l} ${m.name}: ${times[1].toFixed(0)} ms, kept ${((100 * kept) / triangles).toFixed(1)} %, drawn ${((100 * drawn) / triangles).toFixed(1)} % (${used}/${chunks.length}), error p50 ${(quantile(err, 0.5) / cell).toFixed(3)} p99 ${(quantile(err, 0.99) / cell).toFixed(2)} max ${(quantile(err, 1) / cell).toFixed(1)} cells`,
      );
    }
  }
  return rows;
}

/** The `lod` suite (see the file's comment). */
export async function lodSuite(): Promise<Row[]> {
  if (!(await simplifierLoaded)) throw new Error('lod bench: meshoptimizer did not load');
  const sizes = (process.env.BENCH_SIZES ?? '10000').split(',').map(Number);
  const rows: Row[] = [];
  for (const n of sizes) rows.push(...(await runSize(n)));
  return rows;
}
