/** Authorization-matrix sample requests: sign-in, sessions and the shell. */
import { relogin, type Sample, state } from './context';

/** Sample request per route ('METHOD /url'). */
export const ACCOUNT_ROWS: Record<string, Sample> = {
  'GET /api/health': {
    who: 'anyone',
    req: () => ({ url: '/api/health' }),
  },
  'GET /api/ready': {
    who: 'anyone',
    req: () => ({ url: '/api/ready' }),
  },
  'GET /api/config': {
    who: 'anyone',
    req: () => ({ url: '/api/config' }),
  },
  'POST /api/auth/viewer/default/register': {
    who: 'anyone',
    req: () => ({
      method: 'POST',
      url: '/api/auth/viewer/default/register',
      payload: { email: `new${++state.n}@other.org`, password: 'secret-password', fullName: 'New' },
    }),
  },
  'POST /api/auth/viewer/default/login': {
    who: 'anyone',
    req: () => ({
      method: 'POST',
      url: '/api/auth/viewer/default/login',
      payload: { email: 'outsider@other.org', password: 'secret-password' },
    }),
  },
  // Open to anyone; with local sign-in (this app) both answer 404 'not enabled' (tests/api/Auth.oidc.test.ts
  // runs them against a provider).
  'POST /api/auth/viewer/default/oidc/authorize': {
    who: 'anyone',
    req: () => ({
      method: 'POST',
      url: '/api/auth/viewer/default/oidc/authorize',
      payload: { redirectUri: 'http://keelson.test/login/callback' },
    }),
    ok: [404],
  },
  'POST /api/auth/viewer/default/oidc/token': {
    who: 'anyone',
    req: () => ({
      method: 'POST',
      url: '/api/auth/viewer/default/oidc/token',
      payload: { code: 'code', state: 'state' },
    }),
    ok: [404],
  },
  // The e-mail does not match the signed-in user: the handler refuses, nobody's password changes.
  'POST /api/auth/viewer/default/changePassword': {
    who: 'signedIn',
    req: () => ({
      method: 'POST',
      url: '/api/auth/viewer/default/changePassword',
      payload: {
        email: 'x@x.org',
        currentPassword: 'a',
        newPassword: 'new-password',
        confirmNewPassword: 'new-password',
      },
    }),
    ok: [403],
  },
  'POST /api/auth/viewer/default/logout': {
    who: 'signedIn',
    req: () => ({ method: 'POST', url: '/api/auth/viewer/default/logout' }),
    after: relogin,
  },
  'POST /api/disconnect/:clientId': {
    who: 'signedIn',
    req: () => ({ method: 'POST', url: '/api/disconnect/viewer-1' }),
    after: relogin,
  },
  'POST /api/authorize-user': {
    who: 'signedIn',
    req: () => ({ method: 'POST', url: '/api/authorize-user' }),
  },
  'GET /api/check-token': {
    who: 'signedIn',
    req: () => ({ url: '/api/check-token' }),
  },
};
