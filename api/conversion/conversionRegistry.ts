/**
 * What one process knows of the conversions (application.md §4 "Model conversion (adding a project)"): the
 * ones it holds (`active`, by project name), the unfinished ones held elsewhere or queued (`others`, as of
 * the last heartbeat), the ones that ended here lately, the callers waiting for a final event, and the
 * progress listeners. Shared by api/conversion/ConversionManager.ts (which runs conversions) and
 * api/conversion/conversionHeartbeat.ts (which watches the other processes), so both settle and announce a
 * conversion the same way.
 */
import { ConversionStatus, type ConversionStatusValue, type ProgressEvent } from '../contract/common';
import type { ConversionRow } from './conversionLeases';
import type { RunningConversion } from './conversionTypes';

/** State of one conversion this process holds (reserved here, or taken from the queue here). */
export interface Active {
  id: string;
  projectName: string;
  startedBy: string;
  status: ConversionStatusValue;
  /** Server progress, 0–100. */
  progress: number;
  message: string;
  subMessages: string[];
  abort: AbortController;
  /** Time of the last progress event and the last progress write, ms since the epoch. */
  lastEmit: number;
  lastDbWrite: number;
  pending: ReturnType<typeof setTimeout> | null;
  /** Resolves when this process lets go of it (ended, handed back, paused or lost). */
  done: Promise<ProgressEvent>;
  resolve: (e: ProgressEvent) => void;
  /** Set while the revision is being committed; a cancel then comes too late. */
  committing: boolean;
  /** The row names this process as holder (the heartbeat may judge it). */
  leased: boolean;
  /** Taken from the queue (running), not only reserved. */
  claimed: boolean;
  /** Reserved while its input is still being stored (not yet handed to the queue): nothing has run. */
  storing: boolean;
  /** Which take of the job this is (1 = first). */
  attempt: number;
  /** Another process owns the outcome now (handed back, paused, or the row was reaped): keep the input files. */
  keepInput: boolean;
  /** The row's outcome is not this process's to write (cancelled elsewhere, reaped, handed back, paused). */
  lost: boolean;
  /** The running execute(), awaited on shutdown so its clean-up ends before the database closes. */
  executing: Promise<void> | null;
}

/** A promise of a conversion's final event and its resolver. */
interface Waiter {
  promise: Promise<ProgressEvent>;
  resolve: (e: ProgressEvent) => void;
}

/** How long a locally ended conversion is not taken from a database snapshot read meanwhile, ms. */
const ENDED_MEMORY_MS = 10_000;

/** The conversions of one process, their waiters and listeners. */
export class ConversionRegistry {
  /** Conversions this process holds, by project name. */
  readonly active = new Map<string, Active>();
  /** Unfinished conversions this process does not hold (queued, paused, or held elsewhere), by project. */
  readonly others = new Map<string, RunningConversion>();
  /** Final events awaited with wait(), by conversion id. */
  private readonly waiters = new Map<string, Waiter>();
  /** Conversions ended here lately (id → time), so an older snapshot does not bring them back. */
  private readonly ended = new Map<string, number>();
  private readonly listeners = new Set<(e: ProgressEvent) => void>();
  private readonly startEndListeners = new Set<(projectName: string) => void>();

  /** A new hold of conversion `id` (not yet in `active`), in progress with `message`. */
  newActive(id: string, projectName: string, startedBy: string, message: string): Active {
    let resolve!: (e: ProgressEvent) => void;
    const done = new Promise<ProgressEvent>((r) => (resolve = r));
    return {
      id,
      projectName,
      startedBy,
      status: ConversionStatus.InProgress,
      progress: 0,
      message,
      subMessages: [],
      abort: new AbortController(),
      lastEmit: 0,
      lastDbWrite: Date.now(),
      pending: null,
      done,
      resolve,
      committing: false,
      leased: false,
      claimed: false,
      storing: false,
      attempt: 0,
      keepInput: false,
      lost: false,
      executing: null,
    };
  }

  /** The held conversion with this id. */
  byId(id: string): Active | undefined {
    for (const a of this.active.values()) if (a.id === id) return a;
    return undefined;
  }

  /** Stops holding `a`: out of `active`, remembered as ended here, its pending progress event dropped. */
  drop(a: Active): void {
    this.active.delete(a.projectName);
    this.ended.set(a.id, Date.now());
    if (a.pending) clearTimeout(a.pending);
  }

  /** Remembers that conversion `id` ended here (a cancel of a row held elsewhere, a reaped row). */
  markEnded(id: string): void {
    this.ended.set(id, Date.now());
  }

