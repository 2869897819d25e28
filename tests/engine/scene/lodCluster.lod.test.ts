import { describe, expect, it } from 'vitest';
import { decodeScenePackage } from '../../../engine/package/reader';
import { buildLodLevel, vertexFacing } from '../../../engine/scene/lodCluster';
import { lodLevelFor } from '../../../engine/scene/ModelScene';
import { LOD_BASE_MM } from '../../../engine/scene/ChunkBatch';
import { orderChunkBySize } from '../../../engine/scene/sizeOrder';
import { boxMesh, facingArea, gridPlate, packageBytes } from './sceneFixtures';

/** Triangles of a list without z-normal area (walls of the plate's rim). */
function countVertical(c: { positions: Uint16Array; bounds: ArrayLike<number> }, indices: ArrayLike<number>): number {
  let n = 0;
  for (let t = 0; t < indices.length; t += 3) {
    const one = [indices[t], indices[t + 1], indices[t + 2]];
    if (facingArea(c, one, 1) === 0 && facingArea(c, one, -1) === 0) n++;
  }
  return n;
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
  it('leaves out slivers narrower than asked (the plate rim), not the faces', () => {
    const chunk = decodeScenePackage(bytes).chunks[0];
    orderChunkBySize(chunk);
    const facing = vertexFacing(chunk);
    const plate = (lod: { indexEnd: Uint32Array }) => lod.indexEnd[0] / 3;
    const withRim = buildLodLevel(chunk, facing, 200);
    const noRim = buildLodLevel(chunk, facing, 200, 30);
    // The rim of the 10 mm plate: vertical triangles (no z-area) in the level without the sliver limit only.
    expect(countVertical(chunk, withRim.indices.subarray(0, withRim.indexEnd[0]))).toBeGreaterThan(0);
    expect(countVertical(chunk, noRim.indices.subarray(0, noRim.indexEnd[0]))).toBe(0);
    expect(plate(noRim)).toBeLessThan(plate(withRim));
    // The faces lose only the odd thin triangle of their clustered outline.
    for (const side of [1, -1] as const)
      expect(facingArea(chunk, noRim.indices, side)).toBeGreaterThan(0.99 * facingArea(chunk, withRim.indices, side));
    // The 50 mm box's triangles are 35 mm high (50 · 50 / 70.7): it keeps what it had, and loses them at 40 mm.
    expect(withRim.indexEnd[1] - withRim.indexEnd[0]).toBeGreaterThan(0);
    expect(noRim.indexEnd[1] - noRim.indexEnd[0]).toBe(withRim.indexEnd[1] - withRim.indexEnd[0]);
    const narrower = buildLodLevel(chunk, facing, 200, 40);
    expect(narrower.indexEnd[1] - narrower.indexEnd[0]).toBe(0);
    expect(() => buildLodLevel(chunk, facing, 200, -1)).toThrow('negative');
  });
  it('picks the coarsest level whose cell fits the pixel budget', () => {
    expect(lodLevelFor(LOD_BASE_MM - 1)).toBe(-1);
    expect(lodLevelFor(LOD_BASE_MM)).toBe(0);
    expect(lodLevelFor(LOD_BASE_MM * 5)).toBe(2);
  });
});
