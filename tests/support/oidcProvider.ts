/**
 * A real OpenID Connect provider for tests (npm oidc-provider, the certified implementation), on a free
 * loopback port. Its login page is a small form: the e-mail typed there becomes the account (the ID token's
 * `sub`, `email` and `name` claims); 'Cancel' ends the interaction with `access_denied`. Consent is given
 * with the login. `stall` makes the provider stop answering its token endpoint (requests hang until
 * `stall` is cleared or the provider closes), to test the auth wait.
 *
 * The client is registered after Keelson has started (its port, hence the redirect URI, is known only
 * then): `register(redirectUris)` builds the provider; requests before that answer 503.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** The running provider. */
export interface TestOidcProvider {
  /** Issuer URL (http://127.0.0.1:PORT). */
  issuer: string;
  clientId: string;
  /** Builds the provider with a public client (PKCE, no secret) for these redirect URIs. */
  register(redirectUris: string[]): void;
  /** While true, token-endpoint requests get no answer. */
  stall: boolean;
  /** Names shown in the `name` claim, by e-mail (default: the e-mail's local part). */
  names: Map<string, string>;
  close(): Promise<void>;
}

const CLIENT_ID = 'keelson-test';

function readBody(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => resolve(new URLSearchParams(data)));
    req.on('error', reject);
  });
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function loginPage(uid: string, clientId: string): string {
  return `<!doctype html><html><head><title>Test identity provider</title></head><body>
<h1>Test identity provider</h1><p>Sign in to ${escapeHtml(clientId)}</p>
<form method="post" action="/interaction/${uid}/login">
<label>E-mail <input name="email" type="email" autofocus></label>
<button type="submit">Sign in</button></form>
<form method="post" action="/interaction/${uid}/abort"><button type="submit">Cancel</button></form>
</body></html>`;
}

/** Starts the provider's HTTP server on a free port. */
export async function startOidcProvider(): Promise<TestOidcProvider> {
  let provider: Provider | null = null;
  const names = new Map<string, string>();
  const held = new Set<ServerResponse>();
  const state = { stall: false };

  async function interaction(req: IncomingMessage, res: ServerResponse, p: Provider): Promise<boolean> {
    const m = /^\/interaction\/([^/?]+)(\/login|\/abort)?/.exec(req.url ?? '');
    if (!m) return false;
    const details = await p.interactionDetails(req, res);
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(loginPage(details.uid, String(details.params.client_id)));
      return true;
    }
    if (m[2] === '/abort') {
      await p.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'End-User aborted interaction' },
        { mergeWithLastSubmission: false },
      );
      return true;
    }
    const email = ((await readBody(req)).get('email') ?? '').trim().toLowerCase();
    const accountId = email || String(details.session?.accountId ?? '');
    const grant = new p.Grant({ accountId, clientId: String(details.params.client_id) });
    grant.addOIDCScope(String(details.params.scope));
    const grantId = await grant.save();
    await p.interactionFinished(
      req,
      res,
      { login: { accountId }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
    return true;
  }

  const server = createServer((req, res) => {
    if (!provider) {
      res.writeHead(503).end('provider not registered yet');
      return;
    }
    const p = provider;
    if (state.stall && req.url?.startsWith('/token')) {
      held.add(res);
      res.on('close', () => held.delete(res));
      return;
    }
    interaction(req, res, p)
      .then((handled) => {
        if (!handled) p.callback()(req, res);
      })
      .catch((e: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(e));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    issuer,
    clientId: CLIENT_ID,
    names,
    get stall() {
      return state.stall;
    },
    set stall(v: boolean) {
      state.stall = v;
    },
    register(redirectUris: string[]) {
      provider = new Provider(issuer, {
        clients: [
          {
            client_id: CLIENT_ID,
            token_endpoint_auth_method: 'none',
            redirect_uris: redirectUris,
            grant_types: ['authorization_code'],
            response_types: ['code'],
          },
        ],
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
        findAccount: async (_ctx, sub) => ({
          accountId: sub,
          claims: async () => ({ sub, email: sub, email_verified: true, name: names.get(sub) ?? sub.split('@')[0] }),
        }),
        interactions: { url: (_ctx, i) => `/interaction/${i.uid}` },
        features: { devInteractions: { enabled: false } },
        cookies: { keys: ['test-cookie-key-0123456789'] },
        ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600 },
      });
    },
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Walks an authorization URL the way a browser would (redirects, the provider's cookies, its login form)
 * and returns the URL the provider finally sends the browser to: the redirect URI with `code` and
 * `state`, or with `error` when `action` is 'abort'.
 */
export async function signInWithoutBrowser(
  authorizationUrl: string,
  email: string,
  action: 'login' | 'abort' = 'login',
): Promise<URL> {
  const cookies = new Map<string, string>();
  let url = new URL(authorizationUrl);
  const issuerOrigin = url.origin;
  let init: RequestInit = {};
  for (let hop = 0; hop < 20; hop++) {
    if (url.origin !== issuerOrigin) return url;
    const headers = new Headers(init.headers);
    headers.set('cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      cookies.set(pair.slice(0, i), pair.slice(i + 1));
    }
    const location = res.headers.get('location');
    if (location) {
      url = new URL(location, url);
      init = {};
      continue;
    }
    const html = await res.text();
    const uid = /\/interaction\/([^/"]+)\/login/.exec(html)?.[1];
    if (!uid) throw new Error(`provider answered ${res.status} without a redirect: ${html.slice(0, 300)}`);
    url = new URL(`/interaction/${uid}/${action}`, url);
    init = {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email }).toString(),
    };
  }
  throw new Error('too many redirects at the provider');
}
