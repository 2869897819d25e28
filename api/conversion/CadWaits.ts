/**
 * Conversions paused for their CAD files (application.md §4 "CAD upload dialog", §5 "Upload and project
 * files"; issue "CAD components" §2). A conversion whose model names CAD files, with the "CAD components"
 * option on and started by a user who watches it (upload, project location), pauses after the model is
 * converted: the starter uploads files (POST .../upload-cad-files) and continues (POST
 * .../notify-cad-files-uploaded); a cancel (DELETE .../add/cancel-project) ends the pause, and so does
 * WAIT_TIMEOUT_MS without a continue (nobody is left to answer the dialog).
 *
 * The pause is recorded in the database, not in a process (api/conversion/conversionCadStep.ts): any server
 * process answers the dialog's requests and its Continue queues the rest of the conversion as a job any
 * process may take. This class checks the dialog's requests against the recorded pause (its PauseSource)
 * and announces every change of the upload state to the listeners (api/realtime.ts sends it as the
 * 'cadfiles' event to the conversion's room). Statuses per file: missing, exists, uploading (a new file is
 * being stored), updating (an existing one is being replaced), extra (in the project's CAD directory but
 * not named by this model). Uploads in flight are known to the process storing them. Node-only.
 */
import { readdir } from 'node:fs/promises';
import type { RequiredCadFile } from '../../engine/ocx/cadRefs';
import type { CadFilesState, CadFileStatus } from '../contract/cad';
import { ApiError, Errors } from '../errors';
import { cadFormatOf } from '../cad/formats';

/** How long a conversion waits for Continue before it is cancelled, ms (30 minutes). */
export const WAIT_TIMEOUT_MS = 30 * 60_000;

/** A conversion paused for its CAD files, as recorded. */
export interface PausedConversion {
  conversionId: string;
  projectName: string;
  startedBy: string;
  /** The CAD files its model names. */
  files: readonly RequiredCadFile[];
}

/** Where the pauses are recorded (api/conversion/conversionCadStep.ts: the `conversions` table). */
export interface PauseSource {
  /** The project's conversion paused for its CAD files, or null when none is. */
  find(projectName: string): Promise<PausedConversion | null>;
  /** Continues a paused conversion; false when it no longer waits (cancelled, timed out, continued). */
  resume(conversionId: string): Promise<boolean>;
}

const conflict = (message: string) => new ApiError('Conflict', 409, message, 'conflict');

/** The dialog's side of the pauses: checks, uploads in flight, announcements. */
export class CadWaits {
  private source: PauseSource | null = null;
  /** Files being stored by this process, by project: 'uploading' (new) or 'updating' (replacing). */
  private readonly inFlight = new Map<string, Map<string, 'uploading' | 'updating'>>();
  private readonly listeners = new Set<(e: CadFilesState) => void>();

  constructor(
    /** DATA_DIR/projects/{NAME}/cad of a project (ProjectStore.cadDir). */
    readonly cadDir: (projectName: string) => string,
    /** How long a pause lasts without a Continue, ms. */
    readonly timeoutMs = WAIT_TIMEOUT_MS,
  ) {}

  /** Connects the record of pauses (the conversion manager does, once). */
  attach(source: PauseSource): void {
    this.source = source;
  }

