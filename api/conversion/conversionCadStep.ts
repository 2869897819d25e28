/**
 * The CAD step of a conversion (application.md §4 "CAD upload dialog"; issue "CAD components"): with the
 * "CAD components" option on, a model that names CAD files gets its CAD components after the model is
 * converted (api/conversion/cadComponents.ts), the model counting as 0–90 % of the progress and the CAD
 * files as the rest.
 *
 * A conversion started with `waitForCadFiles` first pauses for its starter to upload the files. The pause
 * lives in the database, not in a process: the row's job records it (CadPause: the staged directory with
 * the converted model, the model's result, since when it waits) and no process holds the row meanwhile.
 * Any process answers the dialog (api/conversion/CadWaits.ts reads the pause through find()), and its
 * Continue (resume()) marks the pause continued and queues the job in one transaction, so whichever
 * process takes it goes on with the CAD components and the commit. A pause without a Continue for the
 * wait's time-out (30 minutes) is cancelled by the process that paused it or, when that one is gone, by
 * any process's heartbeat. The staged directory must be on the DATA_DIR every process shares.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/database';
import type { RequiredCadFile } from '../../engine/ocx/cadRefs';
import { readCadFiles } from './cadFiles';
import type { PausedConversion, PauseSource } from './CadWaits';
import type { ConvertOutput } from './convertFile';
import { discardQueued } from './conversionFiles';
import { type ConversionLeases, type SendJob, waitsForCadFiles } from './conversionLeases';
import type { Active, ConversionRegistry } from './conversionRegistry';
import { type CadStep, type ConversionInput, parseJob, type RevisionWriter } from './conversionTypes';

/** Share of the progress the model's own conversion gets when CAD components follow. */
export const MODEL_SHARE_WITH_CAD = 0.9;
/** The message of a paused conversion. */
const WAITING = 'Waiting for the CAD files';
/** The message of a conversion continued after its pause. */
const CONTINUING = 'Converting the CAD components';

/** The CAD step's collaborators. */
export interface CadStepParts {
  db: Kysely<DB>;
  registry: ConversionRegistry;
  leases: ConversionLeases;
  cad: CadStep;
  projects: RevisionWriter;
  /** Sends a conversion's job (in the transaction of its row change). */
  send: SendJob;
  /** Lets go of a conversion whose row is no longer this process's (api/conversion/conversionHeartbeat.ts). */
  lose: (a: Active) => Promise<void>;
  /** Takes a just-queued job in this process at once when it has room (else another process takes it). */
  takeNow: (conversionId: string) => void;
}

/** Progress p∈[0,1] of a held conversion with a message. */
export type Report = (a: Active, fraction: number, message: string) => void;

/** Runs the CAD step and keeps the record of the pauses (the PauseSource of the CAD upload dialog). */
export class ConversionCadStep implements PauseSource {
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(private readonly parts: CadStepParts) {
    parts.cad.waits.attach(this);
  }

