import { describe, expect, it } from 'vitest';
import type { PartMesh } from '../../../engine/model/types';
import { decodeScenePackage } from '../../../engine/package/reader';
import { buildLodLevel, vertexFacing } from '../../../engine/scene/lodCluster';
import { lodLevelFor } from '../../../engine/scene/ModelScene';
import { LOD_BASE_MM } from '../../../engine/scene/ChunkBatch';
import { orderChunkBySize } from '../../../engine/scene/sizeOrder';
import { boxMesh, packageBytes } from './sceneFixtures';

/** A 2000 × 2000 × 10 mm plate: top and bottom faces as n × n grids (outward normals), rim as quads. */
function gridPlate(object: number, n: number): PartMesh {
  const pos: number[] = [],
    idx: number[] = [];
  const L = 2000,
    T = 10;
  const v = (i: number, j: number, z: number) => (pos.push((i / n) * L, (j / n) * L, z), pos.length / 3 - 1);
  const top: number[][] = [],
    bot: number[][] = [];
  for (let i = 0; i <= n; i++) {
    top.push([]);
    bot.push([]);
    for (let j = 0; j <= n; j++) {
      top[i].push(v(i, j, T));
      bot[i].push(v(i, j, 0));
    }
  }
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      idx.push(top[i][j], top[i + 1][j], top[i + 1][j + 1], top[i][j], top[i + 1][j + 1], top[i][j + 1]);
      idx.push(bot[i][j], bot[i + 1][j + 1], bot[i + 1][j], bot[i][j], bot[i][j + 1], bot[i + 1][j + 1]);
    }
  const ring: [number, number][] = [];
  for (let i = 0; i < n; i++) ring.push([i, 0]);
  for (let j = 0; j < n; j++) ring.push([n, j]);
  for (let i = n; i > 0; i--) ring.push([i, n]);
  for (let j = n; j > 0; j--) ring.push([0, j]);
  ring.forEach(([i, j], k) => {
    const [i2, j2] = ring[(k + 1) % ring.length];
    idx.push(bot[i][j], bot[i2][j2], top[i2][j2], bot[i][j], top[i2][j2], top[i][j]);
  });
  return {
    object,
    positions: new Float32Array(pos),
    normals: new Float32Array(pos.length),
    indices: new Uint32Array(idx),
    edges: new Float32Array(0),
  };
}

/** Sum of the signed z-normal areas of a triangle list (mm²): +top, −bottom. */
function facingArea(
  c: { positions: Uint16Array; bounds: ArrayLike<number> },
  indices: ArrayLike<number>,
  sign: 1 | -1,
): number {
  const s = [0, 1, 2].map((a) => (c.bounds[a + 3] > c.bounds[a] ? (c.bounds[a + 3] - c.bounds[a]) / 65535 : 1));
  let area = 0;
  for (let t = 0; t < indices.length; t += 3) {
    const p = [0, 1, 2].map((k) => [0, 1, 2].map((a) => c.positions[indices[t + k] * 3 + a] * s[a]));
    const nz = ((p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) - (p[1][1] - p[0][1]) * (p[2][0] - p[0][0])) / 2;
    if (nz * sign > 0) area += Math.abs(nz);
  }
  return area;
}

describe('LOD by vertex clustering', () => {
  const bytes = packageBytes([gridPlate(0, 40), boxMesh(1, [3000, 0, 0], [3050, 50, 50])], 2);
  it('reduces a finely meshed plate but keeps both of its faces whole, re-using the vertices of its own object', () => {
    const chunk = decodeScenePackage(bytes).chunks[0];
    orderChunkBySize(chunk);
    const facing = vertexFacing(chunk);
    const full = chunk.indices.length / 3;
    const lod = buildLodLevel(chunk, facing, 200);
    expect(lod.indices.length / 3).toBeLessThan(full / 8);
    expect(lod.indices.length).toBeGreaterThan(0);
    // Both faces still cover the plate's 2000 × 2000 mm outline (to a cell's rounding).
    expect(facingArea(chunk, lod.indices, 1)).toBeGreaterThan(0.8 * 2000 * 2000);
    expect(facingArea(chunk, lod.indices, -1)).toBeGreaterThan(0.8 * 2000 * 2000);
    // Row order (plate first, then the 50 mm box: never more triangles than it has) and prefixes.
    expect(chunk.objects[0]).toBe(0);
    expect(lod.indexEnd[1]).toBe(lod.indices.length);
    expect(lod.indexEnd[1] - lod.indexEnd[0]).toBeLessThanOrEqual(36);
    // Every LOD vertex is an existing vertex of the same object.
    const v0 = chunk.objects[1],
      vc = chunk.objects[2];
    for (const v of lod.indices.subarray(0, lod.indexEnd[0])) expect(v >= v0 && v < v0 + vc).toBe(true);
    expect(() => buildLodLevel(chunk, facing, 0)).toThrow('not positive');
  });
  it('picks the coarsest level whose cell fits the pixel budget', () => {
    expect(lodLevelFor(LOD_BASE_MM - 1)).toBe(-1);
    expect(lodLevelFor(LOD_BASE_MM)).toBe(0);
    expect(lodLevelFor(LOD_BASE_MM * 5)).toBe(2);
  });
});
