import { describe, expect, it } from 'vitest';
import type { Comment, CommentEvent } from '../../api/contract';
import { applyCommentEvent, upsertThread } from '../../ui/logic/commentsMerge';

const project = { projectName: 'DEMO_SHIP', projectVersionName: 'MAIN' };

function thread(id: string, over: Partial<Comment> = {}): Comment {
  return {
    id,
    threadId: id,
    projectName: 'DEMO_SHIP',
    projectVersionName: 'MAIN',
    projectRevisionNumber: 1,
    type: 'Thread',
    timeStamp: '2026-01-01T10:00:00.000Z',
    author: { userName: 'ann@yard.example', description: 'Ann' },
    lastModificationTime: '2026-01-01T10:00:00.000Z',
    assignees: [],
    labels: [],
    message: `message of ${id}`,
    attachments: [],
    replies: [],
    seenBy: [],
    state: 'New',
    markerLocation: null,
    hasModifications: false,
    ...over,
  };
}
const changed = (t: Comment, change: 'added' | 'replied' = 'added'): CommentEvent => ({
  kind: 'threadChanged',
  projectName: t.projectName,
  projectVersionName: t.projectVersionName,
  change,
  threadId: t.id,
  commentId: t.id,
  by: 'bob@yard.example',
  thread: t,
});

describe('realtime comment events (live panel without Refresh)', () => {
  const a = thread('a');
  const b = thread('b');
  it('adds a new thread first and names it for scrolling into view', () => {
    const r = applyCommentEvent([a], changed(b), project);
    expect(r.threads.map((t) => t.id)).toEqual(['b', 'a']);
    expect(r.changedThreadId).toBe('b');
  });
  it('replaces a thread with its newer copy (a reply arrived)', () => {
    const reply = thread('a1', { type: 'Reply', threadId: 'a', timeStamp: '2026-01-01T11:00:00.000Z' });
    const newer = thread('a', { replies: [reply], lastModificationTime: '2026-01-01T11:00:00.000Z' });
    const r = applyCommentEvent([a, b], changed(newer, 'replied'), project);
    expect(r.threads.map((t) => t.replies.length)).toEqual([1, 0]);
    expect(r.changedThreadId).toBe('a');
    // An older copy arriving later does not undo the reply.
    const again = applyCommentEvent(r.threads, changed(a), project);
    expect(again.threads[0].replies).toHaveLength(1);
    expect(again.changedThreadId).toBeNull();
  });
  it('removes deleted and removed threads', () => {
    expect(upsertThread([a, b], thread('a', { state: 'Deleted' })).threads.map((t) => t.id)).toEqual(['b']);
    const removed: CommentEvent = {
      kind: 'threadsRemoved',
      projectName: 'DEMO_SHIP',
      projectVersionName: 'MAIN',
      threadIds: ['b'],
      by: 'x',
    };
    expect(applyCommentEvent([a, b], removed, project).threads.map((t) => t.id)).toEqual(['a']);
  });
  it("ignores another project's or version's events", () => {
    const other = thread('c', { projectName: 'OTHER' });
    expect(applyCommentEvent([a], changed(other), project).threads.map((t) => t.id)).toEqual(['a']);
    const otherVersion = thread('d', { projectVersionName: 'V2' });
    expect(applyCommentEvent([a], changed(otherVersion), project).threads.map((t) => t.id)).toEqual(['a']);
  });
});
