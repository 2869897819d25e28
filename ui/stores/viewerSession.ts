/**
 * The viewer session of '/{modelName}?revision=N' (application.md §2, viewer.md §1, §4 "Loading"): the one
 * place that opens and closes a model in the viewer. `openViewerSession` appends the model to 'Recent',
 * polls the instance status until 'Ok' (the view shows the waiting message meanwhile), reads the project
 * revision info and the object table, starts the render engine on a fresh canvas in `host`, streams the
 * scene package, then gives the engine the model details and connects the engineering tools (sections,
 * surface objects, saved sections). `closeViewerSession` tears all of it down. Components call these
 * actions and read the stores; they never write the stores themselves.
 *
 * The session also holds the viewer connection (viewer.md §4 "Connection", §8): after the client config's
 * webViewerTimeoutInMin minutes (default 15) without interaction once the model is shown, it closes the
 * connection, shuts the viewer down and shows 'Timeout due to inactivity, connection closed.' until the
 * user reconnects (`reconnectViewerSession`); when the server connection is lost it shuts the viewer down
 * with 'Stream cache server connection closed.' and opens the model again once the server answers.
 */
import { subscribeKey } from 'valtio/utils';
import { navigate } from 'wouter/use-browser-location';
import { openViewerConnection, type ViewerConnection } from '../api/viewerConnection';
import { ApiError, authHeaders } from '../api/client';
import { getMaintenanceStatus, getModelObjects, getProjectInfo, getPropertyColumns, sceneUrl } from '../api/calls';
import { EngineClient } from '../engine/EngineClient';
import { idleTimeoutMs, startIdleTimer, type IdleTimer } from '../logic/idleTimer';
import { addRecent } from '../logic/recent';
import { authStore } from './auth';
import { setCurrentProject } from './currentProject';
import { storeError } from './errors';
import { handleCommentsEngineEvent } from './comments';
import { resetComparison } from './comparison';
import { resetColouring } from './colouring';
import { openCustomTrees } from './customTrees';
import { connectSections, handleSectionsEvent, loadSavedSections, resetSections } from './sections';
import { connectSurfaceObjects } from './surfaceObjects';
import { closeToast, showToast } from './toasts';
import { shutdownInstance } from '../api/instance';
import {
  connectToolsToEngine,
  handleToolEvent,
  resetTools,
  setBoundsFromApi,
  setFramesFromApi,
  setView,
} from './tools';
import {
  failViewer,
  handleEngineEvent,
  markModelReady,
  markViewerClosed,
  resetViewer,
  setEngine,
  setObjects,
  setViewerPhase,
  setViewerRevision,
  viewerStore,
} from './viewer';

/** Instance status polling interval and the longest wait, ms. */
const STATUS_POLL_MS = 1000;
const STATUS_MAX_WAIT_MS = 10 * 60_000;

/** Property codes the render engine reads (sections label plates with PLTH; compartments colour by PURP). */
const ENGINE_PROPERTY_CODES = ['PLTH', 'PURP', 'MAT', 'PROFILE', 'TGH', 'STYPE'] as const;

/** Toast when the viewer connection is closed after inactivity (viewer.md §8). */
export const INACTIVITY_TOAST = 'Timeout due to inactivity, connection closed.';
/** Toast when the server connection is lost (viewer.md §8). */
export const CONNECTION_CLOSED_TOAST = 'Stream cache server connection closed.';

/** Interactions that count as activity for the inactivity timeout. */
const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'wheel', 'keydown'] as const;

/** What the session opens: the model, the revision asked for in the URL (null: the highest) and the canvas host. */
export interface ViewerSessionTarget {
  modelName: string;
  revision: number | null;
  host: HTMLElement;
}

/** One opening of the model: everything teardown must undo. */
interface Run {
  cancelled: boolean;
  client: EngineClient | null;
  canvas: HTMLCanvasElement;
  disconnect: Array<() => void>;
}

/** The open session: its target, the current run (null while shut down), the connection and the idle timer. */
interface Session {
  target: ViewerSessionTarget;
  run: Run | null;
  connection: ViewerConnection | null;
  idle: IdleTimer | null;
  /** Id of the toast telling why the viewer is shut down (closed when it opens again). */
  toast: number | null;
  stop: Array<() => void>;
}

