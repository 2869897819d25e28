/**
 * Accounts and sessions (application.md §4 "Authentication and session", §5 "User form", §6): exactly one
 * administrator under concurrent registration, tokens revoked by password change, reset, deletion, logout and
 * disconnect, a permission change that holds at once for an open session, project access that ends at its valid-until also for an open
 * session, the organisation-domain rule, and login throttling that does not tell registered e-mails apart.
 */
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { AdminUserSchema, AuthorizedUserSchema, ErrorResponseSchema } from '../../api/contract';
import { bearer, grantProjects, login, makeApp, signUp, uploadSample, type TestApp } from './helpers';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

const AUTH = '/api/auth/viewer/default';
const models = (token: string) => t.app.inject({ url: '/api/viewer/project/models', headers: bearer(token) });
const info = (token: string, name: string) =>
  t.app.inject({ url: `/api/viewer/project/project-info?projectName=${name}`, headers: bearer(token) });

describe('one administrator', () => {
  it('registers exactly one administrator from 8 concurrent requests', async () => {
    t = await makeApp();
    const replies = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: `${AUTH}/register`,
          payload: { email: `admin${i}@yard.com`, password: 'secret-password', fullName: 'A', registerAdmin: true },
        }),
      ),
    );
    expect(replies.map((r) => r.statusCode).sort()).toEqual([200, 403, 403, 403, 403, 403, 403, 403]);
    for (const r of replies.filter((x) => x.statusCode === 403))
      expect(v.parse(ErrorResponseSchema, r.json()).message).toBe('An administrator is already registered');
    const admins = await t.app.ctx.db
      .selectFrom('users')
      .select('email')
      .where('user_type', '=', 'administrator')
      .execute();
    expect(admins).toHaveLength(1);
    // the losers were not created as ordinary users either
    expect(await t.app.ctx.db.selectFrom('users').select('email').execute()).toHaveLength(1);
  });
});

describe('token revocation', () => {
  it('ends older tokens at once on logout, disconnect, password change and administrator changes', async () => {
    t = await makeApp();
    const admin = await signUp(t.app, 'admin@yard.com', { admin: true });
    const expectRevoked = async (token: string) => {
      const r = await models(token);
      expect(r.statusCode).toBe(401);
      expect(r.json().message).toBe('The session has ended; sign in again');
    };

    let eng = await signUp(t.app, 'eng@yard.com');
    const second = await login(t.app, 'eng@yard.com');
    expect((await t.app.inject({ method: 'POST', url: `${AUTH}/logout`, headers: bearer(eng) })).statusCode).toBe(200);
    await expectRevoked(eng);
    await expectRevoked(second); // logout ends every session of the user

    eng = await login(t.app, 'eng@yard.com');
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/disconnect/viewer-7', headers: bearer(eng) })).statusCode,
    ).toBe(200);
    await expectRevoked(eng);

    eng = await login(t.app, 'eng@yard.com');
    const other = await login(t.app, 'eng@yard.com');
    const change = await t.app.inject({
      method: 'POST',
      url: `${AUTH}/changePassword`,
      headers: bearer(eng),
      payload: {
        email: 'eng@yard.com',
        currentPassword: 'secret-password',
        newPassword: 'new-password-1',
        confirmNewPassword: 'new-password-1',
      },
    });
    expect(change.statusCode).toBe(200);
    await expectRevoked(other);
    eng = change.json().token;
    expect((await models(eng)).statusCode).toBe(200);

    // administrator: password reset, then a permission change, then deletion
    const patch = (payload: object) =>
      t.app.inject({
        method: 'PATCH',
        url: '/api/default/viewer/users?email=eng%40yard.com',
        headers: bearer(admin),
        payload,
      });
    expect((await patch({ password: 'reset-by-admin', requirePasswordReset: true })).statusCode).toBe(200);
    await expectRevoked(eng);
    eng = await login(t.app, 'eng@yard.com', 'reset-by-admin');
    // a user who must change the password can do nothing else, by the server's rule
    const blocked = await models(eng);
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().message).toBe('Change your password before continuing');
    eng = await login(t.app, 'eng@yard.com', 'reset-by-admin');
    const changePassword = await t.app.inject({
      method: 'POST',
      url: `${AUTH}/changePassword`,
      headers: bearer(eng),
      payload: {
        email: 'eng@yard.com',
        currentPassword: 'reset-by-admin',
        newPassword: 'new-password-2',
        confirmNewPassword: 'new-password-2',
      },
    });
    expect(changePassword.statusCode).toBe(200);
    eng = changePassword.json().token;
    // a permission change holds at once for the open session, which stays open so the notice can reload in place
    const permissionsOf = async (token: string) =>
      (await t.app.inject({ method: 'POST', url: '/api/authorize-user', headers: bearer(token) })).json().permissions;
    expect((await patch({ permissions: ['upload:model'] })).statusCode).toBe(200);
    expect(await permissionsOf(eng)).toEqual(['upload:model']);
    expect((await patch({ permissions: [] })).statusCode).toBe(200);
    expect(await permissionsOf(eng)).toEqual([]);
    expect((await models(eng)).statusCode).toBe(200);
    const del = await t.app.inject({
      method: 'DELETE',
      url: '/api/default/viewer/users?email=eng%40yard.com',
      headers: bearer(admin),
    });
    expect(del.statusCode).toBe(200);
    const gone = await models(eng);
    expect(gone.statusCode).toBe(401);
    expect(gone.json().message).toBe('User not found');
  });
});

