/**
 * Sign-in with an OpenID Connect provider (application.md §4 "Authentication and session", the
 * identity-provider variant; §6 "Adding users ... only when the authentication provider is local"):
 * POST /api/auth/viewer/{instance}/oidc/authorize → the provider's authorization URL;
 * POST /api/auth/viewer/{instance}/oidc/token with the callback's code and state → Keelson's own bearer
 * token, as a login answers. A user signing in for the first time is created with the domain rule
 * (UserStore.createWithDomainRule); OIDC_ADMIN_EMAIL becomes the administrator while none exists.
 * Both routes answer 404 while AUTH_PROVIDER is local.
 */
import type { FastifyInstance } from 'fastify';
import { Access } from '../access/rules';
import { OidcErrors, OidcSignIn } from '../auth/oidc';
import type { User } from '../auth/UserStore';
import {
  type LoginResponse,
  OidcAuthorizeBodySchema,
  type OidcAuthorizeResponse,
  OidcTokenBodySchema,
} from '../contract/auth';
import { defineRoute } from './define';

export default async function oidcRoutes(app: FastifyInstance): Promise<void> {
  const { config, users, tokens } = app.ctx;
  const prefix = `/api/auth/viewer/${config.instance}/oidc`;
  const oidc = config.authProvider === 'oidc' ? new OidcSignIn(config.oidc) : null;
  const limit = config.authRateLimitPerMin > 0 ? { max: config.authRateLimitPerMin * 5, timeWindow: 60_000 } : false;

  /** Creates the user of a first sign-in with the domain rule (OIDC_ADMIN_EMAIL: the administrator). */
  async function firstSignIn(identity: { email: string; name: string }): Promise<User> {
    const admin = identity.email === config.oidc.adminEmail && !(await users.adminExists());
    try {
      return await users.createWithDomainRule({ email: identity.email, name: identity.name, admin });
    } catch (e) {
      // Two first sign-ins of one e-mail at once: the second finds the row the first created.
      const existing = await users.find(identity.email);
      if (existing) return existing;
      throw e;
    }
  }

  defineRoute(app, {
    method: 'POST',
    url: `${prefix}/authorize`,
    access: Access.anonymous,
    body: OidcAuthorizeBodySchema,
    rateLimit: limit,
    handler: async ({ body }): Promise<OidcAuthorizeResponse> => {
      if (!oidc) throw OidcErrors.disabled();
      return { url: await oidc.authorizationUrl(body.redirectUri) };
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: `${prefix}/token`,
    access: Access.anonymous,
    body: OidcTokenBodySchema,
    rateLimit: limit,
    handler: async ({ body }): Promise<LoginResponse> => {
      if (!oidc) throw OidcErrors.disabled();
      const identity = await oidc.finish(body.code, body.state);
      const user = (await users.find(identity.email)) ?? (await firstSignIn(identity));
      return {
        success: true,
        token: await tokens.signFor(user),
        message: 'Login successful',
        requirePasswordReset: false,
      };
    },
  });
}
