/**
 * Sign-in with OpenID Connect (application.md §4 identity-provider variant, §6) against a real provider
 * (npm oidc-provider) on a loopback port: authorization code + PKCE, the ID token verified against the
 * provider's JWKS, users created on first sign-in with the domain rule, registration and password sign-in
 * refused, the provider's silence answered with 'Timeout on authentication to auth0'.
 */
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthorizedUserSchema, ClientConfigSchema, LoginResponseSchema, ModelListSchema } from '../../api/contract';
import { signInWithoutBrowser, startOidcProvider, type TestOidcProvider } from '../support/oidcProvider';
import { bearer, makeApp, type TestApp, uploadSample } from './helpers';

const REDIRECT = 'http://keelson.test/login/callback';
const BASE = '/api/auth/viewer/default';

let idp: TestOidcProvider;
let t: TestApp;

async function authorize(app: TestApp, redirectUri = REDIRECT) {
  return app.app.inject({ method: 'POST', url: `${BASE}/oidc/authorize`, payload: { redirectUri } });
}

/** The whole flow for `email`; returns Keelson's bearer token. */
async function signIn(email: string): Promise<string> {
  const a = await authorize(t);
  expect(a.statusCode, a.body).toBe(200);
  const back = await signInWithoutBrowser(a.json().url, email);
  const r = await t.app.inject({
    method: 'POST',
    url: `${BASE}/oidc/token`,
    payload: { code: back.searchParams.get('code'), state: back.searchParams.get('state') },
  });
  expect(r.statusCode, r.body).toBe(200);
  const login = v.parse(LoginResponseSchema, r.json());
  expect(login.success).toBe(true);
  return login.token ?? '';
}

async function whoAmI(token: string) {
  const r = await t.app.inject({ method: 'POST', url: '/api/authorize-user', headers: bearer(token) });
  expect(r.statusCode, r.body).toBe(200);
  return v.parse(AuthorizedUserSchema, r.json());
}

