/**
 * Where a BCF package is read for POST .../comments/bcf (api/routes/commentsBcf.ts): in a worker thread (workers/bcfImport.worker.ts
 * through piscina) or, without worker threads, in the server's own thread. Reading is synchronous and
 * linear in the package's XML but not cheap — a 150 MB package of repeated markup takes over a minute of
 * fast-xml-parser (bench/README.md "Fuzzing") — so the thread that answers every other request must not do it.
 */
import { type PoolRunner, poolRunner } from '../../threadPool';
import { BcfError, importBcf, type ImportedPackage } from './importBcf';
import { indexOfData, type ObjectIndexData } from './viewpoint';

/** One import: the package's bytes and the object index of the revision its components are matched against. */
export interface BcfImportTask {
  bytes: Uint8Array;
  index: ObjectIndexData;
}

/** The package read, or why it was refused (BcfError's message: the route's 400). */
export type BcfImportOutcome = { pkg: ImportedPackage } | { refused: string };

/**
 * Reads one package. @returns `{ refused }` for a BcfError (not a package, no topic, too large unpacked).
 * @throws any other error (a defect: the route's 500).
 */
export function readBcfPackage(task: BcfImportTask): BcfImportOutcome {
  try {
    return { pkg: importBcf(task.bytes, indexOfData(task.index)) };
  } catch (e) {
    if (e instanceof BcfError) return { refused: e.message };
    throw e;
  }
}

/** Runs BCF imports. */
export type BcfImportRunner = PoolRunner<BcfImportTask, BcfImportOutcome>;

/** Reads packages in the calling thread (tests, CONVERT_IN_WORKERS=false). */
export function inProcessBcfImportRunner(): BcfImportRunner {
  return { run: async (task) => readBcfPackage(task), close: async () => {} };
}

/**
 * Reads packages in worker threads (at most `maxThreads` at once, each with a heap limit of `memoryMb`): the
 * request's thread only waits.
 */
export function workerBcfImportRunner(maxThreads = 1, memoryMb = 2048): BcfImportRunner {
  return poolRunner<BcfImportTask, BcfImportOutcome>(
    new URL('../../../workers/bcfImport.worker.ts', import.meta.url).href,
    { maxThreads, memoryMb, what: 'BCF import' },
    // The bytes move to the thread when they are a buffer of their own (a large upload); a view into a
    // shared buffer (Node's pool of small Buffers) is copied, since moving it would take the others' bytes.
    ({ bytes: { buffer, byteOffset, byteLength } }) =>
      byteOffset === 0 && byteLength === buffer.byteLength && buffer instanceof ArrayBuffer ? [buffer] : [],
  );
}
