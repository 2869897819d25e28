/**
 * Memory probe of the OCX import: `node --expose-gc --import tsx bench/ocx/memoryProbe.ts
 * FILE [two|one]` imports FILE with the file path (importOcxFile, default: two passes from 4 MiB up, one pass
 * over the file read whole below) or the single-stream path (importOcx on one stream), forcing a full GC every few progress calls to sample the live heap,
 * and prints one JSON line: { sizeBytes, objects, livePeakBytes, resultBytes, transientPeakBytes }.
 * resultBytes is the heap the finished ImportResult keeps (after GC); transientPeakBytes =
 * livePeakBytes − resultBytes bounds what the import holds besides its results. Used by
 * tests/engine/ocx/importOcx.twoPass.test.ts (BENCH_LARGE=1).
 */
import { createReadStream, statSync } from 'node:fs';
import { importOcxFile } from '../../engine/node/ocx/importFile';
import { importOcx } from '../../engine/ocx/index';

/** Result of one probe, bytes. */
export interface MemoryProbe {
  sizeBytes: number;
  objects: number;
  livePeakBytes: number;
  resultBytes: number;
  transientPeakBytes: number;
}

async function main(file: string, mode: string): Promise<MemoryProbe> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  gc();
  const base = process.memoryUsage().heapUsed;
  let peak = base,
    calls = 0;
  const onProgress = () => {
    if (++calls % 4 !== 0) return;
    gc();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  };
  const r =
    mode === 'one'
      ? await importOcx(createReadStream(file, { highWaterMark: 256 * 1024 }) as AsyncIterable<Uint8Array>, {
          onProgress,
        })
      : await importOcxFile(file, { onProgress });
  gc();
  const result = process.memoryUsage().heapUsed - base;
  const livePeak = Math.max(peak - base, result);
  return {
    sizeBytes: statSync(file).size,
    objects: r.objects.length,
    livePeakBytes: livePeak,
    resultBytes: result,
    transientPeakBytes: livePeak - result,
  };
}

main(process.argv[2], process.argv[3] ?? 'two').then(
  (p) => console.log(JSON.stringify(p)),
  (e) => {
    console.error((e as Error).message);
    process.exit(1);
  },
);
