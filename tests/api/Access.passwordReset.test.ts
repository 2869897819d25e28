/**
 * requirePasswordReset is the server's rule, not only the UI's route guard (application.md §4 "After login,
 * if requirePasswordReset is set the user goes to /changePassword"): a user who must change the password
 * reaches, of every signed-in route of the server's route table, only the password change and the calls
 * that keep or end the session (authorize-user, check-token, logout, disconnect). Everything else answers
 * 403 'Change your password before continuing' before its handler or its input is looked at. On
 * socket.io only the user's own e-mail room (its notices) can be joined.
 */
import type { AddressInfo } from 'node:net';
import { io as connect } from 'socket.io-client';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangePasswordResponseSchema } from '../../api/contract';
import { attachRealtime, type JoinReply } from '../../api/realtime';
import { bearer, login, makeApp, signUp, type TestApp } from './helpers';

/** What a user who must change the password may still call (written here, not read from the rules). */
const OPEN_DURING_RESET = [
  'POST /api/auth/viewer/default/changePassword',
  'POST /api/auth/viewer/default/logout',
  'POST /api/disconnect/:clientId',
  'POST /api/authorize-user',
  'GET /api/check-token',
];
/** Calls that end the session: made last. */
const ENDS_SESSION = ['POST /api/auth/viewer/default/logout', 'POST /api/disconnect/:clientId'];

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await makeApp();
  attachRealtime(t.app);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const admin = await signUp(t.app, 'admin@yard.com', { admin: true });
  await signUp(t.app, 'eng@yard.com');
  const reset = await t.app.inject({
    method: 'PATCH',
    url: '/api/default/viewer/users?email=eng%40yard.com',
    headers: bearer(admin),
    payload: { password: 'reset-by-admin', requirePasswordReset: true },
  });
  expect(reset.statusCode, reset.body).toBe(200);
  token = await login(t.app, 'eng@yard.com', 'reset-by-admin');
});
afterAll(async () => {
  await t?.close();
});

/** A request for a route-table entry: path parameters filled with placeholders, an empty JSON body. */
function call(method: string, url: string, bearerToken: string) {
  const path = url.replace(/:[A-Za-z]+/g, 'x');
  return t.app.inject({
    method: method as 'GET',
    url: path,
    headers: bearer(bearerToken),
    ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }),
  });
}

describe('a user who must change the password', () => {
  it('reaches only the password change and the session calls; every other signed-in route answers 403', async () => {
    const signedIn = t.app.routeTable.filter((r) => r.access?.kind !== 'anonymous');
    expect(signedIn.length).toBeGreaterThan(20);
    const ordered = [
      ...signedIn.filter((r) => !ENDS_SESSION.includes(`${r.method} ${r.url}`)),
      ...signedIn.filter((r) => ENDS_SESSION.includes(`${r.method} ${r.url}`)),
    ];
    const open: string[] = [];
    for (const r of ordered) {
      const res = await call(r.method, r.url, token);
      const key = `${r.method} ${r.url}`;
      const refused = res.statusCode === 403 && res.json().message === 'Change your password before continuing';
      if (!refused) open.push(key);
      else
        expect(res.json(), key).toEqual({
          error: 'Forbidden',
          message: 'Change your password before continuing',
          type: 'permission',
        });
    }
    expect(open.sort()).toEqual([...OPEN_DURING_RESET].sort());
  });

  it('joins only its own e-mail room on socket.io', async () => {
    token = await login(t.app, 'eng@yard.com', 'reset-by-admin');
    const conversion = await t.app.ctx.conversions.reserve('ENG_SHIP', 'eng@yard.com');
    const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const socket = connect(url, {
      path: '/api/socket.io',
      transports: ['websocket'],
      auth: { token },
      reconnection: false,
    });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.on('connect', resolve);
        socket.on('connect_error', reject);
      });
      const join = async (room: string) => (await socket.timeout(5000).emitWithAck('join', room)) as JoinReply;
      expect(await join('eng@yard.com')).toEqual({ ok: true, room: 'eng@yard.com' });
      for (const room of [conversion, 'project:ENG_SHIP'])
        expect(await join(room), room).toEqual({
          ok: false,
          error: 'Forbidden',
          message: 'Change your password before continuing',
          type: 'permission',
        });
    } finally {
      socket.close();
    }
  });

  it('gets everything back with the fresh token the password change answers with', async () => {
    token = await login(t.app, 'eng@yard.com', 'reset-by-admin');
    const change = await t.app.inject({
      method: 'POST',
      url: '/api/auth/viewer/default/changePassword',
      headers: bearer(token),
      payload: {
        email: 'eng@yard.com',
        currentPassword: 'reset-by-admin',
        newPassword: 'my-own-password',
        confirmNewPassword: 'my-own-password',
      },
    });
    expect(change.statusCode, change.body).toBe(200);
    const fresh = v.parse(ChangePasswordResponseSchema, change.json()).token ?? '';
    expect(fresh).not.toBe('');
    expect((await t.app.inject({ url: '/api/viewer/project/models', headers: bearer(token) })).statusCode).toBe(401);
    const models = await t.app.inject({ url: '/api/viewer/project/models', headers: bearer(fresh) });
    expect(models.statusCode, models.body).toBe(200);
    const me = await t.app.inject({ method: 'POST', url: '/api/authorize-user', headers: bearer(fresh) });
    expect(me.json().requirePasswordReset).toBe(false);
  });
});
