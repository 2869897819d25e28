/**
 * One comparison from two revision directories to the GET /api/viewer/compare answer: reads each revision's
 * objects.json, properties.json and `.sc` (shape figures, partShapes.ts) and runs diffRevisions. Node-only;
 * runs in a compare worker thread (workers/compare.worker.ts) or, without worker threads, in the caller.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { readRevisionObjects, readRevisionProperties } from '../../engine/node/package/writeRevision';
import { decodeScenePackage } from '../../engine/package/reader';
import { COMPARE_FORMAT, type CompareResponse } from '../contract/compare';
import { COMPARE_TOLERANCES, type RevisionSnapshot, diffRevisions } from './diffRevisions';
import { type PartShapes, partShapes } from './partShapes';

/** A revision to read: its number, directory (absolute) and `.sc` file name inside it. */
export interface RevisionLocation {
  number: number;
  dir: string;
  scFile: string;
}

/** What a compare task carries (plain data: it crosses into a worker thread). */
export interface CompareTask {
  projectName: string;
  from: RevisionLocation;
  to: RevisionLocation;
}

/**
 * Reads a revision directory into a diff snapshot; the shapes come from its `.sc` file (null when that file
 * is missing, so geometry is then compared by the exact bounds alone).
 * @throws Error naming the file when objects.json or properties.json is missing or malformed, or the `.sc`
 *   cannot be decoded.
 */
export async function loadSnapshot(loc: RevisionLocation): Promise<RevisionSnapshot> {
  const [o, properties] = await Promise.all([readRevisionObjects(loc.dir), readRevisionProperties(loc.dir)]);
  let bytes: Buffer | null = null;
  try {
    bytes = await readFile(path.join(loc.dir, loc.scFile));
  } catch {
    bytes = null;
  }
  let shapes: PartShapes | null = null;
  if (bytes) {
    const pkg = decodeScenePackage(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    shapes = partShapes(pkg.chunks, o.objects.length, pkg.header.tolerances.chordalMm);
  }
  return { number: loc.number, objects: o.objects, properties, shapes };
}

/** Computes the comparison of `task.from` (earlier) with `task.to` (later). @throws like loadSnapshot. */
export async function computeComparison(task: CompareTask): Promise<CompareResponse> {
  // One after the other: two large revisions' decoded geometry need not be in memory at once.
  const a = await loadSnapshot(task.from);
  const b = await loadSnapshot(task.to);
  return {
    format: COMPARE_FORMAT,
    projectName: task.projectName,
    fromRevision: task.from.number,
    toRevision: task.to.number,
    computedAt: new Date().toISOString(),
    tolerances: { ...COMPARE_TOLERANCES },
    ...diffRevisions(a, b),
  };
}
