/**
 * Start-view state (application.md §2 "Start view", §4 "Model conversion"): the model list and the
 * progress of conversions (uploads in flight, conversions re-joined after a page reload from the model
 * list's isConverting / conversionId), with the spec's toasts.
 */
import { proxy } from 'valtio';
import { ConversionStatus, type Model, type ProgressEvent } from '../../api/contract';
import { deleteRevisionCall, deleteRevisionComments } from '../api/admin';
import { cancelProject, deleteModel, getModels, uploadProject } from '../api/calls';
import { ApiError } from '../api/client';
import { addProjectFromDirectory, addProjectFromServer } from '../api/locations';
import { joinConversion, leaveConversion, onProgress } from '../api/realtime';
import {
  advanceProgress,
  applyProgressReport,
  conversionPercent,
  uploadPercent,
  type ConversionState,
  warningText,
} from '../logic/progress';
import { removeRecent } from '../logic/recent';
import { authStore } from './auth';
import { openCadUpload } from './cadUpload';
import { showToast } from './toasts';

export const projectsStore = proxy({
  models: [] as Model[],
  loaded: false,
  loading: false,
  /** Conversion state by project name (upper case). */
  conversions: {} as Record<string, ConversionState>,
});

/** Project names are upper-cased (application.md §3). */
export const normalizeProjectName = (name: string) => name.trim().toUpperCase();

/** Default project name from a file name: its base name without extension, upper-cased. */
export function projectNameFromFile(fileName: string): string {
  return normalizeProjectName(fileName.replace(/\.[^.]*$/, ''));
}

/** Uploads in flight by project name: Cancel during the upload aborts them. */
const uploads = new Map<string, AbortController>();

let subscribed = false;
function ensureSubscribed(): void {
  if (subscribed) return;
  subscribed = true;
  onProgress(handleProgress);
}

function track(name: string, conversionId: string, seed: Partial<ConversionState>): void {
  const prev = projectsStore.conversions[name];
  projectsStore.conversions[name] = {
    projectName: name,
    conversionId,
    percent: advanceProgress(prev?.percent ?? 0, seed.percent ?? 0),
    message: seed.message ?? prev?.message ?? '',
    status: seed.status ?? prev?.status ?? ConversionStatus.InProgress,
    startedBy: seed.startedBy ?? prev?.startedBy ?? null,
  };
  const token = authStore.token;
  if (token && conversionId && projectsStore.conversions[name].status === ConversionStatus.InProgress) {
    ensureSubscribed();
    joinConversion(token, conversionId);
  }
}

function handleProgress(e: ProgressEvent): void {
  const name = e.projectName;
  const cur = projectsStore.conversions[name];
  if (!cur || (cur.conversionId && cur.conversionId !== e.conversionId)) return;
  const next = applyProgressReport(cur, e);
  projectsStore.conversions[name] = next;
  // The conversion waits for its CAD files: its starter gets the upload dialog (application.md §4).
  if (e.waitingForCadFiles && next.startedBy && next.startedBy === authStore.user?.email)
    void openCadUpload(name, e.conversionId);
  switch (e.status) {
    case ConversionStatus.Ready:
      leaveConversion(e.conversionId);
      showToast('success', `Project ${name} is added`);
      // The card shows 100 % until the refreshed list carries the new revision.
      void loadModels().finally(() => {
        if (projectsStore.conversions[name]?.conversionId === e.conversionId) delete projectsStore.conversions[name];
      });
      break;
    case ConversionStatus.Error:
      leaveConversion(e.conversionId);
      showToast('error', `Failed to add project ${name}`);
      void loadModels();
      break;
    case ConversionStatus.Canceled:
      leaveConversion(e.conversionId);
      showToast('info', `Canceled adding project ${name}`, 5000);
      void loadModels();
      break;
    case ConversionStatus.Warning:
      // The warnings themselves are the toast's content, under the summary (application.md §4 "Warning").
      if (e.message || e.subMessages.length) showToast('warning', warningText(e), 5000);
      break;
  }
}

/**
 * Loads the model list and re-attaches to conversions it reports (isConverting → join the room;
 * conversionFailed / conversionCancelled → the card offers Remove).
 */
