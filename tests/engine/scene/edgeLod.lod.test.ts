/**
 * Edge level of detail (engine/scene/edgeLod.ts) on real and generated ship geometry, imported and
 * packaged as the server does: a level keeps a subset of each object row's own segments, drops only
 * segments inside one cell or repeating a kept segment's pair of (cell, facing) classes, keeps the size
 * prefixes, and the chunk draws it (as line strips) in the still frame (ModelScene.cull) but the full edges while
 * clipping.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { BufferAttribute, Line, LineBasicMaterial } from 'three';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importOcxFile } from '../../../engine/node/ocx/importFile';
import { decodeScenePackage } from '../../../engine/package/reader';
import type { SceneChunk } from '../../../engine/package/types';
import { concatFrames, encodeScenePackage } from '../../../engine/package/writer';
import { ChunkBatch } from '../../../engine/scene/ChunkBatch';
import { createStateUniforms } from '../../../engine/scene/chunkMaterial';
import { buildEdgeLodLevel, ChunkEdgeOrder, EDGE_LOD_KEEP_MAX } from '../../../engine/scene/edgeLod';
import { drawnSegments } from '../../../engine/scene/edgeStrips';
import { vertexFacing } from '../../../engine/scene/lodCluster';
import { orderChunkBySize, type SizeOrder } from '../../../engine/scene/sizeOrder';
import { writeShipOcx } from '../../../tools/generator';

/** The model's chunks, each in size order (as ChunkBatch keeps them), with their prefix tables. */
async function chunksOf(file: string): Promise<{ chunk: SceneChunk; order: SizeOrder }[]> {
  const model = await importOcxFile(file, { threads: 0 });
  const bytes = concatFrames(
    encodeScenePackage(model.meshes, {
      bounds: model.info.bounds,
      objectCount: model.objects.length,
      tolerances: model.info.tolerances,
    }),
  );
  return decodeScenePackage(bytes).chunks.map((chunk) => ({ chunk, order: orderChunkBySize(chunk) }));
}

/** Checks the level's invariants against the chunk's full edges; returns [kept, total] segments. */
function checkLevel({ chunk, order }: { chunk: SceneChunk; order: SizeOrder }, cellMm: number): [number, number] {
  const facing = vertexFacing(chunk);
  const lv = buildEdgeLodLevel(chunk, order, facing, cellMm);
  const q = chunk.positions,
    b = chunk.bounds;
  const cq = [0, 1, 2].map((a) => (b[a + 3] > b[a] ? Math.max(1, (cellMm * 65535) / (b[a + 3] - b[a])) : 65536));
  const cls = (v: number, withFacing: boolean) =>
    `${[0, 1, 2].map((a) => Math.floor(q[v * 3 + a] / cq[a])).join(',')}${withFacing ? `/${facing[v]}` : ''}`;
  const pairKey = (a: number, c: number) => [cls(a, true), cls(c, true)].sort().join('|');
  expect(lv.edgeEnd.length).toBe(order.edgeEnd.length);
  let kept = 0;
  for (let r = 0, s = 0, k = 0; r < order.edgeEnd.length; r++) {
    expect(lv.edgeEnd[r]).toBeGreaterThanOrEqual(k);
    // The row's kept segments: its own, in order, never inside one cell, never two for one pair of classes.
    const own = new Set<string>();
    for (let e = s; e < order.edgeEnd[r]; e += 2) own.add(`${chunk.edges[e]},${chunk.edges[e + 1]}`);
    const keptPairs = new Set<string>();
    for (; k < lv.edgeEnd[r]; k += 2) {
      const a = lv.indices[k],
        c = lv.indices[k + 1];
      expect(own.has(`${a},${c}`)).toBe(true);
      expect(cls(a, false)).not.toBe(cls(c, false));
      const key = pairKey(a, c);
      expect(keptPairs.has(key)).toBe(false);
      keptPairs.add(key);
      kept++;
    }
    // Every dropped segment lies inside one cell or repeats a kept segment's pair of classes.
    for (; s < order.edgeEnd[r]; s += 2) {
      const a = chunk.edges[s],
        c = chunk.edges[s + 1];
      if (cls(a, false) !== cls(c, false)) expect(keptPairs.has(pairKey(a, c))).toBe(true);
    }
  }
  return [kept, order.edgeEnd.length > 0 ? order.edgeEnd[order.edgeEnd.length - 1] / 2 : 0];
}

