/**
 * Runs and tracks project conversions (application.md §4 "Model conversion (adding a project)").
 * One conversion per project name at a time, across every server process (a second gets 409 'Adding the
 * project {name} is already in progress'; the database holds one unfinished row per project). Progress
 * p∈[0,1] from the converter becomes server progress 100·p, never going back, capped at 100, emitted at
 * most 10 times a second (plus every status change) and kept in the `conversions` table so GET
 * .../model-conversion answers after a reload and on any process.
 *
 * The upload reserves the name; start() then hands the conversion to the job queue (api/jobs/JobQueue.ts):
 * in-process on SQLite, pg-boss on PostgreSQL, where any server process may take it. The row's job and the
 * queue entry are written in one transaction. The process holding a conversion beats a heartbeat in its
 * row (api/conversion/conversionHeartbeat.ts, conversionLeases.ts); when it dies, another process retries
 * the job or fails it after JOB_TIMEOUT_SEC. A cancel from another process marks the row cancelled and
 * the holder stops at its next heartbeat. The revision commit marks the row Ready in the same transaction,
 * guarded on the row being unfinished, so a conversion completes once at most.
 *
 * With the "CAD components" option on and a CadStep given, a model that names CAD files gets its CAD
 * components after the model is converted; a conversion started with `waitForCadFiles` first pauses, in
 * the database, until its starter has uploaded them and continued on any process
 * (api/conversion/conversionCadStep.ts, CadWaits.ts; application.md §4 "CAD upload dialog"), with
 * `waitingForCadFiles` in its progress events. The model's own conversion then counts as 0-90 % and the
 * CAD files as the rest.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ConversionStatus, type ConversionStatusValue, type ProgressEvent } from '../contract/common';
import type { ConversionConfig } from '../contract/settings';
import type { DB } from '../db/database';
import { uniqueViolation } from '../db/errors';
import { Errors } from '../errors';
import { inProcessQueue, type JobQueue, type SendOptions } from '../jobs/JobQueue';
import { ConversionCadStep, MODEL_SHARE_WITH_CAD } from './conversionCadStep';
import { discardInput, discardQueued, removeScratch, removeStaged } from './conversionFiles';
import { ConversionHeartbeat } from './conversionHeartbeat';
import {
  ConversionLeases,
  type ConversionRow,
  DEFAULT_LEASES,
  heartbeatInterval,
  newWorkerId,
  runningFromRow,
  STRANDED,
  waitsForCadFiles,
} from './conversionLeases';
import { type Active, ConversionRegistry } from './conversionRegistry';
import type { ConversionRunner } from './runners';
import type { ConvertOutput } from './convertFile';

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

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref?.());
const abortError = () => Object.assign(new Error('Conversion canceled'), { name: 'AbortError' });

/** Starts, queues, runs, cancels and reports conversions. */
export class ConversionManager {
  private readonly registry = new ConversionRegistry();
  private readonly queue: JobQueue;
  private readonly leases: ConversionLeases;
  private readonly heartbeat: ConversionHeartbeat;
  private readonly cadStep: ConversionCadStep | null;
  private working: Promise<void> | null = null;
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
    const send = (id: string, trx: Kysely<DB>) => this.send(id, { within: trx });
    this.heartbeat = new ConversionHeartbeat({
      db,
      registry: this.registry,
      leases: this.leases,
      send,
      projects,
      ...(this.queue.liveJobs
        ? {
            liveJobs: () =>
              this.queue.liveJobs?.(CONVERSION_QUEUE, 'conversionId', this.leases.options.timeoutMs / 1000) ??
              Promise.resolve(new Set<string>()),
          }
        : {}),
      expirePauses: () => this.cadStep?.expire() ?? Promise.resolve(),
      log: (m) => this.jobs.log?.(m),
    });
    this.cadStep = cad
      ? new ConversionCadStep({
          db,
          registry: this.registry,
          leases: this.leases,
          cad,
          projects,
          send,
          lose: (a) => this.heartbeat.lose(a),
          takeNow: (id) => this.takeNow(id),
        })
      : null;
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
    if (this.queue.shared && !this.stopping)
      await this.heartbeat.start(heartbeatInterval(this.leases.options.timeoutMs));
  }

  /** Subscribes to every progress event (socket.io fan-out, CLI progress bar); returns the unsubscribe. */
  onProgress(fn: (e: ProgressEvent) => void): () => void {
    return this.registry.onProgress(fn);
  }

  /**
   * Subscribes to the start (queued) and the end (final event) of every conversion, with the project's
   * name: each is told once per conversion by one process, whichever processes run it in between (a
   * conversion continued after its CAD pause, or retried, elsewhere). @returns the unsubscribe.
   */
  onStartOrEnd(fn: (projectName: string) => void): () => void {
    return this.registry.onStartOrEnd(fn);
  }

  /**
   * The unfinished conversion of a project, if any: held here (live) or elsewhere, queued or paused for
   * its CAD files (as of the last heartbeat, at most a second old).
   */
  running(projectName: string): RunningConversion | null {
    const a = this.registry.active.get(projectName);
    if (a) return this.registry.info(a);
    return this.registry.others.get(projectName) ?? null;
  }

  /**
   * The unfinished conversion of a project as `running` sees it, else as its latest row `row` says: a
   * conversion another process queued less than a heartbeat ago is not yet in this process's view, but
   * its row is already written (the model list must not show such a project as idle); one that ended
   * elsewhere since then is idle by its row.
   */
  current(projectName: string, row: ConversionRow | undefined): RunningConversion | null {
    const seen = this.running(projectName);
    if (seen) {
      // the row read for this answer is newer than the heartbeat's view of other processes
      const endedElsewhere = row?.id === seen.id && row.finished_at !== null && !this.registry.active.has(projectName);
      return endedElsewhere ? null : seen;
    }
    if (!row || row.finished_at !== null || this.registry.endedLately(row.id)) return null;
    return runningFromRow(row);
  }

  /**
   * Reserves the project name for a new conversion (before the upload is stored) and records it.
   * @throws ApiError 409 'Adding the project {name} is already in progress' (also when another process
   *   holds the name); 503 while this process stops.
   * @returns the conversion id (the socket.io room).
   */
  async reserve(projectName: string, startedBy: string): Promise<string> {
    const { registry } = this;
    if (this.stopping) throw Errors.shuttingDown();
    if (registry.active.has(projectName) || registry.others.has(projectName))
      throw Errors.conversionInProgress(projectName);
    const id = randomUUID();
    const a = registry.newActive(id, projectName, startedBy, 'Uploading the file');
    a.storing = true;
    registry.active.set(projectName, a);
    registry.waiter(id);
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
      registry.active.delete(projectName);
      registry.forgetWaiter(id);
      if (uniqueViolation(e)) throw Errors.conversionInProgress(projectName);
      throw e;
    }
    return id;
  }

  /** Ends a reservation whose upload failed (status Error with `message`). */
  async fail(conversionId: string, message: string): Promise<void> {
    const a = this.registry.byId(conversionId);
    if (a) await this.finish(a, ConversionStatus.Error, message, message);
  }

  /**
   * Withdraws a reservation whose upload was refused or broke off (bad archive, too large, client gone):
   * the conversion row is deleted, so the model list and other projects stay exactly as they were.
   * Waiters and progress listeners get a Canceled event with `message`. No-op for an unknown or finished
   * conversion.
   */
  async release(conversionId: string, message = 'Upload refused'): Promise<void> {
    const a = this.registry.byId(conversionId);
    if (!a) return;
    this.registry.drop(a);
    a.abort.abort();
    await this.db.deleteFrom('conversions').where('id', '=', a.id).execute();
    a.status = ConversionStatus.Canceled;
    a.message = message;
    // Clients that saw the reservation (the start pages following it) learn that it is gone.
    const e = this.registry.event(a);
    this.registry.emit(e);
    this.registry.settle(a, e);
  }

  /**
   * The signal that ends the storing of a reservation's file: aborted when the reservation is withdrawn
   * (`release`, or a cancel while the file is still stored), so the writer stops at once instead of
   * writing the rest of a slow upload it will delete. An aborted signal for an unknown conversion.
   */
  storingSignal(conversionId: string): AbortSignal {
    return this.registry.byId(conversionId)?.abort.signal ?? AbortSignal.abort();
  }

  /** True while `conversionId` is reserved here (false once handed to the queue, ended, cancelled or released). */
  isActive(conversionId: string): boolean {
    return this.registry.byId(conversionId) !== undefined;
  }

  /** True when a conversion with this id was ever recorded (running, finished, failed or cancelled). */
  async known(conversionId: string): Promise<boolean> {
    return (await this.projectOf(conversionId)) !== null;
  }

  /** The project name of a recorded conversion, or null for an unknown id. */
  async projectOf(conversionId: string): Promise<string | null> {
    const a = this.registry.byId(conversionId);
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
    const a = this.registry.byId(conversionId);
    if (!a) throw Errors.conversionNotFound(conversionId);
    a.storing = false;
    this.enqueue(a, input).catch(() => {
      // enqueue() ends every failure with finish(); a failure there (database gone) must not crash the process.
    });
  }

  /** Resolves with the final progress event of a conversion (immediately when it already ended). */
  async wait(conversionId: string): Promise<ProgressEvent> {
    const w = this.registry.existingWaiter(conversionId);
    if (w) return w.promise;
    const row = await this.db.selectFrom('conversions').selectAll().where('id', '=', conversionId).executeTakeFirst();
    if (!row) throw Errors.conversionNotFound(conversionId);
    // Held by another process: the heartbeat resolves the waiter when the row ends.
    if (row.finished_at === null && this.queue.shared) return this.registry.waiter(conversionId).promise;
    // An ended row is the final word, even while this process still holds a run it has not yet seen cancelled.
    return row.finished_at === null ? this.registry.rowToEvent(row) : this.registry.storedEvent(row);
  }

  /**
   * Cancels an unfinished conversion (application.md §4: only the user who started it), on whichever
   * process it runs, while it waits in the queue or while it is paused for its CAD files. A reservation
   * whose file is still being stored is withdrawn instead (its row deleted, as by `release`), also when
   * another process receives the file (that process stops storing at its next heartbeat).
   * @throws ApiError 404 when none runs, 403 when `email` did not start it, 409 when its revision is
   *   being committed.
   */
  async cancel(projectName: string, email: string): Promise<void> {
    const { registry } = this;
    const a = registry.active.get(projectName);
    if (a) {
      if (a.startedBy !== email) throw Errors.forbidden('Only the user who started the conversion can cancel it');
      if (a.committing) throw Errors.conversionFinishing(projectName);
      // Cancelled before its file was stored (Cancel while the upload's last bytes travel): nothing ran,
      // so nothing is kept, as for an upload that broke off.
      if (a.storing) return this.release(a.id, 'Conversion canceled');
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
    // Another process still receives its file: withdrawn, as there (no row, so no cancelled card).
    if (row.job === null && (await this.leases.withdraw(row.id))) {
      registry.markEnded(row.id);
      if (registry.others.get(projectName)?.id === row.id) registry.others.delete(projectName);
      const e = { ...registry.storedEvent(row), status: ConversionStatus.Canceled, message: 'Conversion canceled' };
      registry.emit(e);
      registry.settleId(row.id, e);
      return;
    }
    const done = await this.leases.cancel(row.id, 'Conversion canceled');
    if (!done) {
      const now = await this.latest(projectName);
      if (now?.id === row.id && now.status === ConversionStatus.Ready) throw Errors.conversionFinishing(projectName);
      throw Errors.conversionNotFound(projectName);
    }
    registry.markEnded(row.id);
    if (registry.others.get(projectName)?.id === row.id) registry.others.delete(projectName);
    // Claimed here while the cancel was written: it stops now, not at the next heartbeat, and says nothing more.
    const claimed = registry.active.get(projectName);
    if (claimed?.id === row.id) {
      claimed.abort.abort();
      await this.finish(claimed, ConversionStatus.Canceled, 'Conversion canceled', null);
    }
    // Still in the queue or paused: nobody else will remove its files (a holder removes them when it stops).
    if (row.worker === null && row.job)
      await discardQueued(parseJob(row.job), this.projects.projectDir(row.project_name));
    // The CAD upload dialogs of a paused conversion close.
    if (waitsForCadFiles(row)) this.cad?.waits.ended(row.id, projectName);
    const e = registry.rowToEvent(done);
    registry.emit(e);
    registry.settleId(row.id, e);
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

  /**
   * Latest conversion row per project name (the model list's). Only those rows are read (through the
   * project and start-time index): the history grows by a row per conversion, scheduled updates included.
   */
  async latestAll(): Promise<Map<string, ConversionRow>> {
    const rows = await this.db
      .selectFrom('conversions as c')
      .selectAll('c')
      .where((eb) =>
        eb(
          'c.created_at',
          '=',
          eb
            .selectFrom('conversions as d')
            .select((d) => d.fn.max('d.created_at').as('m'))
            .whereRef('d.project_name', '=', 'c.project_name'),
        ),
      )
      .orderBy('c.created_at', 'asc')
      .orderBy('c.id', 'asc')
      .execute();
    const m = new Map<string, ConversionRow>();
    for (const r of rows) m.set(r.project_name, r);
    return m;
  }

  /** Forgets the conversion history of a project (Remove of a failed card, project deletion). */
  async forget(projectName: string): Promise<void> {
    if (this.registry.active.has(projectName) || this.registry.others.has(projectName)) return;
    await this.db
      .deleteFrom('conversions')
      .where('project_name', '=', projectName)
      .where('finished_at', 'is not', null)
      .execute();
  }

  /** A progress event from a stored row. */
  rowToEvent(row: ConversionRow): ProgressEvent {
    return this.registry.rowToEvent(row, waitsForCadFiles(row));
  }

  /**
   * Graceful stop (SIGTERM): takes no more jobs, lets the running conversions finish for up to `graceMs`,
   * then, with a shared queue, hands the rest back to the queue (another process continues them) or, with
   * the in-process queue, fails them ('The server stopped during the conversion'). Reservations whose
   * upload is still arriving fail too. Conversions paused for their CAD files stay paused in the database.
   * Closes the runner and the queue.
   */
  async shutdown(graceMs: number): Promise<void> {
    this.stopping = true;
    await this.queue.stopTaking().catch(() => {});
    const running = [...this.registry.active.values()].filter((a) => a.claimed);
    if (running.length > 0 && graceMs > 0)
      await Promise.race([Promise.all(running.map((a) => a.done)), sleep(graceMs)]);
    // What is left is handed back or failed now: no beat may renew it or list it as running elsewhere.
    this.heartbeat.stop();
    for (const a of [...this.registry.active.values()]) {
      if (a.claimed && this.queue.shared) await this.heartbeat.handBack(a);
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
    this.heartbeat.stop();
    this.cadStep?.close();
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
    return [...this.registry.active.values()].filter((a) => a.claimed).length;
  }

  /** Sends conversion `id`'s job to the queue. */
  private send(conversionId: string, options?: SendOptions): Promise<void> {
    return this.queue.send(CONVERSION_QUEUE, { conversionId }, options);
  }

  /**
   * Writes the job into the row and sends it to the queue, in one transaction; the reservation leaves
   * this process. When either fails neither is written and the conversion ends as an Error.
   */
  private async enqueue(a: Active, input: ConversionInput): Promise<void> {
    const { registry } = this;
    // From here the row names no holder: the heartbeat must not take that for a cancel.
    a.leased = false;
    let queued: boolean;
    try {
      await this.begin();
      queued = await this.leases.enqueue(a.id, JSON.stringify(input), (id, trx) => this.send(id, { within: trx }));
    } catch (e) {
      // Rolled back: the row still names this process, which ends it.
      a.leased = true;
      await this.finish(
        a,
        ConversionStatus.Error,
        `Failed to add project ${a.projectName}: ${conversionErrorMessage(e)}`,
        conversionErrorMessage(e),
      );
      if (input.deleteInputOnFailure) await discardInput(input);
      return;
    }
    if (!queued) {
      // Cancelled from another process while the upload was stored.
      await this.heartbeat.lose(a);
      if (input.deleteInputOnFailure) await discardInput(input);
      return;
    }
    if (registry.active.get(a.projectName) === a) {
      registry.active.delete(a.projectName);
      if (a.pending) clearTimeout(a.pending);
      registry.others.set(a.projectName, registry.info(a));
      a.resolve(registry.event(a));
      // Not when it was cancelled here meanwhile: its end is announced already.
      registry.announceStart(a.projectName);
    }
    this.takeNow(a.id);
  }

  /**
   * With room here, this process takes a job it just queued at once instead of at the queue's next poll
   * (the queued copy then finds it held and ends); a full process leaves it to the others.
   */
  private takeNow(conversionId: string): void {
    if (this.queue.shared && this.runningHere < (this.jobs.concurrency ?? 2) && !this.stopping)
      void this.runJob(conversionId).catch(() => {});
  }

  /**
   * Runs one job (from the queue, or taken at once by the process that queued it): takes the row (or ends
   * at once when it ended, another process holds it or it is paused) and converts.
   */
  private async runJob(conversionId: string, fromQueue = false): Promise<void> {
    const { registry } = this;
    if (this.stopping) {
      // Taken while stopping: back to the queue for another process (never dropped).
      if (this.queue.shared && fromQueue) await this.send(conversionId);
      return;
    }
    // Conversions this process took at once count too: a full process offers the job again a little later.
    if (this.queue.shared && fromQueue && this.runningHere >= (this.jobs.concurrency ?? 2)) {
      await this.send(conversionId, { delaySec: REOFFER_SEC });
      return;
    }
    const row = await this.leases.claim(conversionId);
    if (!row) {
      for (const [name, o] of registry.others)
        if (o.id === conversionId && !o.waitingForCadFiles) registry.others.delete(name);
      return;
    }
    const input = parseJob(row.job ?? '{}');
    const a = registry.newActive(row.id, row.project_name, row.started_by, row.message);
    a.progress = row.progress;
    a.leased = true;
    a.claimed = true;
    a.attempt = row.attempts;
    registry.others.delete(row.project_name);
    registry.active.set(row.project_name, a);
    if (this.stopping) {
      // Taken while shutdown() went past it: not started, so handed back (or failed) like the rest.
      if (this.queue.shared) await this.heartbeat.handBack(a);
      else
        await this.finish(a, ConversionStatus.Error, `Failed to add project ${a.projectName}: ${STRANDED}`, STRANDED);
      return;
    }
    a.executing = this.execute(a, input);
    await a.executing;
  }

  /** Records progress p∈[0,1]; emits now or within EMIT_INTERVAL_MS (the latest state wins). */
  private report(a: Active, fraction: number, message: string): void {
    const { registry } = this;
    if (registry.active.get(a.projectName) !== a || a.abort.signal.aborted) return;
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
      registry.emit(registry.event(a));
    } else if (!a.pending) {
      a.pending = setTimeout(
        () => {
          a.pending = null;
          if (registry.active.get(a.projectName) !== a) return;
          a.lastEmit = Date.now();
          registry.emit(registry.event(a));
        },
        EMIT_INTERVAL_MS - (now - a.lastEmit),
      );
    }
  }

  /** Converts the model (or, resumed after a CAD pause, takes the converted one), adds CAD, commits. */
  private async execute(a: Active, input: ConversionInput): Promise<void> {
    let tmpDir: string | null = null;
    try {
      let output: ConvertOutput;
      if (input.cadPause) {
        // Continued after its CAD pause: the model was converted before the pause, on any process.
        tmpDir = input.cadPause.tmpDir;
        output = input.cadPause.output;
      } else {
        tmpDir = await this.projects.createTempDir(a.projectName, a.id);
        if (a.attempt > 1) {
          // What a dead process left half-written is not this attempt's.
          await removeStaged(tmpDir, this.projects.projectDir(a.projectName));
          tmpDir = await this.projects.createTempDir(a.projectName, a.id);
        }
        this.report(a, 0, 'Converting the model');
        const options = await this.conversionConfig?.();
        const share = options?.cadComponents && this.cad ? MODEL_SHARE_WITH_CAD : 1;
        // Cancelled (or stopped) before the runner got it: an aborted signal never fires 'abort' again.
        if (a.abort.signal.aborted) throw abortError();
        output = await this.runner.run(
          { input: input.input, outDir: tmpDir, modelName: a.projectName, ...(options ? { options } : {}) },
          (f, m) => this.report(a, f * share, m),
          a.abort.signal,
        );
      }
      if (this.cadStep && output.cadFiles) {
        const withCad = await this.cadStep.run(a, input, tmpDir, output, (c, f, m) => this.report(c, f, m));
        if (!withCad) {
          // Paused for its CAD files: the staged model stays for whichever process continues it.
          tmpDir = null;
          return;
        }
        output = withCad;
      }
      if (a.abort.signal.aborted) throw abortError();
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
      await removeScratch(input);
      if (output.warnings > 0) {
        a.status = ConversionStatus.Warning;
        a.subMessages = output.warningMessages;
        a.message = `Project ${a.projectName} was added with ${output.warnings} warning${output.warnings === 1 ? '' : 's'}`;
        this.registry.emit(this.registry.event(a));
      }
      a.progress = 100;
      await this.finish(a, ConversionStatus.Ready, `Revision ${revision} is ready`, null, true);
    } catch (e) {
      if (!a.keepInput) await removeScratch(input);
      const aborted = a.abort.signal.aborted || (e instanceof Error && e.name === 'AbortError');
      // What the conversion wrote goes before its end is recorded: on a full disk the status row can only
      // be written once the half revision has freed its space.
      if (tmpDir && !(a.keepInput && input.cadPause))
        await removeStaged(tmpDir, this.projects.projectDir(a.projectName));
      if (input.deleteInputOnFailure && !a.keepInput) await discardInput(input);
      if (aborted) await this.finish(a, ConversionStatus.Canceled, 'Conversion canceled', null);
      else {
        const msg = conversionErrorMessage(e);
        await this.finish(a, ConversionStatus.Error, `Failed to add project ${a.projectName}: ${msg}`, msg);
      }
    } finally {
      // A stopped attempt's staged directory goes (the next attempt starts afresh), but the converted model
      // of a continued CAD pause stays for the process that takes it over.
      if (tmpDir && !(a.keepInput && input.cadPause))
        await removeStaged(tmpDir, this.projects.projectDir(a.projectName));
    }
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
    const { registry } = this;
    if (registry.active.get(a.projectName) !== a) return;
    registry.drop(a);
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
      const e = registry.event(a);
      registry.emit(e);
      registry.settle(a, e);
      return;
    }
    const row = await this.db
      .selectFrom('conversions')
      .selectAll()
      .where('id', '=', a.id)
      .executeTakeFirst()
      .catch(() => undefined);
    registry.settle(a, row ? registry.rowToEvent(row) : registry.event(a));
  }
}
