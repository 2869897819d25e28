/**
 * What the comments panel lists and in which order (viewer.md §2 "Comments panel", §4 "Comments"):
 * comment states and their colours, the four sorts, the filters by state / revision / label, and the
 * latest modification time of a thread. Pure functions of plain comment data; the panel's store
 * (ui/stores/comments.ts) calls them.
 */
import { COMMENT_STATES, COMMENT_STATE_LABELS, type CommentState } from '../../api/contract';

export type CommentStateName = CommentState;

/** The states a user can pick and filter by (viewer.md §2 "By progress state"). */
export const PROGRESS_STATES = ['New', 'InProgress', 'Resolved', 'Closed'] as const satisfies CommentStateName[];

/** Display names of the states ('In progress' for InProgress), from the contract. */
export const STATE_LABEL: Readonly<Record<CommentStateName, string>> = COMMENT_STATE_LABELS;

/**
 * State button colours (viewer.md §3 "Display colors: New pink, In progress cyan, Resolved green, Closed
 * orange"); CSS colours, with a dark text colour readable on each.
 */
export const STATE_COLOUR: Readonly<Record<CommentStateName, { background: string; text: string }>> = {
  New: { background: 'rgb(255, 192, 203)', text: 'rgb(131, 24, 67)' },
  InProgress: { background: 'rgb(0, 255, 255)', text: 'rgb(22, 78, 99)' },
  Resolved: { background: 'rgb(0, 200, 83)', text: 'rgb(5, 46, 22)' },
  Closed: { background: 'rgb(255, 165, 0)', text: 'rgb(67, 20, 7)' },
  Undetermined: { background: 'rgb(226, 232, 240)', text: 'rgb(51, 65, 85)' },
  Deleted: { background: 'rgb(226, 232, 240)', text: 'rgb(51, 65, 85)' },
};

/** Numeric order of a state (unknown names sort last). */
export function stateOrder(state: string): number {
  const i = COMMENT_STATES.indexOf(state as CommentStateName);
  return i < 0 ? COMMENT_STATES.length : i;
}

/**
 * Sort orders, enumeration 0 to 3 (viewer.md §4 "Sorting"): OLDEST = last update descending, LATEST =
 * ascending, NEW_FIRST and CLOSED_FIRST by state (ties: last update descending).
 */
export const SortOrder = { OLDEST: 0, LATEST: 1, NEW_FIRST: 2, CLOSED_FIRST: 3 } as const;
export type SortOrder = (typeof SortOrder)[keyof typeof SortOrder];

/** The sort menu texts by order (viewer.md §2 "Sort options"). */
export const SORT_LABEL: Readonly<Record<SortOrder, string>> = {
  0: 'Latest - Oldest',
  1: 'Oldest - Latest',
  2: 'New - Closed',
  3: 'Closed - New',
};

/** What the view needs of a comment (the contract's Comment satisfies it). Times: ISO strings or epoch ms. */
export interface ViewComment {
  id: string;
  state: string;
  projectRevisionNumber: number;
  labels: readonly string[];
  timeStamp: string | number;
  lastModificationTime?: string | number | null;
  replies?: readonly ViewComment[];
}

/** Epoch ms of a time value (NaN-safe: unreadable times count as 0). */
export function timeMs(t: string | number | null | undefined): number {
  if (t === null || t === undefined) return 0;
  const ms = typeof t === 'number' ? t : Date.parse(t);
  return Number.isFinite(ms) ? ms : 0;
}

/**
 * lastUpdatedTimestamp of the comment model (viewer.md §3): the latest creation or modification time
 * across the comment and its replies, epoch ms.
 */
export function lastUpdated(c: ViewComment): number {
  let t = Math.max(timeMs(c.timeStamp), timeMs(c.lastModificationTime));
  for (const r of c.replies ?? []) t = Math.max(t, lastUpdated(r));
  return t;
}

/** Returns a new array of threads in `order` (stable; the input is not changed). */
export function sortThreads<T extends ViewComment>(threads: readonly T[], order: SortOrder): T[] {
  const byUpdateDesc = (a: T, b: T) => lastUpdated(b) - lastUpdated(a);
  const cmp: Record<SortOrder, (a: T, b: T) => number> = {
    0: byUpdateDesc,
    1: (a, b) => lastUpdated(a) - lastUpdated(b),
    2: (a, b) => stateOrder(a.state) - stateOrder(b.state) || byUpdateDesc(a, b),
    3: (a, b) => stateOrder(b.state) - stateOrder(a.state) || byUpdateDesc(a, b),
  };
  return [...threads].sort(cmp[order]);
}

/** Active filters: within a kind any value matches (OR); kinds combine with AND (viewer.md §4). */
export interface CommentFilters {
  states: readonly string[];
  revisions: readonly number[];
  labels: readonly string[];
}

export const NO_FILTERS: CommentFilters = { states: [], revisions: [], labels: [] };

/** True when any filter is set (the Filters button turns rgb(0,151,196), viewer.md §2). */
export function isFilterActive(f: CommentFilters): boolean {
  return f.states.length > 0 || f.revisions.length > 0 || f.labels.length > 0;
}

/** The Filters button colour while a filter is active (viewer.md §2). */
export const FILTER_ACTIVE_COLOUR = 'rgb(0, 151, 196)';

/** True when a thread passes the filters. Deleted threads never pass (viewer.md §4 "hidden by the filter"). */
export function passesFilters(c: ViewComment, f: CommentFilters): boolean {
  if (c.state === 'Deleted') return false;
  if (f.states.length > 0 && !f.states.includes(c.state)) return false;
  if (f.revisions.length > 0 && !f.revisions.includes(c.projectRevisionNumber)) return false;
  if (f.labels.length > 0 && !c.labels.some((l) => f.labels.includes(l))) return false;
  return true;
}

/** The threads the panel shows: filtered, then sorted; replies in state Deleted are dropped. */
export function visibleThreads<T extends ViewComment>(threads: readonly T[], f: CommentFilters, order: SortOrder): T[] {
  const kept = threads
    .filter((t) => passesFilters(t, f))
    .map((t) =>
      t.replies?.some((r) => r.state === 'Deleted')
        ? { ...t, replies: t.replies.filter((r) => r.state !== 'Deleted') }
        : t,
    );
  return sortThreads(kept, order);
}

/** All labels in use on the threads and replies (the 'By label' group and the combobox), sorted case-insensitively. */
export function labelsInUse(threads: readonly ViewComment[]): string[] {
  const set = new Set<string>();
  const add = (c: ViewComment) => {
    if (c.state === 'Deleted') return;
    for (const l of c.labels) set.add(l);
    for (const r of c.replies ?? []) add(r);
  };
  for (const t of threads) add(t);
  return [...set].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' }));
}

/** Toggles `value` in a filter list (returns a new list). */
export function toggleValue<T>(list: readonly T[], value: T): T[] {
  return list.includes(value) ? list.filter((x) => x !== value) : [...list, value];
}
