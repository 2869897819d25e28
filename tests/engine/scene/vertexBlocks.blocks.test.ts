/**
 * Object ranges on whole vertex blocks (engine/scene/vertexBlocks.ts), which replaced the per-vertex
 * object slot: on a real OCX model's package and on random chunks (rows in any order, empty rows, rows of
 * any length), every triangle and edge keeps its corners' positions and object, every vertex of a row
 * finds the row's object through the block table, and a chunk near 65,536 vertices takes smaller blocks.
 */
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { importOcxFile } from '../../../engine/node/ocx/importFile';
import type { SceneChunk } from '../../../engine/package/types';
import { concatFrames, encodeScenePackage } from '../../../engine/package/writer';
import { decodeScenePackage } from '../../../engine/package/reader';
import {
  alignObjectVertices,
  blockTextureSize,
  objectAtVertex,
  VERTEX_BLOCK,
  vertexBlockBytes,
  vertexBlockTexture,
} from '../../../engine/scene/vertexBlocks';

const MODEL = path.resolve(__dirname, '../../../../shared/models/ocx/NAPA-OCX_M8.3docx');

/** Per row: its object and the quantised corners of its triangles and edges, in order. */
function rowGeometry(c: SceneChunk): string[] {
  const p = (v: number) => `${c.positions[v * 3]},${c.positions[v * 3 + 1]},${c.positions[v * 3 + 2]}`;
  const out: string[] = [];
  for (let r = 0; r < c.objects.length; r += 5) {
    const [obj, , , i0, ic] = c.objects.subarray(r, r + 5);
    out.push(`${obj}:${Array.from(c.indices.subarray(i0, i0 + ic), p).join(' ')}`);
  }
  for (let k = 0; k < c.edges.length; k++) out.push(p(c.edges[k]));
  return out;
}

/** Checks the aligned chunk against its copy from before. */
function expectAligned(before: string[], c: SceneChunk, size: number, blocks: ReturnType<typeof alignObjectVertices>) {
  expect(blocks.size).toBe(size);
  expect(rowGeometry(c)).toEqual(before);
  expect(c.positions.length / 3).toBeLessThanOrEqual(65536);
  const wrong: string[] = [];
  for (let r = 0; r < c.objects.length; r += 5) {
    const [obj, v0, vc] = c.objects.subarray(r, r + 3);
    if (vc === 0) continue;
    if (v0 % size !== 0) wrong.push(`row ${r / 5} starts at ${v0}`);
    for (let v = v0; v < v0 + vc; v++)
      if (objectAtVertex(blocks, v) !== obj) wrong.push(`vertex ${v}: ${objectAtVertex(blocks, v)} ≠ ${obj}`);
  }
  expect(wrong.slice(0, 5)).toEqual([]);
}

/** A chunk of rows with the given vertex counts (each row: a fan of triangles and a ring of edges over its vertices). */
function chunkOf(counts: number[], order: number[]): SceneChunk {
  const objects: number[] = [],
    indices: number[] = [],
    edges: number[] = [];
  let v = 0;
  const rows = counts.map((n, i) => {
    const row = [100 + i, v, n, indices.length, 0];
    for (let k = 1; k + 1 < n; k++) indices.push(v, v + k, v + k + 1);
    for (let k = 0; k + 1 < n; k++) edges.push(v + k, v + k + 1);
    row[4] = indices.length - row[3];
    v += n;
    return row;
  });
  for (let i = 0; i < order.length && rows.length > 1; i++) {
    const j = order[i] % rows.length;
    [rows[0], rows[j]] = [rows[j], rows[0]];
  }
  for (const r of rows) objects.push(...r);
  const positions = new Uint16Array(v * 3);
  for (let k = 0; k < positions.length; k++) positions[k] = (k * 7919) % 65536;
  return {
    index: 0,
    bounds: [0, 0, 0, 1, 1, 1],
    positions,
    indices: new Uint16Array(indices),
    objects: new Uint32Array(objects),
    edges: new Uint16Array(edges),
    edgeObjects: new Uint32Array(0),
  };
}