let current: Session | null = null;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A fresh canvas per run: transferControlToOffscreen works once per element. */
function newCanvas(host: HTMLElement): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.dataset.testid = 'viewer-canvas';
  canvas.className = 'block h-full w-full touch-none outline-none';
  canvas.tabIndex = 0;
  host.appendChild(canvas);
  return canvas;
}

/**
 * Opens `target` in the viewer (closing any open session first). Errors do not escape: a model or revision
 * that does not exist (404) shows 'Project X not found' / 'Revision N of project X not found' in a toast
 * and the overlay and does not enter 'Recent'; any other failing status check goes to the error view
 * ('Keelson calculation service unavailable'); a failing load shows an error toast and the overlay 'The
 * model could not be opened'. The model enters 'Recent' once its revision info has been read.
 */
export function openViewerSession(target: ViewerSessionTarget): void {
  closeViewerSession();
  setCurrentProject(target.modelName, null);
  const session: Session = { target, run: null, connection: null, idle: null, toast: null, stop: [] };
  current = session;
  const touch = () => session.idle?.touch();
  for (const type of ACTIVITY_EVENTS) document.addEventListener(type, touch, { capture: true, passive: true });
  session.stop.push(() => {
    for (const type of ACTIVITY_EVENTS) document.removeEventListener(type, touch, { capture: true });
  });
  // The inactivity count starts when the model is shown (a long load is not inactivity).
  session.stop.push(
    subscribeKey(viewerStore, 'phase', (phase) => {
      if (phase === 'ready' && current === session && !session.idle) armIdle(session);
    }),
  );
  connect(session);
  session.run = startRun(target);
}

/** Closes the open session: stops loading, disposes the engine, closes the connection, resets the stores. */
export function closeViewerSession(): void {
  const session = current;
  if (!session) return;
  current = null;
  if (session.run) releaseServer(session);
  if (session.run) stopRun(session.run);
  session.idle?.stop();
  session.connection?.close();
  for (const s of session.stop.splice(0)) s();
  if (session.toast !== null) closeToast(session.toast);
  resetViewer();
  resetTools();
  resetColouring();
  resetSections();
  resetComparison();
}

/** Opens the model again after an inactivity timeout ('Reconnect'). No-op while the viewer is open. */
export function reconnectViewerSession(): void {
  const session = current;
  if (!session || session.run) return;
  if (!session.connection) connect(session);
  restart(session);
}

function connect(session: Session): void {
  const token = authStore.token;
  if (!token) return;
  session.connection = openViewerConnection(token, session.target.modelName, {
    onLost: () => {
      if (current !== session || !session.run) return;
      shutDown(session, 'connection-lost', CONNECTION_CLOSED_TOAST);
    },
    onRestored: () => {
      if (current !== session || session.run || viewerStore.closedReason !== 'connection-lost') return;
      restart(session);
    },
  });
}

function armIdle(session: Session): void {
  session.idle = startIdleTimer(idleTimeoutMs(authStore.config?.webViewerTimeoutInMin), () => {
    if (current !== session || !session.run) return;
    session.connection?.close();
    session.connection = null;
    shutDown(session, 'inactivity', INACTIVITY_TOAST);
  });
}

/** Shuts the viewer down (viewer.md §4 "Connection"): engine and canvas go, the overlay says why, a toast stays. */
function shutDown(session: Session, reason: 'inactivity' | 'connection-lost', text: string): void {
  if (session.run && reason === 'inactivity') releaseServer(session);
  if (session.run) stopRun(session.run);
  session.run = null;
  session.idle?.stop();
  session.idle = null;
  resetViewer();
  resetTools();
  resetColouring();
  resetSections(session.target.modelName);
  resetComparison();
  markViewerClosed(reason);
  if (session.toast !== null) closeToast(session.toast);
  session.toast = showToast('info', text, -1);
}

/**
 * Tells the server the viewer is going away (viewer.md §7 POST .../maintenance/shutdown) so it can free the
 * revision's cached data; fire and forget, since nothing on the page waits for it.
 */
function releaseServer(session: Session): void {
  const revision = viewerStore.revision ?? session.target.revision ?? 'latest';
  shutdownInstance({ modelName: session.target.modelName, revision }).catch(() => undefined);
}

function restart(session: Session): void {
  if (session.toast !== null) closeToast(session.toast);
  session.toast = null;
  session.run = startRun(session.target);
}

function stopRun(run: Run): void {
  run.cancelled = true;
  for (const d of run.disconnect.splice(0)) d();
  setEngine(null);
  run.client?.dispose();
  run.client = null;
  run.canvas.remove();
}

