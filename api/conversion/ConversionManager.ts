/**
 * Runs and tracks project conversions (application.md §4 "Model conversion (adding a project)").
 * One conversion per project name at a time (a second gets 409 'Adding the project {name}
 * is already in progress'). Progress p∈[0,1] from the converter becomes server progress 100·p, never
 * going back, capped at 100, emitted at most 10 times a second (plus every status change) and kept in
 * the `conversions` table so GET .../model-conversion answers after a reload.
 *
 * With the "CAD components" option on and a CadStep given, a model that names CAD files gets its CAD
 * components after the model is converted (api/conversion/cadComponents.ts); a conversion started with
 * `waitForCadFiles` first pauses until its starter has uploaded them (api/conversion/CadWaits.ts,
 * application.md §4 "CAD upload dialog"), with `waitingForCadFiles` in its progress events. The model's
 * own conversion then counts as 0-90 % and the CAD files as the rest.
 */
import { randomUUID } from 'node:crypto';
import { rm, rmdir } from 'node:fs/promises';
import type { Kysely, Selectable } from 'kysely';
import { ConversionStatus, type ConversionStatusValue, type ProgressEvent } from '../contract/common';
import type { ConversionsTable, DB } from '../db/database';
import { Errors } from '../errors';
import type { ProjectStore } from '../projects/ProjectStore';
import type { ConversionConfig } from '../contract/settings';
import type { ConvertOutput } from './convertFile';
import { readCadFiles } from './cadFiles';
import type { CadAdder } from './cadAdders';
import type { CadWaits } from './CadWaits';
import type { ConversionRunner } from './runners';

/** Minimum interval between two progress events of one conversion, ms (≤ 10/s). */
const EMIT_INTERVAL_MS = 100;
/** Interval and number of tries to record a conversion's end the database refused (≈ 10 minutes). */
const END_ROW_RETRY_MS = 5000;
const END_ROW_RETRIES = 120;
/** Minimum interval between two progress writes to the database, ms. */
const DB_INTERVAL_MS = 1000;

/**
 * The message of a failed conversion shown to users: the importer's own message (it names what is wrong
 * and where), but for file-system and other system errors only their code, never server paths or stacks.
 */
export function conversionErrorMessage(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const sys = e as NodeJS.ErrnoException;
  if (typeof sys.syscall === 'string' || (typeof sys.code === 'string' && /^E[A-Z]+$/.test(sys.code)))
    return `A file operation on the server failed (${sys.code ?? 'unknown error'})`;
  return e.message;
}

/** State of one running conversion. */
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
  done: Promise<ProgressEvent>;
  resolve: (e: ProgressEvent) => void;
  /** Set while the revision is being committed; a cancel then comes too late. */
  committing: boolean;
  /** Set while the conversion is paused for its CAD files. */
  waitingForCadFiles: boolean;
}

/** The CAD step of conversions: where paused conversions wait, and where the components are added. */
export interface CadStep {
  waits: CadWaits;
  adder: CadAdder;
}

/** Share of the progress the model's own conversion gets when CAD components follow. */
const MODEL_SHARE_WITH_CAD = 0.9;

/** What start() needs once the original is on disk. */
export interface ConversionInput {
  /** Path of the stored original. */
  input: string;
  description: string;
  /** Replace the latest revision instead of adding one. */
  replace: boolean;
  /** Delete `input` (and `original`) when the conversion fails or is cancelled (uploads: yes). */
  deleteInputOnFailure?: boolean;
  /** The stored upload when `input` was extracted from it (a .zip); kept on success as the original. */
  original?: string;
  /** Scratch files or directories (an extracted archive entry) removed when the conversion ends. */
  scratch?: string[];
  /**
   * Pause for the starter to upload the model's CAD files (a user watches: upload, project location); off
   * (scheduled updates, CLI, demo) uses the files already on the server.
   */
  waitForCadFiles?: boolean;
}

export type ConversionRow = Selectable<ConversionsTable>;

/** What a conversion needs of the project store: a temp directory, the commit, the project directory. */
export type RevisionWriter = Pick<ProjectStore, 'createTempDir' | 'commitRevision' | 'projectDir'>;