describe('vertex blocks', () => {
  it('keep every triangle and edge of a real model and find each vertex its object', async () => {
    const model = await importOcxFile(MODEL);
    const bytes = concatFrames(
      encodeScenePackage(model.meshes, {
        bounds: model.info.bounds,
        objectCount: model.objects.length,
        tolerances: model.info.tolerances,
      }),
    );
    const { chunks } = decodeScenePackage(bytes);
    let padded = 0,
      vertices = 0;
    for (const c of chunks) {
      const before = rowGeometry(c);
      vertices += c.positions.length / 3;
      const blocks = alignObjectVertices(c);
      padded += c.positions.length / 3;
      expectAligned(before, c, VERTEX_BLOCK, blocks);
      // A real chunk's objects are neighbours: 2 bytes a block, rows filled but for fewer texels than rows.
      expect(blocks.objects).toBeInstanceOf(Uint16Array);
      const { height } = blockTextureSize(blocks.objects.length);
      expect(vertexBlockBytes(blocks)).toBeGreaterThanOrEqual(2 * blocks.objects.length);
      expect(vertexBlockBytes(blocks)).toBeLessThan(2 * (blocks.objects.length + height));
    }
    expect(vertices).toBeGreaterThan(1000);
    // Padding stays a small share of the vertices.
    expect(padded / vertices).toBeLessThan(1.2);
  });

  it('keep random chunks whole, rows in any order, empty rows included', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        (counts, order) => {
          const c = chunkOf(counts, order);
          const before = rowGeometry(c);
          expectAligned(before, c, VERTEX_BLOCK, alignObjectVertices(c));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('store blocks as 16-bit offsets from the smallest object, 32-bit when the objects span 65,535 or more', () => {
    for (const [first, last, wide] of [
      [70000, 70000 + 65534, false],
      [5, 5 + 65535, true],
    ] as const) {
      const c = chunkOf([10, 3, 9], [1]);
      c.objects[0] = first;
      c.objects[5] = last;
      c.objects[10] = first + 7;
      const blocks = alignObjectVertices(c);
      expect(blocks.base).toBe(first);
      expect(blocks.objects).toBeInstanceOf(wide ? Uint32Array : Uint16Array);
      expectAligned(rowGeometry(c), c, VERTEX_BLOCK, blocks);
      // The texture holds exactly the table (the shader adds the base) in the matching integer format.
      const t = vertexBlockTexture(blocks);
      expect(t.internalFormat).toBe(wide ? 'R32UI' : 'R16UI');
      expect(Array.from((t.image.data as Uint16Array).subarray(0, blocks.objects.length))).toEqual(
        Array.from(blocks.objects),
      );
      expect(vertexBlockBytes(blocks)).toBe(blocks.objects.length * (wide ? 4 : 2));
    }
  });

  it('lay the texture out in rows of at most 2,048 texels with less padding than rows', () => {
    for (const n of [1, 7, 2048, 2049, 4095, 6001, 8192, 20000]) {
      const { width, height } = blockTextureSize(n);
      expect(width).toBeLessThanOrEqual(2048);
      expect(width * height).toBeGreaterThanOrEqual(n);
      expect(width * height - n).toBeLessThan(height);
    }
  });

  it('take smaller blocks when padding to 8 would pass 65,536 vertices', () => {
    // 13,107 rows of 5 vertices = 65,535 vertices: blocks of 8 would need 104,856, of 1 none.
    const c = chunkOf(new Array(13107).fill(5), []);
    const before = rowGeometry(c);
    expectAligned(before, c, 1, alignObjectVertices(c));
    // 8,000 rows of 7 vertices: blocks of 8 fit (64,000).
    const d = chunkOf(new Array(8000).fill(7), [3, 17, 4000]);
    expectAligned(rowGeometry(d), d, 8, alignObjectVertices(d));
  });

  it('refuse overlapping ranges, ranges beyond the vertices and indices naming no vertex, naming the chunk', () => {
    const c = chunkOf([10, 10], []);
    c.objects[6] = 5;
    expect(() => alignObjectVertices(c)).toThrow(
      /Chunk 0: vertex ranges of objects 100 \(0\+10\) and 101 \(5\+10\) overlap/,
    );
    const d = chunkOf([10, 10], []);
    d.objects[2] = 30;
    expect(() => alignObjectVertices(d)).toThrow(/Chunk 0: object 100 range 0\+30 exceeds 20 vertices/);
    const e = chunkOf([3, 10], []);
    e.indices[2] = 40;
    const positions = e.positions;
    expect(() => alignObjectVertices(e)).toThrow(/Chunk 0: triangle index 2 names vertex 40 of 13/);
    expect(e.positions).toBe(positions);
  });
});
