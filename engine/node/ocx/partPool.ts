/**
 * Parsing and tessellation in worker threads for the Node import: an OffloadFactory
 * for importOcx (engine/ocx/index.ts). The calling thread only splits the file into top-level parts
 * (engine/ocx/partSplit.ts, a byte scan) and parses what is left; the parts' bytes are batched and run
 * as tasks of a piscina pool (engine/node/ocx/partWorker.ts) — or processed on the calling thread when
 * `threads × inFlightPerWorker` batches are already in flight — each thread holding its own ModelBuilder
 * per import, made from the same shared data and options. Outputs are renumbered and appended to the
 * calling thread's builder strictly in document order, so the result is identical to the single-thread
 * import (tests/engine/ocx/partPool.identical.test.ts); the first error in document order is the one
 * reported. Node only: the browser imports on one thread (engine/ocx/index.ts without `offload`).
 *
 * One pool per thread count is made on first use and kept for later imports of the process (a thread
 * costs ~0.3 s to start with the TypeScript loader); piscina ends a thread after IDLE_TIMEOUT_MS without
 * work, and idle threads do not keep the process alive. Memory stays bounded: at most inFlightPerWorker
 * batches of about batchBytes wait per thread; beyond that the calling thread processes the batch
 * itself. Each thread's builder (with its cache of tessellated reference surfaces) is dropped at the
 * thread's next task after the import ended, or with the thread. bench/README.md ('Part pool') has the
 * measurement that chose piscina over the hand-written pool it replaced.
 */
import v8 from 'node:v8';
import { Piscina } from 'piscina';
import { ModelBuilder } from '../../ocx/buildModel';
import type { GroupOffload, OffloadFactory } from '../../ocx/index';
import { OcxImportError } from '../../ocx/errors';
import {
  errorData,
  processUnits,
  rebaseOutput,
  type PartError,
  type PartTextContext,
  type PartUnit,
} from '../../ocx/partText';
import type { PartRecord } from '../../ocx/reader';
import { workerExecArgv } from '../tsxExecArgv';
import { HEADER_BYTES, type PartBatch, type PartBatchResult, type PartInit } from './partWorker';

/** Options of the pool. */
export interface PartPoolOptions {
  /** Worker threads (≥ 1). */
  threads: number;
  /** Records per batch of already parsed groups sent to a worker (default 256). */
  batchRecords?: number;
  /** Bytes of part text per batch (default 256 KiB). */
  batchBytes?: number;
  /**
   * Batches in flight per worker thread (default 3). When that many per thread are, the calling thread
   * processes the next batch itself (with its own ModelBuilder) instead of waiting: a busy machine then
   * degrades towards the one-thread import instead of below it, and memory stays bounded.
   */
  inFlightPerWorker?: number;
}

/**
 * A pool thread without work ends after this long (ms); the next import starts it again. Long: starting
 * a thread with the TypeScript loader costs more CPU than a whole 10k-part import's pool overhead, and
 * under load imports are far apart (bench/README.md, 'Part pool'); an idle thread holds only the last
 * import's builder and does not keep the process alive.
 */
export const IDLE_TIMEOUT_MS = 10 * 60_000;

/** Process-wide pools by thread count. */
const pools = new Map<string, Piscina>();
let nextImportId = 1;

/**
 * The pool of `threads` threads that take `perThread` tasks each at once: a thread then has its next
 * batches queued while it works, instead of waiting for the calling thread (busy splitting the file) to
 * hand it one when the last is done.
 */
function poolOf(threads: number, perThread: number): Piscina {
  const key = `${threads}×${perThread}`;
  let pool = pools.get(key);
  if (!pool) {
    pool = new Piscina({
      filename: new URL('./partWorker.ts', import.meta.url).href,
      minThreads: 0,
      maxThreads: threads,
      concurrentTasksPerWorker: perThread,
      idleTimeout: IDLE_TIMEOUT_MS,
      execArgv: workerExecArgv(),
    });
    // a thread that dies outside a task is replaced by the pool; its 'error' must not end the process
    pool.on('error', () => undefined);
    pools.set(key, pool);
  }
  return pool;
}

