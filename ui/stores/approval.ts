/**
 * Object approval status in the viewer (viewer.md §2 "Properties panel", §3 "Object status property",
 * §9 "status polling 2500 ms"; application.md §8 "Messages"): the status options, the status of the
 * selected objects (spinner while a change runs, polling every STATUS_POLL_MS while another change is in
 * progress), the change, the history of one object, and colouring the model by status with the options'
 * colours and a count per status for the revision. Colouring claims the model's appearance ('status'), so
 * it excludes comparison and quantity colouring (ui/stores/appearance.ts).
 */
import { proxy } from 'valtio';
import {
  APPROVAL_CHANGE_PERMISSION,
  STATUS_POLL_MS,
  type ApprovalHistoryEntry,
  type ApprovalStatus,
  type ApprovalStatusCount,
  type GeometryApprovalStatus,
} from '../../api/contract';
import {
  changeObjectStatuses,
  getAllObjectStatuses,
  getObjectStatusHistory,
  getStatusCounts,
  getStatusOptions,
  getStatusOptionsMeta,
  readObjectStatuses,
} from '../api/approval';
import { claimAppearance, releaseAppearance } from './appearance';
import { hasPermission } from './auth';
import { getEngine, viewerStore } from './viewer';

/** Shown for objects whose status option was deleted (viewer.md §3). */
export const REMOVED_TEXT = '** REMOVED **';
/** Shown when the selected objects have different statuses (viewer.md §3). */
export const VARIES_TEXT = '** VARIES **';

export const approvalStore = proxy({
  /** Every option in order (the fixed default and removed statuses included), or null before loading. */
  options: null as ApprovalStatus[] | null,
  defaultStatus: null as number | null,
  removedStatus: null as number | null,
  /** The selected objects (OCX ids, comma-joined) the statuses below belong to. */
  selectionKey: '',
  statuses: null as GeometryApprovalStatus[] | null,
  /** A change by this user is being written (the select is replaced by a spinner). */
  changing: false,
  /** Another change of a selected object is in progress (spinner; polled every STATUS_POLL_MS). */
  othersChanging: false,
  error: null as string | null,
  /** History of the single selected object, or null when not loaded. */
  history: null as ApprovalHistoryEntry[] | null,
  /** Colouring by status is on. */
  colouring: false,
  counts: null as ApprovalStatusCount[] | null,
});

/** The place the statuses are read from and written to. */
export interface StatusTarget {
  projectName: string;
  revision: number;
  /** OCX ids of the selected objects. */
  ids: string[];
}

let poll: ReturnType<typeof setTimeout> | null = null;
let readSeq = 0;

/** True when the signed-in user may change object statuses (with access to the open project). */
export const mayChangeStatus = (): boolean => hasPermission(APPROVAL_CHANGE_PERMISSION);

/** Loads the options once (again with `force`). */
export async function loadStatusOptions(force = false): Promise<void> {
  if (approvalStore.options && !force) return;
  const [all, meta] = await Promise.all([getStatusOptions(), getStatusOptionsMeta()]);
  approvalStore.options = all;
  approvalStore.defaultStatus = meta.defaultStatus;
  approvalStore.removedStatus = meta.removedStatus;
}

function stopPolling(): void {
  if (poll) clearTimeout(poll);
  poll = null;
}

/**
 * Reads the statuses of the selected objects (empty `ids` clears them). While another change of one of them
 * is in progress it reads again every STATUS_POLL_MS until none is.
 */
export async function watchObjectStatus(target: StatusTarget | null): Promise<void> {
  stopPolling();
  const key = target ? `${target.projectName}|${target.revision}|${target.ids.join(',')}` : '';
  const seq = ++readSeq;
  if (key !== approvalStore.selectionKey) {
    approvalStore.selectionKey = key;
    approvalStore.statuses = null;
    approvalStore.history = null;
    approvalStore.error = null;
    approvalStore.othersChanging = false;
  }
  if (!target || target.ids.length === 0) return;
  try {
    // A new selection reads the options again: an administrator may have changed them meanwhile.
    if (approvalStore.statuses === null) await loadStatusOptions(true);
    const items = await readObjectStatuses(target.projectName, target.revision, target.ids);
    if (seq !== readSeq) return;
    approvalStore.statuses = items;
    approvalStore.error = null;
    approvalStore.othersChanging = items.some((s) => s.changeInProgress);
    if (approvalStore.othersChanging) poll = setTimeout(() => void watchObjectStatus(target), STATUS_POLL_MS);
  } catch (e) {
    if (seq === readSeq) approvalStore.error = (e as Error).message;
  }
}