beforeAll(async () => {
  idp = await startOidcProvider();
  idp.register([REDIRECT]);
  idp.names.set('boss@yard.com', 'Boss Yard');
  t = await makeApp({
    organizationDomain: 'yard.com',
    authProvider: 'oidc',
    oidc: {
      issuer: idp.issuer,
      clientId: idp.clientId,
      clientSecret: '',
      scopes: 'openid email profile',
      redirectUri: '',
      adminEmail: 'boss@yard.com',
      timeoutMs: 1000,
    },
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

describe('OpenID Connect sign-in', () => {
  it('tells the UI to use the identity provider and offers no registration', async () => {
    const c = v.parse(ClientConfigSchema, (await t.app.inject({ url: '/api/config' })).json());
    expect(c.authenticationProvider).toBe('auth0');
    expect(c.allowLocalAuthUserRegistration).toBe(false);
  });

  it('sends the browser to the discovered authorization endpoint with PKCE (S256), state and nonce', async () => {
    const a = await authorize(t);
    expect(a.statusCode, a.body).toBe(200);
    const url = new URL(a.json().url);
    const discovery = await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).json();
    expect(`${url.origin}${url.pathname}`).toBe(discovery.authorization_endpoint);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('client_id')).toBe(idp.clientId);
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('nonce')).toBeTruthy();
  });

  it('creates users on first sign-in with the domain rule; OIDC_ADMIN_EMAIL becomes the administrator', async () => {
    const boss = await signIn('boss@yard.com');
    const admin = await whoAmI(boss);
    expect(admin).toMatchObject({ email: 'boss@yard.com', name: 'Boss Yard', userType: 'administrator' });
    const project = await uploadSample(t, boss, 'NAPA-OCX_M1');

    const colleague = await whoAmI(await signIn('welder@yard.com'));
    expect(colleague.userType).not.toBe('administrator');
    expect(colleague.permissions).toEqual(expect.arrayContaining(['upload:model', `project:${project}`]));

    const guestToken = await signIn('guest@other.org');
    const guest = await whoAmI(guestToken);
    expect(guest.permissions).toEqual([]);
    const models = await t.app.inject({ url: '/api/viewer/project/models', headers: bearer(guestToken) });
    expect(v.parse(ModelListSchema, models.json())).toEqual([]);
  }, 120_000);

  it('signs a returning user in to the same account', async () => {
    const first = await whoAmI(await signIn('returning@yard.com'));
    const second = await whoAmI(await signIn('returning@yard.com'));
    expect(second).toEqual(first);
    const users = await t.app.ctx.db
      .selectFrom('users')
      .select('email')
      .where('email', '=', 'returning@yard.com')
      .execute();
    expect(users).toHaveLength(1);
  });

  it('refuses registration (also of an administrator) and password sign-in', async () => {
    for (const registerAdmin of [false, true]) {
      const r = await t.app.inject({
        method: 'POST',
        url: `${BASE}/register`,
        payload: { email: 'self@yard.com', password: 'secret-password', fullName: 'Self', registerAdmin },
      });
      expect(r.statusCode).toBe(403);
      expect(r.json().message).toBe('Registration is not allowed');
    }
    const l = await t.app.inject({
      method: 'POST',
      url: `${BASE}/login`,
      payload: { email: 'welder@yard.com', password: 'secret-password' },
    });
    expect(l.statusCode).toBe(403);
    expect(l.json().message).toBe('Sign-in with a password is not enabled; sign in with the identity provider');
  });

  it('uses each state once and refuses unknown ones', async () => {
    const a = await authorize(t);
    const back = await signInWithoutBrowser(a.json().url, 'once@yard.com');
    const payload = { code: back.searchParams.get('code'), state: back.searchParams.get('state') };
    expect((await t.app.inject({ method: 'POST', url: `${BASE}/oidc/token`, payload })).statusCode).toBe(200);
    const again = await t.app.inject({ method: 'POST', url: `${BASE}/oidc/token`, payload });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('The sign-in has expired or was already used; sign in again');
    const forged = await t.app.inject({
      method: 'POST',
      url: `${BASE}/oidc/token`,
      payload: { code: 'x', state: 'not-a-state' },
    });
    expect(forged.statusCode).toBe(400);
  });

  it('passes a provider refusal back as a provider error (access_denied on the redirect)', async () => {
    const a = await authorize(t);
    const back = await signInWithoutBrowser(a.json().url, 'quitter@yard.com', 'abort');
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('error_description')).toBe('End-User aborted interaction');
    // A code the provider never issued: the token endpoint refuses, Keelson answers 502 naming it.
    const b = await authorize(t);
    const state = new URL(b.json().url).searchParams.get('state');
    const r = await t.app.inject({
      method: 'POST',
      url: `${BASE}/oidc/token`,
      payload: { code: 'forged-code', state },
    });
    expect(r.statusCode).toBe(502);
    expect(r.json().message).toMatch(/^The identity provider refused the sign-in: /);
  });

  it("answers 'Timeout on authentication to auth0' when the provider does not answer", async () => {
    const a = await authorize(t);
    const back = await signInWithoutBrowser(a.json().url, 'late@yard.com');
    idp.stall = true;
    try {
      const r = await t.app.inject({
        method: 'POST',
        url: `${BASE}/oidc/token`,
        payload: { code: back.searchParams.get('code'), state: back.searchParams.get('state') },
      });
      expect(r.statusCode).toBe(504);
      expect(r.json().message).toBe('Timeout on authentication to auth0');
    } finally {
      idp.stall = false;
    }
  });

  it('refuses a redirect URI other than the configured one', async () => {
    const strict = await makeApp({ authProvider: 'oidc', oidc: { ...t.config.oidc, redirectUri: REDIRECT } });
    try {
      expect((await authorize(strict)).statusCode).toBe(200);
      const r = await authorize(strict, 'http://evil.test/login/callback');
      expect(r.statusCode).toBe(400);
      expect(r.json().message).toBe('The redirect URI is not the one registered for Keelson');
    } finally {
      await strict.close();
    }
  });

  it('keeps the OIDC routes closed while sign-in is local', async () => {
    const local = await makeApp();
    try {
      const r = await authorize(local);
      expect(r.statusCode).toBe(404);
      expect(r.json().message).toBe('OpenID Connect sign-in is not enabled');
    } finally {
      await local.close();
    }
  });
});
