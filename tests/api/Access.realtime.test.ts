/**
 * Realtime access (api/realtime.ts; application.md §4): conversion rooms follow the project rules of the
 * REST calls, a revoked token cannot join, and an administrator's change or deletion of a user reaches that
 * user's e-mail room as `userNotification` — tested with two real socket.io clients, the user's and
 * another user's.
 */
import type { AddressInfo } from 'node:net';
import type { Socket } from 'socket.io-client';
import type { Server } from 'socket.io';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { UserNotificationSchema } from '../../api/contract';
import { attachRealtime, type JoinReply } from '../../api/realtime';
import { bearer, grantProjects, login, makeApp, signUp, type TestApp, uploadSample } from './helpers';
import * as v from 'valibot';
import { openSocket } from '../support/realtimeClient';

let t: TestApp;
let url: string;
let io: Server;
let admin: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await makeApp({ organizationDomain: 'yard.com' });
  io = attachRealtime(t.app);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  admin = await signUp(t.app, 'admin@yard.com', { admin: true });
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.close();
});

const open = (token: string): Promise<Socket> => openSocket(url, { token }, sockets);

const join = async (s: Socket, room: string) => (await s.timeout(2000).emitWithAck('join', room)) as JoinReply;

/** Resolves with the next 'userNotification' of a socket. */
const nextNotice = (s: Socket) => new Promise<unknown>((r) => s.once('userNotification', r));

describe('realtime access', () => {
  it('lets only users who may see the project join its conversion room', async () => {
    const outsider = await signUp(t.app, 'outsider@other.org');
    const starter = await signUp(t.app, 'starter@yard.com');
    const id = await t.app.ctx.conversions.reserve('SECRET', 'starter@yard.com');
    const refused = await join(await open(outsider), id);
    // the same answer as for a conversion that does not exist
    expect(refused).toEqual({
      ok: false,
      error: 'Forbidden',
      message: `Conversion ${id} not found`,
      type: 'permission',
    });
    expect(await join(await open(starter), id)).toEqual({ ok: true, room: id });
    expect(await join(await open(admin), id)).toEqual({ ok: true, room: id });
    await t.app.ctx.conversions.fail(id, 'stopped by the test');
    // a project's room: the same rule (the starter of its first conversion sees it); an invisible and a
    // missing project are refused alike
    expect(await join(await open(starter), 'project:secret')).toEqual({ ok: true, room: 'project:SECRET' });
    for (const [room, name] of [
      ['project:secret', 'SECRET'],
      ['project:nothing', 'NOTHING'],
    ])
      expect(await join(await open(outsider), room)).toMatchObject({ ok: false, message: `Project ${name} not found` });
    expect(await join(await open(admin), 'project:secret')).toEqual({ ok: true, room: 'project:SECRET' });
  });

  it('stops progress events to a member of a conversion room the moment its project access is withdrawn', async () => {
    await signUp(t.app, 'keeps@other.org');
    await signUp(t.app, 'loses@other.org');
    const ship = await uploadSample(t, admin, 'NAPA-OCX_M1');
    await grantProjects(t.app, admin, 'keeps@other.org', [ship], { fixed: [] });
    await grantProjects(t.app, admin, 'loses@other.org', [ship], { fixed: [] });
    // a new revision's conversion of the shared project
    const id = await t.app.ctx.conversions.reserve(ship, 'admin@yard.com');
    const keeps = await open(await login(t.app, 'keeps@other.org'));
    const loses = await open(await login(t.app, 'loses@other.org'));
    expect(await join(keeps, id)).toEqual({ ok: true, room: id });
    expect(await join(loses, id)).toEqual({ ok: true, room: id });
    const lost: unknown[] = [];
    loses.on('progress', (e) => lost.push(e));
    await grantProjects(t.app, admin, 'loses@other.org', [], { fixed: [] });
    const seen = new Promise<unknown>((r) => keeps.once('progress', r));
    await t.app.ctx.conversions.fail(id, 'stopped by the test');
    expect(await seen).toMatchObject({ conversionId: id, projectName: ship, message: 'stopped by the test' });
    // the withdrawn member is taken out of the room instead of being sent the event
    await vi.waitFor(async () => {
      const members = (await io.in(id).fetchSockets()).map((s) => s.id);
      expect(members).toEqual([keeps.id]);
    });
    expect(lost).toEqual([]);
  });

  it('refuses a connection and a join with a revoked token', async () => {
    const token = await signUp(t.app, 'leaver@yard.com');
    const s = await open(token);
    await t.app.inject({ method: 'POST', url: '/api/auth/viewer/default/logout', headers: bearer(token) });
    const r = await join(s, 'leaver@yard.com');
    expect(r).toMatchObject({ ok: false, message: 'The session has ended; sign in again' });
    await expect(open(token)).rejects.toThrow('The session has ended; sign in again');
  });

  it("sends user-updated and user-deleted to the user's own room only, then disconnects the deleted user", async () => {
    await signUp(t.app, 'eng@yard.com');
    const eng = await open(await login(t.app, 'eng@yard.com'));
    const bystander = await open(await signUp(t.app, 'bystander@yard.com'));
    expect(await join(eng, 'eng@yard.com')).toEqual({ ok: true, room: 'eng@yard.com' });
    expect(await join(bystander, 'bystander@yard.com')).toEqual({ ok: true, room: 'bystander@yard.com' });
    let bystanderHeard = 0;
    bystander.on('userNotification', () => bystanderHeard++);

    const updated = nextNotice(eng);
    const patch = await t.app.inject({
      method: 'PATCH',
      url: '/api/default/viewer/users?email=eng%40yard.com',
      headers: bearer(admin),
      payload: { name: 'Engineer' },
    });
    expect(patch.statusCode).toBe(200);
    expect(v.parse(UserNotificationSchema, await updated)).toEqual({ kind: 'user-updated', email: 'eng@yard.com' });

    const deleted = nextNotice(eng);
    const gone = new Promise<string>((r) => eng.once('disconnect', r));
    const del = await t.app.inject({
      method: 'DELETE',
      url: '/api/default/viewer/users?email=eng%40yard.com',
      headers: bearer(admin),
    });
    expect(del.statusCode).toBe(200);
    expect(await deleted).toEqual({ kind: 'user-deleted', email: 'eng@yard.com' });
    expect(await gone).toBe('io server disconnect');
    // the bystander's socket is still there and heard nothing
    expect(bystander.connected).toBe(true);
    expect(bystanderHeard).toBe(0);
  });
});
