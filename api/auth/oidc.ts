/**
 * Sign-in with an OpenID Connect provider (application.md §4 "Authentication and session", the
 * identity-provider variant): authorization code flow with PKCE (S256) against any standards-compliant
 * provider. Discovery reads `{issuer}/.well-known/openid-configuration`; the ID token is verified with jose
 * against the provider's JWKS (signature, issuer, audience = client id, expiry, nonce). The browser never
 * holds the code verifier: it stays here, keyed by the one-time `state`, for at most PENDING_TTL_MS.
 * Every call to the provider gives up after `timeoutMs` with 'Timeout on authentication to auth0'.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { OidcConfig } from '../config';
import { ApiError } from '../errors';

/** How long a started sign-in may take at the provider before its state is forgotten, ms. */
export const PENDING_TTL_MS = 10 * 60_000;
/** Most sign-ins waiting at the provider at once (older ones are dropped first). */
export const MAX_PENDING = 10_000;
/** The spec's text when the provider does not answer within the auth wait (application.md §4). */
export const OIDC_TIMEOUT_TEXT = 'Timeout on authentication to auth0';

/** The parts of the provider's discovery document Keelson uses. */
interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  userinfo_endpoint?: string;
}

interface Pending {
  verifier: string;
  nonce: string;
  redirectUri: string;
  expires: number;
}

/** The identity the provider vouched for. */
export interface OidcIdentity {
  /** Lower-cased e-mail of the ID token's `email` claim. */
  email: string;
  /** `name` claim, else the e-mail's local part. */
  name: string;
}

/** Errors of the provider side, in the server's error shape ({ error, message, type }). */
export const OidcErrors = {
  disabled: () => new ApiError('NotFound', 404, 'OpenID Connect sign-in is not enabled', 'notFound'),
  timeout: () => new ApiError('GatewayTimeout', 504, OIDC_TIMEOUT_TEXT, 'authentication'),
  provider: (detail: string) =>
    new ApiError('BadGateway', 502, `The identity provider refused the sign-in: ${detail}`, 'authentication'),
  unknownState: () =>
    new ApiError('BadRequest', 400, 'The sign-in has expired or was already used; sign in again', 'validation'),
  badRedirect: () =>
    new ApiError('BadRequest', 400, 'The redirect URI is not the one registered for Keelson', 'validation'),
  badIdToken: (detail: string) =>
    new ApiError('Unauthorized', 401, `The identity provider's ID token is not valid: ${detail}`, 'authentication'),
  noEmail: () =>
    new ApiError('Forbidden', 403, 'The identity provider did not vouch for an e-mail address', 'permission'),
};

const b64url = (buf: Buffer) => buf.toString('base64url');

