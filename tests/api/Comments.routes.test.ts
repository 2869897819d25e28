/**
 * The comment calls (viewer.md §7 "Comments", "Users") and the rules of §6 through inject on a real
 * database: author, assignee, administrator, a bystander with access and an outsider without.
 */
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AssigneeCandidatesSchema,
  type Comment,
  CommentListSchema,
  CommentSchema,
  DeleteRevisionCommentsResponseSchema,
} from '../../api/contract';
import { BASE, type CommentsWorld, commentsWorld, EMAILS, place, type Who } from './commentsSetup';

let w: CommentsWorld;
beforeAll(async () => {
  w = await commentsWorld();
}, 120_000);
afterAll(async () => {
  await w?.t.close();
});

async function addThread(who: Who, comment: Record<string, unknown>, revision = 1): Promise<Comment> {
  const r = await w.call(who, {
    method: 'POST',
    url: `${BASE}/add-thread?${place(w.project, revision)}`,
    payload: { comment },
  });
  expect(r.statusCode, r.body).toBe(200);
  return v.parse(CommentSchema, r.json());
}

async function all(who: Who = 'author'): Promise<Comment[]> {
  const r = await w.call(who, { url: `${BASE}/all?projectName=${w.project}&projectVersionName=MAIN` });
  expect(r.statusCode, r.body).toBe(200);
  return v.parse(CommentListSchema, r.json());
}

