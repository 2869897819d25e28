/**
 * Parsing and tessellation in worker threads for the Node import: an OffloadFactory
 * for importOcx (engine/ocx/index.ts). The calling thread only splits the file into top-level parts
 * (engine/ocx/partSplit.ts, a byte scan) and parses what is left; the parts' bytes are batched and
 * sent to the least busy of a few worker threads (engine/node/ocx/partWorker.ts) — or processed on the
 * calling thread when every worker has enough queued — each holding its own ModelBuilder made from the
 * same shared data and options. Outputs are renumbered and appended to the calling thread's builder
 * strictly in document order, so the result is identical to the single-thread import
 * (tests/engine/ocx/partPool.identical.test.ts); the first error in document order is the one
 * reported. Node only: the browser imports on one thread (engine/ocx/index.ts without `offload`).
 *
 * The worker threads are started on first use and kept for later imports of the same process (a
 * thread costs ~0.3 s to start with the TypeScript loader); idle, they do not keep the process alive.
 * Memory stays bounded: at most inFlightPerWorker batches of about batchBytes wait per
 * worker; beyond that the calling thread processes the batch itself. Each worker keeps its own
 * cache of tessellated reference surfaces for the import, dropped when the import ends.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
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
import type { PartBatch, PartBatchResult, PartEnd, PartInit } from './partWorker';
import type { PartRecord } from '../../ocx/reader';

/** Options of the pool. */
export interface PartPoolOptions {
  /** Worker threads (≥ 1). */
  threads: number;
  /** Records per batch of already parsed groups sent to a worker (default 256). */
  batchRecords?: number;
  /** Bytes of part text per batch (default 256 KiB). */
  batchBytes?: number;
  /**
   * Batches queued per worker (default 3). When every worker has that many, the calling thread
   * processes the next batch itself (with its own ModelBuilder) instead of waiting: a busy machine then
   * degrades towards the one-thread import instead of below it, and memory stays bounded.
   */
  inFlightPerWorker?: number;
}

/** One process-wide worker thread and the number of imports using it. */
interface Slot {
  worker: Worker;
  users: number;
  dead: boolean;
}

const slots: Slot[] = [];
let nextImportId = 1;

/** Code of a worker (eval: true) that registers tsx's ESM loader, then imports the TypeScript module at `href`. */
function tsBoot(href: string): string {
  const api = createRequire(import.meta.url)
    .resolve('tsx/esm/api')
    .replace(/\.cjs$/, '.mjs');
  return `import(${JSON.stringify(pathToFileURL(api).href)}).then((m) => { m.register(); return import(${JSON.stringify(href)}); })
  .catch((e) => { console.error(e); process.exit(1); });`;
}

/** The first `n` live process-wide workers, started as needed; each is ref'd while in use. */
function acquire(n: number): Slot[] {
  for (let i = slots.length - 1; i >= 0; i--) if (slots[i].dead) slots.splice(i, 1);
  while (slots.length < n) {
    const url = new URL('./partWorker.ts', import.meta.url);
    // sources run through tsx: the .ts entry is imported after the loader is registered in the thread
    const worker = url.pathname.endsWith('.ts') ? new Worker(tsBoot(url.href), { eval: true }) : new Worker(url);
    const slot: Slot = { worker, users: 0, dead: false };
    worker.on('exit', () => (slot.dead = true));
    worker.on('error', () => (slot.dead = true));
    slots.push(slot);
  }
  const got = slots.slice(0, n);
  for (const s of got) if (s.users++ === 0) s.worker.ref();
  return got;
}

function release(got: Slot[]): void {
  for (const s of got) if (--s.users === 0) s.worker.unref();
}

/**
 * An OffloadFactory running the groups on `options.threads` worker threads.
 * @throws RangeError when threads < 1. A worker's error or exit rejects the import (GroupOffload.flush/backlog).
 */
