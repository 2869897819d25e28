/**
 * Revision comparison in the viewer (application.md §4 "Revision comparison", §8, §9): the earlier
 * revision chosen in the comparison settings, the states off / on / busy, the comparison data cached per
 * revision pair, and the engine painting (added parts light blue, changed green, all others at opacity
 * 0.3). Starting clears the selection; stopping restores the model's own appearance; changing the earlier
 * revision while comparing recomputes. Comparison and colouring exclude each other through the appearance
 * store (claimAppearance('comparison', ...)). Removed parts are drawn as ghosts from the earlier
 * revision's scene package (engine/tools/ComparisonGhosts.ts).
 */
import { proxy, ref } from 'valtio';
import type { CompareResponse } from '../../api/contract';
import { COMPARE_FORMAT } from '../../api/contract';
import { checkComparisonData, getComparison } from '../api/compare';
import { sceneUrl } from '../api/calls';
import { authHeaders } from '../api/client';
import {
  MODEL_DATA_NOT_FOUND_TEXT,
  NOT_AVAILABLE_TEXT,
  RESTORE_PAINT,
  SCENE_MODEL_NOT_FOUND_TEXT,
  changesByIndex,
  comparisonAvailable,
  comparisonKey,
  comparisonPaint,
  defaultFromRevision,
  type PartChange,
} from '../logic/comparison';
import { appearanceStore, claimAppearance, releaseAppearance } from './appearance';
import { currentProjectStore } from './currentProject';
import { showToast } from './toasts';
import { getEngine, viewerStore } from './viewer';

/** States of §4: off, on, busy (the button reads 'Calculating...'). */
export type ComparisonStatus = 'off' | 'on' | 'busy';

/** The data of the comparison shown, with its lookup by object-table index of the open revision. */
export interface ShownComparison {
  data: CompareResponse;
  byIndex: Map<number, PartChange>;
}

export const comparisonStore = proxy({
  status: 'off' as ComparisonStatus,
  /** The chosen earlier revision (null: none chosen). */
  fromRevision: null as number | null,
  /** What is shown while 'on' (kept out of valtio's tracking: large). */
  shown: null as ShownComparison | null,
  /** Removed parts drawn as ghosts (null until drawn). */
  ghosts: null as number | null,
  /** The change summary panel is open. */
  showSummary: true,
});

/** The server calls (a seam for the store tests). */
export const comparisonCalls = { getComparison, checkComparisonData, sceneUrl };

/** Comparison data per project and revision pair (the session's cache; checkData tells when it is stale). */
const cache = new Map<string, CompareResponse>();
/** Bumped by every start and stop: an answer for an older run is dropped. */
let run = 0;

/** The project and revision open in the viewer, or null. */
function openRevision(): { projectName: string; revision: number; revisions: number[] } | null {
  const info = currentProjectStore.info;
  const projectName = currentProjectStore.modelName;
  if (!info || !projectName || viewerStore.revision === null) return null;
  return { projectName, revision: viewerStore.revision, revisions: info.projectInfo.revisions };
}

/** Preselects the newest revision below the open one when none is chosen yet (the selector shows it). */
export function initComparisonRevision(): void {
  const open = openRevision();
  if (!open || comparisonStore.fromRevision !== null) return;
  comparisonStore.fromRevision = defaultFromRevision(open.revisions, open.revision);
}

/** True when §4 allows starting now. */
export function canStartComparison(): boolean {
  return comparisonAvailable({
    fromRevision: comparisonStore.fromRevision,
    currentRevision: viewerStore.revision,
    busy: comparisonStore.status === 'busy',
    modelLoaded: viewerStore.objects !== null && viewerStore.phase === 'ready',
  });
}

/**
 * Starts the comparison (§4 "Starting"): refuses with the info toast 'Model comparison not available'
 * when not available; clears the selection; takes cached data when checkData says it is usable, else
 * fetches it; paints. Errors: 'Could not fetch comparison data' (the call's toast), 'Model data not found'
 * (no object table), 'Scene model not found' (no engine or the paint failed). Resolves when done.
 */