/** Starts, cancels and reports conversions. */
export class ConversionManager {
  private readonly active = new Map<string, Active>();
  private readonly listeners = new Set<(e: ProgressEvent) => void>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly projects: RevisionWriter,
    private readonly runner: ConversionRunner,
    /** The conversion options in force when a conversion starts (the admin's Settings); absent = defaults. */
    private readonly conversionConfig?: () => Promise<ConversionConfig>,
    /** The CAD components step; absent = CAD files are listed (cad-files.json) but not converted. */
    private readonly cad?: CadStep,
  ) {}

  /** Subscribes to every progress event (socket.io fan-out, CLI progress bar); returns the unsubscribe. */
  onProgress(fn: (e: ProgressEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** The running conversion of a project, if any. */
  running(
    projectName: string,
  ): { id: string; startedBy: string; progress: number; message: string; waitingForCadFiles: boolean } | null {
    const a = this.active.get(projectName);
    return a
      ? {
          id: a.id,
          startedBy: a.startedBy,
          progress: a.progress,
          message: a.message,
          waitingForCadFiles: a.waitingForCadFiles,
        }
      : null;
  }

  /**
   * Reserves the project name for a new conversion (before the upload is stored) and records it.
   * @throws ApiError 409 'Adding the project {name} is already in progress'.
   * @returns the conversion id (the socket.io room).
   */
  async reserve(projectName: string, startedBy: string): Promise<string> {
    if (this.active.has(projectName)) throw Errors.conversionInProgress(projectName);
    const id = randomUUID();
    let resolve!: (e: ProgressEvent) => void;
    const done = new Promise<ProgressEvent>((r) => (resolve = r));
    const a: Active = {
      id,
      projectName,
      startedBy,
      status: ConversionStatus.InProgress,
      progress: 0,
      message: 'Uploading the file',
      subMessages: [],
      abort: new AbortController(),
      lastEmit: 0,
      lastDbWrite: Date.now(),
      pending: null,
      done,
      resolve,
      committing: false,
      waitingForCadFiles: false,
    };
    this.active.set(projectName, a);
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
        })
        .execute();
    } catch (e) {
      // Not recorded: the name must not stay locked.
      this.active.delete(projectName);
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
    if (a.pending) clearTimeout(a.pending);
    a.abort.abort();
    await this.db.deleteFrom('conversions').where('id', '=', a.id).execute();
    a.status = ConversionStatus.Canceled;
    a.message = 'Upload refused';
    // Clients that saw the reservation (the start pages following it) learn that it is gone.
    this.emit(this.event(a));
    a.resolve(this.event(a));
  }

  /** True while `conversionId` is reserved or running (false once it ended, was cancelled or released). */
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
   * Runs the conversion of a reserved project in the background; returns at once.
   * @throws ApiError 404 when the reservation no longer exists (cancelled during the upload).
   */
  start(conversionId: string, input: ConversionInput): void {
    const a = this.byId(conversionId);
    if (!a) throw Errors.conversionNotFound(conversionId);
    this.execute(a, input).catch(() => {
      // execute() ends every path with finish(); a failure there (database gone) must not crash the process.
    });
  }

  /** Resolves with the final progress event of a conversion (immediately when it already ended). */
  async wait(conversionId: string): Promise<ProgressEvent> {
    const a = this.byId(conversionId);
    if (a) return a.done;
    const row = await this.db.selectFrom('conversions').selectAll().where('id', '=', conversionId).executeTakeFirst();
    if (!row) throw Errors.conversionNotFound(conversionId);
    return this.rowToEvent(row);
  }

  /**
   * Cancels a running conversion (application.md §4: only the user who started it).
   * @throws ApiError 404 when none runs, 403 when `email` did not start it.
   */
  async cancel(projectName: string, email: string): Promise<void> {
    const a = this.active.get(projectName);
    if (!a) throw Errors.conversionNotFound(projectName);
    if (a.startedBy !== email) throw Errors.forbidden('Only the user who started the conversion can cancel it');
    if (a.committing) throw Errors.conversionFinishing(projectName);
    a.abort.abort();
    await this.finish(a, ConversionStatus.Canceled, 'Conversion canceled', null);
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
    if (this.active.has(projectName)) return;
    await this.db.deleteFrom('conversions').where('project_name', '=', projectName).execute();
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

  /** Aborts every running conversion, waits for them and closes the runner. */
  async close(): Promise<void> {
    const all = [...this.active.values()];
    for (const a of all) {
      a.abort.abort();
      await this.finish(a, ConversionStatus.Canceled, 'The server stopped', null);
    }
    await this.runner.close();
    await this.cad?.adder.close();
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
      this.report(a, 0, 'Converting the model');
      const options = await this.conversionConfig?.();
      const share = options?.cadComponents && this.cad ? MODEL_SHARE_WITH_CAD : 1;
      let output: ConvertOutput;
      try {
        output = await this.runner.run(
          { input: input.input, outDir: tmpDir, modelName: a.projectName, ...(options ? { options } : {}) },
          (f, m) => this.report(a, f * share, m),
          a.abort.signal,
        );
        if (this.cad && output.cadFiles) output = await this.addCad(a, this.cad, input, tmpDir, output);
      } finally {
        // Scratch goes before the final event, so a waiter sees the data directory as it stays.
        for (const p of input.scratch ?? []) await rm(p, { recursive: true, force: true }).catch(() => {});
      }
      if (a.abort.signal.aborted) throw Object.assign(new Error('Conversion canceled'), { name: 'AbortError' });
      a.committing = true;
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
      if (output.warnings > 0) {
        a.status = ConversionStatus.Warning;
        a.subMessages = output.warningMessages;
        a.message = `Project ${a.projectName} was added with ${output.warnings} warning${output.warnings === 1 ? '' : 's'}`;
        this.emit(this.event(a));
      }
      a.progress = 100;
      await this.finish(a, ConversionStatus.Ready, `Revision ${revision} is ready`, null);
    } catch (e) {
      const aborted = a.abort.signal.aborted || (e instanceof Error && e.name === 'AbortError');
      // What the conversion wrote goes before its end is recorded: on a full disk the status row can only
      // be written once the half revision has freed its space.
      await this.removeScratch(a, input, tmpDir);
      if (input.deleteInputOnFailure) {
        await rm(input.input, { force: true }).catch(() => {});
        if (input.original) await rm(input.original, { force: true }).catch(() => {});
      }
      if (aborted) await this.finish(a, ConversionStatus.Canceled, 'Conversion canceled', null);
      else {
        const msg = conversionErrorMessage(e);
        await this.finish(a, ConversionStatus.Error, `Failed to add project ${a.projectName}: ${msg}`, msg);
      }
    } finally {
      await this.removeScratch(a, input, tmpDir);
    }
  }

  /** Removes a conversion's scratch files and temporary revision directory (and an empty project directory). */
  private async removeScratch(a: Active, input: ConversionInput, tmpDir: string | null | undefined): Promise<void> {
    for (const p of input.scratch ?? []) await rm(p, { recursive: true, force: true }).catch(() => {});
    if (tmpDir) {
      await rm(tmpDir, { recursive: true, force: true }).catch(() => {});
      // A failed first conversion leaves no empty project directory behind (rmdir refuses a non-empty one).
      await rmdir(this.projects.projectDir(a.projectName)).catch(() => {});
    }
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
   * END_ROW_RETRY_MS for up to END_ROW_RETRIES tries, never over a row that is no longer InProgress, so
   * GET .../model-conversion tells the truth without a restart.
   */
  private retryEndRow(id: string, row: Partial<Selectable<ConversionsTable>>, attempt: number): void {
    if (attempt > END_ROW_RETRIES) return;
    const timer = setTimeout(() => {
      this.db
        .updateTable('conversions')
        .set(row)
        .where('id', '=', id)
        .where('status', '=', ConversionStatus.InProgress)
        .execute()
        .catch(() => this.retryEndRow(id, row, attempt + 1));
    }, END_ROW_RETRY_MS);
    timer.unref();
  }

  /** Ends a conversion: status, DB row, final event (not throttled), waiters. Idempotent. */
  private async finish(a: Active, status: ConversionStatusValue, message: string, error: string | null): Promise<void> {
    if (this.active.get(a.projectName) !== a) return;
    this.active.delete(a.projectName);
    if (a.pending) clearTimeout(a.pending);
    a.status = status;
    a.message = message;
    if (error) a.subMessages = [error];
    // Spec: on Error the client resets progress to 0; the server keeps the maximum reached.
    const row = { status, progress: a.progress, message, error, finished_at: new Date().toISOString() };
    try {
      await this.db.updateTable('conversions').set(row).where('id', '=', a.id).execute();
    } catch (e) {
      this.retryEndRow(a.id, row, 1);
      throw e;
    } finally {
      // Listeners and waiters hear the end even when the row could not be written.
      const e = this.event(a);
      this.emit(e);
      a.resolve(e);
    }
  }
}
