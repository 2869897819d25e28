import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import * as v from 'valibot';
import { AuthorizedUserSchema, ClientConfigSchema, ErrorResponseSchema, LoginResponseSchema } from '../../api/contract';
import { bearer, makeApp, signUp, type TestApp } from './helpers';

const AUTH = '/api/auth/viewer/default';
let t: TestApp;
beforeEach(async () => {
  t = await makeApp();
});
afterEach(async () => {
  await t.close();
});

describe('config', () => {
  it('reports the client config and whether an administrator exists', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/api/config' });
    expect(r.statusCode).toBe(200);
    const c = v.parse(ClientConfigSchema, r.json());
    expect(c).toMatchObject({
      authenticationProvider: 'local',
      webViewerTimeoutInMin: 15,
      allowLocalAuthUserRegistration: true,
      adminRegistered: false,
      version: 'release-2025.1 B102',
    });
    await signUp(t.app, 'admin@yard.com', { admin: true });
    expect((await t.app.inject({ method: 'GET', url: '/api/config' })).json().adminRegistered).toBe(true);
  });
});

describe('registration', () => {
  it('creates the administrator once; a second administrator is refused with 403', async () => {
    const token = await signUp(t.app, 'Admin@Yard.com', { admin: true });
    const me = await t.app.inject({ method: 'POST', url: '/api/authorize-user', headers: bearer(token), payload: {} });
    expect(me.statusCode).toBe(200);
    const u = v.parse(AuthorizedUserSchema, me.json());
    expect(u.email).toBe('admin@yard.com');
    expect(u.userType).toBe('administrator');
    expect(u.permissions).toEqual(expect.arrayContaining(['admin:view', 'upload:model']));
    const second = await t.app.inject({
      method: 'POST',
      url: `${AUTH}/register`,
      payload: { email: 'b@yard.com', password: 'password1', fullName: 'B', registerAdmin: true },
    });
    expect(second.statusCode).toBe(403);
    expect(v.parse(ErrorResponseSchema, second.json()).message).toBe('An administrator is already registered');
  });

  it('gives ordinary users upload:model only inside the organisation domain', async () => {
    await t.close();
    t = await makeApp({ organizationDomain: 'yard.com' });
    const inside = await signUp(t.app, 'eng@yard.com');
    const outside = await signUp(t.app, 'guest@other.org');
    const a = (await t.app.inject({ method: 'POST', url: '/api/authorize-user', headers: bearer(inside) })).json();
    const b = (await t.app.inject({ method: 'POST', url: '/api/authorize-user', headers: bearer(outside) })).json();
    expect(a.permissions).toContain('upload:model');
    expect(a.userType).toBe('internal');
    expect(b.permissions).toEqual([]);
    expect(b.userType).toBe('external');
  });

  it('refuses a duplicate e-mail with 409', async () => {
    await signUp(t.app, 'x@yard.com');
    const r = await t.app.inject({
      method: 'POST',
      url: `${AUTH}/register`,
      payload: { email: 'X@yard.com', password: 'password1', fullName: 'X' },
    });
    expect(r.statusCode).toBe(409);
    expect(r.json().message).toBe('A user with this e-mail already exists');
  });

  it('refuses ordinary registration when registration is off', async () => {
    await t.close();
    t = await makeApp({ allowRegistration: false });
    const r = await t.app.inject({
      method: 'POST',
      url: `${AUTH}/register`,
      payload: { email: 'x@yard.com', password: 'password1', fullName: 'X' },
    });
    expect(r.statusCode).toBe(403);
  });

  it.each([
    [{ password: 'password1', fullName: 'X' }, "Invalid field 'email': Field is required"],
    [{ email: 'not-an-email', password: 'password1', fullName: 'X' }, "Invalid field 'email': Input a valid email"],
    [
      { email: 'a@b.com', password: 'short', fullName: 'X' },
      "Invalid field 'password': Password must have at least 8 letters.",
    ],
    [{ email: 'a@b.com', password: 'password1', fullName: '  ' }, "Invalid field 'fullName': Field is required"],
    [
      { email: 'a@b.com', password: 'password1', confirmPassword: 'password2', fullName: 'X' },
      "Invalid field 'confirmPassword': Passwords do not match",
    ],
  ])('validates %j with 400', async (payload, message) => {
    const r = await t.app.inject({ method: 'POST', url: `${AUTH}/register`, payload });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({ error: 'BadRequest', message, type: 'validation' });
  });
});