export async function startComparison(): Promise<void> {
  const open = openRevision();
  const from = comparisonStore.fromRevision;
  if (!open || from === null || !canStartComparison()) {
    showToast('info', NOT_AVAILABLE_TEXT);
    return;
  }
  const engine = getEngine();
  if (!engine) {
    showToast('error', SCENE_MODEL_NOT_FOUND_TEXT);
    return;
  }
  const mine = ++run;
  comparisonStore.status = 'busy';
  void engine.api.setSelection([]);
  let data: CompareResponse;
  try {
    data = await comparisonData(open.projectName, from, open.revision);
  } catch {
    // The call's central handling has shown 'Could not fetch comparison data'.
    if (mine === run) comparisonStore.status = 'off';
    return;
  }
  if (mine !== run) return;
  const objects = viewerStore.objects;
  if (!objects) {
    comparisonStore.status = 'off';
    showToast('error', MODEL_DATA_NOT_FOUND_TEXT);
    return;
  }
  const paint = comparisonPaint(data, objects.length);
  try {
    claimAppearance('comparison', restoreAppearance);
    await engine.api.paintObjects(paint.groups, paint.rest);
  } catch {
    if (mine !== run) return;
    releaseAppearance('comparison');
    showToast('error', SCENE_MODEL_NOT_FOUND_TEXT);
    return;
  }
  if (mine !== run) return;
  comparisonStore.shown = ref({ data, byIndex: changesByIndex(data) });
  comparisonStore.status = 'on';
  if (data.steelObjectsRemoved.length) void drawGhosts(engine, open.projectName, data, mine);
}

/** Draws the removed parts from the earlier revision; a failure leaves the colours and says so. */
async function drawGhosts(
  engine: NonNullable<ReturnType<typeof getEngine>>,
  projectName: string,
  data: CompareResponse,
  mine: number,
): Promise<void> {
  const ids = Uint32Array.from(data.steelObjectsRemoved, (p) => p.fromIndex);
  try {
    const n = await engine.api.showComparisonGhosts(
      comparisonCalls.sceneUrl(projectName, data.fromRevision),
      authHeaders(),
      ids,
    );
    if (mine === run) comparisonStore.ghosts = n;
    else void engine.api.clearComparisonGhosts();
  } catch (e) {
    if (mine === run && (e as Error).name !== 'AbortError') showToast('error', SCENE_MODEL_NOT_FOUND_TEXT);
  }
}

/** Stops the comparison (§4 "Stopping restores the original appearance"). */
export function stopComparison(): void {
  run++;
  if (appearanceStore.owner === 'comparison') releaseAppearance('comparison');
  else restoreAppearance();
}

/** The button: off → start, on / busy → stop. */
export function toggleComparison(): Promise<void> {
  if (comparisonStore.status === 'off') return startComparison();
  stopComparison();
  return Promise.resolve();
}

/**
 * Chooses the earlier revision. While comparing, the shown data is reset and the comparison recomputed
 * for the new pair (§4 "Changing the earlier revision resets the data and recomputes").
 */
export async function setComparisonRevision(revision: number): Promise<void> {
  if (comparisonStore.fromRevision === revision) return;
  const wasActive = comparisonStore.status !== 'off';
  comparisonStore.fromRevision = revision;
  if (!wasActive) return;
  stopComparison();
  await startComparison();
}

/** Opens or closes the change summary panel. */
export function setShowComparisonSummary(show: boolean): void {
  comparisonStore.showSummary = show;
}

/** Ends the comparison for a closed viewer (the engine is gone: nothing to repaint) and forgets the choice. */
export function resetComparison(): void {
  run++;
  comparisonStore.status = 'off';
  comparisonStore.shown = null;
  comparisonStore.ghosts = null;
  comparisonStore.fromRevision = null;
  releaseAppearance('comparison');
}

/** The release given to the appearance store: repaints the model's own colours and resets the state. */
function restoreAppearance(): void {
  run++;
  comparisonStore.status = 'off';
  comparisonStore.shown = null;
  comparisonStore.ghosts = null;
  const engine = getEngine();
  if (!engine) return;
  void engine.api.paintObjects(RESTORE_PAINT.groups, RESTORE_PAINT.rest).catch(() => {});
  void engine.api.clearComparisonGhosts().catch(() => {});
}

/** Cached data when the server says it is still usable, else a fresh fetch (cached for the pair). */
async function comparisonData(projectName: string, from: number, to: number): Promise<CompareResponse> {
  const key = comparisonKey(projectName, from, to);
  const held = cache.get(key);
  if (held) {
    const check = await comparisonCalls
      .checkComparisonData({
        projectName,
        fromRevision: from,
        toRevision: to,
        format: held.format,
        computedAt: held.computedAt,
      })
      .catch(() => null);
    if (check?.usable && held.format === COMPARE_FORMAT) return held;
    cache.delete(key);
  }
  const data = await comparisonCalls.getComparison(projectName, from, to);
  cache.set(key, data);
  return data;
}

/** Forgets the cached comparison data (tests; a replaced revision is caught by checkData). */
export function clearComparisonCache(): void {
  cache.clear();
}
