/**
 * socket.io rooms (api/realtime.ts): a client may join only a conversion the server knows, or the
 * room of its own e-mail (application.md §4); anything else gets an 'error' event and no messages.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'socket.io';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachRealtime, notifyUser, type JoinReply } from '../../api/realtime';
import { makeApp, signUp, type TestApp } from './helpers';
import { openSocket } from '../support/realtimeClient';

let t: TestApp;
let io: Server;
let url: string;
let token: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await makeApp();
  io = attachRealtime(t.app);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  token = await signUp(t.app, 'Admin@Yard.com', { admin: true });
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.close();
});

const open = (): Promise<Socket> => openSocket(url, { token }, sockets);

/** Sends 'join' and resolves with the acknowledgement and any 'error' event that came with it. */
async function join(s: Socket, room: unknown): Promise<{ ack: JoinReply; errors: unknown[] }> {
  const errors: unknown[] = [];
  const onError = (e: unknown) => errors.push(e);
  s.on('error', onError);
  const ack = (await s.timeout(2000).emitWithAck('join', room)) as JoinReply;
  await new Promise((r) => setTimeout(r, 20));
  s.off('error', onError);
  return { ack, errors };
}

describe('realtime rooms', () => {
  it('joins a known conversion and receives its progress', async () => {
    const s = await open();
    const id = await t.app.ctx.conversions.reserve('ROOMS', 'admin@yard.com');
    const { ack, errors } = await join(s, id);
    expect(ack).toEqual({ ok: true, room: id });
    expect(errors).toEqual([]);
    const got = new Promise((r) => s.once('progress', r));
    await t.app.ctx.conversions.fail(id, 'stopped by the test');
    expect(await got).toMatchObject({ conversionId: id, projectName: 'ROOMS', status: 4 });
    // a finished conversion is still known (the model list shows its card)
    expect((await join(await open(), id)).ack.ok).toBe(true);
  });

  it('refuses an unknown conversion id or a made-up room with an error event', async () => {
    const s = await open();
    for (const room of ['00000000-0000-4000-8000-000000000000', 'lobby', '', 42]) {
      const { ack, errors } = await join(s, room);
      expect(ack.ok, String(room)).toBe(false);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ error: 'Forbidden', type: 'permission', message: expect.any(String) });
    }
    expect((await join(s, 'lobby')).errors[0]).toMatchObject({ message: 'Conversion lobby not found' });
    expect([...io.sockets.adapter.rooms.keys()]).not.toContain('lobby');
  });

  it("joins only the room of the user's own e-mail and receives notifications there", async () => {
    const s = await open();
    const other = await join(s, 'someone.else@yard.com');
    expect(other.ack).toMatchObject({ ok: false, message: 'You can only join the room of your own e-mail' });
    expect(other.errors).toHaveLength(1);
    const own = await join(s, 'ADMIN@yard.com');
    expect(own.ack).toEqual({ ok: true, room: 'admin@yard.com' });
    const got = new Promise((r) => s.once('userNotification', r));
    notifyUser(io, { kind: 'user-updated', email: 'Admin@Yard.com' });
    expect(await got).toEqual({ kind: 'user-updated', email: 'Admin@Yard.com' });
    // leaving the room (logout) stops the notifications
    s.emit('leave', 'admin@yard.com');
    await new Promise((r) => setTimeout(r, 50));
    let received = false;
    s.once('userNotification', () => (received = true));
    notifyUser(io, { kind: 'user-deleted', email: 'admin@yard.com' });
    await new Promise((r) => setTimeout(r, 100));
    expect(received).toBe(false);
  });
});
