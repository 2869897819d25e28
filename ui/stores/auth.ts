/**
 * The session (application.md §4 "Authentication and session"): the token in local storage, verified
 * with /api/authorize-user at start; the client config; token expiry and any 401 lead to /login.
 */
import { proxy } from 'valtio';
import { navigate } from 'wouter/use-browser-location';
import type { AuthorizedUser, ClientConfig } from '../../api/contract';
import { ApiError, setTokenProvider, setUnauthorizedHandler } from '../api/client';
import { authorizeUser, getConfig, login as loginCall, oidcAuthorize, oidcToken, setInstance } from '../api/calls';
import { withAuthWait } from '../logic/authWait';
import { msUntilExpiry } from '../logic/token';
import { disconnectRealtime } from '../api/realtime';
import { clearError } from './errors';

/** Local storage key of the token. */
export const TOKEN_KEY = 'keelson.token';

export const authStore = proxy({
  token: null as string | null,
  user: null as AuthorizedUser | null,
  config: null as ClientConfig | null,
  /** True once the start-up check (config + stored token) has finished. */
  ready: false,
  /** Set when the config could not be read at start. */
  startupError: null as string | null,
});

setTokenProvider(() => authStore.token);
setUnauthorizedHandler(() => logout());

let expiryTimer: ReturnType<typeof setTimeout> | undefined;

function armExpiry(token: string): void {
  clearTimeout(expiryTimer);
  const ms = msUntilExpiry(token, Date.now());
  if (ms === Infinity) return;
  // setTimeout holds at most 2^31-1 ms; longer tokens are re-checked then.
  expiryTimer = setTimeout(
    () => (msUntilExpiry(token, Date.now()) <= 0 ? logout() : armExpiry(token)),
    Math.max(0, Math.min(ms, 2 ** 31 - 1)),
  );
}

/** True when the signed-in user holds `permission` (administrators hold all, application.md §6). */
export function hasPermission(permission: string): boolean {
  const u = authStore.user;
  if (!u) return false;
  return u.userType === 'administrator' || u.permissions.includes(permission);
}

/** True when users sign in at an identity provider (client config 'auth0'; application.md §4). */
export function identityProvider(): boolean {
  return authStore.config?.authenticationProvider === 'auth0';
}

/**
 * True when accounts are Keelson's own (application.md §6: 'Add user' and registration only with the
 * local provider); the admin area's 'Add user' and the Admin registration entry ask this.
 */
export function localAccounts(): boolean {
  return authStore.config?.authenticationProvider === 'local';
}

/** True when local registration is allowed by the client config (application.md §6). */
export function registrationAllowed(): boolean {
  const c = authStore.config;
  return !!c && c.authenticationProvider === 'local' && c.allowLocalAuthUserRegistration;
}

async function adoptToken(token: string): Promise<AuthorizedUser> {
  authStore.token = token;
  try {
    const user = await authorizeUser();
    authStore.user = user;
    // A new session starts without the previous one's error (the error view must not show it again).
    clearError();
    localStorage.setItem(TOKEN_KEY, token);
    armExpiry(token);
    return user;
  } catch (e) {
    authStore.token = null;
    authStore.user = null;
    localStorage.removeItem(TOKEN_KEY);
    throw e;
  }
}

/** Start-up: reads the config, then verifies a stored, unexpired token (application.md §4). */
export async function initAuth(): Promise<void> {
  try {
    const config = await getConfig();
    authStore.config = config;
    setInstance(config.instance);
  } catch (e) {
    authStore.startupError = (e as Error).message;
  }
  const stored = localStorage.getItem(TOKEN_KEY);
  if (stored && msUntilExpiry(stored, Date.now()) > 0) {
    try {
      await adoptToken(stored);
    } catch {
      /* invalid or revoked token: the guards send the user to /login */
    }
  } else if (stored) localStorage.removeItem(TOKEN_KEY);
  authStore.ready = true;
}

/** Re-reads the client config (e.g. after an admin registered). */
export async function refreshConfig(): Promise<void> {
  try {
    authStore.config = await getConfig();
  } catch {
    /* the error toast has been shown */
  }
}

/** Outcome of a login attempt. */
export type LoginOutcome =
  | { type: 'ok'; requirePasswordReset: boolean }
  | { type: 'rejected'; message: string }
  | { type: 'error'; message: string };

/**
 * Logs in (application.md §4, §8): a refusal yields the server's message (shown under the password field);
 * anything unexpected yields type 'error' (the caller goes to /error).
 */
export async function login(email: string, password: string): Promise<LoginOutcome> {
  try {
    const res = await loginCall(email, password);
    if (!res.success || !res.token) return { type: 'rejected', message: res.message || 'Invalid e-mail or password' };
    await adoptToken(res.token);
    return { type: 'ok', requirePasswordReset: res.requirePasswordReset || !!authStore.user?.requirePasswordReset };
  } catch (e) {
    if (e instanceof ApiError && e.status >= 400 && e.status < 500) return { type: 'rejected', message: e.message };
    return { type: 'error', message: (e as Error).message };
  }
}

/** Where the identity provider sends the browser back to (App.tsx routes it to OidcCallbackView). */
export const OIDC_CALLBACK_PATH = '/login/callback';

/**
 * Starts the identity-provider sign-in: asks the server for the provider's authorization URL (within the
 * auth wait) and leaves for it. @throws Error (the caller shows it as 'Authentication Error').
 */
export async function startOidcSignIn(): Promise<void> {
  const redirectUri = `${window.location.origin}${OIDC_CALLBACK_PATH}`;
  const { url } = await withAuthWait((signal) => oidcAuthorize(redirectUri, signal));
  window.location.assign(url);
}

/**
 * Finishes the identity-provider sign-in from the callback's query (`code` and `state`, or the provider's
 * `error` and `error_description`): trades them for Keelson's token within the auth wait and opens the
 * session. @throws Error naming the provider's error and description, the timeout or the server's refusal.
 */
export async function finishOidcSignIn(search: string): Promise<void> {
  const q = new URLSearchParams(search);
  const error = q.get('error');
  if (error) {
    const description = q.get('error_description');
    throw new Error(description ? `${description} (${error})` : error);
  }
  const code = q.get('code');
  const state = q.get('state');
  if (!code || !state) throw new Error('The identity provider sent no authorization code');
  const res = await withAuthWait((signal) => oidcToken(code, state, signal));
  if (!res.success || !res.token) throw new Error(res.message || 'The identity provider refused the sign-in');
  await adoptToken(res.token);
}

/**
 * Continues the session with a token the server issued for it (the password change revokes older
 * tokens and answers with a fresh one): stored like a login's token.
 */
export function replaceToken(token: string): void {
  authStore.token = token;
  localStorage.setItem(TOKEN_KEY, token);
  armExpiry(token);
}

/** Logs out: leaves realtime, clears the user and the stored token, goes to /login (application.md §4). */
export function logout(): void {
  clearTimeout(expiryTimer);
  disconnectRealtime(authStore.user?.email ?? null);
  authStore.token = null;
  authStore.user = null;
  localStorage.removeItem(TOKEN_KEY);
  if (window.location.pathname !== '/login') navigate('/login', { replace: true });
}