describe('project access', () => {
  it('gives organisation users every existing project and upload:model, others nothing', async () => {
    t = await makeApp({ organizationDomain: 'yard.com' });
    const admin = await signUp(t.app, 'admin@yard.com', { admin: true });
    const ship = await uploadSample(t, admin, 'NAPA-OCX_M1');
    const inside = await signUp(t.app, 'eng@yard.com');
    const outside = await signUp(t.app, 'guest@other.org');
    const me = async (token: string) =>
      v.parse(
        AuthorizedUserSchema,
        (await t.app.inject({ method: 'POST', url: '/api/authorize-user', headers: bearer(token) })).json(),
      );
    expect((await me(inside)).permissions.sort()).toEqual([`project:${ship}`, 'upload:model']);
    expect((await me(outside)).permissions).toEqual([]);
    expect((await models(inside)).json().map((m: { name: string }) => m.name)).toEqual([ship]);
    expect((await models(outside)).json()).toEqual([]);
    // an invisible project answers exactly as a missing one
    const hidden = await info(outside, ship);
    const missing = await info(outside, 'NO_SUCH');
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual({ ...missing.json(), message: `Project ${ship} not found` });
    // a visible project the user may not change: 403 naming the permission
    await signUp(t.app, 'reader@other.org');
    await grantProjects(t.app, admin, 'reader@other.org', [ship], { fixed: [] });
    const reader = await login(t.app, 'reader@other.org');
    expect((await info(reader, ship)).statusCode).toBe(200);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/viewer/project/delete-revision?projectName=${ship}&revisionNumber=1`,
      headers: bearer(reader),
    });
    expect(del.statusCode).toBe(403);
    expect(del.json().message).toBe('Missing permission admin:view');
  });

  it('ends access at its valid-until, also for a session that is already open', async () => {
    t = await makeApp({ organizationDomain: 'yard.com' });
    const admin = await signUp(t.app, 'admin@yard.com', { admin: true });
    const ship = await uploadSample(t, admin, 'NAPA-OCX_M1');
    await signUp(t.app, 'guest@other.org');
    const until = new Date(Date.now() + 1500).toISOString();
    const r = await grantProjects(t.app, admin, 'guest@other.org', [ship], { validUntil: until, fixed: [] });
    expect(v.parse(AdminUserSchema, r.json()).permissionData).toEqual([
      { id: expect.any(Number), identifier: `project:${ship}`, validUntil: until },
    ]);
    const guest = await login(t.app, 'guest@other.org');
    expect((await info(guest, ship)).statusCode).toBe(200);
    // wait for the moment itself (a state of the clock), then the same open session is refused
    while (Date.now() <= Date.parse(until))
      await new Promise((res) => setTimeout(res, Date.parse(until) - Date.now() + 1));
    expect((await info(guest, ship)).statusCode).toBe(404);
    expect((await models(guest)).json()).toEqual([]);
  });

  it('keeps the administrator on every project and refuses deleting the administrator or oneself', async () => {
    t = await makeApp();
    const admin = await signUp(t.app, 'admin@yard.com', { admin: true });
    const ship = await uploadSample(t, admin, 'NAPA-OCX_M1');
    const patch = await t.app.inject({
      method: 'PATCH',
      url: '/api/default/viewer/users?email=admin%40yard.com',
      headers: bearer(admin),
      payload: { permissions: [] },
    });
    expect(patch.statusCode).toBe(200);
    expect(v.parse(AdminUserSchema, patch.json()).permissions).toContain(`project:${ship}`);
    const fresh = await login(t.app, 'admin@yard.com');
    expect((await info(fresh, ship)).statusCode).toBe(200);
    const self = await t.app.inject({
      method: 'DELETE',
      url: '/api/default/viewer/users?email=admin%40yard.com',
      headers: bearer(fresh),
    });
    expect(self.statusCode).toBe(403);
  });
});

describe('login throttling', () => {
  const attempt = (email: string, ip: string) =>
    t.app.inject({
      method: 'POST',
      url: `${AUTH}/login`,
      payload: { email, password: 'wrong-password' },
      remoteAddress: ip,
    });

  it('stops password spraying: many e-mails from one address', async () => {
    t = await makeApp({ authRateLimitPerMin: 2 });
    // 2 per minute per address and e-mail, 10 per address over all e-mails
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) codes.push((await attempt(`user${i}@yard.com`, '10.1.1.1')).statusCode);
    expect(codes.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(codes[10]).toBe(429);
    expect((await attempt('user0@yard.com', '10.1.1.1')).headers['retry-after']).toBeDefined();
    expect((await attempt('user99@yard.com', '10.2.2.2')).statusCode).toBe(401);
  });

  it('stops guessing one account from many addresses', async () => {
    t = await makeApp({ authRateLimitPerMin: 2 });
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) codes.push((await attempt('victim@yard.com', `10.3.0.${i}`)).statusCode);
    expect(codes.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(codes[10]).toBe(429);
  });

  it('answers a registered and an unknown e-mail alike', async () => {
    t = await makeApp();
    await signUp(t.app, 'known@yard.com');
    const known = await attempt('known@yard.com', '10.4.0.1');
    const unknown = await attempt('unknown@yard.com', '10.4.0.2');
    expect(known.statusCode).toBe(unknown.statusCode);
    expect(known.json()).toEqual(unknown.json());
    expect(known.json().message).toBe('Invalid e-mail or password');
  });
});
