/**
 * The heartbeat of a process on a shared queue and its view of the other processes (README "Running at
 * scale" → "Conversion queue, health and shutdown"). Every interval (a quarter of JOB_TIMEOUT_SEC, at most
 * a second) it renews the rows this process holds and stops the ones it lost (cancelled elsewhere, or
 * reaped after a stall), queues again or fails the conversions of dead processes, sends again the jobs a
 * dead process took from the queue before recording itself as their holder, ends CAD pauses past
 * their time-out, and re-reads the unfinished conversions held elsewhere, so `running()`, the 409 checks
 * and wait() answer the same on every process. It also hands a running conversion back to the queue when
 * this process stops past its grace period.
 */
import path from 'node:path';
import type { Kysely } from 'kysely';
import { ConversionStatus } from '../contract/common';
import type { DB } from '../db/database';
import type { ProjectStore } from '../projects/ProjectStore';
import { discardInput, removeStaged } from './conversionFiles';
import { type ConversionLeases, runningFromRow, type SendJob } from './conversionLeases';
import type { Active, ConversionRegistry } from './conversionRegistry';
import { cancelledEvent, type ConversionInput, parseJob, type RevisionWriter } from './conversionTypes';

/** What a failed conversion says when the process running it stopped. */
const PROCESS_DIED = 'The server converting the model stopped';
/** What a reservation says when the process receiving its upload stopped. */
const UPLOAD_DIED = 'The server receiving the upload stopped';

/** The heartbeat's collaborators. */
export interface HeartbeatParts {
  db: Kysely<DB>;
  registry: ConversionRegistry;
  leases: ConversionLeases;
  /** Sends a conversion's job (in the transaction of its row change). */
  send: SendJob;
  projects: RevisionWriter;
  /** The ids of the conversions whose queue job waits or was taken within the time-out (shared queue). */
  liveJobs?: () => Promise<Set<string>>;
  /** Ends the CAD pauses past their time-out (api/conversion/conversionCadStep.ts). */
  expirePauses?: () => Promise<void>;
  log?: (message: string) => void;
}

/** The heartbeat and the view of conversions held elsewhere. */
export class ConversionHeartbeat {
  private timer: ReturnType<typeof setInterval> | null = null;
  private ticking = false;

  constructor(private readonly parts: HeartbeatParts) {}

  /** Beats every `intervalMs` from now (once; the first beat is awaited). */
  async start(intervalMs: number): Promise<void> {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), intervalMs);
    this.timer.unref?.();
    await this.tick();
  }

  /** Beats no more. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One heartbeat: renew, notice cancels and dead processes, end stale pauses, refresh the view of others. */
  async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    const { registry, leases } = this.parts;
    try {
      const leased = [...registry.active.values()].filter((a) => a.leased);
      const held = await leases.beat(leased.map((a) => a.id));
      for (const a of leased) if (!held.has(a.id)) await this.lose(a);
      const { failed } = await leases.reap(PROCESS_DIED, UPLOAD_DIED, this.parts.send);
      for (const row of failed) {
        registry.markEnded(row.id);
        // The dead attempt's files go before the final event, as a conversion's own do.
        const input = row.job ? parseJob(row.job) : null;
        if (!input || input.deleteInputOnFailure) await this.removeUploads(row.id, input);
        const projectDir = this.parts.projects.projectDir(row.project_name);
        await removeStaged(path.join(projectDir, `.tmp-${row.id}`), projectDir);
        if (registry.others.get(row.project_name)?.id === row.id) registry.others.delete(row.project_name);
        const e = registry.rowToEvent(row);
        registry.emit(e);
        registry.settleId(row.id, e);
      }
      if (this.parts.liveJobs) {
        // A job taken by a process that died before recording it as holder: sent again.
        const resent = await leases.resend(await this.parts.liveJobs(), this.parts.send);
        if (resent.length > 0)
          this.parts.log?.(`Conversion jobs lost with their process, sent again: ${resent.join(', ')}`);
      }
      await this.parts.expirePauses?.();
      await this.refresh();
    } catch (e) {
      this.parts.log?.(`Conversion heartbeat: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      this.ticking = false;
    }
  }

  /**
   * This process no longer holds `a` (cancelled or withdrawn elsewhere, or reaped): stop it without
   * writing its row.
   */
  async lose(a: Active): Promise<void> {
    const { registry } = this.parts;
    if (registry.active.get(a.projectName) !== a) return;
    registry.drop(a);
    a.lost = true;
    const row = await this.rowOrNone(a.id);
    // Unfinished: another process retries it with the same input.
    a.keepInput = row?.finished_at === null;
    // No row: withdrawn elsewhere while its file was stored (a cancel on another process).
    if (!row) {
      a.status = ConversionStatus.Canceled;
      a.message = 'Conversion canceled';
    }
    a.abort.abort();
    const e = row ? registry.rowToEvent(row) : registry.event(a);
    // Ended (or withdrawn): final for every waiter; unfinished, another process goes on with it.
    if (!row || row.finished_at) registry.settle(a, e);
    else a.resolve(e);
  }

  /** Gives a running job back to the queue (shutdown past the grace period). */
  async handBack(a: Active): Promise<void> {
    const { registry } = this.parts;
    if (registry.active.get(a.projectName) !== a) return;
    a.keepInput = true;
    a.lost = true;
    // Dropped as ended here: a beat already under way must not list it as running elsewhere.
    registry.drop(a);
    a.abort.abort();
    // Row and job in one transaction; when it fails the row keeps this process as holder, whose silence
    // then has it queued again by another process after the time-out.
    await this.parts.leases
      .release(a.id, 'The server converting the model stopped; continuing on another server', this.parts.send)
      .catch(() => false);
    a.resolve(registry.event(a));
  }

  /** The row of conversion `id`; none when it is gone or the database does not answer. */
  private rowOrNone(id: string) {
    return this.parts.db
      .selectFrom('conversions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst()
      .catch(() => undefined);
  }

  /** Removes a dead conversion's upload: its job's files, or uploads/{id}-* of a reservation. */
  private async removeUploads(id: string, input: ConversionInput | null): Promise<void> {
    if (input) return discardInput(input);
    const store = this.parts.projects as Partial<Pick<ProjectStore, 'removeUploads'>>;
    await store.removeUploads?.([id]);
  }

  /** Re-reads the unfinished conversions held elsewhere and resolves waiters of those that ended. */
  private async refresh(): Promise<void> {
    const { registry, leases, db } = this.parts;
    const rows = await leases.unfinished();
    const unfinished = new Set(rows.map((r) => r.id));
    registry.others.clear();
    for (const r of rows) {
      if (registry.endedLately(r.id) || registry.active.get(r.project_name)?.id === r.id) continue;
      registry.others.set(r.project_name, runningFromRow(r));
    }
    for (const id of registry.waitedFor()) {
      if (unfinished.has(id) || registry.byId(id)) continue;
      const row = await db.selectFrom('conversions').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row || row.finished_at !== null) registry.settleId(id, row ? registry.rowToEvent(row) : cancelledEvent(id));
    }
  }
}
