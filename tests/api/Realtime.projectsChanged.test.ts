/**
 * 'projectsChanged' (api/realtime.ts): every signed-in socket hears that a conversion of a project it may
 * see started or ended — and nothing about projects it may not see, without losing the events of the
 * projects it may see afterwards.
 */
import type { AddressInfo } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECTS_CHANGED_EVENT } from '../../api/contract';
import { attachRealtime } from '../../api/realtime';
import { makeApp, signUp, type TestApp } from './helpers';

let t: TestApp;
let url: string;
let admin: string;
let eng: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await makeApp({ organizationDomain: 'yard.com' });
  attachRealtime(t.app);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  admin = await signUp(t.app, 'admin@yard.com', { admin: true });
  eng = await signUp(t.app, 'eng@other.org');
  // Access to SEEN (a project known only by its conversions here, so granted directly).
  const user = await t.app.ctx.users.find('eng@other.org');
  if (!user) throw new Error('eng@other.org was not registered');
  await t.app.ctx.access.grant(user.id, 'SEEN');
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.close();
});

/** A connected socket that records the project names of its 'projectsChanged' events. */
function open(token: string): Promise<{ socket: Socket; heard: string[] }> {
  return new Promise((resolve, reject) => {
    const heard: string[] = [];
    const socket = connect(url, { path: '/api/socket.io', transports: ['websocket'], auth: { token } });
    sockets.push(socket);
    socket.on(PROJECTS_CHANGED_EVENT, (e: { projectName: string }) => heard.push(e.projectName));
    socket.on('connect', () => resolve({ socket, heard }));
    socket.on('connect_error', reject);
  });
}

/** Reserves and ends a conversion of `name` started by the administrator (one announcement). */
async function conversionOf(name: string): Promise<void> {
  const id = await t.app.ctx.conversions.reserve(name, 'admin@yard.com');
  await t.app.ctx.conversions.fail(id, 'ended by the test');
}

/** Resolves once `heard` holds `name` (the events arrive in order, so earlier ones are in by then). */
async function until(heard: string[], name: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!heard.includes(name)) {
    if (Date.now() > deadline) throw new Error(`no projectsChanged for ${name}: ${heard.join(', ')}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('projectsChanged', () => {
  it('reaches those who may see the project only, and keeps reaching them', async () => {
    const a = await open(admin);
    const e = await open(eng);
    await conversionOf('HIDDEN');
    await conversionOf('SEEN');
    await until(a.heard, 'SEEN');
    await until(e.heard, 'SEEN');
    expect(a.heard).toEqual(['HIDDEN', 'SEEN']);
    expect(e.heard).toEqual(['SEEN']);
    // A later invisible project does not end the delivery of visible ones.
    await conversionOf('HIDDEN2');
    await conversionOf('SEEN');
    await until(a.heard, 'HIDDEN2');
    await new Promise((r) => setTimeout(r, 50));
    const count = () => e.heard.filter((n) => n === 'SEEN').length;
    const deadline = Date.now() + 10_000;
    while (count() < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(e.heard).toEqual(['SEEN', 'SEEN']);
  });
});
