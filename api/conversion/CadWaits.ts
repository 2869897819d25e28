/**
 * Conversions paused for their CAD files (application.md §4 "CAD upload dialog", §5 "Upload and project
 * files"; issue "CAD components" §2). A conversion whose model names CAD files, with the "CAD components"
 * option on and started by a user who watches it (upload, project location), waits here after the model
 * is converted: the starter uploads files (POST .../upload-cad-files) and continues (POST
 * .../notify-cad-files-uploaded); a cancel (DELETE .../add/cancel-project) aborts the wait, and so does
 * WAIT_TIMEOUT_MS without a continue (nobody is left to answer the dialog).
 *
 * Every change of the upload state is announced to the listeners (api/realtime.ts sends it as the
 * 'cadfiles' event to the conversion's room). Statuses per file: missing, exists, uploading (a new file
 * is being stored), updating (an existing one is being replaced), extra (in the project's CAD directory
 * but not named by this model). Node-only.
 */
import { readdir } from 'node:fs/promises';
import type { RequiredCadFile } from '../../engine/ocx/cadRefs';
import type { CadFilesState, CadFileStatus } from '../contract/cad';
import { ApiError, Errors } from '../errors';
import { cadFormatOf } from '../cad/formats';

/** How long a conversion waits for Continue before it is cancelled, ms (30 minutes). */
export const WAIT_TIMEOUT_MS = 30 * 60_000;

interface Wait {
  conversionId: string;
  projectName: string;
  startedBy: string;
  files: readonly RequiredCadFile[];
  /** Files being stored now: 'uploading' (new) or 'updating' (replacing). */
  inFlight: Map<string, 'uploading' | 'updating'>;
  resume: () => void;
}

const conflict = (message: string) => new ApiError('Conflict', 409, message, 'conflict');

/** The pauses of running conversions, by project name. */
export class CadWaits {
  private readonly waits = new Map<string, Wait>();
  private readonly listeners = new Set<(e: CadFilesState) => void>();

  constructor(
    /** DATA_DIR/projects/{NAME}/cad of a project (ProjectStore.cadDir). */
    readonly cadDir: (projectName: string) => string,
    private readonly timeoutMs = WAIT_TIMEOUT_MS,
  ) {}

  /** Subscribes to upload-state changes; returns the unsubscribe. */
  onChange(fn: (e: CadFilesState) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** True while the project's conversion waits for its CAD files. */
  isWaiting(projectName: string): boolean {
    return this.waits.has(projectName);
  }

  /**
   * Pauses until resume(), `signal` aborts or the timeout passes.
   * @throws Error named 'AbortError' on abort or timeout (the conversion ends as cancelled).
   */
  async wait(
    c: { conversionId: string; projectName: string; startedBy: string },
    files: readonly RequiredCadFile[],
    signal: AbortSignal,
  ): Promise<void> {
    if (this.waits.has(c.projectName)) throw conflict(`The conversion of ${c.projectName} already waits for CAD files`);
    signal.throwIfAborted();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort = () => {};
    try {
      await new Promise<void>((resolve, reject) => {
        const abort = (why: string) => reject(Object.assign(new Error(why), { name: 'AbortError' }));
        this.waits.set(c.projectName, { ...c, files, inFlight: new Map(), resume: resolve });
        onAbort = () => abort('Conversion canceled');
        signal.addEventListener('abort', onAbort, { once: true });
        timer = setTimeout(() => abort('No CAD files were confirmed in time'), this.timeoutMs);
        void this.announce(c.projectName);
      });
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      this.waits.delete(c.projectName);
    }
    // The dialogs learn that the pause is over (their Continue was heard, or the conversion ended).
    this.emit({ conversionId: c.conversionId, projectName: c.projectName, waiting: false, files: [] });
  }

  /** The upload state of the project's paused conversion, or null when none waits. */
  async state(projectName: string): Promise<CadFilesState | null> {
    const w = this.waits.get(projectName);
    if (!w) return null;
    const present = await this.present(projectName);
    const required = new Set(w.files.map((f) => f.fileName));
    const status = (name: string): CadFileStatus => w.inFlight.get(name) ?? (present.has(name) ? 'exists' : 'missing');
    return {
      conversionId: w.conversionId,
      projectName,
      waiting: true,
      files: [
        ...w.files.map((f) => ({ fileName: f.fileName, status: status(f.fileName), objects: f.objects })),
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
    const w = this.starterWait(projectName, email);
    if (!w.files.some((f) => f.fileName === fileName))
      throw Errors.badRequest(`${fileName} is not a CAD file project ${projectName} requires`);
    try {
      cadFormatOf(fileName);
    } catch (e) {
      throw Errors.badRequest((e as Error).message);
    }
    if (w.inFlight.has(fileName)) throw conflict(`${fileName} is being uploaded already`);
    const exists = (await this.present(projectName)).has(fileName);
    if (exists && !overwrite) throw conflict(`${fileName} is already on the server; choose overwrite to replace it`);
    w.inFlight.set(fileName, exists ? 'updating' : 'uploading');
    await this.announce(projectName);
  }

  /** Ends an upload begun with begin() (stored or not); announces the new state. */
  async end(projectName: string, fileName: string): Promise<void> {
    const w = this.waits.get(projectName);
    if (!w?.inFlight.delete(fileName)) return;
    await this.announce(projectName);
  }

  /**
   * Continues the paused conversion (POST .../notify-cad-files-uploaded). `fileNames` are the files the
   * dialog uploaded; each must be one the model requires.
   * @throws ApiError 409 when none waits or uploads are still being stored; 403 for another user; 400 for a
   *   name the model does not require.
   */
  resume(projectName: string, email: string, fileNames: readonly string[]): void {
    const w = this.starterWait(projectName, email);
    const unknown = fileNames.find((n) => !w.files.some((f) => f.fileName === n));
    if (unknown !== undefined) throw Errors.badRequest(`${unknown} is not a CAD file project ${projectName} requires`);
    if (w.inFlight.size > 0) throw conflict(`${[...w.inFlight.keys()].join(', ')} is still being uploaded`);
    w.resume();
  }

  private starterWait(projectName: string, email: string): Wait {
    const w = this.waits.get(projectName);
    if (!w) throw conflict(`No conversion of ${projectName} is waiting for CAD files`);
    if (w.startedBy !== email)
      throw Errors.forbidden('Only the user who started the conversion can upload its CAD files');
    return w;
  }

  private async present(projectName: string): Promise<Set<string>> {
    const entries = await readdir(this.cadDir(projectName), { withFileTypes: true }).catch(() => []);
    // Files being written start with '.' (see the upload route) and are not listed.
    return new Set(entries.filter((e) => e.isFile() && !e.name.startsWith('.')).map((e) => e.name));
  }

  private async announce(projectName: string): Promise<void> {
    const s = await this.state(projectName);
    if (s) this.emit(s);
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