describe('login and tokens', () => {
  it('logs in with trimmed, case-insensitive e-mail; wrong password gives 401 with the message', async () => {
    await signUp(t.app, 'eng@yard.com', { password: 'right-password' });
    const ok = await t.app.inject({
      method: 'POST',
      url: `${AUTH}/login`,
      payload: { email: '  ENG@yard.com ', password: 'right-password' },
    });
    expect(ok.statusCode).toBe(200);
    const body = v.parse(LoginResponseSchema, ok.json());
    expect(body.success).toBe(true);
    expect(body.requirePasswordReset).toBe(false);
    const claims = JSON.parse(Buffer.from(body.token!.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ iss: 'keelson', sub: 'eng@yard.com' });
    expect(claims.exp - claims.iat).toBe(720 * 60);
    const bad = await t.app.inject({
      method: 'POST',
      url: `${AUTH}/login`,
      payload: { email: 'eng@yard.com', password: 'wrong-password' },
    });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().message).toBe('Invalid e-mail or password');
    const missing = await t.app.inject({
      method: 'POST',
      url: `${AUTH}/login`,
      payload: { email: 'eng@yard.com', password: '' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe("Invalid field 'password': Password is required");
  });

  it('answers 401 without a token, with a bad token and with an expired token', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/api/viewer/project/models' });
    expect(none.statusCode).toBe(401);
    expect(none.json().message).toBe('Authentication required');
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/viewer/project/models',
      headers: bearer('abc.def.ghi'),
    });
    expect(bad.statusCode).toBe(401);
    await signUp(t.app, 'eng@yard.com');
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('keelson')
      .setSubject('eng@yard.com')
      .setIssuedAt(now - 100)
      .setExpirationTime(now - 10)
      .sign(new TextEncoder().encode(t.config.jwtSecret));
    const r = await t.app.inject({ method: 'GET', url: '/api/viewer/project/models', headers: bearer(expired) });
    expect(r.statusCode).toBe(401);
    expect(r.json().message).toBe('Token expired');
  });

  it('changes the password (bearer required, e-mail must match the token)', async () => {
    const token = await signUp(t.app, 'eng@yard.com', { password: 'old-password' });
    const other = await signUp(t.app, 'other@yard.com');
    const body = {
      email: 'eng@yard.com',
      currentPassword: 'old-password',
      newPassword: 'new-password',
      confirmNewPassword: 'new-password',
    };
    expect((await t.app.inject({ method: 'POST', url: `${AUTH}/changePassword`, payload: body })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'POST', url: `${AUTH}/changePassword`, headers: bearer(other), payload: body }))
        .statusCode,
    ).toBe(403);
    const mismatch = await t.app.inject({
      method: 'POST',
      url: `${AUTH}/changePassword`,
      headers: bearer(token),
      payload: { ...body, confirmNewPassword: 'different1' },
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().message).toBe("Invalid field 'confirmNewPassword': Passwords do not match");
    const wrong = await t.app.inject({
      method: 'POST',
      url: `${AUTH}/changePassword`,
      headers: bearer(token),
      payload: { ...body, currentPassword: 'nope-nope' },
    });
    expect(wrong.statusCode).toBe(401);
    const ok = await t.app.inject({
      method: 'POST',
      url: `${AUTH}/changePassword`,
      headers: bearer(token),
      payload: body,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ success: true, token: expect.any(String) });
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `${AUTH}/login`,
          payload: { email: 'eng@yard.com', password: 'old-password' },
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `${AUTH}/login`,
          payload: { email: 'eng@yard.com', password: 'new-password' },
        })
      ).statusCode,
    ).toBe(200);
  });
});
