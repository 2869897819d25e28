/**
 * The server's worker-thread pools (conversion, CAD conversion, the CAD step, comparison) made one way:
 * threads start on demand and end after 30 s idle, each with a heap limit so that one absurd file ends its
 * own thread rather than the server, and load tsx when the process runs TypeScript. A thread that dies
 * outside a task is replaced by the pool; its 'error' is logged, never an uncaught exception. Node-only.
 */
import { Piscina } from 'piscina';
import { workerExecArgv } from '../engine/node/tsxExecArgv';

/** How a pool is made. */
export interface ThreadPoolOptions {
  /** Most threads at once. */
  maxThreads: number;
  /** Heap limit (old generation) of each thread, MB. */
  memoryMb: number;
  /** What the threads do, for the log line of a failed thread (e.g. 'Comparison'). */
  what: string;
}

/** A piscina pool running `worker` (a file URL) with the options above. */
export function threadPool(worker: string, { maxThreads, memoryMb, what }: ThreadPoolOptions): Piscina {
  const pool = new Piscina({
    filename: worker,
    minThreads: 0,
    maxThreads,
    idleTimeout: 30_000,
    resourceLimits: {
      maxOldGenerationSizeMb: memoryMb,
      maxYoungGenerationSizeMb: Math.min(64, Math.max(8, memoryMb / 8)),
    },
    execArgv: workerExecArgv(),
  });
  pool.on('error', (e: unknown) => {
    console.error(`${what} thread failed: ${e instanceof Error ? e.message : String(e)}`);
  });
  return pool;
}

/** Runs tasks of one kind on a pool of threads and closes it. */
export interface PoolRunner<T, R> {
  run(task: T): Promise<R>;
  close(): Promise<void>;
}

/**
 * A threadPool of `worker` as a PoolRunner: each task goes to a thread, with the buffers `transfer` names
 * moved rather than copied (default none). The answer is what the worker's default export returns.
 */
export function poolRunner<T, R>(
  worker: string,
  options: ThreadPoolOptions,
  transfer?: (task: T) => ArrayBuffer[],
): PoolRunner<T, R> {
  const pool = threadPool(worker, options);
  return {
    run: (task) => {
      const list = transfer?.(task) ?? [];
      return pool.run(task, list.length ? { transferList: list as never } : {}) as Promise<R>;
    },
    close: () => pool.destroy(),
  };
}