/**
 * An OffloadFactory running the groups on `options.threads` worker threads.
 * @throws RangeError when threads < 1. A thread's error rejects the import (GroupOffload.flush/backlog).
 */
export function partPool(options: PartPoolOptions): OffloadFactory {
  if (!(options.threads >= 1)) throw new RangeError(`partPool: threads must be ≥ 1 (got ${options.threads})`);
  return (shared, build, builder) => new PartPool(shared, build, builder, options);
}

class PartPool implements GroupOffload {
  private readonly id = nextImportId++;
  private readonly pool: Piscina;
  /** Ended flag, length and the serialized PartInit, shared with the threads (HEADER_BYTES). */
  private readonly data: SharedArrayBuffer;
  private inFlight = 0;
  private readonly results = new Map<number, PartBatchResult>();
  private pending: PartUnit[] = [];
  private pendingSize = 0;
  private pendingRecords = 0;
  private context: PartTextContext | null = null;
  /** Batches to process on this thread (the workers had enough), with their sequence numbers. */
  private localQueue: { seq: number; units: PartUnit[]; context: PartTextContext | null }[] = [];
  private nextSeq = 0;
  private nextAppend = 0;
  private failure: Error | null = null;
  private closed = false;
  private wake: (() => void) | null = null;
  private readonly batchRecords: number;
  private readonly batchBytes: number;
  private readonly maxInFlight: number;
  private readonly shared: Parameters<OffloadFactory>[0];
  private readonly build: Parameters<OffloadFactory>[1];
  /** The calling thread's own builder for batches it processes itself (made on first use). */
  private local: ModelBuilder | null = null;
  /** Unknown-element counts of the text units, in document order (filled as they are appended). */
  private readonly unsupportedByText: [string, number][][] = [];

  constructor(
    shared: Parameters<OffloadFactory>[0],
    build: Parameters<OffloadFactory>[1],
    private readonly builder: ModelBuilder,
    options: PartPoolOptions,
  ) {
    this.batchRecords = options.batchRecords ?? 256;
    this.batchBytes = options.batchBytes ?? 256 * 1024;
    const perThread = options.inFlightPerWorker ?? 3;
    this.maxInFlight = options.threads * perThread;
    this.shared = shared;
    this.build = build;
    this.pool = poolOf(options.threads, perThread);
    const init: PartInit = {
      build,
      shared: {
        header: shared.header,
        units: shared.units,
        catalogue: shared.catalogue,
        surfaces: shared.surfaces,
        coordinateSystems: shared.coordinateSystems,
        designViews: shared.designViews,
      },
    };
    const bytes = v8.serialize(init);
    this.data = new SharedArrayBuffer(HEADER_BYTES + bytes.length);
    new Int32Array(this.data, 0, 2)[1] = bytes.length;
    new Uint8Array(this.data, HEADER_BYTES).set(bytes);
  }

  add(records: PartRecord[], base: number): void {
    this.pending.push({ kind: 'records', records, base });
    this.pendingRecords += records.length;
    if (this.pendingRecords >= this.batchRecords) this.send();
  }

  addText(bytes: Uint8Array, line: number, column: number, context: PartTextContext): void {
    this.context ??= context;
    this.pending.push({ kind: 'text', bytes, line, column });
    this.pendingSize += bytes.length;
    if (this.pendingSize >= this.batchBytes) this.send();
  }

  textUnsupported(): [string, number][][] {
    return this.unsupportedByText;
  }

  /** Processes the batches left to this thread (a promise while there are some); rejects once a unit has failed. */
  backlog(): Promise<void> | undefined {
    if (this.failure) return Promise.reject(this.failure);
    return this.localQueue.length ? this.runLocal() : undefined;
  }

  async flush(): Promise<void> {
    if (this.pending.length) this.send();
    await this.runLocal();
    await this.waitFor(() => this.nextAppend === this.nextSeq);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.failure ??= new Error('The OCX part pool is closed');
    Atomics.store(new Int32Array(this.data, 0, 1), 0, 1); // the threads drop this import's builders
  }

