/**
 * Picking on the GPU-side chunk (engine/scene/ChunkBatch.ts): hit points on a real OCX model lie within
 * the chunk's quantisation error of the exact (Float32) surface of the object hit — half a quantum per
 * axis, i.e. ½·|(max − min) / 65535| — and every triangle stays pickable whatever draw range the level of
 * detail set before the BVH was built.
 */
import path from 'node:path';
import { Ray, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import type { PartMesh } from '../../../engine/model/types';
import { importOcxFile } from '../../../engine/node/ocx/importFile';
import { decodeScenePackage } from '../../../engine/package/reader';
import { concatFrames, encodeScenePackage } from '../../../engine/package/writer';
import { ChunkBatch, quantStep } from '../../../engine/scene/ChunkBatch';
import { createStateUniforms } from '../../../engine/scene/chunkMaterial';
import { boxMesh, packageBytes } from './sceneFixtures';

const MODEL = path.resolve(__dirname, '../../../../shared/models/ocx/NAPA-OCX_M8.3docx');

/** Distance (mm) from p to triangle abc (closest point by the Ericson regions). */
function pointTriangleDistance(p: Vector3, a: Vector3, b: Vector3, c: Vector3): number {
  const ab = b.clone().sub(a),
    ac = c.clone().sub(a),
    ap = p.clone().sub(a);
  const d1 = ab.dot(ap),
    d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return p.distanceTo(a);
  const bp = p.clone().sub(b),
    d3 = ab.dot(bp),
    d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return p.distanceTo(b);
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return p.distanceTo(a.clone().addScaledVector(ab, d1 / (d1 - d3)));
  const cp = p.clone().sub(c),
    d5 = ab.dot(cp),
    d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return p.distanceTo(c);
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return p.distanceTo(a.clone().addScaledVector(ac, d2 / (d2 - d6)));
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0)
    return p.distanceTo(b.clone().addScaledVector(c.clone().sub(b), (d4 - d3) / (d4 - d3 + (d5 - d6))));
  const den = 1 / (va + vb + vc);
  return p.distanceTo(
    a
      .clone()
      .addScaledVector(ab, vb * den)
      .addScaledVector(ac, vc * den),
  );
}

/** Distance (mm) from p to the nearest triangle of the object's exact meshes. */
function distanceToObject(p: Vector3, meshes: PartMesh[]): number {
  let best = Infinity;
  const v = [new Vector3(), new Vector3(), new Vector3()];
  for (const m of meshes)
    for (let t = 0; t < m.indices.length; t += 3) {
      for (let k = 0; k < 3; k++) v[k].fromArray(m.positions, m.indices[t + k] * 3);
      best = Math.min(best, pointTriangleDistance(p, v[0], v[1], v[2]));
    }
  return best;
}

describe('ChunkBatch picking', () => {
  it('hits within half a quantum per axis of the exact surface on a real model', async () => {
    const model = await importOcxFile(MODEL);
    const byObject = new Map<number, PartMesh[]>();
    for (const m of model.meshes) byObject.set(m.object, [...(byObject.get(m.object) ?? []), m]);
    const bytes = concatFrames(
      encodeScenePackage(model.meshes, {
        bounds: model.info.bounds,
        objectCount: model.objects.length,
        tolerances: model.info.tolerances,
      }),
    );
    const { chunks } = decodeScenePackage(bytes);
    const uniforms = createStateUniforms();
    // An oblique viewing direction, so no hit is exactly edge-on to the axis-aligned plates.
    const dir = new Vector3(0.31, -0.52, -0.79).normalize();
    let hits = 0;
    for (const chunk of chunks) {
      const batch = new ChunkBatch(chunk, uniforms);
      const s = quantStep(chunk.bounds);
      // Half a quantum per axis; the rest is Float64 arithmetic on mm coordinates.
      const bound = 0.5 * Math.hypot(s[0], s[1], s[2]) + 1e-6;
      const q = chunk.positions,
        b = chunk.bounds;
      const world = (i: number) =>
        new Vector3(b[0] + q[i * 3] * s[0], b[1] + q[i * 3 + 1] * s[1], b[2] + q[i * 3 + 2] * s[2]);
      const step = Math.max(1, Math.floor(chunk.indices.length / 3 / 200));
      for (let t = 0; t < chunk.indices.length / 3; t += step) {
        const centre = world(chunk.indices[t * 3])
          .add(world(chunk.indices[t * 3 + 1]))
          .add(world(chunk.indices[t * 3 + 2]))
          .multiplyScalar(1 / 3);
        const ray = new Ray(centre.clone().addScaledVector(dir, -1e5), dir);
        const { primary } = batch.raycast(ray, () => false);
        expect(primary).not.toBeNull();
        // Something at or in front of the aimed-at triangle is hit.
        expect(primary!.distance).toBeLessThanOrEqual(1e5 + bound);
        const d = distanceToObject(new Vector3(...primary!.point), byObject.get(primary!.nodeId)!);
        expect(d).toBeLessThanOrEqual(bound);
        hits++;
      }
      batch.dispose();
    }
    expect(hits).toBeGreaterThan(150);
  });

  it('keeps every object pickable when the BVH is built under a reduced draw range', () => {
    // A large plate and a small box beside it; the level of detail draws only the plate.
    const bytes = packageBytes([boxMesh(0, [0, 0, 0], [4000, 4000, 20]), boxMesh(1, [5000, 0, 0], [5010, 10, 10])], 2);
    const { chunks } = decodeScenePackage(bytes);
    expect(chunks.length).toBe(1);
    const batch = new ChunkBatch(chunks[0], createStateUniforms());
    batch.setDetail(1000, 1000);
    expect(batch.drawnTriangleList()!.count).toBe(36);
    expect(batch.mesh.geometry.groups.map((g) => [g.start, g.count])).toEqual(batch.drawnRowRanges(0));
    batch.buildBvh();
    const ray = new Ray(new Vector3(5005, 5, 1000), new Vector3(0, 0, -1));
    const { primary } = batch.raycast(ray, () => false);
    expect(primary?.nodeId).toBe(1);
    expect(primary!.point[2]).toBeCloseTo(10, 1);
    batch.dispose();
  });
});