describe('edge LOD levels', () => {
  let dir = '';
  let ship: { chunk: SceneChunk; order: SizeOrder }[] = [];
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'keelson-edgelod-'));
    const file = path.join(dir, 'ship.3docx');
    await writeShipOcx(file, { targetParts: 300, seed: 5 });
    ship = await chunksOf(file);
  }, 60_000);
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('keep a covering subset of each object row’s segments on a real OCX file (NAPA-OCX_M8)', async () => {
    const chunks = await chunksOf(path.resolve(__dirname, '../../../../shared/models/ocx/NAPA-OCX_M8.3docx'));
    let kept = 0,
      total = 0;
    for (const c of chunks) {
      const [k, t] = checkLevel(c, 100);
      kept += k;
      total += t;
    }
    expect(total).toBeGreaterThan(1000);
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(total);
  });

  it('thin out more with larger cells on a generated ship, and keep every distinct segment with tiny cells', () => {
    const [mid, total] = ship.map((c) => checkLevel(c, 50)).reduce((s, [k, t]) => [s[0] + k, s[1] + t], [0, 0]);
    const count = (cell: number) =>
      ship.reduce((n, c) => n + buildEdgeLodLevel(c.chunk, c.order, vertexFacing(c.chunk), cell).indices.length / 2, 0);
    const fine = count(0.001),
      coarse = count(200);
    expect(total).toBeGreaterThan(5_000);
    // With cells far below the quantum every distinct segment of a row stays.
    let distinct = 0;
    for (const { chunk: c, order: o } of ship) {
      for (let r = 0, s = 0; r < o.edgeEnd.length; r++) {
        const seen = new Set<string>();
        for (; s < o.edgeEnd[r]; s += 2) {
          const [a, b] = [c.edges[s], c.edges[s + 1]].sort((x, y) => x - y);
          if (a !== b) seen.add(`${a},${b}`);
        }
        distinct += seen.size;
      }
    }
    expect(fine).toBe(distinct);
    expect(mid).toBeLessThan(fine);
    expect(coarse).toBeLessThan(mid);
  });

  it('a chunk rewrites its one edge buffer for a level: the level as a prefix, full edges copied back for finer views', () => {
    const { chunk, order } = ship.reduce((a, c) => (c.chunk.edges.length > a.chunk.edges.length ? c : a));
    const position = new BufferAttribute(chunk.positions, 3);
    const edges = new ChunkEdgeOrder(chunk, order, position, new LineBasicMaterial(), (l) => 25 * 2 ** l);
    expect(edges.strips).toBe(true);
    expect(edges.lines).toBeInstanceOf(Line);
    const g = edges.lines.geometry;
    const rows = order.edgeEnd.length;
    const length = edges.index.length;
    /** The distinct segments drawn (unordered pairs). */
    const drawn = () => [...new Set(drawnSegments(edges.index, g.drawRange.start, g.drawRange.count, true))].sort();
    const distinct = (pairs: ArrayLike<number>, from: number, to: number) =>
      [...new Set(drawnSegments(pairs, from, to, false))].sort();
    const original = (r: number) => distinct(chunk.edges, 0, order.edgeEnd[r]);
    const facing = () => vertexFacing(chunk);
    // Not rewritten yet: the full edges, and the level still to come.
    expect(edges.select(2, rows, false, facing)).toBe(true);
    expect(drawn()).toEqual(original(rows - 1));
    // Rewritten: the level's segments in row order, a prefix of the same buffer.
    const version = g.getIndex()!.version;
    expect(edges.select(2, rows, true, facing)).toBe(false);
    expect(g.getIndex()!.version).toBeGreaterThan(version);
    const level = buildEdgeLodLevel(chunk, order, vertexFacing(chunk), 100);
    /** The level's segments of rows 0..r, and at most a few of the rows' other segments (thinStrips' bridges). */
    const isLevel = (r: number) => {
      const got = new Set(drawn());
      const want = distinct(level.indices, 0, level.edgeEnd[r]);
      for (const k of want) expect(got.has(k)).toBe(true);
      const all = new Set(original(r));
      for (const k of got) expect(all.has(k)).toBe(true);
      expect(got.size - want.length).toBeLessThanOrEqual(0.05 * want.length);
    };
    isLevel(rows - 1);
    expect(level.indices.length).toBeLessThan(order.edgeEnd[rows - 1]);
    expect(edges.index.length).toBe(length);
    // A size prefix of the rows: the level's segments of those rows.
    const half = Math.max(1, rows >> 1);
    edges.select(2, half, true, facing);
    isLevel(half - 1);
    // A finer view before building its level, or clipping (-1): exactly the rows' full edges again.
    expect(edges.select(1, half, false, facing)).toBe(true);
    expect(drawn()).toEqual(original(half - 1));
    expect(edges.select(-1, rows, true, facing)).toBe(false);
    expect(drawn()).toEqual(original(rows - 1));
    // A coarser view may draw the finer level held.
    edges.select(2, rows, true, facing);
    expect(edges.select(3, rows, false, facing)).toBe(true);
    isLevel(rows - 1);
    // Sub-quantum cells keep (almost) everything: no rewrite, full edges, nothing pending.
    const tiny = new ChunkEdgeOrder(chunk, order, position, new LineBasicMaterial(), () => 0.001);
    expect(tiny.select(0, rows, true, facing)).toBe(false);
    expect([...new Set(drawnSegments(tiny.index, 0, tiny.lines.geometry.drawRange.count, true))].sort()).toEqual(
      original(rows - 1),
    );
    expect(EDGE_LOD_KEEP_MAX).toBeLessThan(1);
    edges.dispose();
    tiny.dispose();
  });

  it('the chunk batch draws the level in a still frame and the full edges while clipping, with no extra byte', () => {
    const { chunk } = ship.reduce((a, c) => (c.chunk.edges.length > a.chunk.edges.length ? c : a));
    const copy: SceneChunk = {
      ...chunk,
      positions: chunk.positions.slice(),
      indices: chunk.indices.slice(),
      objects: chunk.objects.slice(),
      edges: chunk.edges.slice(),
      edgeObjects: chunk.edgeObjects.slice(),
    };
    const batch = new ChunkBatch(copy, createStateUniforms());
    const bytes = batch.geometryBytes;
    const packageOrder = copy.edges.slice();
    const index = batch.edges!.geometry.getIndex()!;
    const full = index.array.length;
    const d = batch.setDetail(0, 0, 2, true);
    expect(d.pending).toBe(false);
    expect(batch.edges!.geometry.drawRange.count).toBeLessThan(full);
    batch.setDetail(0, 0, -1, true);
    expect(batch.edges!.geometry.drawRange.count).toBe(full);
    expect(batch.geometryBytes).toBe(bytes);
    expect(batch.edges!.geometry.getIndex()).toBe(index);
    expect(index.array.length).toBe(full);
    // Snapping's segment numbers still refer to the package order.
    expect(copy.edges).toEqual(packageOrder);
    expect(index.array).not.toBe(copy.edges);
    batch.dispose();
  });
});