function isTimeout(e: unknown): boolean {
  return (
    e instanceof joseErrors.JWKSTimeout ||
    (e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError'))
  );
}

/** The authorization-code + PKCE client of one provider. */
export class OidcSignIn {
  private discovery: Promise<Discovery> | null = null;
  private jwks: ReturnType<typeof createRemoteJWKSet> | null = null;
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly cfg: OidcConfig) {}

  /** Sign-ins started and not yet finished or expired (tests, bounds). */
  get pendingCount(): number {
    return this.pending.size;
  }

  /**
   * Starts a sign-in: a fresh state, nonce and PKCE verifier; returns the provider's authorization URL
   * that the browser opens. `redirectUri` is where the provider sends the browser back (the UI's
   * /login/callback); it must equal OIDC_REDIRECT_URI when that is set.
   * @throws ApiError 504 timeout, 502 when discovery fails, 400 for a foreign redirect URI.
   */
  async authorizationUrl(redirectUri: string): Promise<string> {
    if (
      this.cfg.redirectUri
        ? redirectUri !== this.cfg.redirectUri
        : !/^https?:\/\/[^/]+\/login\/callback$/.test(redirectUri)
    )
      throw OidcErrors.badRedirect();
    const d = await this.discover();
    this.prune();
    const state = b64url(randomBytes(24));
    const pending: Pending = {
      verifier: b64url(randomBytes(32)),
      nonce: b64url(randomBytes(24)),
      redirectUri,
      expires: Date.now() + PENDING_TTL_MS,
    };
    this.pending.set(state, pending);
    const url = new URL(d.authorization_endpoint);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: this.cfg.clientId,
      redirect_uri: redirectUri,
      scope: this.cfg.scopes,
      state,
      nonce: pending.nonce,
      code_challenge: b64url(createHash('sha256').update(pending.verifier).digest()),
      code_challenge_method: 'S256',
    }).toString();
    return url.href;
  }

  /**
   * Finishes a sign-in: exchanges the code (with the verifier of `state`, which is used up) at the token
   * endpoint and verifies the ID token. @returns the e-mail and name it carries.
   * @throws ApiError 400 unknown/expired state, 504 timeout, 502 provider refusal, 401 invalid ID token,
   *   403 no e-mail (or one the provider marks unverified).
   */
  async finish(code: string, state: string): Promise<OidcIdentity> {
    this.prune();
    const p = this.pending.get(state);
    if (!p) throw OidcErrors.unknownState();
    this.pending.delete(state);
    const d = await this.discover();
    const tokens = await this.exchange(d, code, p);
    const claims = await this.verify(d, tokens.idToken, p.nonce);
    // A conforming provider may keep scope claims out of the ID token when it issues an access token
    // (OpenID Connect Core §5.4): then they come from the UserInfo endpoint, for the same subject.
    if (claims.email === undefined && tokens.accessToken && d.userinfo_endpoint)
      Object.assign(claims, await this.userInfo(d.userinfo_endpoint, tokens.accessToken, String(claims.sub)));
    const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
    if (!email || claims.email_verified === false || email.length > 254) throw OidcErrors.noEmail();
    const name = typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim() : email.split('@')[0];
    return { email, name: name.slice(0, 200) };
  }

  private async fetchProvider(url: string, init: RequestInit = {}): Promise<Response> {
    try {
      return await fetch(url, { ...init, signal: AbortSignal.timeout(this.cfg.timeoutMs) });
    } catch (e) {
      if (isTimeout(e)) throw OidcErrors.timeout();
      throw OidcErrors.provider(`cannot reach ${new URL(url).origin}`);
    }
  }

  /** The discovery document (cached once read; a failure is retried on the next sign-in). */
  private discover(): Promise<Discovery> {
    this.discovery ??= (async () => {
      const res = await this.fetchProvider(`${this.cfg.issuer}/.well-known/openid-configuration`);
      if (!res.ok) throw OidcErrors.provider(`discovery answered ${res.status}`);
      const doc = (await res.json().catch(() => null)) as Partial<Discovery> | null;
      const ok =
        doc &&
        typeof doc.authorization_endpoint === 'string' &&
        typeof doc.token_endpoint === 'string' &&
        typeof doc.jwks_uri === 'string' &&
        doc.issuer === this.cfg.issuer;
      if (!ok) throw OidcErrors.provider('the discovery document does not describe the configured issuer');
      return doc as Discovery;
    })();
    this.discovery.catch(() => {
      this.discovery = null;
    });
    return this.discovery;
  }

  private async exchange(d: Discovery, code: string, p: Pending): Promise<{ idToken: string; accessToken?: string }> {
    const body = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: p.redirectUri,
      code_verifier: p.verifier,
    });
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    if (this.cfg.clientSecret) {
      const id = encodeURIComponent(this.cfg.clientId);
      const secret = encodeURIComponent(this.cfg.clientSecret);
      headers.authorization = `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
    } else body.set('client_id', this.cfg.clientId);
    const res = await this.fetchProvider(d.token_endpoint, { method: 'POST', headers, body });
    const json = (await res.json().catch(() => null)) as Record<string, unknown> | null;
    if (!res.ok || !json || typeof json.id_token !== 'string') {
      const detail =
        json && typeof json.error === 'string'
          ? String(json.error_description ?? json.error)
          : `token endpoint answered ${res.status}`;
      throw OidcErrors.provider(detail);
    }
    return {
      idToken: json.id_token,
      accessToken: typeof json.access_token === 'string' ? json.access_token : undefined,
    };
  }

  /** The e-mail, its verification and the name from the UserInfo endpoint (sub must match the ID token). */
  private async userInfo(url: string, accessToken: string, sub: string): Promise<Record<string, unknown>> {
    const res = await this.fetchProvider(url, { headers: { authorization: `Bearer ${accessToken}` } });
    const json = (await res.json().catch(() => null)) as Record<string, unknown> | null;
    if (!res.ok || !json) throw OidcErrors.provider(`userinfo answered ${res.status}`);
    if (json.sub !== sub) throw OidcErrors.badIdToken('the UserInfo subject differs from the ID token');
    return { email: json.email, email_verified: json.email_verified, name: json.name };
  }

  private async verify(d: Discovery, idToken: string, nonce: string): Promise<JWTPayload> {
    this.jwks ??= createRemoteJWKSet(new URL(d.jwks_uri), { timeoutDuration: this.cfg.timeoutMs });
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(idToken, this.jwks, { issuer: d.issuer, audience: this.cfg.clientId }));
    } catch (e) {
      if (isTimeout(e)) throw OidcErrors.timeout();
      throw OidcErrors.badIdToken(e instanceof Error ? e.message : 'verification failed');
    }
    if (payload.nonce !== nonce) throw OidcErrors.badIdToken('nonce mismatch');
    return payload;
  }

  private prune(): void {
    const now = Date.now();
    for (const [state, p] of this.pending) if (p.expires <= now) this.pending.delete(state);
    // Map iteration is insertion order: the oldest go first.
    for (const state of this.pending.keys()) {
      if (this.pending.size < MAX_PENDING) break;
      this.pending.delete(state);
    }
  }
}
