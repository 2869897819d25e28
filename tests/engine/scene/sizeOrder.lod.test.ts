import { describe, expect, it } from 'vitest';
import { decodeScenePackage } from '../../../engine/package/reader';
import type { SceneChunk } from '../../../engine/package/types';
import { orderChunkBySize, rowsAtLeast } from '../../../engine/scene/sizeOrder';
import { boxMesh, packageBytes } from './sceneFixtures';

/** World triangles of each object (sorted corner strings), from the chunk's current arrays. */
function trianglesByObject(c: SceneChunk): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (let r = 0; r < c.objects.length; r += 5) {
    const [obj, , , i0, ic] = c.objects.subarray(r, r + 5);
    const list = out.get(obj) ?? [];
    for (let i = i0; i < i0 + ic; i += 3) {
      list.push(
        [0, 1, 2]
          .map((k) => Array.from(c.positions.subarray(c.indices[i + k] * 3, c.indices[i + k] * 3 + 3)).join(','))
          .join('|'),
      );
    }
    out.set(obj, list.sort());
  }
  return out;
}

function edgesByObject(c: SceneChunk): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (let r = 0; r < c.edgeObjects.length; r += 3) {
    const [obj, s0, sc] = c.edgeObjects.subarray(r, r + 3);
    const list: string[] = [];
    for (let e = s0; e < s0 + sc; e++) list.push(`${c.edges[e * 2]}-${c.edges[e * 2 + 1]}`);
    out.set(obj, list.sort());
  }
  return out;
}

describe('size order of a chunk (small-object culling by draw range)', () => {
  // Three boxes in one chunk, written smallest first: diagonals 100·√3, 1000·√3, 4000·√3 mm.
  const bytes = packageBytes(
    [
      boxMesh(0, [0, 0, 0], [100, 100, 100]),
      boxMesh(1, [1000, 0, 0], [2000, 1000, 1000]),
      boxMesh(2, [3000, 0, 0], [7000, 4000, 4000]),
    ],
    3,
  );
  it('puts the largest object first and keeps every object its own triangles and edges', () => {
    const chunk = decodeScenePackage(bytes).chunks[0];
    const tris = trianglesByObject(chunk),
      edges = edgesByObject(chunk);
    const order = orderChunkBySize(chunk);
    expect([0, 1, 2].map((r) => chunk.objects[r * 5])).toEqual([2, 1, 0]);
    expect(order.sizes[0]).toBeCloseTo(4000 * Math.sqrt(3), -1);
    expect(order.sizes[2]).toBeCloseTo(100 * Math.sqrt(3), -1);
    expect(trianglesByObject(chunk)).toEqual(tris);
    expect(edgesByObject(chunk)).toEqual(edges);
    // Prefixes: 12 triangles (36 indices) and 12 edges (24 indices) per box.
    expect(Array.from(order.indexEnd)).toEqual([36, 72, 108]);
    expect(Array.from(order.edgeEnd)).toEqual([24, 48, 72]);
    // The first row's index range starts at 0, the next right after it.
    expect([chunk.objects[3], chunk.objects[8], chunk.objects[13]]).toEqual([0, 36, 72]);
  });
  it('counts the rows at or above a size', () => {
    const s = new Float64Array([500, 300, 300, 10]);
    expect(rowsAtLeast(s, 0)).toBe(4);
    expect(rowsAtLeast(s, 300)).toBe(3);
    expect(rowsAtLeast(s, 301)).toBe(1);
    expect(rowsAtLeast(s, 1000)).toBe(0);
  });
});
