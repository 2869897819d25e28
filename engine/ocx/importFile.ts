/**
 * Node-only file import (issue 2 item 5): streams a .3docx file from disk into importOcx with its size
 * for progress and its base name for messages.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ImportResult } from '../model/types';
import { importOcx, type ImportOptions } from './index';

/**
 * Imports the OCX file at `path`.
 * @throws OcxImportError for a refused file; the fs error when the file cannot be read.
 */
export async function importOcxFile(path: string, options: ImportOptions = {}): Promise<ImportResult> {
  const st = await stat(path);
  const stream = createReadStream(path, { highWaterMark: 256 * 1024 });
  try {
    return await importOcx(stream as AsyncIterable<Uint8Array>, { totalBytes: st.size, fileName: basename(path), ...options });
  } finally {
    stream.destroy();
  }
}