describe('add-thread, all, by-id', () => {
  it('stores every field of a thread and lists it for everyone with access', async () => {
    const t = await addThread('author', {
      message: 'Bracket B12 clashes with the stiffener',
      assignees: [{ userName: 'Assignee@yard.com', description: 'assignee' }],
      labels: ['clash', 'Clash', 'structure'],
      markerLocation: { x: 12.5, y: -3.25, z: 8.125 },
    });
    expect(t).toMatchObject({
      type: 'Thread',
      projectName: w.project,
      projectVersionName: 'MAIN',
      projectRevisionNumber: 1,
      author: { userName: EMAILS.author, description: 'author' },
      assignees: [{ userName: EMAILS.assignee, description: 'assignee' }],
      labels: ['clash', 'structure'],
      message: 'Bracket B12 clashes with the stiffener',
      state: 'New',
      markerLocation: { x: 12.5, y: -3.25, z: 8.125 },
      hasModifications: false,
      seenBy: [EMAILS.author],
      replies: [],
      attachments: [],
    });
    expect(t.threadId).toBe(t.id);
    expect(Date.parse(t.timeStamp)).not.toBeNaN();
    const listed = (await all('bystander')).find((c) => c.id === t.id);
    expect(listed).toEqual(t);
    const byId = await w.call('assignee', { url: `${BASE}/by-id?commentId=${t.id}` });
    expect(byId.statusCode).toBe(200);
    expect(byId.json()).toEqual(t);
  });

  it('refuses an empty message, an unknown revision, a bad state and an oversized label list', async () => {
    const empty = await w.call('author', {
      method: 'POST',
      url: `${BASE}/add-thread?${place(w.project)}`,
      payload: { comment: { message: '   ' } },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('Comment message must not be empty');
    const rev = await w.call('author', {
      method: 'POST',
      url: `${BASE}/add-thread?${place(w.project, 99)}`,
      payload: { comment: { message: 'x' } },
    });
    expect(rev.statusCode).toBe(404);
    expect(rev.json().message).toBe(`Revision 99 of project ${w.project} not found`);
    const state = await w.call('author', {
      method: 'POST',
      url: `${BASE}/add-thread?${place(w.project)}`,
      payload: { comment: { message: 'x', state: 'Open' } },
    });
    expect(state.statusCode).toBe(400);
    const labels = await w.call('author', {
      method: 'POST',
      url: `${BASE}/add-thread?${place(w.project)}`,
      payload: { comment: { message: 'x', labels: Array.from({ length: 51 }, (_, i) => `l${i}`) } },
    });
    expect(labels.statusCode).toBe(400);
    expect(labels.json().message).toContain('At most 50 labels');
  });

  it('answers 404 for a project, comment or thread the user may not see, exactly as for a missing one', async () => {
    const t = await addThread('author', { message: 'private to SHIP' });
    const list = await w.call('outsider', { url: `${BASE}/all?projectName=${w.project}` });
    expect(list.statusCode).toBe(404);
    expect(list.json().message).toBe(`Project ${w.project} not found`);
    const byId = await w.call('outsider', { url: `${BASE}/by-id?commentId=${t.id}` });
    expect(byId.statusCode).toBe(404);
    expect(byId.json().message).toBe(`Project ${w.project} not found`);
    const post = await w.call('outsider', {
      method: 'POST',
      url: `${BASE}/add-reply?${place(w.project, 1, { threadId: t.id })}`,
      payload: { comment: { message: 'let me in' } },
    });
    expect(post.statusCode).toBe(404);
    const unknown = await w.call('author', { url: `${BASE}/by-id?commentId=nope` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Comment nope not found');
    // A project the author may not see (foreign project) is refused before anything is stored.
    const foreign = await w.call('author', {
      method: 'POST',
      url: `${BASE}/add-thread?${place(w.other)}`,
      payload: { comment: { message: 'wrong project' } },
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe(`Project ${w.other} not found`);
    expect((await all('admin')).some((c) => c.message === 'wrong project')).toBe(false);
  });
});

describe('add-reply', () => {
  it('adds a reply to the thread, which answers with it among its replies', async () => {
    const t = await addThread('author', { message: 'Check plate thickness' });
    const r = await w.call('bystander', {
      method: 'POST',
      url: `${BASE}/add-reply?${place(w.project, 2, { threadId: t.id })}`,
      payload: { comment: { message: 'It is 12 mm', labels: ['plate'] }, user: { userName: 'someone@else' } },
    });
    expect(r.statusCode, r.body).toBe(200);
    const thread = v.parse(CommentSchema, r.json());
    expect(thread.replies).toHaveLength(1);
    expect(thread.replies[0]).toMatchObject({
      type: 'Reply',
      threadId: t.id,
      message: 'It is 12 mm',
      projectRevisionNumber: 2,
      // The author is the signed-in user, whatever the body says.
      author: { userName: EMAILS.bystander },
    });
    expect(thread.seenBy).toEqual([EMAILS.author, EMAILS.bystander]);
  });

  it('refuses an unknown thread, a reply as thread, and a thread of another project', async () => {
    const unknown = await w.call('author', {
      method: 'POST',
      url: `${BASE}/add-reply?${place(w.project, 1, { threadId: 'missing' })}`,
      payload: { comment: { message: 'x' } },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Thread missing not found');
    const t = await addThread('admin', { message: 'on OTHER?' });
    const foreign = await w.call('admin', {
      method: 'POST',
      url: `${BASE}/add-reply?${place(w.other, 1, { threadId: t.id })}`,
      payload: { comment: { message: 'x' } },
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe(`Thread ${t.id} not found`);
  });
});

describe('change-state (author, assignee or admin:view)', () => {
  it('lets the author, an assignee and the administrator change it, records StateChangeMessage entries', async () => {
    const t = await addThread('author', { message: 'States', assignees: [{ userName: EMAILS.assignee }] });
    const steps: [Who, string][] = [
      ['author', 'InProgress'],
      ['assignee', 'Resolved'],
      ['admin', 'Closed'],
    ];
    let thread = t;
    for (const [who, state] of steps) {
      const r = await w.call(who, { method: 'POST', url: `${BASE}/change-state?threadId=${t.id}&newState=${state}` });
      expect(r.statusCode, r.body).toBe(200);
      thread = v.parse(CommentSchema, r.json());
      expect(thread.state).toBe(state);
    }
    expect(thread.replies.map((c) => [c.type, c.author.userName, c.message])).toEqual([
      ['StateChangeMessage', EMAILS.author, 'State changed from New to In progress'],
      ['StateChangeMessage', EMAILS.assignee, 'State changed from In progress to Resolved'],
      ['StateChangeMessage', EMAILS.admin, 'State changed from Resolved to Closed'],
    ]);
  });

  it('refuses a bystander (403), an unknown thread or a reply (404), a wrong state name (400)', async () => {
    const t = await addThread('author', { message: 'Guarded' });
    const by = await w.call('bystander', {
      method: 'POST',
      url: `${BASE}/change-state?threadId=${t.id}&newState=Closed`,
    });
    expect(by.statusCode).toBe(403);
    expect(by.json().message).toBe(
      'Only the author, an assignee or an administrator may change the state of this thread',
    );
    const unknown = await w.call('admin', { method: 'POST', url: `${BASE}/change-state?threadId=zzz&newState=Closed` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Thread zzz not found');
    const reply = await w.call('author', {
      method: 'POST',
      url: `${BASE}/add-reply?${place(w.project, 1, { threadId: t.id })}`,
      payload: { comment: { message: 'r' } },
    });
    const replyId = v.parse(CommentSchema, reply.json()).replies[0].id;
    const onReply = await w.call('author', {
      method: 'POST',
      url: `${BASE}/change-state?threadId=${replyId}&newState=Closed`,
    });
    expect(onReply.statusCode).toBe(404);
    const bad = await w.call('author', { method: 'POST', url: `${BASE}/change-state?threadId=${t.id}&newState=Done` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain("Must be one of 'New', 'InProgress'");
    expect((await all()).find((c) => c.id === t.id)?.state).toBe('New');
  });
});

describe('update (author, case-insensitive, or admin:view)', () => {
  it('lets the author edit message, labels, assignees and marker, sets hasModifications', async () => {
    const t = await addThread('author', { message: 'Old', labels: ['a'], markerLocation: { x: 1, y: 2, z: 3 } });
    const r = await w.call('author', {
      method: 'POST',
      url: `${BASE}/update`,
      payload: {
        comment: { id: t.id, message: 'New text', labels: ['b'], assignees: [{ userName: EMAILS.assignee }] },
      },
    });
    expect(r.statusCode, r.body).toBe(200);
    const u = v.parse(CommentSchema, r.json());
    expect(u).toMatchObject({ message: 'New text', labels: ['b'], hasModifications: true, state: 'New' });
    expect(u.assignees.map((a) => a.userName)).toEqual([EMAILS.assignee]);
    expect(u.markerLocation).toEqual({ x: 1, y: 2, z: 3 });
    expect(u.lastModificationTime >= t.lastModificationTime).toBe(true);
  });

  it('matches the author by e-mail case-insensitively and lets admin:view edit anyone', async () => {
    const t = await addThread('author', { message: 'Mine' });
    // Rows store lower-case e-mails; a token of AUTHOR@YARD.COM signs in as the same user.
    const upper = await w.app.inject({
      method: 'POST',
      url: '/api/auth/viewer/default/login',
      payload: { email: 'AUTHOR@YARD.COM', password: 'secret-password' },
    });
    const upperToken = upper.json().token as string;
    const mine = await w.app.inject({
      method: 'POST',
      url: `${BASE}/update`,
      headers: { authorization: `Bearer ${upperToken}` },
      payload: { comment: { id: t.id, message: 'Mine, edited' } },
    });
    expect(mine.statusCode, mine.body).toBe(200);
    const admin = await w.call('admin', {
      method: 'POST',
      url: `${BASE}/update`,
      payload: { comment: { id: t.id, message: 'Moderated' } },
    });
    expect(admin.statusCode).toBe(200);
    expect(admin.json().message).toBe('Moderated');
  });

  it('refuses the assignee and bystanders (403), state change messages and state changes (400)', async () => {
    const t = await addThread('author', { message: 'Keep', assignees: [{ userName: EMAILS.assignee }] });
    for (const who of ['assignee', 'bystander'] as const) {
      const r = await w.call(who, {
        method: 'POST',
        url: `${BASE}/update`,
        payload: { comment: { id: t.id, message: 'x' } },
      });
      expect(r.statusCode).toBe(403);
      expect(r.json().message).toBe('Only the author or an administrator may edit this comment');
    }
    const changed = await w.call('author', {
      method: 'POST',
      url: `${BASE}/change-state?threadId=${t.id}&newState=Resolved`,
    });
    const msgId = v.parse(CommentSchema, changed.json()).replies[0].id;
    const onMsg = await w.call('admin', {
      method: 'POST',
      url: `${BASE}/update`,
      payload: { comment: { id: msgId, message: 'x' } },
    });
    expect(onMsg.statusCode).toBe(400);
    expect(onMsg.json().message).toBe('A state change message cannot be edited');
    const state = await w.call('author', {
      method: 'POST',
      url: `${BASE}/update`,
      payload: { comment: { id: t.id, state: 'Closed' } },
    });
    expect(state.statusCode).toBe(400);
    const empty = await w.call('author', {
      method: 'POST',
      url: `${BASE}/update`,
      payload: { comment: { id: t.id, message: '' } },
    });
    expect(empty.statusCode).toBe(400);
    expect((await all()).find((c) => c.id === t.id)?.message).toBe('Keep');
  });

  it('deletes by an update to Deleted: the marker goes, a deleted reply leaves its thread', async () => {
    const t = await addThread('author', { message: 'Doomed', markerLocation: { x: 0, y: 0, z: 0 } });
    const withReply = await w.call('bystander', {
      method: 'POST',
      url: `${BASE}/add-reply?${place(w.project, 1, { threadId: t.id })}`,
      payload: { comment: { message: 'reply' } },
    });
    const reply = v.parse(CommentSchema, withReply.json()).replies[0];
    const delReply = await w.call('bystander', {
      method: 'POST',
      url: `${BASE}/update`,
      payload: { comment: { id: reply.id, state: 'Deleted' } },
    });
    expect(delReply.statusCode).toBe(200);
    expect(v.parse(CommentSchema, delReply.json()).replies).toEqual([]);
    const del = await w.call('author', {
      method: 'POST',
      url: `${BASE}/update`,
      payload: { comment: { id: t.id, state: 'Deleted' } },
    });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toMatchObject({ state: 'Deleted', markerLocation: null });
  });
});

describe('users/all and delete-revision-comments', () => {
  it('lists the users who may see the project as assignee candidates', async () => {
    const r = await w.call('bystander', { url: `/api/keelson-instance/users/all?modelName=${w.project}` });
    expect(r.statusCode).toBe(200);
    const users = v.parse(AssigneeCandidatesSchema, r.json()).map((u) => u.userName);
    expect(users.sort()).toEqual([EMAILS.admin, EMAILS.assignee, EMAILS.author, EMAILS.bystander].sort());
    const outsider = await w.call('outsider', { url: `/api/keelson-instance/users/all?modelName=${w.project}` });
    expect(outsider.statusCode).toBe(404);
  });

  it("deletes one revision's comments (admin:view only), other revisions' stay", async () => {
    const keep = await addThread('author', { message: 'rev 1 stays' }, 1);
    const gone = await addThread('author', { message: 'rev 2 goes' }, 2);
    const denied = await w.call('author', {
      method: 'POST',
      url: `${BASE}/delete-revision-comments?${place(w.project, 2)}`,
    });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe('Missing permission admin:view');
    const r = await w.call('admin', { method: 'POST', url: `${BASE}/delete-revision-comments?${place(w.project, 2)}` });
    expect(r.statusCode, r.body).toBe(200);
    expect(v.parse(DeleteRevisionCommentsResponseSchema, r.json()).deleted).toBeGreaterThanOrEqual(1);
    const ids = (await all()).map((c) => c.id);
    expect(ids).toContain(keep.id);
    expect(ids).not.toContain(gone.id);
    // Replies made on revision 2 to revision-1 threads went too.
    expect((await all()).flatMap((c) => c.replies).every((c) => c.projectRevisionNumber !== 2)).toBe(true);
  });
});
