/**
 * The queue conversions run from (issue "Running at scale"): one interface for the in-process pool
 * (SQLite, CLI: jobs run in the process that sends them) and the durable pg-boss queue on PostgreSQL
 * (api/jobs/pgBossQueue.ts: any server process may take a job). Jobs carry only ids; their state lives in
 * the database (the `conversions` table), so a job that finds its work already done or cancelled ends at
 * once.
 */

import type { Kysely } from 'kysely';
import type { DB } from '../db/database';

/** Runs one job; resolves when the job is done (a rejection counts as done too: the state is in the database). */
export type JobHandler<T> = (data: T) => Promise<void>;

/** How a job is sent. */
export interface SendOptions {
  /** Taken this many seconds from now at the earliest (default at once; the in-process queue ignores it). */
  delaySec?: number;
  /** A transaction of Keelson's database to write the job in. */
  within?: Kysely<DB>;
}

/** A named queue of jobs. */
export interface JobQueue {
  /** True when every server process on the database shares the jobs (pg-boss); false: this process only. */
  readonly shared: boolean;
  /**
   * Takes jobs of `name` with `handler`, at most `concurrency` at once in this process (the in-process
   * queue runs each at once: the conversion runner's pool bounds them).
   */
  work<T extends object>(name: string, concurrency: number, handler: JobHandler<T>): Promise<void>;
  /**
   * Adds a job. With `options.within` (a transaction of Keelson's database) the job is written in that
   * transaction, so it exists exactly when the caller's own writes commit (pg-boss; the in-process queue
   * runs it after the caller's bookkeeping, and a job whose writes were rolled back finds nothing to do).
   * @throws Error when the queue is stopping or the database refuses it (the transaction then fails too).
   */
  send<T extends object>(name: string, data: T, options?: SendOptions): Promise<void>;
  /**
   * Shared queues: the values of `data[key]` of the jobs of `name` that wait, or that a process took less
   * than `staleAfterSec` seconds ago (a job taken longer ago by a process that has not recorded it since
   * is one whose process died). @throws the database's error.
   */
  liveJobs?(name: string, key: string, staleAfterSec: number): Promise<Set<string>>;
  /** Takes no more jobs (graceful shutdown); running handlers go on and sent jobs wait for another process. */
  stopTaking(): Promise<void>;
  /** Stops the queue (after stopTaking and the running jobs). */
  close(): Promise<void>;
}

/**
 * The in-process queue: `send` runs the handler at once in this process. After `stopTaking` a send is
 * refused (there is no other process to run it).
 */
export function inProcessQueue(): JobQueue {
  const handlers = new Map<string, JobHandler<object>>();
  let taking = true;
  return {
    shared: false,
    async work(name, _concurrency, handler) {
      handlers.set(name, handler as JobHandler<object>);
    },
    async send(name, data) {
      const handler = handlers.get(name);
      if (!handler) throw new Error(`No worker for the job queue '${name}'`);
      if (!taking) throw new Error('The server is shutting down');
      // Run after the caller's own bookkeeping, as a queue would; errors are the handler's to record.
      setImmediate(() => void handler(data).catch(() => {}));
    },
    async stopTaking() {
      taking = false;
    },
    async close() {
      taking = false;
      handlers.clear();
    },
  };
}
