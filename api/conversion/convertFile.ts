/**
 * One conversion, the same code for the server's worker threads, the in-process runner and the CLI
 * (ARCHITECTURE.md "Data flow of the main job" step 2): OCX file → revision directory with
 * `{modelName}.sc`, objects.json, properties.json and thumbnail.png, and with the "CAD components" option
 * cad-files.json (the CAD files the model names: api/conversion/cadFiles.ts). Node-only.
 */
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { ImportWarning } from '../../engine/model/types';
import { importOcxFile } from '../../engine/node/ocx/importFile';
import { writeRevisionFiles } from '../../engine/node/package/writeRevision';
import type { ConversionConfig } from '../contract/settings';
import { recordCadFiles } from './cadFiles';
import { applyConversionOptions, conversionConfigOf, importOptionsOf } from './conversionOptions';
import { extractSingleOcxFromZip, isZipFile } from './unzip';

/** Input of a conversion. */
export interface ConvertTask {
  /** The uploaded original (.3docx / .ocx / .xml, or a .zip holding one of them). */
  input: string;
  /** Directory to write into (created; the caller renames it into place). */
  outDir: string;
  /** Model name: the project name, used for the `.sc` file name. */
  modelName: string;
  /** The admin's conversion options (application.md §2 "Settings tab" (1)); absent = the defaults. */
  options?: ConversionConfig;
}

/** What a finished conversion wrote (plain data: crosses the worker boundary). */
export interface ConvertOutput {
  scFile: string;
  bytes: number;
  triangles: number;
  objectCount: number;
  /** Number of import warnings, and the first few messages for the progress report. */
  warnings: number;
  warningMessages: string[];
  /** Base64 PNG 160×120 from thumbnail.png, '' when none was written. */
  thumbnail: string;
  schemaVersion: string;
  originatingSystem: string;
  /** The conversion options the revision was made with (recorded with it). */
  options?: ConversionConfig;
  /** Distinct CAD file names recorded in cad-files.json (0 with the "CAD components" option off). */
  cadFiles?: number;
}

/** Progress in [0, 1] with a message. */
export type ConvertProgress = (fraction: number, message: string) => void;

/** Share of the progress given to reading and tessellating; the rest is writing the package. */
const IMPORT_SHARE = 0.9;

/**
 * Converts `task.input` into `task.outDir`; a .zip input (the CLI; the server extracts uploads itself)
 * has its single OCX entry extracted into `outDir/.input` first and removed afterwards.
 * @throws OcxImportError (from the importer) for a refused file; ZipArchiveError for a bad zip;
 *   AbortError on abort.
 */
export async function convertFile(
  task: ConvertTask,
  onProgress: ConvertProgress = () => {},
  signal?: AbortSignal,
): Promise<ConvertOutput> {
  await mkdir(task.outDir, { recursive: true });
  let input = task.input;
  let extracted: string | null = null;
  if (await isZipFile(input)) {
    onProgress(0, 'Extracting the archive');
    extracted = await extractSingleOcxFromZip(input, path.join(task.outDir, '.input'));
    input = extracted;
  }
  try {
    onProgress(0, 'Reading the OCX file');
    const options = conversionConfigOf(task.options);
    let cadFiles = 0;
    const imported = await importOcxFile(input, {
      onProgress: (f: number, m: string) => onProgress(Math.min(1, Math.max(0, f)) * IMPORT_SHARE, m),
      signal,
      ...importOptionsOf(options),
    });
    signal?.throwIfAborted();
    const result = applyConversionOptions(imported, options);
    onProgress(IMPORT_SHARE, 'Writing the model package');
    const written = await writeRevisionFiles(result, task.outDir, task.modelName, undefined, {
      thumbnail: options.screenshot,
    });
    if (options.cadComponents) {
      onProgress(IMPORT_SHARE, 'Listing the CAD files the model needs');
      cadFiles = (await recordCadFiles(input, task.outDir, signal)).files.length;
    }
    let thumbnail = '';
    try {
      thumbnail = (await readFile(path.join(task.outDir, 'thumbnail.png'))).toString('base64');
    } catch {
      thumbnail = '';
    }
    onProgress(1, 'Conversion finished');
    return {
      scFile: path.basename(written.scFile),
      bytes: written.bytes,
      triangles: written.triangles,
      objectCount: result.objects.length,
      warnings: result.warnings.length,
      warningMessages: result.warnings.slice(0, 5).map((w: ImportWarning) => w.message),
      thumbnail,
      schemaVersion: result.info.schemaVersion,
      originatingSystem: result.info.originatingSystem,
      options,
      cadFiles,
    };
  } finally {
    if (extracted) await rm(path.dirname(extracted), { recursive: true, force: true });
  }
}
