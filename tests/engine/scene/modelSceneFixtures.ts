/** Test fixtures of ModelScene tests in Node: a loaded scene of part meshes, and a perspective view. */
import { Matrix4, PerspectiveCamera, Vector3 } from 'three';
import type { PartMesh } from '../../../engine/model/types';
import { decodeScenePackage } from '../../../engine/package/reader';
import { createStateUniforms } from '../../../engine/scene/chunkMaterial';
import { ModelScene } from '../../../engine/scene/ModelScene';
import { packageBytes } from './sceneFixtures';

/** A ModelScene holding `meshes` (objects 0..objectCount−1) in chunks of at most `maxChunkTriangles`, fully loaded. */
export function loadedScene(meshes: PartMesh[], objectCount: number, maxChunkTriangles: number): ModelScene {
  const { header, chunks } = decodeScenePackage(packageBytes(meshes, objectCount, maxChunkTriangles));
  const m = new ModelScene(header, null, createStateUniforms());
  for (const c of chunks) m.addChunk(c);
  m.loading = false;
  return m;
}

/** Column-major view-projection of a 40°, 16:9 camera at `eye` looking at `target` (mm, z up, near 100 mm, far 100 m). */
export function perspectiveView(eye: [number, number, number], target: [number, number, number]): number[] {
  const cam = new PerspectiveCamera(40, 16 / 9, 100, 100_000);
  cam.up.set(0, 0, 1);
  cam.position.set(...eye);
  cam.lookAt(new Vector3(...target));
  cam.updateMatrixWorld(true);
  return new Matrix4().multiplyMatrices(cam.projectionMatrix, cam.matrixWorldInverse).toArray();
}
