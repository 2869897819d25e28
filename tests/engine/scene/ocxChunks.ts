/**
 * The `.sc` chunks of a shared OCX file as the viewer receives them: imported on one thread, written as a
 * scene package and read back (engine/package). For tests that need real ship geometry in chunks.
 */
import path from 'node:path';
import { importOcxFile } from '../../../engine/node/ocx/importFile';
import { decodeScenePackage } from '../../../engine/package/reader';
import type { SceneChunk } from '../../../engine/package/types';
import { concatFrames, encodeScenePackage } from '../../../engine/package/writer';

/** Chunks of `../shared/models/ocx/<name>.3docx`. */
export async function ocxChunks(name: string): Promise<SceneChunk[]> {
  const model = await importOcxFile(path.resolve(__dirname, `../../../../shared/models/ocx/${name}.3docx`), {
    threads: 0,
  });
  const bytes = concatFrames(
    encodeScenePackage(model.meshes, {
      bounds: model.info.bounds,
      objectCount: model.objects.length,
      tolerances: model.info.tolerances,
    }),
  );
  return decodeScenePackage(bytes).chunks;
}
