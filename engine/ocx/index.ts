/**
 * OCX import entry points (issue 2 item 5). Implementation: engine/ocx/reader.ts (phase 1, streaming
 * SAX), engine/ocx/buildModel.ts (phases 2–3: resolution and tessellation) and engine/geometry/*.
 */
import type { ImportResult, ProgressFn } from '../model/types';
import { buildModel } from './buildModel';
import { readOcx } from './reader';
import { OcxImportError } from './errors';

export { OcxImportError };

/** Options of an import. Tolerances default to values that keep curved plates within 1 mm. */
export interface ImportOptions {
  /** Progress in [0, 1] with a message; monotonic. */
  onProgress?: ProgressFn;
  /** Aborts the import; the promise rejects with an AbortError. */
  signal?: AbortSignal;
  /** Chordal tolerance, mm. */
  chordalMm?: number;
  /** Angular tolerance, degrees. */
  angularDeg?: number;
  /** Total input size in bytes, for progress. */
  totalBytes?: number;
  /** File name, for messages and the model name fallback. */
  fileName?: string;
}

/**
 * Imports an OCX 3.0/3.1 document from a stream of UTF-8 bytes or text chunks. Reading reports progress
 * 0..0.5 by bytes (when totalBytes is given), tessellation 0.5..1. Nothing outside the returned value
 * is changed, so a refused file leaves any stored model untouched.
 * @returns the object table, properties (catalogue units), meshes (mm), frame tables and warnings.
 * @throws OcxImportError for an empty, truncated, malformed or non-OCX document (message names the
 * problem and its line); an Error named 'AbortError' when options.signal aborts.
 */
export async function importOcx(chunks: AsyncIterable<Uint8Array | string>, options: ImportOptions = {}): Promise<ImportResult> {
  let last = 0;
  const progress = (f: number, msg: string) => {
    if (!options.onProgress) return;
    const v = Math.min(1, Math.max(last, f));
    last = v;
    options.onProgress(v, msg);
  };
  progress(0, 'Reading');
  const total = options.totalBytes;
  const raw = await readOcx(chunks, total ? (n) => progress(0.5 * Math.min(1, n / total), 'Reading') : undefined, options.signal);
  progress(0.5, 'Resolving references');
  return buildModel(raw, {
    chordalMm: options.chordalMm ?? 1,
    angularDeg: options.angularDeg ?? 15,
    fileName: options.fileName ?? 'model',
    onProgress: (f, m) => progress(0.5 + 0.5 * f, m),
    signal: options.signal,
  });
}
