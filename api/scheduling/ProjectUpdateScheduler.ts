/**
 * Scheduled project updates (application.md §2 "Scheduling tab", §3 "Project update job", §4 "Other
 * admin state"): the list of jobs is kept in the database (project_update_jobs) and saved as a whole;
 * each job's times of day (HH:MM in the schedule time zone) are turned into the next moment with croner,
 * and at that moment every source of the job is re-imported as the job's user (its keelsonId), as a new
 * revision or replacing the latest (overwriteIfExists), through the same conversion as an upload, so the
 * progress appears on the start page. Jobs are re-armed from the database when the server starts. With
 * several server processes each arms the timers and the first to record a moment (schedule_runs) runs
 * it; the conversions it starts are jobs of the shared queue like any upload's.
 * The clock is injectable: tests move time instead of waiting.
 */
import { Cron } from 'croner';
import type { Kysely } from 'kysely';
import type { ProjectUpdateJob } from '../contract/scheduling';
import type { DB } from '../db/database';
import type { UploadResponse } from '../contract/projects';

/** Time and timers of the scheduler. */
export interface SchedulerClock {
  now(): Date;
  /** Calls `fn` after `ms`; returns the cancel. */
  setTimer(ms: number, fn: () => void): () => void;
}

/** Longest single timer, ms (setTimeout's limit is 2^31 - 1; a longer wait re-arms). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** How long a run moment is remembered, ms (longer than any clock difference between processes). */
const SLOT_MEMORY_MS = 2 * 24 * 3600_000;

/** The process clock. */
export const systemClock: SchedulerClock = {
  now: () => new Date(),
  setTimer(ms, fn) {
    const t = setTimeout(fn, Math.min(Math.max(0, ms), MAX_TIMER_MS));
    t.unref?.();
    return () => clearTimeout(t);
  },
};

/** Outcome of one source of a run: the conversion started, or why none was. */
export type SourceRunResult = { source: string } & ({ started: UploadResponse } | { error: string });

/** Starts one re-import as the job's user (api/locations/importSource.ts). */
export type RunSource = (email: string, source: string, replace: boolean) => Promise<UploadResponse>;

/** Keeps, arms and runs the project update jobs. */
export class ProjectUpdateScheduler {
  private readonly cancels: Array<() => void> = [];
  private readonly runListeners = new Set<(jobId: number, results: SourceRunResult[]) => void>();
  private stopped = false;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly runSource: RunSource,
    private readonly opts: {
      clock?: SchedulerClock;
      /** IANA time zone of the times of day. */
      timezone: string;
      log?: (message: string) => void;
    },
  ) {}

  private get clock(): SchedulerClock {
    return this.opts.clock ?? systemClock;
  }

  /** The saved jobs, in their saved order. */
  async list(): Promise<ProjectUpdateJob[]> {
    const rows = await this.db.selectFrom('project_update_jobs').selectAll().orderBy('position').execute();
    return rows.map((r) => ({
      id: r.id,
      sources: JSON.parse(r.sources) as string[],
      timesOfDay: JSON.parse(r.times_of_day) as string[],
      keelsonId: r.keelson_id,
      overwriteIfExists: r.overwrite_if_exists === 1,
    }));
  }

  /** Replaces the whole list (one transaction) and re-arms the timers; returns the saved list. */
  async save(jobs: ProjectUpdateJob[]): Promise<ProjectUpdateJob[]> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('project_update_jobs').execute();
      for (const [position, j] of jobs.entries())
        await trx
          .insertInto('project_update_jobs')
          .values({
            position,
            id: j.id,
            sources: JSON.stringify(j.sources),
            times_of_day: JSON.stringify([...j.timesOfDay].sort()),
            keelson_id: j.keelsonId,
            overwrite_if_exists: j.overwriteIfExists ? 1 : 0,
          })
          .execute();
    });
    await this.arm();
    return this.list();
  }

  /** Arms a timer for the next moment of every time of every saved job (called at start and on save). */
  async arm(): Promise<void> {
    this.disarm();
    if (this.stopped) return;
    for (const job of await this.list()) for (const t of job.timesOfDay) this.armOne(job.id, t);
  }

  /** The next moment of HH:MM after `from`, in the schedule time zone. */
  nextRun(timeOfDay: string, from: Date): Date | null {
    const [h, m] = timeOfDay.split(':').map(Number);
    return new Cron(`${m} ${h} * * *`, { timezone: this.opts.timezone }).nextRun(from);
  }

  private armOne(jobId: number, timeOfDay: string): void {
    const next = this.nextRun(timeOfDay, this.clock.now());
    if (!next) return;
    const wait = next.getTime() - this.clock.now().getTime();
    const cancel = this.clock.setTimer(wait, () => {
      // A wait longer than one timer allows re-arms; at the moment itself the job runs, then re-arms.
      if (this.clock.now().getTime() + 1000 < next.getTime()) {
        this.armOne(jobId, timeOfDay);
        return;
      }
      void this.runById(jobId, next).finally(() => {
        if (!this.stopped) this.armOne(jobId, timeOfDay);
      });
    });
    this.cancels.push(cancel);
  }

  private async runById(jobId: number, moment: Date): Promise<void> {
    if (!(await this.claimSlot(jobId, moment).catch(() => false))) return;
    const job = (await this.list().catch(() => [])).find((j) => j.id === jobId);
    if (job) await this.run(job);
  }

  /**
   * Takes the run of job `jobId` at `moment` for this process: every server process arms the same timers,
   * and only the one that records the moment first (schedule_runs) runs it. Moments older than two days
   * are forgotten.
   */
  private async claimSlot(jobId: number, moment: Date): Promise<boolean> {
    const now = this.clock.now();
    await this.db
      .deleteFrom('schedule_runs')
      .where('ran_at', '<', new Date(now.getTime() - SLOT_MEMORY_MS).toISOString())
      .execute();
    const r = await this.db
      .insertInto('schedule_runs')
      .values({ slot: `${jobId}@${moment.toISOString()}`, ran_at: now.toISOString() })
      .onConflict((oc) => oc.column('slot').doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  /** Subscribes to finished job runs (the results per source); returns the unsubscribe. */
  onRun(fn: (jobId: number, results: SourceRunResult[]) => void): () => void {
    this.runListeners.add(fn);
    return () => this.runListeners.delete(fn);
  }

  /**
   * Runs a job now: starts the re-import of each source in turn as the job's user. A source that cannot
   * start (file gone, project being added, user without the right) is skipped with its reason logged.
   */
  async run(job: ProjectUpdateJob): Promise<SourceRunResult[]> {
    const results: SourceRunResult[] = [];
    for (const source of job.sources) {
      try {
        results.push({ source, started: await this.runSource(job.keelsonId, source, job.overwriteIfExists) });
      } catch (e) {
        const error = e instanceof Error ? e.message : String(e);
        this.opts.log?.(`Project update job ${job.id}: ${source}: ${error}`);
        results.push({ source, error });
      }
    }
    for (const fn of this.runListeners) fn(job.id, results);
    return results;
  }

  private disarm(): void {
    for (const c of this.cancels.splice(0)) c();
  }

  /** Cancels every timer (server close); later saves keep the list but arm nothing. */
  stop(): void {
    this.stopped = true;
    this.disarm();
  }
}
