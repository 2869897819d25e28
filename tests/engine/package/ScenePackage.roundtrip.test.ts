import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Box3Tuple, PartMesh } from '../../../engine/model/types';
import { emptyBox, growBox } from '../../../engine/model/types';
import { concatFrames, encodeScenePackage } from '../../../engine/package/writer';
import {
  ScenePackageReader,
  decodeChunkEdges,
  decodeChunkPositions,
  decodeScenePackage,
} from '../../../engine/package/reader';
import type { SceneEvent } from '../../../engine/package/types';

const coord = fc.float({ min: -200_000, max: 200_000, noNaN: true, noDefaultInfinity: true });

/** A random part: V vertices, T triangles over them, optional edges. */
const meshArb = (objectCount: number) =>
  fc
    .record({
      object: fc.integer({ min: 0, max: objectCount - 1 }),
      vertices: fc.array(fc.tuple(coord, coord, coord), { minLength: 3, maxLength: 40 }),
      triCount: fc.integer({ min: 0, max: 30 }),
      seed: fc.integer({ min: 0, max: 1e6 }),
      edges: fc.option(fc.array(fc.tuple(coord, coord, coord, coord, coord, coord), { maxLength: 8 })),
      withNormals: fc.boolean(),
    })
    .map((r): PartMesh => {
      const v = r.vertices.length;
      const indices = new Uint32Array(r.triCount * 3);
      let s = r.seed;
      for (let i = 0; i < indices.length; i++) indices[i] = (s = (s * 1103515245 + 12345) % 2147483648) % v;
      const normals = r.withNormals ? new Float32Array(v * 3).map((_, i) => (i % 3 === 2 ? 1 : 0)) : null;
      return {
        object: r.object,
        positions: Float32Array.from(r.vertices.flat()),
        normals,
        indices,
        edges: r.edges ? Float32Array.from(r.edges.flat()) : null,
      };
    });

function boundsOf(meshes: PartMesh[]): Box3Tuple {
  const b = emptyBox();
  for (const m of meshes) {
    growBox(b, m.positions);
    if (m.edges) growBox(b, m.edges);
  }
  return b;
}

/** Splits bytes at the given cut points and feeds them one by one. */
function readSplit(bytes: Uint8Array, cuts: number[]): SceneEvent[] {
  const reader = new ScenePackageReader();
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const events: SceneEvent[] = [];
  let prev = 0;
  for (const p of [...points, bytes.length]) {
    events.push(...reader.push(bytes.subarray(prev, p)));
    prev = p;
  }
  reader.end();
  return events;
}

/** Allowed decoding error on one axis: half a quantum is the ideal, a full quantum plus Float32 rounding is the bound. */
function tolerance(box: Box3Tuple, axis: number, v: number): number {
  return (box[axis + 3] - box[axis]) / 65535 + Math.abs(v) * 2 ** -22 + 1e-9;
}