  /**
   * Runs the pending units as one pool task, or leaves them to this thread (backlog/flush) when
   * maxInFlight batches are in flight already.
   */
  private send(): void {
    const units = this.pending;
    const seq = this.nextSeq++;
    const context = units.some((u) => u.kind === 'text') ? this.context : null;
    this.pending = [];
    this.pendingSize = 0;
    this.pendingRecords = 0;
    if (this.inFlight >= this.maxInFlight) {
      this.localQueue.push({ seq, units, context });
      return;
    }
    const transfer = units.flatMap((u) => (u.kind === 'text' ? [u.bytes.buffer as ArrayBuffer] : []));
    const task: PartBatch = { id: this.id, seq, data: this.data, units, context };
    this.inFlight++;
    let run: Promise<PartBatchResult>;
    try {
      run = this.pool.run(task, { transferList: transfer as never });
    } catch (e) {
      // A thread that cannot even be started (refused options, no memory) fails this batch in document
      // order like any other; thrown out of the reader instead, flush() would wait for the batch for ever.
      run = Promise.reject(e);
    }
    run
      .then(
        (r: PartBatchResult) => r,
        (e: unknown): PartBatchResult => ({ seq, error: errorData(workerStopped(e)) }),
      )
      .then((r) => {
        this.inFlight--;
        if (this.closed) return;
        this.results.set(seq, r); // reported in document order
        this.appendReady();
        this.notify();
      });
  }

  /** Processes the local queue on this thread (a separate builder: its warnings are merged like a worker's). */
  private async runLocal(): Promise<void> {
    while (this.localQueue.length && !this.failure) {
      const { seq, units, context } = this.localQueue.shift()!;
      this.local ??= new ModelBuilder(this.shared, this.build);
      let r: PartBatchResult;
      try {
        r = { seq, results: await processUnits(this.local, units, context) };
      } catch (e) {
        r = { seq, error: errorData(e) };
      }
      this.results.set(seq, r);
      this.appendReady();
    }
  }

  /** Appends finished batches in sequence order, renumbering their objects after those already appended. */
  private appendReady(): void {
    for (let r = this.results.get(this.nextAppend); r && !this.failure; r = this.results.get(this.nextAppend)) {
      this.results.delete(this.nextAppend);
      if ('error' in r) return this.fail(toError(r.error));
      try {
        for (const unit of r.results) {
          for (const g of unit.groups)
            this.builder.append(rebaseOutput(g.out, g.base, this.builder.count), this.builder.count);
          if (unit.unsupported) this.unsupportedByText.push(unit.unsupported);
        }
      } catch (e) {
        return this.fail(e as Error);
      }
      this.nextAppend++;
    }
  }

  private fail(e: Error): void {
    this.failure ??= e;
    this.notify();
  }

  private notify(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }

  /** Resolves when cond() holds (checked after each finished batch); rejects on a failure. */
  private async waitFor(cond: () => boolean): Promise<void> {
    for (;;) {
      if (this.failure) throw this.failure;
      if (cond()) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}

/** Name of the error of a task the pool could not run: its message is already the one a user reads. */
const WORKER_STOPPED = 'PartWorkerStopped';

/** A task the pool could not run (its thread stopped or could not start), as an Error naming the part worker. */
function workerStopped(e: unknown): Error {
  return Object.assign(new Error(`OCX part worker stopped (${e instanceof Error ? e.message : String(e)})`), {
    name: WORKER_STOPPED,
  });
}

/** The error of a unit again: an OcxImportError with its line and column, else an Error naming the worker. */
function toError(e: PartError): Error {
  if (e.name === 'OcxImportError') {
    const suffix =
      e.line !== undefined ? ` (line ${e.line}${e.column !== undefined ? `, column ${e.column}` : ''})` : '';
    return new OcxImportError(
      suffix && e.message.endsWith(suffix) ? e.message.slice(0, -suffix.length) : e.message,
      e.line,
      e.column,
    );
  }
  if (e.name === 'AbortError') return Object.assign(new Error(e.message), { name: 'AbortError' });
  // The message is what the user reads (the conversion's error); the thread's stack stays in the stack, for
  // the server's log. A thread that could not run the batch says so itself.
  const err = new Error(e.name === WORKER_STOPPED ? e.message : `OCX part worker failed: ${e.message}`);
  if (e.stack) err.stack = `${err.message}\n    (in the worker thread) ${e.stack}`;
  return err;
}
