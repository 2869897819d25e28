/**
 * The LOD levels' edge collapses (engine/scene/lodSimplify.ts, meshoptimizer's simplifier): a finely meshed
 * flat plate keeps its two faces whole with a handful of triangles, every kept triangle stays with its own
 * object's vertices and rows, and a ChunkBatch level draws fewer triangles than clustering alone does.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeScenePackage } from '../../../engine/package/reader';
import type { SceneChunk } from '../../../engine/package/types';
import { ChunkBatch, LOD_BASE_MM, LOD_SIMPLIFY_MM, LOD_SLIVER } from '../../../engine/scene/ChunkBatch';
import { createStateUniforms } from '../../../engine/scene/chunkMaterial';
import { buildLodLevel, vertexFacing } from '../../../engine/scene/lodCluster';
import { simplifierLoaded, simplifierReady, simplifyChunk } from '../../../engine/scene/lodSimplify';
import { orderChunkBySize } from '../../../engine/scene/sizeOrder';
import { boxMesh, facingArea, gridPlate, packageBytes } from './sceneFixtures';

/** A finely meshed plate and a box; with `coincident`, a coarser plate on exactly the same corners too. */
function chunkOf(coincident = false): SceneChunk {
  const meshes = [gridPlate(0, 40), boxMesh(1, [3000, 0, 0], [3050, 50, 50])];
  if (coincident) meshes.push(gridPlate(2, 8));
  const chunk = decodeScenePackage(packageBytes(meshes, meshes.length)).chunks[0];
  orderChunkBySize(chunk);
  return chunk;
}

describe('LOD edge collapses (meshoptimizer)', () => {
  beforeAll(async () => {
    expect(await simplifierLoaded).toBe(true);
  });

  it('collapses a finely meshed plate to a few triangles with both faces whole, each row on its own vertices', () => {
    expect(simplifierReady()).toBe(true);
    const chunk = chunkOf();
    const s = simplifyChunk(chunk, LOD_SIMPLIFY_MM)!;
    expect(s.positions).toBe(chunk.positions);
    expect(s.indices.length).toBeLessThan(chunk.indices.length / 20);
    const rows = chunk.objects.length / 5;
    let at = 0;
    for (let r = 0; r < rows; r++) {
      // Same object, same vertices; index ranges packed in row order.
      for (const k of [0, 1, 2]) expect(s.objects[r * 5 + k]).toBe(chunk.objects[r * 5 + k]);
      expect(s.objects[r * 5 + 3]).toBe(at);
      at += s.objects[r * 5 + 4];
      const v0 = s.objects[r * 5 + 1],
        v1 = v0 + s.objects[r * 5 + 2];
      const own = s.indices.subarray(s.objects[r * 5 + 3], at);
      expect(own.length).toBeGreaterThan(0);
      for (const v of own) expect(v >= v0 && v < v1).toBe(true);
      // Both faces of each plate (and the box's top and bottom) keep their whole area.
      const full = chunk.indices.subarray(
        chunk.objects[r * 5 + 3],
        chunk.objects[r * 5 + 3] + chunk.objects[r * 5 + 4],
      );
      for (const sign of [1, -1] as const)
        expect(facingArea(s, own, sign)).toBeCloseTo(facingArea(chunk, full, sign), -2);
    }
    expect(at).toBe(s.indices.length);
    // The box has nothing to collapse.
    const box = [...Array(rows).keys()].find((r) => chunk.objects[r * 5] === 1)!;
    expect(s.objects[box * 5 + 4]).toBe(chunk.objects[box * 5 + 4]);
  });

  it("keeps each object's triangles on its own vertices where two objects' vertices coincide", () => {
    const chunk = chunkOf(true);
    const s = simplifyChunk(chunk, LOD_SIMPLIFY_MM)!;
    expect(s.indices.length).toBeLessThan(chunk.indices.length);
    for (let r = 0; r < chunk.objects.length / 5; r++) {
      const v0 = s.objects[r * 5 + 1],
        v1 = v0 + s.objects[r * 5 + 2];
      for (const v of s.indices.subarray(s.objects[r * 5 + 3], s.objects[r * 5 + 3] + s.objects[r * 5 + 4]))
        expect(v >= v0 && v < v1).toBe(true);
    }
  });

  it('refuses an error bound that is not a positive number', () => {
    const chunk = chunkOf();
    for (const e of [0, -1, Number.NaN]) expect(() => simplifyChunk(chunk, e)).toThrow(/not positive/);
  });

  it('makes a ChunkBatch level draw fewer triangles than vertex clustering of the full mesh', () => {
    const chunk = chunkOf();
    const cell = LOD_BASE_MM * 2;
    const clusteredOnly = buildLodLevel(chunk, vertexFacing(chunk), cell, LOD_SLIVER * cell).indices.length / 3;
    const batch = new ChunkBatch(chunkOf(), createStateUniforms());
    const d = batch.setDetail(0, 0, 1);
    expect(d.built).toBe(true);
    expect(batch.lodMesh.visible).toBe(true);
    expect(d.triangles).toBeGreaterThan(0);
    expect(d.triangles).toBeLessThan(clusteredOnly / 4);
    batch.dispose();
  });
});