describe('scene package round trip', () => {
  it('keeps every triangle, object and edge within the quantisation error, for any split of the bytes', () => {
    fc.assert(
      fc.property(
        fc.array(meshArb(12), { minLength: 0, maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        fc.integer({ min: 3, max: 200 }),
        (meshes, cuts, maxChunkTriangles) => {
          const bounds = boundsOf(meshes);
          const frames = encodeScenePackage(
            meshes,
            { bounds, objectCount: 12, tolerances: { chordalMm: 1, angularDeg: 15 } },
            { maxChunkTriangles, maxChunkVertices: 60 },
          );
          const bytes = concatFrames(frames);
          const events = readSplit(bytes, cuts);
          expect(events[0].type).toBe('header');
          const header = (events[0] as Extract<SceneEvent, { type: 'header' }>).header;
          const chunks = events.slice(1).map((e) => (e as Extract<SceneEvent, { type: 'chunk' }>).chunk);
          expect(chunks.length).toBe(header.chunkCount);
          expect(chunks.map((c) => c.index)).toEqual(chunks.map((_, i) => i));
          expect(header.objectCount).toBe(12);
          const triTotal = meshes.reduce((n, m) => n + m.indices.length / 3, 0);
          const edgeTotal = meshes.reduce((n, m) => n + (m.edges ? m.edges.length / 6 : 0), 0);
          expect(header.triangleCount).toBe(triTotal);
          expect(header.edgeCount).toBe(edgeTotal);

          // Per object: the decoded triangles match the originals vertex by vertex, in order.
          for (let obj = 0; obj < 12; obj++) {
            const originalTris: number[][] = [];
            const originalEdges: number[] = [];
            for (const m of meshes.filter((m) => m.object === obj)) {
              for (let t = 0; t < m.indices.length; t++)
                originalTris.push(Array.from(m.positions.subarray(m.indices[t] * 3, m.indices[t] * 3 + 3)));
              if (m.edges) originalEdges.push(...m.edges);
            }
            const decodedTris: { p: number[]; box: Box3Tuple }[] = [];
            const decodedEdges: { v: number; box: Box3Tuple }[] = [];
            for (const c of chunks) {
              const pos = decodeChunkPositions(c);
              for (let r = 0; r < c.objects.length; r += 5) {
                if (c.objects[r] !== obj) continue;
                const [, vs, vc, is, ic] = c.objects.subarray(r, r + 5);
                for (let k = is; k < is + ic; k++) {
                  expect(c.indices[k]).toBeGreaterThanOrEqual(vs);
                  expect(c.indices[k]).toBeLessThan(vs + vc);
                  decodedTris.push({
                    p: Array.from(pos.subarray(c.indices[k] * 3, c.indices[k] * 3 + 3)),
                    box: c.bounds,
                  });
                }
              }
              const ed = decodeChunkEdges(c);
              // With the chunk's positions passed in (the section index's way): the same segments.
              expect(decodeChunkEdges(c, pos)).toEqual(ed);
              for (let r = 0; r < c.edgeObjects.length; r += 3) {
                if (c.edgeObjects[r] !== obj) continue;
                const [, es, ec] = c.edgeObjects.subarray(r, r + 3);
                for (let k = es * 6; k < (es + ec) * 6; k++) decodedEdges.push({ v: ed[k], box: c.bounds });
              }
            }
            expect(decodedTris.length).toBe(originalTris.length);
            // Pieces of a split part may stream in any chunk order, so compare triangles as sets both
            // ways (counts are equal above): every decoded triangle is near an original and vice versa.
            const near = (d: number, o: number) =>
              [0, 1, 2].every((k) =>
                [0, 1, 2].every(
                  (a) =>
                    Math.abs(decodedTris[d + k].p[a] - originalTris[o + k][a]) <=
                    tolerance(decodedTris[d + k].box, a, originalTris[o + k][a]),
                ),
              );
            const starts = (n: number) => Array.from({ length: n / 3 }, (_, i) => i * 3);
            for (const d of starts(decodedTris.length))
              expect(
                starts(originalTris.length).some((o) => near(d, o)),
                `decoded triangle ${d / 3} of object ${obj}`,
              ).toBe(true);
            for (const o of starts(originalTris.length))
              expect(
                starts(decodedTris.length).some((d) => near(d, o)),
                `original triangle ${o / 3} of object ${obj}`,
              ).toBe(true);
            expect(decodedEdges.length).toBe(originalEdges.length);
            // Edges of a split part may also stream in any chunk order: compare segments as sets both ways.
            const nearEdge = (d: number, o: number) =>
              Array.from({ length: 6 }, (_, k) => k).every(
                (k) =>
                  Math.abs(decodedEdges[d + k].v - originalEdges[o + k]) <=
                  tolerance(decodedEdges[d + k].box, k % 3, originalEdges[o + k]),
              );
            const segStarts = (n: number) => Array.from({ length: n / 6 }, (_, i) => i * 6);
            for (const d of segStarts(decodedEdges.length))
              expect(
                segStarts(originalEdges.length).some((o) => nearEdge(d, o)),
                `decoded edge ${d / 6} of object ${obj}`,
              ).toBe(true);
            for (const o of segStarts(originalEdges.length))
              expect(
                segStarts(decodedEdges.length).some((d) => nearEdge(d, o)),
                `original edge ${o / 6} of object ${obj}`,
              ).toBe(true);
          }
          for (const c of chunks) {
            expect(c.positions.length / 3).toBeLessThanOrEqual(60);
            expect(c.indices.length / 3).toBeLessThanOrEqual(maxChunkTriangles);
            // Each object appears at most once per chunk, so its geometry is contiguous.
            const objs = Array.from({ length: c.objects.length / 5 }, (_, i) => c.objects[i * 5]);
            expect(new Set(objs).size).toBe(objs.length);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('welds a box to 8 shared vertices, indexes its edges into them and stays within 16 bytes per triangle', () => {
    const part = box(0, 0, 0, 0, 1000);
    // A flat-shaded box as the importer writes it: 4 vertices per face, 24 in all, and 12 edges.
    const positions: number[] = [],
      indices: number[] = [];
    for (let t = 0; t < part.indices.length; t += 6) {
      const quad = [part.indices[t], part.indices[t + 1], part.indices[t + 2], part.indices[t + 5]];
      const base = positions.length / 3;
      for (const q of quad) positions.push(...part.positions.subarray(q * 3, q * 3 + 3));
      indices.push(base, base + 1, base + 2, base, base + 2, base + 3);
    }
    const c = (i: number) => [i & 1 ? 1000 : 0, i & 2 ? 1000 : 0, i & 4 ? 1000 : 0];
    const edges = [
      [0, 1],
      [2, 3],
      [4, 5],
      [6, 7],
      [0, 2],
      [1, 3],
      [4, 6],
      [5, 7],
      [0, 4],
      [1, 5],
      [2, 6],
      [3, 7],
    ].flatMap(([a, b]) => [...c(a), ...c(b)]);
    const bytes = concatFrames(
      encodeScenePackage(
        [
          {
            object: 0,
            positions: Float32Array.from(positions),
            normals: null,
            indices: Uint32Array.from(indices),
            edges: Float32Array.from(edges),
          },
        ],
        { bounds: [0, 0, 0, 1000, 1000, 1000], objectCount: 1, tolerances: { chordalMm: 1, angularDeg: 15 } },
      ),
    );
    const { header, chunks } = decodeScenePackage(bytes);
    expect(header.version).toBe(2);
    const ch = chunks[0];
    expect(ch.positions.length / 3).toBe(8);
    expect(ch.indices).toBeInstanceOf(Uint16Array);
    expect(ch.edges.length / 2).toBe(12);
    expect(Array.from(ch.objects)).toEqual([0, 0, 8, 0, 36]);
    // GPU bytes: positions 6 + slot 2 per vertex, 6 per triangle, 4 per edge.
    const gpu = 8 * 8 + 12 * 6 + 12 * 4;
    expect(gpu / 12).toBeLessThanOrEqual(16);
    const segs = decodeChunkEdges(ch);
    expect(Array.from(segs.subarray(0, 6))).toEqual([0, 0, 0, 1000, 0, 0]);
  });

  it('gives an edge end that is no triangle corner a vertex of its own', () => {
    const bytes = concatFrames(
      encodeScenePackage(
        [
          {
            object: 0,
            positions: Float32Array.from([0, 0, 0, 1000, 0, 0, 0, 1000, 0]),
            normals: null,
            indices: Uint32Array.from([0, 1, 2]),
            edges: Float32Array.from([0, 0, 0, 500, 500, 0]),
          },
        ],
        { bounds: [0, 0, 0, 1000, 1000, 0], objectCount: 1, tolerances: { chordalMm: 1, angularDeg: 15 } },
      ),
    );
    const ch = decodeScenePackage(bytes).chunks[0];
    expect(ch.positions.length / 3).toBe(4);
    expect(Array.from(ch.edges)).toEqual([0, 3]);
    expect(Array.from(decodeChunkEdges(ch).subarray(3, 6)).map((v) => Math.round(v))).toEqual([500, 500, 0]);
  });
});

function box(object: number, x: number, y: number, z: number, size: number): PartMesh {
  const p: number[] = [];
  for (let i = 0; i < 8; i++) p.push(x + (i & 1 ? size : 0), y + (i & 2 ? size : 0), z + (i & 4 ? size : 0));
  const f = [
    0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1, 2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4, 1, 5, 7, 1, 7, 3,
  ];
  return { object, positions: Float32Array.from(p), normals: null, indices: Uint32Array.from(f), edges: null };
}

describe('chunking', () => {
  it('splits a part that alone exceeds the limit by triangles, keeping its object index', () => {
    const n = 50; // a strip of 2n triangles
    const positions = new Float32Array((n + 1) * 2 * 3);
    for (let i = 0; i <= n; i++) positions.set([i * 100, 0, 0, i * 100, 100, 0], i * 6);
    const indices: number[] = [];
    for (let i = 0; i < n; i++) indices.push(2 * i, 2 * i + 2, 2 * i + 1, 2 * i + 1, 2 * i + 2, 2 * i + 3);
    const mesh: PartMesh = { object: 3, positions, normals: null, indices: Uint32Array.from(indices), edges: null };
    const { header, chunks } = decodeScenePackage(
      concatFrames(
        encodeScenePackage(
          [mesh],
          { bounds: [0, 0, 0, n * 100, 100, 0], objectCount: 4, tolerances: { chordalMm: 1, angularDeg: 15 } },
          { maxChunkTriangles: 16 },
        ),
      ),
    );
    expect(chunks.length).toBe(Math.ceil((2 * n) / 16));
    expect(header.triangleCount).toBe(2 * n);
    for (const c of chunks) {
      expect(c.objects.length).toBe(5);
      expect(c.objects[0]).toBe(3);
      expect(c.indices.length / 3).toBeLessThanOrEqual(16);
    }
  });

  it('keeps parts whole, groups neighbours and streams large central geometry first', () => {
    const meshes: PartMesh[] = [];
    // 40 small boxes spread along X, and one big box in the middle.
    for (let i = 0; i < 40; i++) meshes.push(box(i, i * 1000, 0, 0, 10));
    meshes.push(box(40, 15_000, 0, 0, 8000));
    const bounds = boundsOf(meshes);
    const { chunks } = decodeScenePackage(
      concatFrames(
        encodeScenePackage(
          meshes,
          { bounds, objectCount: 41, tolerances: { chordalMm: 1, angularDeg: 15 } },
          { maxChunkTriangles: 60 },
        ),
      ),
    );
    expect(chunks.length).toBeGreaterThan(1);
    expect(Array.from(chunks[0].objects.filter((_, i) => i % 5 === 0))).toContain(40);
    const seen = new Map<number, number>();
    for (const c of chunks)
      for (let r = 0; r < c.objects.length; r += 5) seen.set(c.objects[r], (seen.get(c.objects[r]) ?? 0) + 1);
    expect(seen.size).toBe(41);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    // Spatial grouping: each chunk of small boxes covers a contiguous run along X (≤ 5 boxes of 12 triangles).
    for (const c of chunks.slice(1)) {
      const objs = Array.from(c.objects.filter((_, i) => i % 5 === 0)).sort((a, b) => a - b);
      expect(objs[objs.length - 1] - objs[0]).toBe(objs.length - 1);
    }
  });
});
