/**
 * Runs and tracks project conversions (application.md §4 "Model conversion (adding a project)").
 * One conversion per project name at a time, across every server process (a second gets 409 'Adding the
 * project {name} is already in progress'; the database holds one unfinished row per project). Progress
 * p∈[0,1] from the converter becomes server progress 100·p, never going back, capped at 100, emitted at
 * most 10 times a second (plus every status change) and kept in the `conversions` table so GET
 * .../model-conversion answers after a reload and on any process.
 *
 * The upload reserves the name; start() then hands the conversion to the job queue (api/jobs/JobQueue.ts):
 * in-process on SQLite, pg-boss on PostgreSQL, where any server process may take it. The process holding
 * a conversion beats a heartbeat in its row (api/conversion/conversionLeases.ts); when it dies, another
 * process retries the job or fails it after JOB_TIMEOUT_SEC. A cancel from another process marks the row
 * cancelled and the holder stops at its next heartbeat. The revision commit marks the row Ready in the
 * same transaction, guarded on the row being unfinished, so a conversion completes once at most.
 *
 * With the "CAD components" option on and a CadStep given, a model that names CAD files gets its CAD
 * components after the model is converted (api/conversion/cadComponents.ts); a conversion started with
 * `waitForCadFiles` first pauses until its starter has uploaded them (api/conversion/CadWaits.ts,
 * application.md §4 "CAD upload dialog"), with `waitingForCadFiles` in its progress events. The model's
 * own conversion then counts as 0-90 % and the CAD files as the rest.
 */
import { randomUUID } from 'node:crypto';
import { rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { ConversionStatus, type ConversionStatusValue, type ProgressEvent } from '../contract/common';
import type { DB } from '../db/database';
import { uniqueViolation } from '../db/errors';
import { Errors } from '../errors';
import { inProcessQueue, type JobQueue } from '../jobs/JobQueue';
import type { ProjectStore } from '../projects/ProjectStore';
import type { ConversionConfig } from '../contract/settings';
import type { ConvertOutput } from './convertFile';
import { readCadFiles } from './cadFiles';
import type { ConversionRunner } from './runners';
import {
  ConversionLeases,
  type ConversionRow,
  DEFAULT_LEASES,
  heartbeatInterval,
  newWorkerId,
  STRANDED,
} from './conversionLeases';

export type { ConversionRow } from './conversionLeases';
export {
  type CadStep,
  type ConversionInput,
  type ConversionJobs,
  conversionErrorMessage,
  type RevisionWriter,
  type RunningConversion,
} from './conversionTypes';
import {
  type CadStep,
  cancelledEvent,
  type ConversionInput,
  type ConversionJobs,
  conversionErrorMessage,
  type EndRow,
  parseJob,
  type RevisionWriter,
  type RunningConversion,
} from './conversionTypes';

/** Minimum interval between two progress events of one conversion, ms (≤ 10/s). */
const EMIT_INTERVAL_MS = 100;
/** Interval and number of tries to record a conversion's end the database refused (≈ 10 minutes). */
const END_ROW_RETRY_MS = 5000;
const END_ROW_RETRIES = 120;
/** Minimum interval between two progress writes to the database, ms. */
const DB_INTERVAL_MS = 1000;
/** The queue conversions run from. */
const CONVERSION_QUEUE = 'keelson-conversion';
/** How long shutdown waits for stopped conversions to clean up, ms. */
const CLEANUP_WAIT_MS = 5000;
/** How long a job a full process got waits before it is offered again, s. */
const REOFFER_SEC = 2;
/** What a failed conversion says when the process running it stopped. */
const PROCESS_DIED = 'The server converting the model stopped';
/** What a reservation says when the process receiving its upload stopped. */
const UPLOAD_DIED = 'The server receiving the upload stopped';
/** How long a locally ended conversion is not taken from a database snapshot read meanwhile, ms. */
const ENDED_MEMORY_MS = 10_000;

/** State of one conversion this process holds (reserved here, or taken from the queue here). */
interface Active {
  id: string;
  projectName: string;
  startedBy: string;
  status: ConversionStatusValue;
  progress: number;
  message: string;
  subMessages: string[];
  abort: AbortController;
  lastEmit: number;
  lastDbWrite: number;
  pending: ReturnType<typeof setTimeout> | null;
  /** Resolves when this process lets go of it (ended, handed back or lost). */
  done: Promise<ProgressEvent>;
  resolve: (e: ProgressEvent) => void;
  /** Set while the revision is being committed; a cancel then comes too late. */
  committing: boolean;
  /** Set while the conversion is paused for its CAD files. */
  waitingForCadFiles: boolean;
  /** The row names this process as holder (the heartbeat may judge it). */
  leased: boolean;
  /** Taken from the queue (running), not only reserved. */
  claimed: boolean;
  /** Which take of the job this is (1 = first). */
  attempt: number;
  /** Another process owns the outcome now (handed back, or the row was reaped): keep the input files. */
  keepInput: boolean;
  /** The row's outcome is not this process's to write (cancelled elsewhere, reaped, handed back). */
  lost: boolean;
  /** The running execute(), awaited on shutdown so its clean-up ends before the database closes. */
  executing: Promise<void> | null;
}

/** Share of the progress the model's own conversion gets when CAD components follow. */
const MODEL_SHARE_WITH_CAD = 0.9;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref?.());

