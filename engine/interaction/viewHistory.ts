/**
 * The view action history (viewer.md §4 "View action history"; §2 "Context menu": "Undo and Redo of view
 * actions, each with the action name"). Pure and generic: an action is a name plus a payload the caller
 * knows how to undo and redo (e.g. the node ids an action hid). Rules:
 * - a new action discards the undone ones after the current position;
 * - undo is possible when a current action exists, redo when a later one exists.
 */

/** One recorded action: its display name (e.g. 'Hide objects') and the caller's payload. */
export interface ViewAction<P> {
  name: string;
  payload: P;
}

/** Names for the context menu: the action undo would revert and the one redo would repeat (null: none). */
export interface HistoryNames {
  undoName: string | null;
  redoName: string | null;
}

/** Linear undo/redo list. `limit` bounds the stored actions (oldest dropped first). */
export class ViewHistory<P> {
  private actions: ViewAction<P>[] = [];
  /** Number of actions currently applied (the current action is actions[cursor - 1]). */
  private cursor = 0;

  /** @throws Error when limit is not a positive integer. */
  constructor(private readonly limit = 100) {
    if (!(Number.isInteger(limit) && limit > 0))
      throw new Error(`ViewHistory: limit ${limit} is not a positive integer`);
  }

  /** Records a new (already applied) action; discards every undone action. @throws Error on an empty name. */
  record(name: string, payload: P): void {
    if (!name) throw new Error('ViewHistory: an action needs a name');
    this.actions.length = this.cursor;
    this.actions.push({ name, payload });
    if (this.actions.length > this.limit) this.actions.shift();
    this.cursor = this.actions.length;
  }

  /** True when a current action exists. */
  get canUndo(): boolean {
    return this.cursor > 0;
  }

  /** True when a later (undone) action exists. */
  get canRedo(): boolean {
    return this.cursor < this.actions.length;
  }

  /** Steps back: returns the action to revert, or null when there is none. */
  undo(): ViewAction<P> | null {
    if (!this.canUndo) return null;
    return this.actions[--this.cursor];
  }

  /** Steps forward: returns the action to repeat, or null when there is none. */
  redo(): ViewAction<P> | null {
    if (!this.canRedo) return null;
    return this.actions[this.cursor++];
  }

  /** Names of the actions undo and redo would act on. */
  names(): HistoryNames {
    return {
      undoName: this.canUndo ? this.actions[this.cursor - 1].name : null,
      redoName: this.canRedo ? this.actions[this.cursor].name : null,
    };
  }

  /** Forgets every action (a new model). */
  clear(): void {
    this.actions = [];
    this.cursor = 0;
  }
}

/** Action names of viewer.md §4. */
export const VIEW_ACTION_NAMES = { hideObjects: 'Hide objects', showObjects: 'Show objects' } as const;

/**
 * Collects tree checkbox changes for 200 ms (viewer.md §9 "tree selection debounce 200 ms") into one
 * 'Show objects' or 'Hide objects' action each: changes of the same kind within the window merge; a change
 * of the other kind flushes the pending one first. Pure: the caller supplies the time and calls `due(now)`.
 */
export class VisibilityDebouncer {
  private pending: { visible: boolean; nodes: Set<number>; since: number } | null = null;

  constructor(private readonly delayMs = 200) {}

  /** Adds a change at time `now` (ms). Returns a flushed action when a pending one of the other kind closed. */
  add(nodeIds: readonly number[], visible: boolean, now: number): { visible: boolean; nodeIds: number[] } | null {
    let flushed: { visible: boolean; nodeIds: number[] } | null = null;
    if (this.pending && this.pending.visible !== visible) flushed = this.take();
    if (!this.pending) this.pending = { visible, nodes: new Set(), since: now };
    for (const n of nodeIds) this.pending.nodes.add(n);
    this.pending.since = now;
    return flushed;
  }

  /** The pending action when 200 ms have passed since its last change, else null. */
  due(now: number): { visible: boolean; nodeIds: number[] } | null {
    if (!this.pending || now - this.pending.since < this.delayMs) return null;
    return this.take();
  }

  /** Time (ms) at which the pending action becomes due, or null. */
  get dueAt(): number | null {
    return this.pending ? this.pending.since + this.delayMs : null;
  }

  /** Takes the pending action at once (e.g. before undo). */
  take(): { visible: boolean; nodeIds: number[] } | null {
    const p = this.pending;
    this.pending = null;
    return p ? { visible: p.visible, nodeIds: [...p.nodes] } : null;
  }
}