/** Stops reading statuses (the panel closed). */
export function stopWatchingObjectStatus(): void {
  stopPolling();
  readSeq++;
  approvalStore.selectionKey = '';
  approvalStore.statuses = null;
  approvalStore.history = null;
}

/**
 * Gives the selected objects status `statusId` (spinner meanwhile); refreshes the history, counts and the
 * colouring after. A failure shows 'Unable to change object status...' (central handling) and keeps the old status.
 */
export async function changeObjectStatus(target: StatusTarget, statusId: number): Promise<void> {
  approvalStore.changing = true;
  try {
    const items = await changeObjectStatuses(target.projectName, target.revision, statusId, target.ids);
    approvalStore.statuses = items;
    if (approvalStore.history && target.ids.length === 1) await loadObjectHistory(target);
    if (approvalStore.colouring) await refreshStatusColours(target.projectName, target.revision);
    else if (approvalStore.counts) await loadStatusCounts(target.projectName, target.revision);
  } catch {
    // The central handler showed the error; the select shows the status as it was.
  } finally {
    approvalStore.changing = false;
  }
}

/** Loads the history of the single selected object. */
export async function loadObjectHistory(target: StatusTarget): Promise<void> {
  if (target.ids.length !== 1) return;
  approvalStore.history = await getObjectStatusHistory(target.projectName, target.revision, target.ids[0]);
}

/** Hides the history. */
export function hideObjectHistory(): void {
  approvalStore.history = null;
}

/**
 * The text and option the status row shows for `statuses`: one option's name, REMOVED_TEXT for the removed
 * status, VARIES_TEXT when the objects differ.
 */
export function statusDisplay(
  statuses: readonly GeometryApprovalStatus[],
  removedStatus: number | null,
): { text: string; statusId: number | null } {
  if (statuses.length === 0) return { text: '', statusId: null };
  const first = statuses[0].approvalStatus.id;
  if (statuses.some((s) => s.approvalStatus.id !== first)) return { text: VARIES_TEXT, statusId: null };
  if (first === removedStatus) return { text: REMOVED_TEXT, statusId: first };
  return { text: statuses[0].approvalStatus.name, statusId: first };
}

/** '#rrggbb' → [r, g, b] bytes. */
export function hexToRgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1, 7), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** Node ids the colouring painted (restored on release). */
const painted = { nodes: [] as number[] };

function restoreColours(): void {
  const nodes = painted.nodes;
  painted.nodes = [];
  approvalStore.colouring = false;
  if (nodes.length > 0) void getEngine()?.api.setObjectColor(nodes, null);
}

/**
 * Colours every part of the revision with its status's colour (parts never given one with the default
 * status's colour) and loads the count per status. Takes the appearance from comparison and quantity colouring.
 */
export async function startStatusColouring(projectName: string, revision: number): Promise<void> {
  claimAppearance('status', restoreColours);
  approvalStore.colouring = true;
  try {
    await refreshStatusColours(projectName, revision);
  } catch {
    releaseAppearance('status');
  }
}

/** Turns colouring by status off and restores the model's colours. */
export function stopStatusColouring(): void {
  releaseAppearance('status');
}

/** Loads the counts (also without colouring: the panel shows them). */
export async function loadStatusCounts(projectName: string, revision: number): Promise<void> {
  approvalStore.counts = await getStatusCounts(projectName, revision);
}

async function refreshStatusColours(projectName: string, revision: number): Promise<void> {
  await loadStatusOptions();
  const [items, counts] = await Promise.all([
    getAllObjectStatuses(projectName, revision),
    getStatusCounts(projectName, revision),
  ]);
  approvalStore.counts = counts;
  const objects = viewerStore.objects;
  const api = getEngine()?.api;
  if (!objects || !api || !approvalStore.colouring) return;
  const byId = new Map(items.map((s) => [s.geometry, s.approvalStatus]));
  const defaultColor = approvalStore.options?.find((o) => o.id === approvalStore.defaultStatus)?.color ?? '#eeeeee';
  const groups = new Map<string, number[]>();
  for (const o of objects) {
    if (!o.bounds) continue;
    const color = byId.get(o.id)?.color ?? defaultColor;
    const g = groups.get(color);
    if (g) g.push(o.index);
    else groups.set(color, [o.index]);
  }
  const nodes: number[] = [];
  for (const [color, ids] of groups) {
    await api.setObjectColor(ids, hexToRgb(color));
    for (const i of ids) nodes.push(i);
  }
  painted.nodes = nodes;
}
