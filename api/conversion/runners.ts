/**
 * Where conversions run: a piscina pool of worker threads (the server) or the current thread (CLI,
 * tests). Both run api/conversion/convertFile.
 */
import { MessageChannel } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { threadPool } from '../threadPool';
import { convertFile, type ConvertOutput, type ConvertProgress, type ConvertTask } from './convertFile';

/** Runs one conversion; rejects with an AbortError when `signal` aborts. */
export interface ConversionRunner {
  run(task: ConvertTask, onProgress: ConvertProgress, signal: AbortSignal): Promise<ConvertOutput>;
  close(): Promise<void>;
}

/** Runs conversions in the calling thread. */
export function inProcessRunner(): ConversionRunner {
  return {
    run: (task, onProgress, signal) => convertFile(task, onProgress, signal),
    close: async () => {},
  };
}

/** Default heap limit of one conversion thread, MB (CONVERT_WORKER_MEMORY_MB). */
export const DEFAULT_WORKER_MEMORY_MB = 4096;

/**
 * Runs conversions in worker threads (workers/convert.worker.ts). The worker is TypeScript, so the
 * threads load tsx unless the process already did (`node --import tsx`). Each thread has a heap limit:
 * a file that needs more (an absurd coordinate, a fuzzed file) ends that thread only, and the conversion
 * fails with 'The conversion needed more than N MB of memory ...'; the server keeps running.
 * @param maxThreads at most this many conversions at once (default: half the cores, at least 1).
 * @param memoryMb heap limit (old generation) of a conversion thread, MB.
 */
export function workerRunner(
  maxThreads = Math.max(1, Math.floor(availableParallelism() / 2)),
  memoryMb = DEFAULT_WORKER_MEMORY_MB,
): ConversionRunner {
  const pool = threadPool(new URL('../../workers/convert.worker.ts', import.meta.url).href, {
    maxThreads,
    memoryMb,
    what: 'Conversion',
  });
  return {
    async run(task, onProgress, signal) {
      const { port1, port2 } = new MessageChannel();
      port1.on('message', (m: { fraction: number; message: string }) => onProgress(m.fraction, m.message));
      try {
        return (await pool.run({ ...task, port: port2 }, { transferList: [port2] as never, signal })) as ConvertOutput;
      } catch (e) {
        if (e instanceof Error && 'code' in e && e.code === 'ERR_WORKER_OUT_OF_MEMORY')
          throw new Error(
            `The conversion needed more than ${memoryMb} MB of memory and was stopped: the file may hold absurd coordinates or sizes`,
          );
        throw e;
      } finally {
        port1.close();
      }
    },
    close: () => pool.destroy(),
  };
}
