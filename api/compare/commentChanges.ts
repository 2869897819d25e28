/**
 * Comment threads whose referred objects changed or disappeared since the thread's revision (issue "Revision
 * comparison": flagged on the comment cards as "changed in rev. N"). A thread of revision r referring to
 * objects (its own and its replies' view attachments' referredObjects, OCX ids of revision r) is compared
 * r → r+1, r → r+2, … up to the revision shown, each through the cached comparison of that pair; the first
 * revision in which one of those objects is changed or removed is the answer. Only the compared parts
 * (plates, stiffeners, brackets) count.
 */
import type { CommentChange, CompareResponse } from '../contract/compare';
import type { Comment } from '../contract/comments';

/** The referred object ids of a thread and its replies (view attachments). */
export function referredObjectsOf(thread: Comment): Set<string> {
  const ids = new Set<string>();
  for (const c of [thread, ...thread.replies])
    for (const a of c.attachments) for (const id of a.referredObjects) ids.add(id);
  return ids;
}

/**
 * The change of one thread, or null when none of its referred objects changed up to `upTo`.
 * @param idAt the OCX id of object `index` of revision `revision` (to read a changed record's earlier id).
 * @param compare the comparison of the thread's revision with a later one (cached by the caller).
 */
export async function threadChange(
  thread: Comment,
  upTo: number,
  revisions: readonly number[],
  compare: (from: number, to: number) => Promise<CompareResponse>,
  idAt: (revision: number, index: number) => Promise<string | undefined>,
): Promise<CommentChange | null> {
  const from = thread.projectRevisionNumber;
  const referred = referredObjectsOf(thread);
  if (referred.size === 0) return null;
  const later = revisions.filter((r) => r > from && r <= upTo).sort((a, b) => a - b);
  if (!revisions.includes(from)) return null;
  for (const to of later) {
    const c = await compare(from, to);
    const objects: { id: string; removed: boolean }[] = [];
    for (const r of c.steelObjectsRemoved) if (referred.has(r.stId)) objects.push({ id: r.stId, removed: true });
    for (const r of c.steelObjectsChanged) {
      const id = await idAt(from, r.fromIndex);
      if (id !== undefined && referred.has(id)) objects.push({ id, removed: false });
    }
    if (objects.length) return { threadId: thread.threadId, threadRevision: from, changedInRevision: to, objects };
  }
  return null;
}