function startRun(target: ViewerSessionTarget): Run {
  resetViewer();
  resetTools();
  resetColouring();
  resetSections(target.modelName);
  resetComparison();
  const run: Run = { cancelled: false, client: null, canvas: newCanvas(target.host), disconnect: [] };
  const fail = (message: string, redirect: boolean) => {
    if (run.cancelled) return;
    failViewer(message);
    if (redirect) {
      storeError({ reason: 'Keelson calculation service unavailable', message });
      navigate('/error');
    }
  };
  load(target, run, fail).catch((e: Error) => {
    if (run.cancelled) return;
    showToast('error', e.message || 'Scene model not found');
    fail(e.message || 'Scene model not found', false);
  });
  return run;
}

/** Waits for the instance status 'Ok'; false when the session failed (already reported) or was cancelled. */
async function waitForInstance(
  target: ViewerSessionTarget,
  run: Run,
  fail: (message: string, redirect: boolean) => void,
): Promise<boolean> {
  const user = authStore.user?.email ?? '';
  const started = Date.now();
  for (;;) {
    let status: string;
    try {
      status = (await getMaintenanceStatus(target.modelName, target.revision, user)).status;
    } catch (e) {
      const notFound = e instanceof ApiError && e.status === 404;
      if (notFound && !run.cancelled) showToast('error', e.message);
      fail((e as Error).message, !notFound);
      return false;
    }
    if (run.cancelled) return false;
    if (status === 'Ok') return true;
    if (status !== 'Preparing' || Date.now() - started > STATUS_MAX_WAIT_MS) {
      fail(`Keelson calculation service unavailable for model ${target.modelName}`, true);
      return false;
    }
    await sleep(STATUS_POLL_MS);
    if (run.cancelled) return false;
  }
}

async function load(
  target: ViewerSessionTarget,
  run: Run,
  fail: (message: string, redirect: boolean) => void,
): Promise<void> {
  const { modelName } = target;
  if (!(await waitForInstance(target, run, fail))) return;
  const info = await getProjectInfo(modelName, target.revision);
  if (run.cancelled) return;
  setCurrentProject(modelName, info);
  addRecent(localStorage, modelName);
  setViewerRevision(info.revision);
  const table = await getModelObjects(modelName, info.revision);
  if (run.cancelled) return;
  setObjects(modelName, table.objects, { blockSystems: table.blockSystems });
  run.disconnect.push(openCustomTrees(modelName));
  const frames = setFramesFromApi(table.frames);
  setBoundsFromApi(table.info.bounds);
  resetSections(modelName, info.revision);
  setViewerPhase('loading');
  const client = await EngineClient.create(run.canvas, (event) => {
    if (run.cancelled) return;
    if (event.type === 'error') showToast('error', event.message);
    handleEngineEvent(event);
    handleToolEvent(event);
    handleSectionsEvent(event);
    handleCommentsEngineEvent(event);
  });
  if (run.cancelled) return client.dispose();
  run.client = client;
  setEngine(client);
  await client.api.setObjectTable({
    ids: table.objects.map((o) => o.id),
    types: table.objects.map((o) => o.type) as never,
    parents: Int32Array.from(table.objects, (o) => o.parent),
  });
  await client.api.setSelectionMode(viewerStore.selectionMode);
  await client.api.loadModel(sceneUrl(modelName, info.revision), authHeaders());
  if (run.cancelled) return;
  markModelReady();
  // Engineering tools: names and frames (mm) for sections, annotations and snap infos; settings; saved
  // sections. Thickness, purpose and profile for section labels, compartment colours and annotations.
  const cols = await getPropertyColumns(modelName, info.revision, [...ENGINE_PROPERTY_CODES]);
  if (run.cancelled) return;
  const properties = table.objects.map((_, i) => {
    const rec: Record<string, number | string> = {};
    for (const code of cols.codes) {
      const value = cols.columns[code]?.[i];
      if (value !== null && value !== undefined) rec[code] = value;
    }
    return rec;
  });
  await client.api.setModelDetails({ modelName, names: table.objects.map((o) => o.name), frames, properties });
  if (run.cancelled) return;
  run.disconnect.push(connectToolsToEngine(), connectSections(), connectSurfaceObjects(modelName, info.revision));
  setView(await client.api.getView());
  await loadSavedSections().catch(() => {});
}
