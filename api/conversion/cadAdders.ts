/**
 * Where a conversion's CAD step runs (api/conversion/cadComponents.ts addCadComponents): in a worker thread on
 * the server, so that appending a large CAD file's triangles to the package never holds up the server's
 * requests (about 0.1 million triangles a second on one core), or in the calling thread (tests, CLI). The
 * files themselves are converted by api/cad/convertCad.ts in its own bounded threads either way.
 */
import { MessageChannel } from 'node:worker_threads';
import { threadPool } from '../threadPool';
import type { RequiredCadFile } from '../../engine/ocx/cadRefs';
import { convertCadFile } from '../cad/convertCad';
import { addCadComponents, type CadComponentsResult, type CadConverter } from './cadComponents';

/** What the CAD step of one conversion needs: the revision directory, its model name, the files and where they are. */
export interface CadAddTask {
  dir: string;
  modelName: string;
  files: RequiredCadFile[];
  cadDir: string;
}

/** Runs the CAD step; rejects with an AbortError when `signal` aborts. */
export interface CadAdder {
  run(
    task: CadAddTask,
    onFile: (done: number, total: number) => void,
    signal: AbortSignal,
  ): Promise<CadComponentsResult>;
  close(): Promise<void>;
}

/** Runs the CAD step in the calling thread with `convert` (default convertCadFile). */
export function inProcessCadAdder(convert: CadConverter = convertCadFile): CadAdder {
  return {
    run: (t, onFile, signal) => addCadComponents(t.dir, t.modelName, t.files, t.cadDir, convert, signal, onFile),
    close: async () => {},
  };
}

/**
 * Runs the CAD step in a worker thread (workers/cadComponents.worker.ts) with a heap limit of `memoryMb`; at
 * most `maxThreads` at once.
 */
export function workerCadAdder(memoryMb: number, maxThreads = 1): CadAdder {
  const pool = threadPool(new URL('../../workers/cadComponents.worker.ts', import.meta.url).href, {
    maxThreads,
    memoryMb,
    what: 'CAD components',
  });
  return {
    async run(task, onFile, signal) {
      const { port1, port2 } = new MessageChannel();
      port1.on('message', (m: { done: number; total: number }) => onFile(m.done, m.total));
      try {
        return (await pool.run(
          { ...task, port: port2 },
          { transferList: [port2] as never, signal },
        )) as CadComponentsResult;
      } finally {
        port1.close();
      }
    },
    close: () => pool.destroy(),
  };
}