  /** Subscribes to upload-state changes; returns the unsubscribe. */
  onChange(fn: (e: CadFilesState) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** True while the project's conversion waits for its CAD files. */
  async isWaiting(projectName: string): Promise<boolean> {
    return (await this.find(projectName)) !== null;
  }

  /** Announces a pause just recorded (the dialogs open). */
  async paused(p: PausedConversion): Promise<void> {
    this.emit(await this.stateOf(p));
  }

  /** Announces that a pause is over (its Continue was heard, or the conversion ended): the dialogs close. */
  ended(conversionId: string, projectName: string): void {
    this.emit({ conversionId, projectName, waiting: false, files: [] });
  }

  /** The upload state of the project's paused conversion, or null when none waits. */
  async state(projectName: string): Promise<CadFilesState | null> {
    const p = await this.find(projectName);
    return p ? this.stateOf(p) : null;
  }

  private async stateOf(p: PausedConversion): Promise<CadFilesState> {
    const present = await this.present(p.projectName);
    const required = new Set(p.files.map((f) => f.fileName));
    const inFlight = this.inFlight.get(p.projectName);
    const status = (name: string): CadFileStatus => inFlight?.get(name) ?? (present.has(name) ? 'exists' : 'missing');
    return {
      conversionId: p.conversionId,
      projectName: p.projectName,
      waiting: true,
      files: [
        ...p.files.map((f) => ({ fileName: f.fileName, status: status(f.fileName), objects: f.objects })),
        ...[...present]
          .filter((n) => !required.has(n))
          .sort()
          .map((n) => ({ fileName: n, status: 'extra' as const, objects: [] })),
      ],
    };
  }

  /**
   * Checks that `email` may upload `fileName` now and marks it uploading / updating (announced).
   * @throws ApiError 409 when no conversion waits, the file is being stored already, or it is on the server
   *   and `overwrite` is off; 403 for another user than the starter; 400 for a name the model does not
   *   require or a format Keelson does not convert.
   */
  async begin(projectName: string, email: string, fileName: string, overwrite: boolean): Promise<void> {
    const p = await this.starterPause(projectName, email);
    if (!p.files.some((f) => f.fileName === fileName))
      throw Errors.badRequest(`${fileName} is not a CAD file project ${projectName} requires`);
    try {
      cadFormatOf(fileName);
    } catch (e) {
      throw Errors.badRequest((e as Error).message);
    }
    let inFlight = this.inFlight.get(projectName);
    if (inFlight?.has(fileName)) throw conflict(`${fileName} is being uploaded already`);
    const exists = (await this.present(projectName)).has(fileName);
    if (exists && !overwrite) throw conflict(`${fileName} is already on the server; choose overwrite to replace it`);
    // Checked again after the await: two requests for one file race on this process.
    inFlight = this.inFlight.get(projectName) ?? new Map();
    if (inFlight.has(fileName)) throw conflict(`${fileName} is being uploaded already`);
    inFlight.set(fileName, exists ? 'updating' : 'uploading');
    this.inFlight.set(projectName, inFlight);
    this.emit(await this.stateOf(p));
  }

  /** Ends an upload begun with begin() (stored or not); announces the new state while the pause lasts. */
  async end(projectName: string, fileName: string): Promise<void> {
    const inFlight = this.inFlight.get(projectName);
    if (!inFlight?.delete(fileName)) return;
    if (inFlight.size === 0) this.inFlight.delete(projectName);
    const p = await this.find(projectName);
    if (p) this.emit(await this.stateOf(p));
  }

  /**
   * Continues the paused conversion (POST .../notify-cad-files-uploaded): the rest of it is queued as a
   * job. `fileNames` are the files the dialog uploaded; each must be one the model requires.
   * @throws ApiError 409 when none waits (or it ended meanwhile) or uploads are still being stored here;
   *   403 for another user; 400 for a name the model does not require.
   */
  async resume(projectName: string, email: string, fileNames: readonly string[]): Promise<void> {
    const p = await this.starterPause(projectName, email);
    const unknown = fileNames.find((n) => !p.files.some((f) => f.fileName === n));
    if (unknown !== undefined) throw Errors.badRequest(`${unknown} is not a CAD file project ${projectName} requires`);
    const inFlight = this.inFlight.get(projectName);
    if (inFlight && inFlight.size > 0) throw conflict(`${[...inFlight.keys()].join(', ')} is still being uploaded`);
    if (!(await this.source?.resume(p.conversionId))) throw this.noPause(projectName);
    this.ended(p.conversionId, projectName);
  }

  private find(projectName: string): Promise<PausedConversion | null> {
    return this.source ? this.source.find(projectName) : Promise.resolve(null);
  }

  private noPause(projectName: string): ApiError {
    return conflict(`No conversion of ${projectName} is waiting for CAD files`);
  }

  private async starterPause(projectName: string, email: string): Promise<PausedConversion> {
    const p = await this.find(projectName);
    if (!p) throw this.noPause(projectName);
    if (p.startedBy !== email)
      throw Errors.forbidden('Only the user who started the conversion can upload its CAD files');
    return p;
  }

  private async present(projectName: string): Promise<Set<string>> {
    const entries = await readdir(this.cadDir(projectName), { withFileTypes: true }).catch(() => []);
    // Files being written start with '.' (see the upload route) and are not listed.
    return new Set(entries.filter((e) => e.isFile() && !e.name.startsWith('.')).map((e) => e.name));
  }

  private emit(e: CadFilesState): void {
    for (const fn of this.listeners) {
      try {
        fn(e);
      } catch {
        // A failing listener must not stop the upload.
      }
    }
  }
}
