/**
 * Converts a CAD file to named, coloured triangle meshes in millimetres (issue "CAD components" §2
 * "Conversion"; application.md §5), off the request path in worker threads with a time and a memory bound:
 * a corrupt or hostile file fails that file with a CadConversionError, never the server.
 *
 * - STL, glTF/GLB and OBJ run in a shared piscina pool.
 * - STEP/IGES/BREP (OpenCascade) and IFC (web-ifc) run in a thread of their own that ends with the file:
 *   their wasm heaps grow and never shrink, so a thread is not reused after one of them.
 * Node-only: OpenCascade's 7.6 MB wasm is compiled once in the server process (api/cad/occtWasm.ts) and
 * instantiated by each of its threads; the viewer never loads it. The heap bound covers JavaScript; the wasm
 * heaps are bounded by their builds (OpenCascade 2 GB, web-ifc 4 GB) and by the time bound.
 */
import { availableParallelism } from 'node:os';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Piscina } from 'piscina';
import { threadPool } from '../threadPool';
import type { CadTask, CadTaskResult } from './cadTask';
import { occtWasm } from './occtWasm';
import { cadFormatOf, OCCT_FORMATS } from './formats';
import { type CadConversion, CadConversionError, type CadFormat } from './types';

/** Options of convertCadFile. */
export interface CadConvertOptions {
  /** Aborts the conversion (its thread is ended); the promise rejects with an AbortError. */
  signal?: AbortSignal;
  /** Time bound, ms (default CAD_DEFAULT_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Heap bound of the converting thread, MB (V8 old generation; default CAD_DEFAULT_HEAP_MB). */
  maxHeapMb?: number;
}

/** Default time bound of one CAD file, ms. */
export const CAD_DEFAULT_TIMEOUT_MS = 120_000;
/** Default heap bound of a converting thread, MB. */
export const CAD_DEFAULT_HEAP_MB = 2048;
/** Largest CAD file converted, bytes (the readers hold the whole file in memory). */
export const CAD_MAX_FILE_BYTES = 512 * 1024 * 1024;

/** The worker entry of each reader family. */
const WORKERS = {
  occt: new URL('../../workers/cadOcct.worker.ts', import.meta.url).href,
  ifc: new URL('../../workers/cadIfc.worker.ts', import.meta.url).href,
  mesh: new URL('../../workers/cadMesh.worker.ts', import.meta.url).href,
};
const maxThreads = Math.max(1, Math.floor(availableParallelism() / 2));

function newPool(worker: string, heapMb: number, threads: number): Piscina {
  return threadPool(worker, { maxThreads: threads, memoryMb: heapMb, what: 'CAD conversion' });
}

/** Shared pools of the mesh formats (read in JavaScript), by heap bound. */
const sharedPools = new Map<number, Piscina>();
/** Threads of their own running now (OpenCascade, web-ifc), and the tasks waiting for one. */
let ownThreads = 0;
const waiting: (() => void)[] = [];

/** Runs `task` in a pool of one thread that is destroyed afterwards, at most `maxThreads` at once. */
async function inOwnThread<T>(
  worker: string,
  heapMb: number,
  task: (pool: Piscina) => Promise<T>,
  signal: AbortSignal,
): Promise<T> {
  while (ownThreads >= maxThreads) {
    signal.throwIfAborted();
    // Wait for a thread to end, or for the abort (time bound, cancel) while waiting.
    await new Promise<void>((resolve) => {
      const wake = () => {
        signal.removeEventListener('abort', wake);
        const i = waiting.indexOf(wake);
        if (i >= 0) waiting.splice(i, 1);
        resolve();
      };
      waiting.push(wake);
      signal.addEventListener('abort', wake);
    });
  }
  signal.throwIfAborted();
  ownThreads++;
  const pool = newPool(worker, heapMb, 1);
  try {
    return await task(pool);
  } finally {
    ownThreads--;
    waiting.shift()?.();
    await pool.destroy();
  }
}

/** The wasm reader (whose thread ends with the file) of a format, or null for the mesh formats. */
function wasmWorker(format: CadFormat): string | null {
  return OCCT_FORMATS.includes(format) ? WORKERS.occt : format === '.ifc' ? WORKERS.ifc : null;
}

/**
 * Converts the CAD file at `filePath` (its name's extension gives the format, CAD_FORMATS).
 * @returns the meshes (mm; STL and OBJ numbers taken as mm, glTF metres scaled), triangle count, bounds, warnings.
 * @throws CadConversionError (fast, before any thread starts) for an unsupported format — the message names
 *   the supported ones — or a file over CAD_MAX_FILE_BYTES; CadConversionError when the file cannot be read
 *   as its format, takes longer than `timeoutMs` or needs more than `maxHeapMb`; an AbortError when
 *   `signal` aborts.
 */
export async function convertCadFile(filePath: string, opts: CadConvertOptions = {}): Promise<CadConversion> {
  const fileName = path.basename(filePath);
  const format = cadFormatOf(fileName);
  const { size } = await stat(filePath);
  if (size > CAD_MAX_FILE_BYTES)
    throw new CadConversionError(
      fileName,
      `${size} bytes is over the limit of ${CAD_MAX_FILE_BYTES} bytes for a CAD file`,
    );
  const timeoutMs = opts.timeoutMs ?? CAD_DEFAULT_TIMEOUT_MS;
  const heapMb = opts.maxHeapMb ?? CAD_DEFAULT_HEAP_MB;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  const wasm = wasmWorker(format);
  const task: CadTask = { filePath };
  const run = (pool: Piscina) => pool.run(task, { signal }) as Promise<CadTaskResult>;
  let result: CadTaskResult;
  try {
    if (wasm === WORKERS.occt) task.wasm = await occtWasm();
    if (wasm) result = await inOwnThread(wasm, heapMb, run, signal);
    else {
      let pool = sharedPools.get(heapMb);
      if (!pool) sharedPools.set(heapMb, (pool = newPool(WORKERS.mesh, heapMb, maxThreads)));
      result = await run(pool);
    }
  } catch (e) {
    if (opts.signal?.aborted) throw opts.signal.reason ?? e;
    if (timeout.aborted)
      throw new CadConversionError(fileName, `conversion took longer than ${timeoutMs / 1000} s and was stopped`);
    if (e instanceof Error && 'code' in e && e.code === 'ERR_WORKER_OUT_OF_MEMORY')
      throw new CadConversionError(fileName, `conversion needed more than ${heapMb} MB of memory and was stopped`);
    throw new CadConversionError(fileName, `could not be read: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!result.ok) throw new CadConversionError(fileName, result.message);
  return result.conversion;
}

/** Ends the shared conversion threads (server shutdown, tests). */
export async function closeCadPools(): Promise<void> {
  const pools = [...sharedPools.values()];
  sharedPools.clear();
  await Promise.all(pools.map((p) => p.destroy()));
}
