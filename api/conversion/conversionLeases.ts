/**
 * Who holds a conversion, in the `conversions` table (issue "Running at scale" §2): the process that
 * reserved it or took its job writes its worker id and a heartbeat; a heartbeat older than the time-out
 * means that process died, and any process then hands the job back to the queue (while attempts remain)
 * or fails it. Every change is a guarded UPDATE, so of two processes acting on one row only one wins; a
 * change that queues the job sends it in the same transaction (SendJob), so no process can die between
 * the row saying "queued" and the queue holding its job.
 */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { ConversionStatus } from '../contract/common';
import type { ConversionsTable, DB } from '../db/database';
import { FaultPoints, faultPoint } from '../jobs/faultPoint';
import type { CadPause, RunningConversion } from './conversionTypes';

/** A conversion row. */
export type ConversionRow = Selectable<ConversionsTable>;

/** How the leases behave (README "Running at scale"). */
export interface LeaseOptions {
  /** A holder silent this long is dead, ms (JOB_TIMEOUT_SEC). */
  timeoutMs: number;
  /** How many processes may take one job before it fails (JOB_ATTEMPTS, ≥ 1). */
  attempts: number;
}

/** Default lease options: 60 s without a heartbeat, two attempts. */
export const DEFAULT_LEASES: LeaseOptions = { timeoutMs: 60_000, attempts: 2 };

/** A worker id naming this process (host, pid) and one ConversionManager in it. */
export function newWorkerId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/** The heartbeat interval for a time-out, ms: often enough that a cancel elsewhere is seen within a second. */
export function heartbeatInterval(timeoutMs: number): number {
  return Math.max(50, Math.min(1000, Math.floor(timeoutMs / 4)));
}

/** Sends conversion `id`'s job to the queue inside the transaction `trx` of the row change. */
export type SendJob = (id: string, trx: Kysely<DB>) => Promise<void>;

/** The CAD pause recorded in a job, if any. */
function pauseOf(job: string | null): CadPause | undefined {
  if (!job) return undefined;
  try {
    return (JSON.parse(job) as { cadPause?: CadPause }).cadPause;
  } catch {
    return undefined;
  }
}

/** True when the row's conversion is paused for its CAD files and not yet continued. */
export function waitsForCadFiles(row: Pick<ConversionRow, 'job' | 'finished_at'>): boolean {
  return row.finished_at === null && pauseOf(row.job)?.waiting === true;
}

/** A row's unfinished conversion as the model list and the checks see it (RunningConversion). */
export function runningFromRow(r: ConversionRow): RunningConversion {
  return {
    id: r.id,
    startedBy: r.started_by,
    progress: r.progress,
    message: r.message,
    waitingForCadFiles: waitsForCadFiles(r),
  };
}

/** Row operations of one worker. */
export class ConversionLeases {
  constructor(
    private readonly db: Kysely<DB>,
    readonly worker: string,
    readonly options: LeaseOptions,
  ) {}