/** Starts, queues, runs, cancels and reports conversions. */
export class ConversionManager {
  private readonly active = new Map<string, Active>();
  /** Unfinished conversions this process does not hold (queued, or held by another process), by project. */
  private readonly others = new Map<string, RunningConversion>();
  /** Final events awaited with wait(), by conversion id. */
  private readonly waiters = new Map<
    string,
    { promise: Promise<ProgressEvent>; resolve: (e: ProgressEvent) => void }
  >();
  /** Conversions ended here lately (id → time), so an older snapshot does not bring them back. */
  private readonly ended = new Map<string, number>();
  private readonly listeners = new Set<(e: ProgressEvent) => void>();
  private readonly queue: JobQueue;
  private readonly leases: ConversionLeases;
  private working: Promise<void> | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private ticking = false;
  private stopping = false;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly projects: RevisionWriter,
    private readonly runner: ConversionRunner,
    /** The conversion options in force when a conversion starts (the admin's Settings); absent = defaults. */
    private readonly conversionConfig?: () => Promise<ConversionConfig>,
    /** The CAD components step; absent = CAD files are listed (cad-files.json) but not converted. */
    private readonly cad?: CadStep,
    private readonly jobs: ConversionJobs = { queue: inProcessQueue() },
  ) {
    this.queue = jobs.queue;
    this.leases = new ConversionLeases(db, newWorkerId(), jobs.leases ?? DEFAULT_LEASES);
  }

  /** This process's worker id in the `conversions` rows it holds. */
  get worker(): string {
    return this.leases.worker;
  }

  /**
   * Starts taking conversion jobs; with a shared queue also the heartbeat, which renews this process's
   * rows, sees cancels made elsewhere, retries or fails the jobs of dead processes and keeps the view of
   * conversions running elsewhere. Called once by the server; start() calls it too.
   */
  async begin(): Promise<void> {
    this.working ??= this.queue.work<{ conversionId: string }>(CONVERSION_QUEUE, this.jobs.concurrency ?? 2, (job) =>
      this.runJob(job.conversionId, true),
    );
    await this.working;
    if (this.queue.shared && !this.timer && !this.stopping) {
      this.timer = setInterval(() => void this.tick(), heartbeatInterval(this.leases.options.timeoutMs));
      this.timer.unref?.();
      await this.tick();
    }
  }

  /** Subscribes to every progress event (socket.io fan-out, CLI progress bar); returns the unsubscribe. */
  onProgress(fn: (e: ProgressEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /**
   * The unfinished conversion of a project, if any: held here (live) or elsewhere (as of the last
   * heartbeat, at most a second old).
   */
  running(projectName: string): RunningConversion | null {
    const a = this.active.get(projectName);
    if (a)
      return {
        id: a.id,
        startedBy: a.startedBy,
        progress: a.progress,
        message: a.message,
        waitingForCadFiles: a.waitingForCadFiles,
      };
    return this.others.get(projectName) ?? null;
  }

  /**
   * Reserves the project name for a new conversion (before the upload is stored) and records it.
   * @throws ApiError 409 'Adding the project {name} is already in progress' (also when another process
   *   holds the name); 503 while this process stops.
   * @returns the conversion id (the socket.io room).
   */
  async reserve(projectName: string, startedBy: string): Promise<string> {
    if (this.stopping) throw Errors.shuttingDown();
    if (this.active.has(projectName) || this.others.has(projectName)) throw Errors.conversionInProgress(projectName);
    const id = randomUUID();
    const a = this.newActive(id, projectName, startedBy, 'Uploading the file');
    this.active.set(projectName, a);
    this.waiter(id);
    try {
      await this.db
        .insertInto('conversions')
        .values({
          id,
          project_name: projectName,
          started_by: startedBy,
          status: a.status,
          progress: 0,
          message: a.message,
          error: null,
          created_at: new Date().toISOString(),
          finished_at: null,
          worker: this.worker,
          heartbeat_at: Date.now(),
          job: null,
        })
        .execute();
      a.leased = true;
    } catch (e) {
      // Not recorded: the name must not stay locked.
      this.active.delete(projectName);
      this.waiters.delete(id);
      if (uniqueViolation(e)) throw Errors.conversionInProgress(projectName);
      throw e;
    }
    return id;
  }

  /** Ends a reservation whose upload failed (status Error with `message`). */
  async fail(conversionId: string, message: string): Promise<void> {
    const a = this.byId(conversionId);
    if (a) await this.finish(a, ConversionStatus.Error, message, message);
  }

  /**
   * Withdraws a reservation whose upload was refused or broke off (bad archive, too large, client gone):
   * the conversion row is deleted, so the model list and other projects stay exactly as they were.
   * Waiters and progress listeners get a Canceled event. No-op for an unknown or finished conversion.
   */
  async release(conversionId: string): Promise<void> {
    const a = this.byId(conversionId);
    if (!a) return;
    this.active.delete(a.projectName);
    this.ended.set(a.id, Date.now());
    if (a.pending) clearTimeout(a.pending);
    a.abort.abort();
    await this.db.deleteFrom('conversions').where('id', '=', a.id).execute();
    a.status = ConversionStatus.Canceled;
    a.message = 'Upload refused';
    // Clients that saw the reservation (the start pages following it) learn that it is gone.
    const e = this.event(a);
    this.emit(e);
    this.settle(a, e);
  }

  /** True while `conversionId` is reserved here (false once handed to the queue, ended, cancelled or released). */
  isActive(conversionId: string): boolean {
    return this.byId(conversionId) !== undefined;
  }

  /** True when a conversion with this id was ever recorded (running, finished, failed or cancelled). */
  async known(conversionId: string): Promise<boolean> {
    return (await this.projectOf(conversionId)) !== null;
  }

  /** The project name of a recorded conversion, or null for an unknown id. */
  async projectOf(conversionId: string): Promise<string | null> {
    const a = this.byId(conversionId);
    if (a) return a.projectName;
    const row = await this.db
      .selectFrom('conversions')
      .select('project_name')
      .where('id', '=', conversionId)
      .executeTakeFirst();
    return row?.project_name ?? null;
  }

  /**
   * Queues the conversion of a reserved project (any process of a shared queue may run it); returns at
   * once. A failure to queue it ends the conversion as an Error.
   * @throws ApiError 404 when the reservation no longer exists (cancelled during the upload).
   */
  start(conversionId: string, input: ConversionInput): void {
    const a = this.byId(conversionId);
    if (!a) throw Errors.conversionNotFound(conversionId);
    this.enqueue(a, input).catch(() => {
      // enqueue() ends every failure with finish(); a failure there (database gone) must not crash the process.
    });
  }

  /** Resolves with the final progress event of a conversion (immediately when it already ended). */
  async wait(conversionId: string): Promise<ProgressEvent> {
    const w = this.waiters.get(conversionId);
    if (w) return w.promise;
    const row = await this.db.selectFrom('conversions').selectAll().where('id', '=', conversionId).executeTakeFirst();
    if (!row) throw Errors.conversionNotFound(conversionId);
    // Held by another process: the heartbeat resolves the waiter when the row ends.
    if (row.finished_at === null && this.queue.shared) return this.waiter(conversionId).promise;
    return this.rowToEvent(row);
  }

  /**
   * Cancels an unfinished conversion (application.md §4: only the user who started it), on whichever
   * process it runs or while it waits in the queue.
   * @throws ApiError 404 when none runs, 403 when `email` did not start it, 409 when its revision is
   *   being committed.
   */
  async cancel(projectName: string, email: string): Promise<void> {
    const a = this.active.get(projectName);
    if (a) {
      if (a.startedBy !== email) throw Errors.forbidden('Only the user who started the conversion can cancel it');
      if (a.committing) throw Errors.conversionFinishing(projectName);
      a.abort.abort();
      await this.finish(a, ConversionStatus.Canceled, 'Conversion canceled', null);
      return;
    }
    const row = await this.db
      .selectFrom('conversions')
      .selectAll()
      .where('project_name', '=', projectName)
      .where('finished_at', 'is', null)
      .executeTakeFirst();
    if (!row) throw Errors.conversionNotFound(projectName);
    if (row.started_by !== email) throw Errors.forbidden('Only the user who started the conversion can cancel it');
    const done = await this.leases.cancel(row.id, 'Conversion canceled');
    if (!done) {
      const now = await this.latest(projectName);
      if (now?.id === row.id && now.status === ConversionStatus.Ready) throw Errors.conversionFinishing(projectName);
      throw Errors.conversionNotFound(projectName);
    }
    this.ended.set(row.id, Date.now());
    if (this.others.get(projectName)?.id === row.id) this.others.delete(projectName);
    const e = this.rowToEvent(done);
    this.emit(e);
    this.settleId(row.id, e);
    // Still in the queue: nobody else will remove the upload (a holder removes it when it stops).
    if (row.worker === null && row.job) await this.discardInput(parseJob(row.job));
  }

  /** The latest conversion row of a project, or undefined. */
  latest(projectName: string): Promise<ConversionRow | undefined> {
    return this.db
      .selectFrom('conversions')
      .selectAll()
      .where('project_name', '=', projectName)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
  }

  /** Latest conversion row per project name. */
  async latestAll(): Promise<Map<string, ConversionRow>> {
    const rows = await this.db.selectFrom('conversions').selectAll().orderBy('created_at', 'asc').execute();
    const m = new Map<string, ConversionRow>();
    for (const r of rows) m.set(r.project_name, r);
    return m;
  }

  /** Forgets the conversion history of a project (Remove of a failed card, project deletion). */
  async forget(projectName: string): Promise<void> {
    if (this.active.has(projectName) || this.others.has(projectName)) return;
    await this.db
      .deleteFrom('conversions')
      .where('project_name', '=', projectName)
      .where('finished_at', 'is not', null)
      .execute();
  }

  /** A progress event from a stored row. */
  rowToEvent(row: ConversionRow): ProgressEvent {
    const a = this.active.get(row.project_name);
    if (a && a.id === row.id) return this.event(a);
    return {
      conversionId: row.id,
      projectName: row.project_name,
      status: row.status as ConversionStatusValue,
      message: row.message,
      subMessages: row.error ? [row.error] : [],
      progress: row.progress,
    };
  }

  /**
   * Graceful stop (SIGTERM): takes no more jobs, lets the running conversions finish for up to `graceMs`,
   * then, with a shared queue, hands the rest back to the queue (another process continues them) or, with
   * the in-process queue, fails them ('The server stopped during the conversion'). Reservations whose
   * upload is still arriving fail too. Closes the runner and the queue.
   */
  async shutdown(graceMs: number): Promise<void> {
    this.stopping = true;
    await this.queue.stopTaking().catch(() => {});
    const running = [...this.active.values()].filter((a) => a.claimed);
    if (running.length > 0 && graceMs > 0)
      await Promise.race([Promise.all(running.map((a) => a.done)), sleep(graceMs)]);
    for (const a of [...this.active.values()]) {
      if (a.claimed && this.queue.shared) await this.handBack(a);
      else {
        a.abort.abort();
        await this.finish(
          a,
          ConversionStatus.Error,
          `Failed to add project ${a.projectName}: ${STRANDED}`,
          STRANDED,
        ).catch(() => {});
      }
    }
    // Their clean-up (temp directories) ends before the database closes; a runner that ignores the abort
    // does not hold the stop for ever.
    await Promise.race([Promise.all(running.map((a) => a.executing?.catch(() => {}))), sleep(CLEANUP_WAIT_MS)]);
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.runner.close();
    await this.cad?.adder.close();
    await this.queue.close().catch(() => {});
  }

  /** Stops at once: shutdown without a grace period. */
  close(): Promise<void> {
    return this.shutdown(0);
  }

  /** Jobs this process runs now (readiness, shutdown logs). */
  get runningHere(): number {
    return [...this.active.values()].filter((a) => a.claimed).length;
  }

  private newActive(id: string, projectName: string, startedBy: string, message: string): Active {
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
      waitingForCadFiles: false,
      leased: false,
      claimed: false,
      attempt: 0,
      keepInput: false,
      lost: false,
      executing: null,
    };
  }

  private waiter(id: string): { promise: Promise<ProgressEvent>; resolve: (e: ProgressEvent) => void } {
    let w = this.waiters.get(id);
    if (!w) {
      let resolve!: (e: ProgressEvent) => void;
      const promise = new Promise<ProgressEvent>((r) => (resolve = r));
      w = { promise, resolve };
      this.waiters.set(id, w);
    }
    return w;
  }

  /** Resolves this process's hold of `a` and the waiters of its conversion. */
  private settle(a: Active, e: ProgressEvent): void {
    a.resolve(e);
    this.settleId(a.id, e);
  }

  private settleId(id: string, e: ProgressEvent): void {
    const w = this.waiters.get(id);
    if (!w) return;
    this.waiters.delete(id);
    w.resolve(e);
  }

  /** Writes the job into the row and sends it to the queue; the reservation leaves this process. */
  private async enqueue(a: Active, input: ConversionInput): Promise<void> {
    // From here the row names no holder: the heartbeat must not take that for a cancel.
    a.leased = false;
    try {
      await this.begin();
      if (!(await this.leases.enqueue(a.id, JSON.stringify(input)))) {
        // Cancelled from another process while the upload was stored.
        await this.lose(a);
        if (input.deleteInputOnFailure) await this.discardInput(input);
        return;
      }
    } catch (e) {
      await this.finish(
        a,
        ConversionStatus.Error,
        `Failed to add project ${a.projectName}: ${conversionErrorMessage(e)}`,
        conversionErrorMessage(e),
      );
      if (input.deleteInputOnFailure) await this.discardInput(input);
      return;
    }
    if (this.active.get(a.projectName) === a) {
      this.active.delete(a.projectName);
      if (a.pending) clearTimeout(a.pending);
      this.others.set(a.projectName, this.info(a));
      a.resolve(this.event(a));
    }
    try {
      await this.queue.send(CONVERSION_QUEUE, { conversionId: a.id });
      // With room here, this process takes the job at once instead of at the queue's next poll (the
      // queued copy then finds it held and ends); a full process leaves it to the others.
      if (this.queue.shared && this.runningHere < (this.jobs.concurrency ?? 2) && !this.stopping)
        void this.runJob(a.id).catch(() => {});
    } catch (e) {
      // The job never reached the queue: the row must not stay unfinished.
      const msg = conversionErrorMessage(e);
      const row = await this.leases.cancel(a.id, `Failed to add project ${a.projectName}: ${msg}`);
      this.others.delete(a.projectName);
      if (row) {
        await this.db
          .updateTable('conversions')
          .set({ status: ConversionStatus.Error, error: msg })
          .where('id', '=', a.id)
          .execute();
        const ev = { ...this.rowToEvent(row), status: ConversionStatus.Error, subMessages: [msg] };
        this.emit(ev);
        this.settleId(a.id, ev);
      }
      if (input.deleteInputOnFailure) await this.discardInput(input);
    }
  }

  private info(a: Active): RunningConversion {
    return { id: a.id, startedBy: a.startedBy, progress: a.progress, message: a.message, waitingForCadFiles: false };
  }

  /**
   * Runs one job (from the queue, or taken at once by the process that queued it): takes the row (or ends
   * at once when it ended or another process holds it) and converts.
   */
  private async runJob(conversionId: string, fromQueue = false): Promise<void> {
    if (this.stopping) {
      // Taken while stopping: back to the queue for another process (never dropped).
      if (this.queue.shared && fromQueue) await this.queue.send(CONVERSION_QUEUE, { conversionId });
      return;
    }
    // Conversions this process took at once count too: a full process offers the job again a little later.
    if (this.queue.shared && fromQueue && this.runningHere >= (this.jobs.concurrency ?? 2)) {
      await this.queue.send(CONVERSION_QUEUE, { conversionId }, REOFFER_SEC);
      return;
    }
    const row = await this.leases.claim(conversionId);
    if (!row) {
      for (const [name, o] of this.others) if (o.id === conversionId) this.others.delete(name);
      return;
    }
    const input = parseJob(row.job ?? '{}');
    const a = this.newActive(row.id, row.project_name, row.started_by, row.message);
    a.progress = row.progress;
    a.leased = true;
    a.claimed = true;
    a.attempt = row.attempts;
    this.others.delete(row.project_name);
    this.active.set(row.project_name, a);
    if (this.stopping) {
      // Taken while shutdown() went past it: not started, so handed back (or failed) like the rest.
      if (this.queue.shared) await this.handBack(a);
      else
        await this.finish(a, ConversionStatus.Error, `Failed to add project ${a.projectName}: ${STRANDED}`, STRANDED);
      return;
    }
    a.executing = this.execute(a, input);
    await a.executing;
  }

  /** The row of conversion `id`; none when it is gone or the database does not answer. */
  private rowOrNone(id: string) {
    return this.db
      .selectFrom('conversions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst()
      .catch(() => undefined);
  }

  /** This process no longer holds `a` (cancelled elsewhere, or reaped): stop it without writing its row. */
  private async lose(a: Active): Promise<void> {
    if (this.active.get(a.projectName) !== a) return;
    this.active.delete(a.projectName);
    this.ended.set(a.id, Date.now());
    if (a.pending) clearTimeout(a.pending);
    a.lost = true;
    const row = await this.rowOrNone(a.id);
    // Unfinished: another process retries it with the same input.
    a.keepInput = row?.finished_at === null;
    a.abort.abort();
    const e = row ? this.rowToEvent(row) : this.event(a);
    if (row?.finished_at) this.settle(a, e);
    else a.resolve(e);
  }

  /** Gives a running job back to the queue (shutdown past the grace period). */
  private async handBack(a: Active): Promise<void> {
    if (this.active.get(a.projectName) !== a) return;
    a.keepInput = true;
    a.lost = true;
    this.active.delete(a.projectName);
    if (a.pending) clearTimeout(a.pending);
    a.abort.abort();
    const released = await this.leases
      .release(a.id, 'The server converting the model stopped; continuing on another server')
      .catch(() => false);
    if (released) await this.queue.send(CONVERSION_QUEUE, { conversionId: a.id }).catch(() => {});
    a.resolve(this.event(a));
  }

  /** Removes the stored upload of a conversion that will not run again. */
  private async discardInput(input: ConversionInput): Promise<void> {
    await rm(input.input, { force: true }).catch(() => {});
    if (input.original) await rm(input.original, { force: true }).catch(() => {});
    for (const p of input.scratch ?? []) await rm(p, { recursive: true, force: true }).catch(() => {});
  }

  /** One heartbeat (shared queue): renew, notice cancels and dead processes, refresh the view of others. */
  private async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      const leased = [...this.active.values()].filter((a) => a.leased);
      const held = await this.leases.beat(leased.map((a) => a.id));
      for (const a of leased) if (!held.has(a.id)) await this.lose(a);
      const { requeued, failed } = await this.leases.reap(PROCESS_DIED, UPLOAD_DIED);
      for (const id of requeued) await this.queue.send(CONVERSION_QUEUE, { conversionId: id });
      for (const row of failed) {
        this.ended.set(row.id, Date.now());
        // The dead attempt's files go before the final event, as a conversion's own do.
        const input = row.job ? parseJob(row.job) : null;
        if (!input || input.deleteInputOnFailure) await this.removeUploads(row.id, input);
        await rm(path.join(this.projects.projectDir(row.project_name), `.tmp-${row.id}`), {
          recursive: true,
          force: true,
        }).catch(() => {});
        await rmdir(this.projects.projectDir(row.project_name)).catch(() => {});
        if (this.others.get(row.project_name)?.id === row.id) this.others.delete(row.project_name);
        const e = this.rowToEvent(row);
        this.emit(e);
        this.settleId(row.id, e);
      }
      await this.refresh();
    } catch (e) {
      this.jobs.log?.(`Conversion heartbeat: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      this.ticking = false;
    }
  }

  /** Removes a dead conversion's upload: its job's files, or uploads/{id}-* of a reservation. */
  private async removeUploads(id: string, input: ConversionInput | null): Promise<void> {
    if (input) return this.discardInput(input);
    const store = this.projects as Partial<Pick<ProjectStore, 'removeUploads'>>;
    await store.removeUploads?.([id]);
  }

  /** Re-reads the unfinished conversions held elsewhere and resolves waiters of those that ended. */
  private async refresh(): Promise<void> {
    const now = Date.now();
    for (const [id, t] of this.ended) if (now - t > ENDED_MEMORY_MS) this.ended.delete(id);
    const rows = await this.leases.unfinished();
    const unfinished = new Set(rows.map((r) => r.id));
    this.others.clear();
    for (const r of rows) {
      if (this.ended.has(r.id) || this.active.get(r.project_name)?.id === r.id) continue;
      this.others.set(r.project_name, {
        id: r.id,
        startedBy: r.started_by,
        progress: r.progress,
        message: r.message,
        waitingForCadFiles: false,
      });
    }
    for (const id of [...this.waiters.keys()]) {
      if (unfinished.has(id) || this.byId(id)) continue;
      const row = await this.db.selectFrom('conversions').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row || row.finished_at !== null) this.settleId(id, row ? this.rowToEvent(row) : cancelledEvent(id));
    }
  }

  private byId(id: string): Active | undefined {
    for (const a of this.active.values()) if (a.id === id) return a;
    return undefined;
  }

  private event(a: Active): ProgressEvent {
    return {
      conversionId: a.id,
      projectName: a.projectName,
      status: a.status,
      message: a.message,
      subMessages: a.subMessages,
      progress: a.progress,
      ...(a.waitingForCadFiles ? { waitingForCadFiles: true } : {}),
    };
  }

  private emit(e: ProgressEvent): void {
    for (const fn of this.listeners) {
      try {
        fn(e);
      } catch {
        // A failing listener must not stop the conversion.
      }
    }
  }

  /** Records progress p∈[0,1]; emits now or within EMIT_INTERVAL_MS (the latest state wins). */
  private report(a: Active, fraction: number, message: string): void {
    if (!this.active.has(a.projectName) || this.active.get(a.projectName) !== a || a.abort.signal.aborted) return;
    const p = Math.min(100, Math.max(a.progress, Math.round(fraction * 1000) / 10));
    a.progress = Number.isFinite(p) ? p : a.progress;
    if (message) a.message = message;
    const now = Date.now();
    if (now - a.lastDbWrite >= DB_INTERVAL_MS) {
      a.lastDbWrite = now;
      void this.db
        .updateTable('conversions')
        .set({ progress: a.progress, message: a.message })
        .where('id', '=', a.id)
        .where('finished_at', 'is', null)
        .execute()
        .catch(() => {});
    }
    if (now - a.lastEmit >= EMIT_INTERVAL_MS) {
      a.lastEmit = now;
      this.emit(this.event(a));
    } else if (!a.pending) {
      a.pending = setTimeout(
        () => {
          a.pending = null;
          if (this.active.get(a.projectName) !== a) return;
          a.lastEmit = Date.now();
          this.emit(this.event(a));
        },
        EMIT_INTERVAL_MS - (now - a.lastEmit),
      );
    }
  }

  private async execute(a: Active, input: ConversionInput): Promise<void> {
    let tmpDir: string | null = null;
    try {
      tmpDir = await this.projects.createTempDir(a.projectName, a.id);
      if (a.attempt > 1) {
        // What a dead process left half-written is not this attempt's.
        await rm(tmpDir, { recursive: true, force: true });
        tmpDir = await this.projects.createTempDir(a.projectName, a.id);
      }
      this.report(a, 0, 'Converting the model');
      const options = await this.conversionConfig?.();
      const share = options?.cadComponents && this.cad ? MODEL_SHARE_WITH_CAD : 1;
      // Cancelled (or stopped) before the runner got it: an aborted signal never fires 'abort' again.
      if (a.abort.signal.aborted) throw Object.assign(new Error('Conversion canceled'), { name: 'AbortError' });
      let output = await this.runner.run(
        { input: input.input, outDir: tmpDir, modelName: a.projectName, ...(options ? { options } : {}) },
        (f, m) => this.report(a, f * share, m),
        a.abort.signal,
      );
      if (this.cad && output.cadFiles) output = await this.addCad(a, this.cad, input, tmpDir, output);
      if (a.abort.signal.aborted) throw Object.assign(new Error('Conversion canceled'), { name: 'AbortError' });
      a.committing = true;
      // Marks the row Ready in the same transaction, only while it is unfinished (not cancelled elsewhere).
      const revision = await this.projects.commitRevision({
        name: a.projectName,
        tmpDir,
        description: input.description,
        replace: input.replace,
        output,
        conversionId: a.id,
        startedBy: a.startedBy,
      });
      tmpDir = null;
      // Scratch goes before the final event, so a waiter sees the data directory as it stays.
      await this.removeScratch(input);
      if (output.warnings > 0) {
        a.status = ConversionStatus.Warning;
        a.subMessages = output.warningMessages;
        a.message = `Project ${a.projectName} was added with ${output.warnings} warning${output.warnings === 1 ? '' : 's'}`;
        this.emit(this.event(a));
      }
      a.progress = 100;
      await this.finish(a, ConversionStatus.Ready, `Revision ${revision} is ready`, null, true);
    } catch (e) {
      if (!a.keepInput) await this.removeScratch(input);
      const aborted = a.abort.signal.aborted || (e instanceof Error && e.name === 'AbortError');
      // What the conversion wrote goes before its end is recorded: on a full disk the status row can only
      // be written once the half revision has freed its space.
      await this.removeTemp(a, tmpDir);
      if (input.deleteInputOnFailure && !a.keepInput) await this.discardInput(input);
      if (aborted) await this.finish(a, ConversionStatus.Canceled, 'Conversion canceled', null);
      else {
        const msg = conversionErrorMessage(e);
        await this.finish(a, ConversionStatus.Error, `Failed to add project ${a.projectName}: ${msg}`, msg);
      }
    } finally {
      await this.removeTemp(a, tmpDir);
    }
  }

  /** Removes a conversion's temporary revision directory (and the project directory when it is left empty). */
  private async removeTemp(a: Active, tmpDir: string | null): Promise<void> {
    if (!tmpDir) return;
    await rm(tmpDir, { recursive: true, force: true }).catch(() => {});
    // A failed first conversion leaves no empty project directory behind (rmdir refuses a non-empty one).
    await rmdir(this.projects.projectDir(a.projectName)).catch(() => {});
  }

  private async removeScratch(input: ConversionInput): Promise<void> {
    for (const p of input.scratch ?? []) await rm(p, { recursive: true, force: true }).catch(() => {});
  }

  /** Pauses for the CAD files when asked to, then adds the CAD components to the revision in `tmpDir`. */
  private async addCad(
    a: Active,
    cad: CadStep,
    input: ConversionInput,
    tmpDir: string,
    output: ConvertOutput,
  ): Promise<ConvertOutput> {
    const { files } = await readCadFiles(tmpDir);
    if (files.length === 0) return output;
    if (input.waitForCadFiles) {
      a.waitingForCadFiles = true;
      a.message = 'Waiting for the CAD files';
      this.emit(this.event(a));
      try {
        await cad.waits.wait(
          { conversionId: a.id, projectName: a.projectName, startedBy: a.startedBy },
          files,
          a.abort.signal,
        );
      } finally {
        a.waitingForCadFiles = false;
      }
    }
    this.report(a, MODEL_SHARE_WITH_CAD, 'Converting the CAD components');
    const added = await cad.adder.run(
      { dir: tmpDir, modelName: a.projectName, files, cadDir: cad.waits.cadDir(a.projectName) },
      (done, total) =>
        this.report(
          a,
          MODEL_SHARE_WITH_CAD + ((1 - MODEL_SHARE_WITH_CAD) * done) / total,
          'Converting the CAD components',
        ),
      a.abort.signal,
    );
    return {
      ...output,
      bytes: added.bytes,
      triangles: added.triangles,
      objectCount: added.objectCount,
      warnings: output.warnings + added.warnings.length,
      warningMessages: [...output.warningMessages, ...added.warnings].slice(0, 10),
    };
  }

  /**
   * Writes a conversion's end once the database takes it again (a full disk freed, a database back): every
   * END_ROW_RETRY_MS for up to END_ROW_RETRIES tries, never over a row that has ended meanwhile, so
   * GET .../model-conversion tells the truth without a restart.
   */
  private retryEndRow(id: string, row: EndRow, attempt: number): void {
    if (attempt > END_ROW_RETRIES) return;
    const timer = setTimeout(() => {
      this.db
        .updateTable('conversions')
        .set(row)
        .where('id', '=', id)
        .where('finished_at', 'is', null)
        .execute()
        .catch(() => this.retryEndRow(id, row, attempt + 1));
    }, END_ROW_RETRY_MS);
    timer.unref();
  }

  /**
   * Ends a conversion this process holds: status, DB row (only while unfinished; `written` when the commit
   * wrote it), final event (not throttled), waiters. Idempotent. A row ended meanwhile by another process
   * (a cancel) keeps its outcome: this process then emits nothing and settles with the row.
   */
  private async finish(
    a: Active,
    status: ConversionStatusValue,
    message: string,
    error: string | null,
    written = false,
  ): Promise<void> {
    if (this.active.get(a.projectName) !== a) return;
    this.active.delete(a.projectName);
    this.ended.set(a.id, Date.now());
    if (a.pending) clearTimeout(a.pending);
    a.status = status;
    a.message = message;
    if (error) a.subMessages = [error];
    // Spec: on Error the client resets progress to 0; the server keeps the maximum reached.
    let ours = written;
    const end: EndRow = {
      status,
      progress: a.progress,
      message,
      error,
      finished_at: new Date().toISOString(),
      worker: null,
    };
    try {
      if (!written) {
        const r = await this.db
          .updateTable('conversions')
          .set(end)
          .where('id', '=', a.id)
          .where('finished_at', 'is', null)
          .executeTakeFirst();
        ours = Number(r.numUpdatedRows) === 1;
      }
    } catch {
      // The row could not be written (database gone, disk full): listeners and waiters still hear the end,
      // and the row is written once the database takes it again.
      this.retryEndRow(a.id, end, 1);
      ours = true;
    }
    if (ours) {
      const e = this.event(a);
      this.emit(e);
      this.settle(a, e);
      return;
    }
    const row = await this.rowOrNone(a.id);
    this.settle(a, row ? this.rowToEvent(row) : this.event(a));
  }
}