export async function loadModels(): Promise<void> {
  projectsStore.loading = true;
  try {
    const models = await getModels();
    projectsStore.models = models;
    for (const m of models) {
      if (m.isConverting) {
        track(m.name, m.conversionId, {
          percent: conversionPercent(m.convertingPercentage),
          message: m.convertingMessage,
          status: ConversionStatus.InProgress,
          startedBy: m.conversionStartedByEmail || null,
        });
        // A pause announced before this page joined the conversion's room.
        if (m.waitingForCadFiles && m.conversionStartedByEmail === authStore.user?.email)
          void openCadUpload(m.name, m.conversionId);
      } else if (m.conversionFailed || m.conversionCancelled) {
        // A conversion that ended while no progress event reached us (e.g. before the room was joined).
        const was = projectsStore.conversions[m.name];
        if (was && was.status === ConversionStatus.InProgress) {
          if (was.conversionId) leaveConversion(was.conversionId);
          if (m.conversionFailed) showToast('error', `Failed to add project ${m.name}`);
          else showToast('info', `Canceled adding project ${m.name}`, 5000);
        }
        track(m.name, m.conversionId, {
          status: m.conversionFailed ? ConversionStatus.Error : ConversionStatus.Canceled,
          message: m.convertingMessage,
          startedBy: m.conversionStartedByEmail || null,
        });
        if (m.conversionFailed) projectsStore.conversions[m.name].percent = 0;
      } else if (projectsStore.conversions[m.name]) {
        const c = projectsStore.conversions[m.name];
        // A conversion that finished while no progress event reached us (e.g. before the room was joined).
        if (c.status === ConversionStatus.InProgress && c.conversionId && m.revisions.length > 0) {
          leaveConversion(c.conversionId);
          showToast('success', `Project ${m.name} is added`);
        }
        if (c.status !== ConversionStatus.InProgress || c.conversionId) delete projectsStore.conversions[m.name];
      }
    }
    // A conversion that ended and left nothing in the list (an upload withdrawn by the server) has no card.
    const listed = new Set(models.map((m) => m.name));
    for (const [name, c] of Object.entries(projectsStore.conversions))
      if (!listed.has(name) && c.conversionId && c.status !== ConversionStatus.InProgress)
        delete projectsStore.conversions[name];
    projectsStore.loaded = true;
  } catch {
    /* shown by the central handler */
  } finally {
    projectsStore.loading = false;
  }
}

/** True while a conversion of this session has been handed to the server and not finished. */
export function hasActiveConversions(): boolean {
  return Object.values(projectsStore.conversions).some(
    (c) => c.status === ConversionStatus.InProgress && c.conversionId,
  );
}

/** True when a project of that name exists (the overwrite choice is then needed). */
export function projectExists(name: string): boolean {
  const n = normalizeProjectName(name);
  return projectsStore.models.some((m) => m.name === n && m.revisions.length > 0);
}

/**
 * Uploads a project file and follows its conversion (application.md §4): upload 0–20 %, then socket
 * progress. A 409 shows 'Adding the project {name} is already in progress' and observes that conversion.
 */
export async function addProject(p: {
  file: File;
  projectName: string;
  description: string;
  overwriteIfExists: boolean;
}): Promise<void> {
  const name = normalizeProjectName(p.projectName);
  const email = authStore.user?.email ?? '';
  // A conversion of this name already running: the server refuses this upload (409) without reading it.
  const prev = projectsStore.conversions[name];
  const runningBefore = prev?.status === ConversionStatus.InProgress && prev.conversionId ? prev.conversionId : null;
  projectsStore.conversions[name] = {
    projectName: name,
    conversionId: null,
    percent: 0,
    message: 'Uploading',
    status: ConversionStatus.InProgress,
    startedBy: email,
  };
  const abort = new AbortController();
  uploads.set(name, abort);
  try {
    const res = await uploadProject(
      { ...p, projectName: name, keelsonUser: email },
      (loaded, total) => {
        const c = projectsStore.conversions[name];
        if (c) c.percent = advanceProgress(c.percent, uploadPercent(loaded, total));
      },
      abort.signal,
    );
    track(res.projectName, res.conversionId, { percent: 20, message: 'Converting', startedBy: email });
    if (res.projectName !== name) delete projectsStore.conversions[name];
  } catch (e) {
    delete projectsStore.conversions[name];
    if ((e as Error).name === 'AbortError') {
      // Bytes count as sent once they are in the socket's buffers, and a closed connection still delivers
      // them first: on a slow link the server goes on storing the upload long after the abort (or gets all
      // of it and starts the conversion). So the reservation, or the conversion if it started, is cancelled
      // by name at once; a refusal means the server had nothing left of it. Not when the conversion that
      // ran before still runs: the server refused this upload, and the cancel by name would end that one.
      if (await abortedUploadMayRun(name, runningBefore)) await cancelProject(name, { expected: true }).catch(() => {});
      showToast('info', `Canceled adding project ${name}`, 5000);
      void loadModels();
      return;
    }
    // 409: the project is already being added; the list carries its conversion to observe.
    void loadModels();
    throw e;
  } finally {
    if (uploads.get(name) === abort) uploads.delete(name);
  }
}

