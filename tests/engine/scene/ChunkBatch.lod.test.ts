/**
 * LOD levels on the GPU-side chunk (engine/scene/ChunkBatch.ts): one level per chunk — a view that needs
 * another level replaces it (the old index buffer is freed and leaves the byte count), and coming back
 * builds the first level again, identical.
 */
import { describe, expect, it } from 'vitest';
import type { BufferGeometry } from 'three';
import { decodeScenePackage } from '../../../engine/package/reader';
import { ChunkBatch, LOD_LEVELS_KEPT } from '../../../engine/scene/ChunkBatch';
import { createStateUniforms } from '../../../engine/scene/chunkMaterial';
import { boxMesh, gridPlate, packageBytes } from './sceneFixtures';

describe('ChunkBatch LOD levels', () => {
  it('keeps one level: the next one replaces it, frees its buffer and its bytes', () => {
    expect(LOD_LEVELS_KEPT).toBe(1);
    const bytes = packageBytes([gridPlate(0, 40), boxMesh(1, [3000, 0, 0], [3050, 50, 50])], 2);
    const batch = new ChunkBatch(decodeScenePackage(bytes).chunks[0], createStateUniforms());
    const level = (l: number) => {
      const d = batch.setDetail(0, 0, l);
      expect(batch.lodMesh.visible).toBe(true);
      expect(batch.mesh.visible).toBe(false);
      const g = batch.lodMesh.geometry as BufferGeometry;
      batch.mesh.visible = true;
      return { d, g, indices: Array.from(g.index!.array), lodBytes: batch.lodBytes };
    };
    const a = level(3);
    expect(a.d.built).toBe(true);
    expect(a.d.triangles).toBeLessThan(batch.triangles / 4);
    expect(a.lodBytes).toBe(a.indices.length * 2);
    let disposed = 0;
    a.g.addEventListener('dispose', () => disposed++);
    // Again: no rebuild, same buffer.
    expect(level(3).d.built).toBe(false);
    const b = level(4);
    expect(b.d.built).toBe(true);
    expect(b.g).not.toBe(a.g);
    expect(disposed).toBe(1);
    // Only the current level's indices count.
    expect(b.lodBytes).toBe(b.indices.length * 2);
    const c = level(3);
    expect(c.d.built).toBe(true);
    expect(c.indices).toEqual(a.indices);
    expect(c.lodBytes).toBe(a.lodBytes);
    batch.dispose();
  });
});