  /**
   * Hands a reserved conversion to the queue with its input (the row no longer has a holder) and sends its
   * job, in one transaction; false (nothing written) when the row is no longer this worker's.
   * @throws the database's or the queue's error; then neither is written.
   */
  async enqueue(id: string, job: string, send: SendJob): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const r = await trx
        .updateTable('conversions')
        .set({ job, worker: null, heartbeat_at: Date.now() })
        .where('id', '=', id)
        .where('worker', '=', this.worker)
        .where('finished_at', 'is', null)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) return false;
      faultPoint(FaultPoints.jobWritten);
      await send(id, trx);
      return true;
    });
  }

  /**
   * Takes a queued conversion; null when it ended meanwhile, another process holds it, or it is paused for
   * its CAD files (a stale job: the Continue queues a new one).
   */
  async claim(id: string): Promise<ConversionRow | null> {
    const row = await this.db
      .selectFrom('conversions')
      .selectAll()
      .where('id', '=', id)
      .where('finished_at', 'is', null)
      .where('worker', 'is', null)
      .executeTakeFirst();
    if (!row || waitsForCadFiles(row)) return null;
    faultPoint(FaultPoints.jobTaken);
    const r = await this.db
      .updateTable('conversions')
      .set({ worker: this.worker, heartbeat_at: Date.now(), attempts: row.attempts + 1 })
      .where('id', '=', id)
      .where('finished_at', 'is', null)
      .where('worker', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1 ? { ...row, worker: this.worker, attempts: row.attempts + 1 } : null;
  }

  /** Renews the heartbeat of the rows this worker holds; returns the ids it still holds. */
  async beat(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    await this.db
      .updateTable('conversions')
      .set({ heartbeat_at: Date.now() })
      .where('worker', '=', this.worker)
      .where('finished_at', 'is', null)
      .execute();
    const held = await this.db
      .selectFrom('conversions')
      .select('id')
      .where('id', 'in', ids)
      .where('worker', '=', this.worker)
      .where('finished_at', 'is', null)
      .execute();
    return new Set(held.map((r) => r.id));
  }

  /**
   * Gives a held conversion back to the queue (shutdown past its grace period) and sends its job, in one
   * transaction; false when it is not held here.
   */
  async release(id: string, message: string, send: SendJob): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const r = await trx
        .updateTable('conversions')
        .set({ worker: null, heartbeat_at: Date.now(), message })
        .where('id', '=', id)
        .where('worker', '=', this.worker)
        .where('finished_at', 'is', null)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) return false;
      await send(id, trx);
      return true;
    });
  }

  /**
   * Records a held conversion as paused for its CAD files (`job` holds the pause) and lets go of it: no
   * process holds it while it waits, and its attempts count again from the Continue. False when it is not
   * held here any more (cancelled or reaped meanwhile).
   */
  async pause(id: string, job: string, message: string, progress: number): Promise<boolean> {
    const r = await this.db
      .updateTable('conversions')
      .set({ job, worker: null, heartbeat_at: Date.now(), message, progress, attempts: 0 })
      .where('id', '=', id)
      .where('worker', '=', this.worker)
      .where('finished_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /**
   * Continues a paused conversion whose row still holds `seenJob`: writes `job` (the pause marked
   * continued) and sends the job, in one transaction. False when it no longer waits.
   */
  async resume(id: string, seenJob: string, job: string, message: string, send: SendJob): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const r = await trx
        .updateTable('conversions')
        .set({ job, heartbeat_at: Date.now(), message })
        .where('id', '=', id)
        .where('worker', 'is', null)
        .where('job', '=', seenJob)
        .where('finished_at', 'is', null)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) return false;
      await send(id, trx);
      return true;
    });
  }

  /**
   * Cancels the conversions paused for their CAD files since before `cutoff` (ms since the epoch), or only
   * `ids` of them when given, with `message`; returns the final rows. Guarded on the job seen, so a
   * Continue arriving meanwhile wins.
   */
  async expirePauses(cutoff: number, message: string, ids?: readonly string[]): Promise<ConversionRow[]> {
    let q = this.db
      .selectFrom('conversions')
      .selectAll()
      .where('finished_at', 'is', null)
      .where('worker', 'is', null)
      .where('job', 'is not', null);
    if (ids) {
      if (ids.length === 0) return [];
      q = q.where('id', 'in', ids);
    }
    const ended: ConversionRow[] = [];
    for (const row of await q.execute()) {
      const pause = pauseOf(row.job);
      if (!pause?.waiting || pause.since >= cutoff) continue;
      const finished = {
        status: ConversionStatus.Canceled,
        message,
        error: null,
        finished_at: new Date().toISOString(),
      };
      const r = await this.db
        .updateTable('conversions')
        .set(finished)
        .where('id', '=', row.id)
        .where('worker', 'is', null)
        .where('job', '=', row.job)
        .where('finished_at', 'is', null)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 1) ended.push({ ...row, ...finished });
    }
    return ended;
  }

  /**
   * Rows whose holder stopped beating: each is handed back to the queue (`requeued`: its job sent again
   * with `send`, in the transaction of the row change)
   * when it has a job and attempts left, else failed (`failed`: the final rows) with `message`, or with
   * `uploadMessage` when it had no job yet (its upload never arrived). Guarded on the holder and
   * heartbeat seen, so when several processes reap at once each row goes to one of them.
   */
  async reap(
    message: string,
    uploadMessage: string,
    send: SendJob,
  ): Promise<{ requeued: string[]; failed: ConversionRow[] }> {
    const cutoff = Date.now() - this.options.timeoutMs;
    const stale = await this.db
      .selectFrom('conversions')
      .selectAll()
      .where('finished_at', 'is', null)
      .where('worker', 'is not', null)
      .where((eb) => eb.or([eb('heartbeat_at', '<', cutoff), eb('heartbeat_at', 'is', null)]))
      .execute();
    const requeued: string[] = [];
    const failed: ConversionRow[] = [];
    for (const row of stale) {
      const guard = (db: Kysely<DB>) =>
        db
          .updateTable('conversions')
          .where('id', '=', row.id)
          .where('worker', '=', row.worker)
          .where((eb) =>
            row.heartbeat_at === null ? eb('heartbeat_at', 'is', null) : eb('heartbeat_at', '=', row.heartbeat_at),
          )
          .where('finished_at', 'is', null);
      if (row.job && row.attempts < this.options.attempts) {
        const again = await this.db.transaction().execute(async (trx) => {
          const r = await guard(trx)
            .set({ worker: null, heartbeat_at: Date.now(), message: `${message}; trying again` })
            .executeTakeFirst();
          if (Number(r.numUpdatedRows) !== 1) return false;
          await send(row.id, trx);
          return true;
        });
        if (again) requeued.push(row.id);
      } else {
        // No job yet: the process died while it received the upload.
        const why = row.job ? message : uploadMessage;
        const finished = {
          status: ConversionStatus.Error,
          message: `Failed to add project ${row.project_name}: ${why}`,
          error: why,
          finished_at: new Date().toISOString(),
          worker: null,
        };
        const r = await guard(this.db).set(finished).executeTakeFirst();
        if (Number(r.numUpdatedRows) === 1) failed.push({ ...row, ...finished });
      }
    }
    return { requeued, failed };
  }

  /**
   * Queued conversions whose job is gone (its process took it and died before recording it as holder):
   * rows without a holder, not paused for CAD files, unchanged for the time-out, whose id is not in
   * `live` (the ids of the queue's live jobs). Each is sent again with `send`, in the transaction of a
   * guarded renewal of its row, so of several processes sweeping at once one sends it. Returns their ids.
   */
  async resend(live: ReadonlySet<string>, send: SendJob): Promise<string[]> {
    const cutoff = Date.now() - this.options.timeoutMs;
    const rows = await this.db
      .selectFrom('conversions')
      .selectAll()
      .where('finished_at', 'is', null)
      .where('worker', 'is', null)
      .where('job', 'is not', null)
      .where('heartbeat_at', '<', cutoff)
      .execute();
    const sent: string[] = [];
    for (const row of rows) {
      if (live.has(row.id) || waitsForCadFiles(row)) continue;
      const again = await this.db.transaction().execute(async (trx) => {
        const r = await trx
          .updateTable('conversions')
          .set({ heartbeat_at: Date.now() })
          .where('id', '=', row.id)
          .where('worker', 'is', null)
          .where('heartbeat_at', '=', row.heartbeat_at)
          .where('finished_at', 'is', null)
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) !== 1) return false;
        await send(row.id, trx);
        return true;
      });
      if (again) sent.push(row.id);
    }
    return sent;
  }

  /** Every unfinished conversion (reserved, queued or running on any process). */
  unfinished(): Promise<ConversionRow[]> {
    return this.db.selectFrom('conversions').selectAll().where('finished_at', 'is', null).execute();
  }

  /**
   * Deletes the row of a reservation whose file a process still receives (unfinished, no job yet): a
   * cancel then keeps nothing, as on the receiving process itself. False when the row has moved on (its
   * job written, or finished) or is gone; the receiving process stops storing when its heartbeat misses it.
   */
  async withdraw(id: string): Promise<boolean> {
    const r = await this.db
      .deleteFrom('conversions')
      .where('id', '=', id)
      .where('finished_at', 'is', null)
      .where('job', 'is', null)
      .executeTakeFirst();
    return Number(r.numDeletedRows) === 1;
  }

  /**
   * Cancels an unfinished conversion held by another process (or queued): the holder sees it at its next
   * heartbeat. Null when it had ended meanwhile (its revision was committed, or it failed).
   */
  async cancel(id: string, message: string): Promise<ConversionRow | null> {
    const finished = { status: ConversionStatus.Canceled, message, error: null, finished_at: new Date().toISOString() };
    const r = await this.db
      .updateTable('conversions')
      .set(finished)
      .where('id', '=', id)
      .where('finished_at', 'is', null)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return null;
    return (await this.db.selectFrom('conversions').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
  }
}

/** Why a conversion stranded by a stopped process failed. */
export const STRANDED = 'The server stopped during the conversion';

/**
 * At start: fails the conversions no process can finish and returns their ids (their files go): with
 * the in-process queue every unfinished one (this process is the only one); with a shared queue those
 * with neither a holder nor a queued job (rows of older versions). Held rows of dead processes are the
 * heartbeat's (retried or failed after the time-out).
 */
export async function failStranded(db: Kysely<DB>, shared: boolean): Promise<string[]> {
  let q = db.selectFrom('conversions').select('id').where('finished_at', 'is', null);
  if (shared) q = q.where('worker', 'is', null).where('job', 'is', null);
  const ids = (await q.execute()).map((r) => r.id);
  if (ids.length === 0) return [];
  await db
    .updateTable('conversions')
    .set({
      status: ConversionStatus.Error,
      message: STRANDED,
      error: STRANDED,
      finished_at: new Date().toISOString(),
      worker: null,
    })
    .where('id', 'in', ids)
    .where('finished_at', 'is', null)
    .execute();
  return ids;
}
