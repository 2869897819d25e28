/**
 * The admin area's 'Add user' (application.md §2 "Users tab", §4 "Registering a user by an administrator",
 * §6): with self-registration off, a holder of admin:view may still register users (with the forced password
 * change), and the new user is then in the admin list; anyone else is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, makeApp, signUp, type TestApp } from './helpers';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await makeApp({ allowRegistration: true, organizationDomain: 'yard.com' });
  admin = await signUp(t.app, 'admin@yard.com', { admin: true });
});
afterAll(async () => {
  await t?.close();
});

const register = (token: string | undefined, email: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/viewer/default/register',
    headers: token ? bearer(token) : {},
    payload: { email, password: 'first-password', fullName: 'New User', requirePasswordReset: true, adminEmail: '' },
  });

describe("'Add user' with self-registration off", () => {
  it('lets admin:view holders register users with a forced password change; others are refused', async () => {
    const deputy = await signUp(t.app, 'deputy@yard.com');
    const plain = await signUp(t.app, 'plain@yard.com');
    const grant = await t.app.inject({
      method: 'PATCH',
      url: '/api/default/viewer/users?email=deputy%40yard.com',
      headers: bearer(admin),
      payload: { permissions: ['admin:view'] },
    });
    expect(grant.statusCode, grant.body).toBe(200);
    t.config.allowRegistration = false;
    try {
      expect((await register(undefined, 'self@other.org')).statusCode).toBe(403);
      expect((await register(plain, 'byplain@other.org')).statusCode).toBe(403);
      const r = await register(deputy, 'added@other.org');
      expect(r.statusCode, r.body).toBe(200);
    } finally {
      t.config.allowRegistration = true;
    }
    const list = await t.app.inject({ url: '/api/default/viewer/users/all', headers: bearer(admin) });
    const added = (list.json() as Array<{ email: string; userType: string; requirePasswordReset: boolean }>).find(
      (u) => u.email === 'added@other.org',
    );
    expect(added).toMatchObject({ userType: 'external', requirePasswordReset: true });
  });
});
