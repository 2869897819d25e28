/**
 * Writes the files of one converted revision (ARCHITECTURE.md "Data flow of the main job" step 2):
 * the `.sc` scene, the object table, the property store and the thumbnail. Node only.
 *
 * Directory layout (all written into `dir`, which the caller created as a temporary directory and
 * renames into place once this resolves, so a revision is never half-visible):
 *   {modelName}.sc     the scene package (engine/package/format.ts)
 *   objects.json       { info, objects, frames, warnings, blockSystems? }  (ModelInfo, ModelObject[], FrameTables,
 *                      ImportWarning[], BlockSystem[]; revisions written before block systems have none)
 *   properties.json    PropertyRecord[] parallel to objects (catalogue units: m, m², t ...)
 *   thumbnail.png      160 × 120 PNG at the opening orbit (160°, 10°)
 */
import { createWriteStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import type {
  BlockSystem,
  FrameTables,
  ImportResult,
  ImportWarning,
  ModelInfo,
  ModelObject,
  PropertyRecord,
} from '../../model/types';
import { type ScenePackageOptions, encodeScenePackage } from '../../package/writer';
import { thumbnailPng } from './thumbnail';

/** File names inside a revision directory (besides `{modelName}.sc`). */
export const REVISION_FILES = {
  objects: 'objects.json',
  properties: 'properties.json',
  thumbnail: 'thumbnail.png',
} as const;

/** Content of objects.json. */
export interface RevisionObjectsFile {
  info: ModelInfo;
  objects: ModelObject[];
  frames: FrameTables;
  warnings: ImportWarning[];
  /** The model's block systems (engine/ocx/blockSystems.ts); absent when the file has none. */
  blockSystems?: BlockSystem[];
}

/** What writeRevisionFiles wrote: the scene file's name (not path), its size in bytes and its triangle count. */
export interface RevisionWriteResult {
  scFile: string;
  bytes: number;
  triangles: number;
}

/**
 * Writes `{modelName}.sc`, objects.json, properties.json and thumbnail.png into `dir` (must exist);
 * `files.thumbnail` false leaves the thumbnail out (the conversion's Screenshot option off).
 * @throws Error when modelName is empty or contains a path separator or '..', when properties is not
 *   parallel to objects, or when the package writer refuses a mesh; file system errors pass through.
 */
export async function writeRevisionFiles(
  result: ImportResult,
  dir: string,
  modelName: string,
  options?: ScenePackageOptions,
  files: { thumbnail?: boolean } = {},
): Promise<RevisionWriteResult> {
  if (!modelName || /[\\/\0]/.test(modelName) || modelName.includes('..'))
    throw new Error(`Invalid model name for a revision file: "${modelName}"`);
  if (result.properties.length !== result.objects.length)
    throw new Error(`Revision: ${result.properties.length} property records for ${result.objects.length} objects`);

  const frames = encodeScenePackage(
    result.meshes,
    { bounds: result.info.bounds, objectCount: result.objects.length, tolerances: result.info.tolerances },
    options,
  );
  const triangles = new DataView(frames[0].buffer, frames[0].byteOffset).getUint32(72, true);
  const scFile = `${modelName}.sc`;
  const bytes = await writeFrames(path.join(dir, scFile), frames);

  const objectsFile: RevisionObjectsFile = {
    info: result.info,
    objects: result.objects,
    frames: result.frames,
    warnings: result.warnings,
    ...(result.blockSystems?.length ? { blockSystems: result.blockSystems } : {}),
  };
  await writeFile(path.join(dir, REVISION_FILES.objects), JSON.stringify(objectsFile));
  await writeFile(path.join(dir, REVISION_FILES.properties), JSON.stringify(result.properties));
  if (files.thumbnail !== false)
    await writeFile(path.join(dir, REVISION_FILES.thumbnail), thumbnailPng(result.meshes, result.info.bounds));
  return { scFile, bytes, triangles };
}

async function writeFrames(file: string, frames: Uint8Array[]): Promise<number> {
  const out = createWriteStream(file);
  const failed = once(out, 'error').then(([e]) => Promise.reject(e as Error));
  failed.catch(() => undefined);
  let bytes = 0;
  for (const f of frames) {
    bytes += f.length;
    if (!out.write(f)) await Promise.race([once(out, 'drain'), failed]);
  }
  out.end();
  await Promise.race([once(out, 'finish'), failed]);
  return bytes;
}

async function readJson(dir: string, name: string): Promise<unknown> {
  const file = path.join(dir, name);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new Error(`Revision file ${file} cannot be read: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`Revision file ${file} is not valid JSON: ${(e as Error).message}`);
  }
}

/**
 * Reads objects.json of a revision directory.
 * @throws Error naming the file when it is missing, not JSON, or lacks info/objects/frames/warnings.
 */
export async function readRevisionObjects(dir: string): Promise<RevisionObjectsFile> {
  const data = (await readJson(dir, REVISION_FILES.objects)) as Partial<RevisionObjectsFile> | null;
  const file = path.join(dir, REVISION_FILES.objects);
  if (!data || typeof data !== 'object') throw new Error(`Revision file ${file} does not hold an object`);
  if (!data.info || typeof data.info !== 'object') throw new Error(`Revision file ${file} has no "info"`);
  if (!Array.isArray(data.objects)) throw new Error(`Revision file ${file} has no "objects" array`);
  if (!data.frames || !Array.isArray(data.frames.x) || !Array.isArray(data.frames.y) || !Array.isArray(data.frames.z))
    throw new Error(`Revision file ${file} has no "frames" with x, y and z arrays`);
  if (!Array.isArray(data.warnings)) throw new Error(`Revision file ${file} has no "warnings" array`);
  return data as RevisionObjectsFile;
}

/**
 * Reads properties.json of a revision directory (array parallel to objects).
 * @throws Error naming the file when it is missing, not JSON, or not an array of objects.
 */
export async function readRevisionProperties(dir: string): Promise<PropertyRecord[]> {
  const data = await readJson(dir, REVISION_FILES.properties);
  const file = path.join(dir, REVISION_FILES.properties);
  if (!Array.isArray(data)) throw new Error(`Revision file ${file} does not hold an array`);
  const bad = data.findIndex((r) => !r || typeof r !== 'object' || Array.isArray(r));
  if (bad >= 0) throw new Error(`Revision file ${file}: record ${bad} is not an object`);
  return data as PropertyRecord[];
}
