/**
 * Live updates of the comments panel (issue text: open panels update without Refresh): applies a realtime
 * CommentEvent (api/contract/comments.ts) to the list of threads. Pure; the store calls it.
 */
import type { Comment, CommentEvent } from '../../api/contract';

/** The result of applying an event: the new list and the thread to scroll into view (null when none). */
export interface MergeResult {
  threads: Comment[];
  changedThreadId: string | null;
}

/**
 * Applies `e` to `threads` (not changed). Events of another project or version are ignored. A changed
 * thread replaces the one with its id (or is added first); a thread now Deleted is removed; removed
 * threads are dropped. An event older than the thread already held (an earlier lastModificationTime and
 * fewer replies) does not undo newer state that arrived first through the caller's own answer.
 */
export function applyCommentEvent(
  threads: readonly Comment[],
  e: CommentEvent,
  project: { projectName: string; projectVersionName: string },
): MergeResult {
  if (
    e.projectName.toUpperCase() !== project.projectName.toUpperCase() ||
    e.projectVersionName !== project.projectVersionName
  )
    return { threads: [...threads], changedThreadId: null };
  if (e.kind === 'threadsRemoved') {
    const gone = new Set(e.threadIds);
    return { threads: threads.filter((t) => !gone.has(t.id)), changedThreadId: null };
  }
  return upsertThread(threads, e.thread);
}

/** Puts a thread (as the server answered it) into the list: replaced by id, added first, removed when Deleted. */
export function upsertThread(threads: readonly Comment[], thread: Comment): MergeResult {
  const i = threads.findIndex((t) => t.id === thread.id);
  if (thread.state === 'Deleted') return { threads: threads.filter((t) => t.id !== thread.id), changedThreadId: null };
  if (i < 0) return { threads: [thread, ...threads], changedThreadId: thread.id };
  if (isStale(thread, threads[i])) return { threads: [...threads], changedThreadId: null };
  const next = [...threads];
  next[i] = thread;
  return { threads: next, changedThreadId: thread.id };
}

/** True when `incoming` is an older copy of `held` (both the modification time and the reply count are behind). */
function isStale(incoming: Comment, held: Comment): boolean {
  const a = Date.parse(incoming.lastModificationTime);
  const b = Date.parse(held.lastModificationTime);
  return Number.isFinite(a) && Number.isFinite(b) && a < b && incoming.replies.length <= held.replies.length;
}
