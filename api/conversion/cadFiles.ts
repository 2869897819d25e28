/**
 * The CAD files a revision needs (issue "CAD components" §1; application.md §7 "cad-files-available"):
 * with the "CAD components" conversion option on, the conversion records the distinct file names the
 * model's ExternalGeometryRef elements name, with their referring objects, in the revision's
 * `cad-files.json`; with it off no file is written (the revision needs none). The CAD step reads it to pause
 * for the files and to add the components (api/conversion/conversionCadStep.ts). Node-only.
 */
import { createReadStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { collectCadRefs, type RequiredCadFile, requiredCadFiles } from '../../engine/ocx/cadRefs';

/** File name, inside a revision directory, of the required CAD files. */
export const CAD_FILES_FILE = 'cad-files.json';

/** Content of `cad-files.json`. */
export interface RevisionCadFiles {
  files: RequiredCadFile[];
  /** References skipped (over the bound, or an invalid file name). */
  dropped: number;
}

/**
 * Scans the OCX file `input` for its CAD file references and writes `outDir/cad-files.json`.
 * @returns what was written. @throws OcxImportError for a malformed document; AbortError on abort.
 */
export async function recordCadFiles(input: string, outDir: string, signal?: AbortSignal): Promise<RevisionCadFiles> {
  const scan = await collectCadRefs(createReadStream(input, { highWaterMark: 256 * 1024 }), signal);
  const record: RevisionCadFiles = { files: requiredCadFiles(scan.refs), dropped: scan.dropped };
  await writeFile(path.join(outDir, CAD_FILES_FILE), JSON.stringify(record));
  return record;
}

/** The required CAD files of a revision directory; none when the revision has no `cad-files.json`. */
export async function readCadFiles(revisionDir: string): Promise<RevisionCadFiles> {
  try {
    return JSON.parse(await readFile(path.join(revisionDir, CAD_FILES_FILE), 'utf8')) as RevisionCadFiles;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { files: [], dropped: 0 };
    throw e;
  }
}