export function partPool(options: PartPoolOptions): OffloadFactory {
  if (!(options.threads >= 1)) throw new RangeError(`partPool: threads must be ≥ 1 (got ${options.threads})`);
  return (shared, build, builder) => new PartPool(shared, build, builder, options);
}

class PartPool implements GroupOffload {
  private readonly id = nextImportId++;
  private readonly slots: Slot[];
  private readonly inFlight: number[];
  private readonly results = new Map<number, PartBatchResult>();
  private readonly listeners: [Worker, (m: PartBatchResult) => void, (e: unknown) => void][] = [];
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
    this.maxInFlight = options.inFlightPerWorker ?? 3;
    this.shared = shared;
    this.build = build;
    this.slots = acquire(options.threads);
    this.inFlight = this.slots.map(() => 0);
    const init: PartInit = {
      type: 'init',
      id: this.id,
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
    this.slots.forEach((slot, k) => {
      const onMessage = (r: PartBatchResult) => {
        if (r.id !== this.id) return;
        this.inFlight[k]--;
        this.results.set(r.seq, r);
        this.appendReady();
        this.notify();
      };
      const onExit = (code: unknown) =>
        this.fail(new Error(`OCX part worker stopped (${code instanceof Error ? code.message : `exit code ${code}`})`));
      slot.worker.on('message', onMessage);
      slot.worker.on('exit', onExit);
      slot.worker.on('error', onExit);
      this.listeners.push([slot.worker, onMessage, onExit]);
      slot.worker.postMessage(init);
    });
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
    for (const [w, onMessage, onExit] of this.listeners) {
      w.off('message', onMessage);
      w.off('exit', onExit);
      w.off('error', onExit);
    }
    for (const s of this.slots) if (!s.dead) s.worker.postMessage({ type: 'end', id: this.id } satisfies PartEnd);
    release(this.slots);
  }

  private busy(): number {
    let n = 0;
    for (const v of this.inFlight) n += v;
    return n;
  }

  /**
   * Sends the pending units as one batch to the worker with the fewest batches in flight, or leaves
   * them to this thread (backlog/flush) when every worker has maxInFlight batches.
   */
  private send(): void {
    const units = this.pending;
    const seq = this.nextSeq++;
    const context = units.some((u) => u.kind === 'text') ? this.context : null;
    this.pending = [];
    this.pendingSize = 0;
    this.pendingRecords = 0;
    if (this.busy() >= this.slots.length * this.maxInFlight) {
      this.localQueue.push({ seq, units, context });
      return;
    }
    let best = 0;
    for (let k = 1; k < this.slots.length; k++) if (this.inFlight[k] < this.inFlight[best]) best = k;
    const transfer = units.flatMap((u) => (u.kind === 'text' ? [u.bytes.buffer as ArrayBuffer] : []));
    try {
      this.slots[best].worker.postMessage(
        { type: 'batch', id: this.id, seq, units, context } satisfies PartBatch,
        transfer,
      );
      this.inFlight[best]++;
    } catch (e) {
      this.results.set(seq, { id: this.id, seq, error: errorData(e) }); // reported in document order
      this.appendReady();
    }
  }

  /** Processes the local queue on this thread (a separate builder: its warnings are merged like a worker's). */
  private async runLocal(): Promise<void> {
    while (this.localQueue.length && !this.failure) {
      const { seq, units, context } = this.localQueue.shift()!;
      this.local ??= new ModelBuilder(this.shared, this.build);
      let r: PartBatchResult;
      try {
        r = { id: this.id, seq, results: await processUnits(this.local, units, context) };
      } catch (e) {
        r = { id: this.id, seq, error: errorData(e) };
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

  /** Resolves when cond() holds (checked after each worker message); rejects on a failure. */
  private async waitFor(cond: () => boolean): Promise<void> {
    for (;;) {
      if (this.failure) throw this.failure;
      if (cond()) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
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
  return new Error(`OCX part worker failed: ${e.stack ?? e.message}`);
}
