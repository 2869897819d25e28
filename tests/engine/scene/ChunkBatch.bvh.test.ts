/**
 * The chunk's picking BVH (engine/scene/ChunkBatch.ts BVH_STRATEGY, BVH_LEAF_TRIANGLES): on a real OCX
 * model it returns, for every ray, the same nearest object and point as a scan of every triangle without a
 * tree and as the previous tree layout (centre splits, leaves of 10), it holds fewer bytes than that layout
 * (nodes of 32 B plus a 16-bit indirect buffer, no copy of the geometry), and its bytes are gone after
 * dispose.
 */
import { DoubleSide, Ray, Vector3 } from 'three';
import { CENTER, MeshBVH } from 'three-mesh-bvh';
import { describe, expect, it } from 'vitest';
import { objectAtTriangle, buildTriangleLookup } from '../../../engine/interaction/objectLookup';
import { ChunkBatch } from '../../../engine/scene/ChunkBatch';
import { createStateUniforms } from '../../../engine/scene/chunkMaterial';
import { rngOf } from '../../fuzz/prng';
import { ocxChunks } from './ocxChunks';

/**
 * Nearest hit of a chunk-local ray over every triangle (no tree): its local distance and the triangles
 * within a rounding bound of it (touching parts share faces, so a ray may meet two objects at once).
 */
function scanNearest(batch: ChunkBatch, local: Ray): { distance: number; triangles: number[] } | null {
  const q = batch.chunk.positions,
    idx = batch.chunk.indices;
  const a = new Vector3(),
    b = new Vector3(),
    c = new Vector3(),
    p = new Vector3();
  const found: [number, number][] = [];
  for (let t = 0; t < idx.length / 3; t++) {
    a.fromArray(q, idx[t * 3] * 3);
    b.fromArray(q, idx[t * 3 + 1] * 3);
    c.fromArray(q, idx[t * 3 + 2] * 3);
    if (local.intersectTriangle(a, b, c, false, p)) found.push([t, p.distanceTo(local.origin)]);
  }
  if (found.length === 0) return null;
  const distance = Math.min(...found.map((f) => f[1]));
  return { distance, triangles: found.filter((f) => f[1] <= distance * (1 + 1e-9) + 1e-9).map((f) => f[0]) };
}

describe('ChunkBatch picking BVH', () => {
  it('picks what a scan of every triangle and the previous tree layout pick, in fewer bytes', async () => {
    const chunks = await ocxChunks('NAPA-OCX_M8');
    const uniforms = createStateUniforms();
    const rng = rngOf(16);
    const random = () => rng.next();
    let rays = 0,
      hits = 0,
      triangles = 0,
      bytes = 0,
      previousBytes = 0;
    for (const chunk of chunks) {
      const batch = new ChunkBatch(chunk, uniforms);
      if (batch.triangles === 0) {
        batch.dispose();
        continue;
      }
      expect(batch.bvhBytes).toBe(0);
      batch.buildBvh();
      triangles += batch.triangles;
      bytes += batch.bvhBytes;
      // Nodes of 32 B and one 16-bit triangle number per triangle in chunks of up to 65,536 triangles.
      const indirect = (batch.triangles > 65536 ? 4 : 2) * batch.triangles;
      expect((batch.bvhBytes - indirect) % 32).toBe(0);
      const previous = new MeshBVH(batch.pickGeometry, {
        indirect: true,
        range: { start: 0, count: chunk.indices.length },
        strategy: CENTER,
        targetLeafSize: 10,
      });
      const raw = previous as unknown as { _roots: ArrayBuffer[]; _indirectBuffer: Uint16Array };
      previousBytes += raw._roots.reduce((n, r) => n + r.byteLength, 0) + raw._indirectBuffer.byteLength;
      const lookup = buildTriangleLookup(chunk.objects);
      const box = batch.worldBox;
      const size = box.getSize(new Vector3());
      const inverse = batch.mesh.matrixWorld.clone().invert();
      for (let k = 0; k < 60; k++) {
        // Rays from outside the chunk's box towards a random point inside it, from random directions.
        const target = new Vector3(
          box.min.x + random() * size.x,
          box.min.y + random() * size.y,
          box.min.z + random() * size.z,
        );
        const dir = new Vector3(random() - 0.5, random() - 0.5, random() - 0.5).normalize();
        const ray = new Ray(target.clone().addScaledVector(dir, -2 * size.length() - 1), dir);
        const got = batch.raycast(ray, () => false).primary;
        const local = ray.clone().applyMatrix4(inverse);
        const scan = scanNearest(batch, local);
        const old = previous.raycastFirst(local, DoubleSide);
        rays++;
        if (!scan) {
          expect(got).toBeNull();
          expect(old).toBeNull();
          continue;
        }
        hits++;
        const nearest = scan.triangles.map((t) => objectAtTriangle(lookup, t));
        expect(got).not.toBeNull();
        expect(nearest).toContain(got!.nodeId);
        expect(nearest).toContain(objectAtTriangle(lookup, old!.faceIndex!));
        const world = local.at(scan.distance, new Vector3()).applyMatrix4(batch.mesh.matrixWorld);
        expect(got!.distance).toBeCloseTo(world.distanceTo(ray.origin), 3);
      }
      batch.dispose();
      expect(batch.bvhBytes).toBe(0);
    }
    expect(hits).toBeGreaterThan(rays / 4);
    // The previous layout held 12.1–12.4 B per triangle on the bench ships; this one at most 9.
    expect(bytes / triangles).toBeLessThan(9);
    expect(bytes).toBeLessThan(0.8 * previousBytes);
  });
});
