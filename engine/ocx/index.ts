/**
 * OCX import entry points (issue 2 item 5). Implementation: engine/ocx/* (streaming reader) and
 * engine/geometry/* (tessellation).
 */
import type { ImportResult, ProgressFn } from '../model/types';

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

/** A refused file: names the problem and, where known, its line and column (1-based). */
export class OcxImportError extends Error {
  constructor(
    message: string,
    public readonly line?: number,
    public readonly column?: number,
  ) {
    super(line !== undefined ? `${message} (line ${line}${column !== undefined ? `, column ${column}` : ''})` : message);
    this.name = 'OcxImportError';
  }
}

/**
 * Imports an OCX 3.0/3.1 document from a stream of UTF-8 bytes or text chunks.
 * @throws OcxImportError for an empty, truncated, malformed or non-OCX document.
 */
export async function importOcx(
  _chunks: AsyncIterable<Uint8Array | string>,
  _options: ImportOptions = {},
): Promise<ImportResult> {
  throw new OcxImportError('OCX import is not implemented yet');
}
