/**
 * Custom tree changes pushed over socket.io (viewer.md §7 "Tags", "Tagging": trees are shared, so other
 * viewers of the project see a change): a member of the project's room receives a 'tags' event for each
 * stored change and none for a call that changed nothing; a user who may not see the project cannot join.
 */
import type { AddressInfo } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TAGS_EVENT, type TagsEvent, TagsEventSchema } from '../../api/contract';
import { attachRealtime, type JoinReply } from '../../api/realtime';
import { grantProjects, login, makeApp, signUp, type TestApp, uploadSample } from './helpers';

let t: TestApp;
let url: string;
let project: string;
const token: Record<'admin' | 'bob' | 'carol', string> = { admin: '', bob: '', carol: '' };
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await makeApp();
  attachRealtime(t.app);
  token.admin = await signUp(t.app, 'admin@yard.com', { admin: true });
  await signUp(t.app, 'bob@yard.com');
  await signUp(t.app, 'carol@yard.com');
  project = await uploadSample(t, token.admin, 'NAPA-OCX_M1');
  await grantProjects(t.app, token.admin, 'bob@yard.com', [project]);
  token.bob = await login(t.app, 'bob@yard.com');
  token.carol = await login(t.app, 'carol@yard.com');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.close();
});

async function joined(who: keyof typeof token): Promise<{ socket: Socket; reply: JoinReply }> {
  const socket = await new Promise<Socket>((resolve, reject) => {
    const s = connect(url, {
      path: '/api/socket.io',
      transports: ['websocket'],
      upgrade: false,
      auth: { token: token[who] },
      reconnection: false,
    });
    sockets.push(s);
    s.on('connect', () => resolve(s));
    s.on('connect_error', reject);
  });
  const reply = await new Promise<JoinReply>((resolve) => socket.emit('join', `project:${project}`, resolve));
  return { socket, reply };
}

async function http(method: string, path: string, body?: unknown): Promise<unknown> {
  const r = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token.admin}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(r.status, await r.clone().text()).toBe(200);
  return r.json();
}

/** Collects the 'tags' events a socket receives. */
function collect(s: Socket): TagsEvent[] {
  const got: TagsEvent[] = [];
  s.on(TAGS_EVENT, (e: unknown) => got.push(v.parse(TagsEventSchema, e)));
  return got;
}

describe("realtime 'tags' events", () => {
  it('reach a member of the project room for each change, not a user without access', async () => {
    const bob = await joined('bob');
    expect(bob.reply.ok).toBe(true);
    const carol = await joined('carol');
    expect(carol.reply).toMatchObject({ ok: false, error: 'Forbidden' });
    const events = collect(bob.socket);
    const q = `projectName=${project}`;
    const root = (await http('POST', `/api/viewer/tags?${q}`, {
      name: 'Custom-model-tree',
      type: 'ContextRoot',
      parent: null,
    })) as { id: number };
    const folder = (await http('POST', `/api/viewer/tags?${q}`, {
      name: 'New custom tree',
      type: 'UnrestrictedTree',
      parent: root.id,
    })) as { id: number };
    // Unknown names change nothing: no event.
    await http('POST', `/api/viewer/tagging/add-tag-to-geometries?${q}&tagId=${folder.id}`, ['no such part']);
    await http('PATCH', `/api/viewer/tags?${q}&tagId=${folder.id}&newName=Renamed`);
    await http('DELETE', `/api/viewer/tags?${q}&tagId=${folder.id}`);
    // Events keep their order, so once the delete's has come every earlier one has: exactly four.
    await expect.poll(() => events.length >= 4).toBe(true);
    expect(events.length).toBe(4);
    expect(events.every((e) => e.projectName === project && e.by === 'admin@yard.com')).toBe(true);
  });
});
