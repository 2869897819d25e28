/**
 * Where conversions run: a piscina pool of worker threads (the server) or the current thread (CLI,
 * tests). Both run api/conversion/convertFile.
 */
import { MessageChannel } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
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

/**
 * Runs conversions in worker threads (workers/convert.worker.ts). The worker is TypeScript, so the
 * threads load tsx unless the process already did (`node --import tsx`).
 * @param maxThreads at most this many conversions at once (default: half the cores, at least 1).
 */
export function workerRunner(maxThreads = Math.max(1, Math.floor(availableParallelism() / 2))): ConversionRunner {
  const hasTsx = process.execArgv.some(
    (a, i) => a.includes('tsx') && (a.startsWith('--import') || process.execArgv[i - 1] === '--import'),
  );
  const pool = new Piscina({
    filename: new URL('../../workers/convert.worker.ts', import.meta.url).href,
    minThreads: 0,
    maxThreads,
    idleTimeout: 30_000,
    execArgv: hasTsx ? process.execArgv : [...process.execArgv, '--import', 'tsx'],
  });
  return {
    async run(task, onProgress, signal) {
      const { port1, port2 } = new MessageChannel();
      port1.on('message', (m: { fraction: number; message: string }) => onProgress(m.fraction, m.message));
      try {
        return (await pool.run({ ...task, port: port2 }, { transferList: [port2] as never, signal })) as ConvertOutput;
      } finally {
        port1.close();
      }
    },
    close: () => pool.destroy(),
  };
}
