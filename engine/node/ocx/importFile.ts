/**
 * Node-only file import: streams a .3docx file from disk into importOcx with its size
 * for progress and its base name for messages; large files are tessellated in worker threads while the
 * calling thread parses (engine/node/ocx/partPool.ts).
 */
import { createReadStream, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import { basename } from 'node:path';
import type { ImportResult } from '../../model/types';
import { importOcx, type ImportOptions } from '../../ocx/index';
import { partPool } from './partPool';

/** Files from this size (bytes) up get worker threads by default: below it starting a thread costs more than it saves. */
export const THREADED_FROM_BYTES = 8e6;

/** Options of importOcxFile: those of importOcx plus the number of tessellation threads. */
export interface ImportFileOptions extends ImportOptions {
  /**
   * Worker threads that tessellate while this thread parses: 0 = everything on this thread. Default:
   * for files ≥ THREADED_FROM_BYTES, defaultThreads(); else 0. The result is the same for any value.
   */
  threads?: number;
}

/**
 * Worker threads used by default for a large file: the idle cores (cores − 1-minute load average,
 * rounded) less two — one for the calling thread, which splits the file and takes batches itself when
 * the workers are busy, and one for V8's garbage-collection helper threads — at most 2; 0 on a busy
 * or a 2-core machine. Measured on 2 idle cores (bench/README.md, 'OCX import'): the one-thread import
 * already keeps the second core ~50 % busy with parallel GC, and 1 + 1 workers was no faster (10k
 * ship 0.95 s against 0.87 s), so threads only pay from about 3 idle cores up.
 */
export function defaultThreads(): number {
  const cores = os.availableParallelism();
  const idle = Math.round(cores - os.loadavg()[0]);
  return Math.max(0, Math.min(2, idle - 2));
}

/**
 * Files up to this size (bytes) are read into memory once and imported in a single pass over that copy
 * (importOcx without `reopen`; with worker threads: both passes over it). Opening and streaming the file
 * twice costs more than the parse of such a file, and the catalogue pre-pass and the hand-over of each
 * part as it closes cost 10–17 % of the import of a 0.07–2.3 MB sample (bench/README.md, 'OCX import'),
 * while the parsed parts of a file this small take about 3 × its size (9.5 MB besides the results for a
 * 2.9 MB sample, against 0.8 MB in two passes; bench/ocx/memoryProbe.ts): the two-pass bound on memory is
 * for the large files. The result is the same either way (tests/engine/ocx/importOcx.twoPass.test.ts).
 */
export const READ_WHOLE_BELOW_BYTES = 4 * 1024 * 1024;

/** The buffer in 256 KiB chunks (views, no copy). */
async function* chunksOf(buf: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < buf.length; i += 256 * 1024) yield buf.subarray(i, i + 256 * 1024);
}

/** Worker threads for a large file when threads are wanted whatever the load: min(2, cores − 1), at least 1. */
export function maxThreads(): number {
  return Math.min(2, Math.max(1, os.availableParallelism() - 1));
}

/**
 * Imports the OCX file at `path`: a file of READ_WHOLE_BELOW_BYTES or more in two passes with bounded
 * memory (ImportOptions.reopen: the catalogue pre-pass, then the part pass that releases each part's data
 * once it is tessellated), a smaller one read whole (synchronously) and imported in one pass (two with threads > 0).
 * @throws OcxImportError for a refused file; the fs error when the file cannot be read; RangeError for
 * a negative or non-integer `threads`.
 */
export async function importOcxFile(path: string, options: ImportFileOptions = {}): Promise<ImportResult> {
  // synchronous: a small file's import holds the thread far longer than its read, and the thread
  // pool's round trips of stat, open, read and close cost a small file's import several per cent
  const st = statSync(path);
  const { threads: asked, ...rest } = options;
  const threads = asked ?? (st.size >= THREADED_FROM_BYTES ? defaultThreads() : 0);
  if (!Number.isInteger(threads) || threads < 0)
    throw new RangeError(`importOcxFile: threads must be a whole number ≥ 0 (got ${threads})`);
  const fileName = basename(path);
  const offload = threads > 0 ? { offload: partPool({ threads }) } : {};
  if (st.size < READ_WHOLE_BELOW_BYTES) {
    const buf = readFileSync(path);
    return importOcx(chunksOf(buf), {
      totalBytes: buf.length,
      fileName,
      ...(threads > 0 ? { reopen: () => chunksOf(buf), ...offload } : {}),
      ...rest,
    });
  }
  const streams: ReturnType<typeof createReadStream>[] = [];
  const open = () => {
    const s = createReadStream(path, { highWaterMark: 256 * 1024 });
    streams.push(s);
    return s as AsyncIterable<Uint8Array>;
  };
  try {
    return await importOcx(open(), { totalBytes: st.size, fileName, reopen: open, ...offload, ...rest });
  } finally {
    for (const s of streams) s.destroy();
  }
}
