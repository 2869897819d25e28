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
 * Imports the OCX file at `path` in two passes with bounded memory (ImportOptions.reopen: the catalogue
 * pre-pass, then the part pass that releases each part's data once it is tessellated).
 * @throws OcxImportError for a refused file; the fs error when the file cannot be read.
 */
export async function importOcxFile(path: string, options: ImportOptions = {}): Promise<ImportResult> {
  const st = await stat(path);
  const streams: ReturnType<typeof createReadStream>[] = [];
  const open = () => {
    const s = createReadStream(path, { highWaterMark: 256 * 1024 });
    streams.push(s);
    return s as AsyncIterable<Uint8Array>;
  };
  try {
    return await importOcx(open(), { totalBytes: st.size, fileName: basename(path), reopen: open, ...options });
  } finally {
    for (const s of streams) s.destroy();
  }
}