  /**
   * Adds the CAD components to the model converted into `tmpDir`. A conversion asked to wait for its CAD
   * files (and not yet paused) pauses instead: this process lets go of it and null is returned.
   * @throws Error named 'AbortError' when the conversion was cancelled; the CAD adder's errors.
   */
  async run(
    a: Active,
    input: ConversionInput,
    tmpDir: string,
    output: ConvertOutput,
    report: Report,
  ): Promise<ConvertOutput | null> {
    const { cad } = this.parts;
    const { files } = await readCadFiles(tmpDir);
    if (files.length === 0) return output;
    if (input.waitForCadFiles && !input.cadPause) {
      await this.pause(a, input, tmpDir, output, files);
      return null;
    }
    report(a, MODEL_SHARE_WITH_CAD, CONTINUING);
    const added = await cad.adder.run(
      { dir: tmpDir, modelName: a.projectName, files, cadDir: cad.waits.cadDir(a.projectName) },
      (done, total) => report(a, MODEL_SHARE_WITH_CAD + ((1 - MODEL_SHARE_WITH_CAD) * done) / total, CONTINUING),
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

  /** The project's conversion paused for its CAD files, or null (PauseSource). */
  async find(projectName: string): Promise<PausedConversion | null> {
    const row = await this.parts.db
      .selectFrom('conversions')
      .selectAll()
      .where('project_name', '=', projectName)
      .where('finished_at', 'is', null)
      .executeTakeFirst();
    if (!row?.job || !waitsForCadFiles(row)) return null;
    const pause = parseJob(row.job).cadPause;
    if (!pause) return null;
    const { files } = await readCadFiles(pause.tmpDir).catch(() => ({ files: [] as RequiredCadFile[] }));
    return { conversionId: row.id, projectName: row.project_name, startedBy: row.started_by, files };
  }

  /** Continues a paused conversion: the rest is queued for any process (PauseSource). */
  async resume(conversionId: string): Promise<boolean> {
    const { db, registry, leases, send } = this.parts;
    const row = await db.selectFrom('conversions').selectAll().where('id', '=', conversionId).executeTakeFirst();
    if (!row?.job || !waitsForCadFiles(row)) return false;
    const input = parseJob(row.job);
    if (!input.cadPause) return false;
    const job = JSON.stringify({ ...input, cadPause: { ...input.cadPause, waiting: false } });
    if (!(await leases.resume(row.id, row.job, job, CONTINUING, send))) return false;
    const other = registry.others.get(row.project_name);
    if (other?.id === row.id)
      registry.others.set(row.project_name, { ...other, message: CONTINUING, waitingForCadFiles: false });
    registry.emit({ ...registry.rowToEvent(row), message: CONTINUING });
    // The process the starter talks to goes on with it when it can, as the one receiving an upload does.
    this.parts.takeNow(row.id);
    return true;
  }

  /**
   * Cancels the pauses past the wait's time-out (`ids` only, when given): their staged model and upload
   * go, the dialogs close, waiters and listeners get the Canceled event.
   */
  async expire(ids?: readonly string[]): Promise<void> {
    const { registry, leases, cad, projects } = this.parts;
    const ended = await leases.expirePauses(Date.now() - cad.waits.timeoutMs, 'Conversion canceled', ids);
    for (const row of ended) {
      registry.markEnded(row.id);
      if (registry.others.get(row.project_name)?.id === row.id) registry.others.delete(row.project_name);
      if (row.job) await discardQueued(parseJob(row.job), projects.projectDir(row.project_name));
      cad.waits.ended(row.id, row.project_name);
      const e = registry.rowToEvent(row);
      registry.emit(e);
      registry.settleId(row.id, e);
    }
  }

  /** Stops the time-out timers of the pauses made here (their rows stay for any process's heartbeat). */
  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  /** Records the pause, lets go of the conversion and opens the dialogs. */
  private async pause(
    a: Active,
    input: ConversionInput,
    tmpDir: string,
    output: ConvertOutput,
    files: readonly RequiredCadFile[],
  ): Promise<void> {
    const { registry, leases, cad } = this.parts;
    const job: ConversionInput = { ...input, cadPause: { tmpDir, output, waiting: true, since: Date.now() } };
    if (a.abort.signal.aborted || !(await leases.pause(a.id, JSON.stringify(job), WAITING, a.progress))) {
      // Cancelled or taken from this process meanwhile: its row's outcome is not this process's to write.
      await this.parts.lose(a);
      throw Object.assign(new Error('Conversion canceled'), { name: 'AbortError' });
    }
    registry.active.delete(a.projectName);
    if (a.pending) clearTimeout(a.pending);
    a.keepInput = true;
    a.lost = true;
    a.message = WAITING;
    registry.others.set(a.projectName, { ...registry.info(a), waitingForCadFiles: true });
    const e = registry.event(a, true);
    registry.emit(e);
    a.resolve(e);
    await cad.waits.paused({ conversionId: a.id, projectName: a.projectName, startedBy: a.startedBy, files });
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.expire([a.id]).catch(() => {});
    }, cad.waits.timeoutMs + 10);
    timer.unref?.();
    this.timers.add(timer);
  }
}