  /** True when conversion `id` ended here less than ENDED_MEMORY_MS ago; forgets older ends. */
  endedLately(id: string): boolean {
    const now = Date.now();
    for (const [k, t] of this.ended) if (now - t > ENDED_MEMORY_MS) this.ended.delete(k);
    return this.ended.has(id);
  }

  /** Subscribes to every progress event; returns the unsubscribe. */
  onProgress(fn: (e: ProgressEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /**
   * Subscribes to the start and the end of every conversion (the project's name; once each per conversion
   * over all processes, see announceStart and emit); returns the unsubscribe.
   */
  onStartOrEnd(fn: (projectName: string) => void): () => void {
    this.startEndListeners.add(fn);
    return () => this.startEndListeners.delete(fn);
  }

  /**
   * Tells the start/end listeners that a conversion of `projectName` started. Called once per conversion,
   * by the process that queued it: the processes that take it later (the first take, a retry, the
   * continuation after a CAD pause) do not know whether another one announced it.
   */
  announceStart(projectName: string): void {
    this.callEach(this.startEndListeners, projectName);
  }

  /**
   * Sends `e` to every listener; a final event (Ready, Error, Canceled) also goes to the start/end
   * listeners (a conversion's final event is emitted once, by the one process that wrote its end). A
   * failing listener does not stop the others (nor the conversion).
   */
  emit(e: ProgressEvent): void {
    this.callEach(this.listeners, e);
    if (e.status !== ConversionStatus.InProgress && e.status !== ConversionStatus.Warning)
      this.callEach(this.startEndListeners, e.projectName);
  }

  /** Calls each of `fns` with `arg`, past the ones that throw. */
  private callEach<T>(fns: ReadonlySet<(arg: T) => void>, arg: T): void {
    for (const fn of fns) {
      try {
        fn(arg);
      } catch {
        // A failing listener must not stop the conversion.
      }
    }
  }

  /** The waiter of conversion `id`, created when none exists. */
  waiter(id: string): Waiter {
    let w = this.waiters.get(id);
    if (!w) {
      let resolve!: (e: ProgressEvent) => void;
      const promise = new Promise<ProgressEvent>((r) => (resolve = r));
      w = { promise, resolve };
      this.waiters.set(id, w);
    }
    return w;
  }

  /** The existing waiter of conversion `id`. */
  existingWaiter(id: string): Waiter | undefined {
    return this.waiters.get(id);
  }

  /** Ids of the conversions someone waits for. */
  waitedFor(): string[] {
    return [...this.waiters.keys()];
  }

  /** Forgets the waiter of a conversion that was never recorded. */
  forgetWaiter(id: string): void {
    this.waiters.delete(id);
  }

  /** Resolves this process's hold of `a` and the waiters of its conversion. */
  settle(a: Active, e: ProgressEvent): void {
    a.resolve(e);
    this.settleId(a.id, e);
  }

  /** Resolves the waiters of conversion `id` with its final event. */
  settleId(id: string, e: ProgressEvent): void {
    const w = this.waiters.get(id);
    if (!w) return;
    this.waiters.delete(id);
    w.resolve(e);
  }

  /** The progress event of a held conversion. */
  event(a: Active, waitingForCadFiles = false): ProgressEvent {
    return {
      conversionId: a.id,
      projectName: a.projectName,
      status: a.status,
      message: a.message,
      subMessages: a.subMessages,
      progress: a.progress,
      ...(waitingForCadFiles ? { waitingForCadFiles: true } : {}),
    };
  }

  /** A progress event from a stored row (the live state when this process holds it). */
  rowToEvent(row: ConversionRow, waitingForCadFiles = false): ProgressEvent {
    const a = this.active.get(row.project_name);
    if (a && a.id === row.id) return this.event(a);
    return this.storedEvent(row, waitingForCadFiles);
  }

  /** The progress event a stored row says, whatever this process holds. */
  storedEvent(row: ConversionRow, waitingForCadFiles = false): ProgressEvent {
    return {
      conversionId: row.id,
      projectName: row.project_name,
      status: row.status as ConversionStatusValue,
      message: row.message,
      subMessages: row.error ? [row.error] : [],
      progress: row.progress,
      ...(waitingForCadFiles && row.finished_at === null ? { waitingForCadFiles: true } : {}),
    };
  }

  /** How a held conversion looks to the checks and the model list. */
  info(a: Active): RunningConversion {
    return { id: a.id, startedBy: a.startedBy, progress: a.progress, message: a.message, waitingForCadFiles: false };
  }
}
