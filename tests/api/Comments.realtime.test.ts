/**
 * Comment changes pushed over socket.io (issue: "open panels update without Refresh"): two real clients in
 * the project's room, real HTTP calls; the second client's list, kept only from the pushed events, equals
 * what GET /all answers afterwards. A room of a project the user may not see cannot be joined.
 */
import type { AddressInfo } from 'node:net';
import type { Socket } from 'socket.io-client';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMMENT_EVENT,
  type Comment,
  type CommentEvent,
  CommentEventSchema,
  CommentListSchema,
} from '../../api/contract';
import type { JoinReply } from '../../api/realtime';
import { BASE, type CommentsWorld, commentsWorld, EMAILS, place, type Who } from './commentsSetup';
import { openSocket } from '../support/realtimeClient';

let w: CommentsWorld;
let url: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  w = await commentsWorld({ realtime: true });
  await w.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(w.app.server.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  for (const s of sockets) s.close();
  await w?.t.close();
});

const open = (who: Who): Promise<Socket> => openSocket(url, { token: w.token[who] }, sockets);

async function http(who: Who, method: string, path: string, body?: unknown): Promise<unknown> {
  const r = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${w.token[who]}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(r.status, await r.clone().text()).toBe(200);
  return r.json();
}

/** The next `n` comment events a socket receives, parsed with the contract. */
function nextEvents(s: Socket, n: number): Promise<CommentEvent[]> {
  return new Promise((resolve) => {
    const got: CommentEvent[] = [];
    const on = (e: unknown) => {
      got.push(v.parse(CommentEventSchema, e));
      if (got.length === n) {
        s.off(COMMENT_EVENT, on);
        resolve(got);
      }
    };
    s.on(COMMENT_EVENT, on);
  });
}

/** A panel's list kept up to date only from events (replace a thread by id, drop removed ones). */
function apply(list: Comment[], e: CommentEvent): Comment[] {
  if (e.kind === 'threadsRemoved') return list.filter((c) => !e.threadIds.includes(c.id));
  const i = list.findIndex((c) => c.id === e.thread.id);
  return i < 0 ? [...list, e.thread] : list.map((c, j) => (j === i ? e.thread : c));
}

describe('comment realtime', () => {
  it("pushes a thread, a reply, a state change and an edit to the other reviewer's panel", async () => {
    const [poster, watcher] = await Promise.all([open('author'), open('assignee')]);
    for (const s of [poster, watcher]) {
      const ack = (await s.emitWithAck('join', `project:${w.project}`)) as JoinReply;
      expect(ack).toEqual({ ok: true, room: `project:${w.project}` });
    }
    let panel = v.parse(CommentListSchema, await http('assignee', 'GET', `${BASE}/all?projectName=${w.project}`));
    const events = nextEvents(watcher, 4);
    const t = (await http('author', 'POST', `${BASE}/add-thread?${place(w.project)}`, {
      comment: { message: 'Live thread', assignees: [{ userName: EMAILS.assignee }], labels: ['live'] },
    })) as Comment;
    await http('bystander', 'POST', `${BASE}/add-reply?${place(w.project, 1, { threadId: t.id })}`, {
      comment: { message: 'Live reply' },
    });
    await http('assignee', 'POST', `${BASE}/change-state?threadId=${t.id}&newState=InProgress`);
    await http('author', 'POST', `${BASE}/update`, { comment: { id: t.id, message: 'Live thread, edited' } });
    const got = await events;
    expect(got.map((e) => (e.kind === 'threadChanged' ? [e.change, e.by, e.threadId] : []))).toEqual([
      ['added', EMAILS.author, t.id],
      ['replied', EMAILS.bystander, t.id],
      ['stateChanged', EMAILS.assignee, t.id],
      ['updated', EMAILS.author, t.id],
    ]);
    for (const e of got) panel = apply(panel, e);
    const fresh = v.parse(CommentListSchema, await http('assignee', 'GET', `${BASE}/all?projectName=${w.project}`));
    expect(panel).toEqual(fresh);
    expect(panel.find((c) => c.id === t.id)).toMatchObject({ message: 'Live thread, edited', state: 'InProgress' });
  });

  it('pushes the removal of a revision’s threads', async () => {
    const watcher = await open('bystander');
    await watcher.emitWithAck('join', `project:${w.project}`);
    const added = nextEvents(watcher, 1);
    const t = (await http('author', 'POST', `${BASE}/add-thread?${place(w.project, 2)}`, {
      comment: { message: 'on revision 2' },
    })) as Comment;
    await added;
    const removed = nextEvents(watcher, 1);
    await http('admin', 'POST', `${BASE}/delete-revision-comments?${place(w.project, 2)}`);
    const [e] = await removed;
    expect(e).toMatchObject({ kind: 'threadsRemoved', projectName: w.project, by: EMAILS.admin });
    expect(e.kind === 'threadsRemoved' && e.threadIds).toContain(t.id);
  });

  it("keeps a project's changes in its room: an outsider cannot join, another room hears only its own", async () => {
    const outsider = await open('outsider');
    const ack = (await outsider.emitWithAck('join', `project:${w.project}`)) as JoinReply;
    expect(ack).toMatchObject({ ok: false, message: `Project ${w.project} not found` });

    const otherRoom = await open('admin');
    expect(((await otherRoom.emitWithAck('join', `project:${w.other}`)) as JoinReply).ok).toBe(true);
    const first = nextEvents(otherRoom, 1);
    await http('admin', 'POST', `${BASE}/add-thread?${place(w.project)}`, { comment: { message: 'SHIP only' } });
    await http('admin', 'POST', `${BASE}/add-thread?${place(w.other)}`, { comment: { message: 'OTHER only' } });
    const [e] = await first;
    expect(e).toMatchObject({ kind: 'threadChanged', projectName: w.other });
    expect(e.kind === 'threadChanged' && e.thread.message).toBe('OTHER only');
  });
});