/**
 * Whether an aborted upload of `name` may have left a reservation or a conversion on the server: always
 * when no conversion of that name ran before it; otherwise only when the model list no longer shows that
 * one (`before`, its id) running, since while it runs the server refuses the upload (409) unread. When
 * the list cannot be read, false: the server withdraws a reservation whose upload broke off by itself.
 */
async function abortedUploadMayRun(name: string, before: string | null): Promise<boolean> {
  if (!before) return true;
  try {
    const m = (await getModels()).find((x) => x.name === name);
    return !(m?.isConverting && m.conversionId === before);
  } catch {
    return false;
  }
}

/** A project in a configured location: a file in a server directory, or another Keelson server's project. */
export type LocationSource = { kind: 'directory'; path: string } | { kind: 'server'; url: string; project: string };

/**
 * Adds a project from a project location and follows its conversion like an upload's (application.md §4;
 * the server reads the file itself, so progress starts at the conversion's 20 %). A 409 shows 'Adding the
 * project {name} is already in progress' and observes that conversion; other failures show the server's
 * message. @throws ApiError after showing it.
 */
export async function addProjectFromLocation(
  source: LocationSource,
  p: { projectName: string; description: string; overwriteIfExists: boolean },
): Promise<void> {
  const name = normalizeProjectName(p.projectName);
  const email = authStore.user?.email ?? '';
  const params = { ...p, projectName: name };
  try {
    const res =
      source.kind === 'directory'
        ? await addProjectFromDirectory(source.path, params)
        : await addProjectFromServer(source.url, email, params);
    track(res.projectName, res.conversionId, { percent: 20, message: 'Converting', startedBy: email });
  } catch (e) {
    if (e instanceof ApiError && e.status === 409)
      showToast('error', `Adding the project ${name} is already in progress`);
    else if (e instanceof ApiError && e.status !== 401) showToast('error', e.message);
    void loadModels();
    throw e;
  }
}

/** Cancels a conversion started by this user (application.md §4). */
export async function cancelConversion(name: string): Promise<void> {
  const upload = uploads.get(name);
  if (upload && !projectsStore.conversions[name]?.conversionId) {
    upload.abort();
    return;
  }
  await cancelProject(name);
}

/**
 * Removes a failed or cancelled project's card and its recent entry (application.md §2). A project without
 * revisions is forgotten on the server (DELETE .../delete-model, allowed for the conversion's starter);
 * a project with revisions keeps them and only loses the failure state.
 */
export async function removeFailedProject(name: string): Promise<void> {
  const model = projectsStore.models.find((m) => m.name === name);
  if (!model || model.revisions.length === 0) {
    try {
      await deleteModel(name);
    } catch {
      return; // the central handler has shown why
    }
    removeRecent(localStorage, name);
  }
  delete projectsStore.conversions[name];
  projectsStore.models = projectsStore.models.filter((m) => m.name !== name || m.revisions.length > 0);
  await loadModels();
}

/**
 * Deletes a project with all its revisions and comments (admin:view; application.md §2 "Start view", §8):
 * toast 'Project {name} is deleted'; the recent entry goes too.
 */
export async function deleteProject(name: string): Promise<void> {
  await deleteModel(name);
  removeRecent(localStorage, name);
  showToast('success', `Project ${name} is deleted`);
  await loadModels();
}

/**
 * Deletes one revision of a project with more than one (admin:view), and its comments when `withComments`
 * (POST .../delete-revision-comments first, so nothing is left pointing at a missing revision): toast
 * 'Revision {n} is deleted'.
 */
export async function deleteRevision(name: string, revision: number, withComments: boolean): Promise<void> {
  if (withComments) await deleteRevisionComments(name, revision);
  await deleteRevisionCall(name, revision);
  showToast('success', `Revision ${revision} is deleted`);
  await loadModels();
}
