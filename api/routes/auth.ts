/**
 * Local sign-in, sessions and client configuration (application.md §3, §4 "Authentication and
 * session", §5 validation, §7 "Authentication" and "Session and configuration"):
 * POST /api/auth/viewer/{instance}/register | login | changePassword | logout, POST /api/authorize-user,
 * GET /api/check-token, POST /api/disconnect/{clientId}, GET /api/config.
 */
import type { RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { Access, hasPermission } from '../access/rules';
import { AttemptThrottle } from '../auth/throttle';
import { toAuthorized } from '../auth/UserStore';
import {
  ChangePasswordBodySchema,
  type ChangePasswordResponse,
  type CheckTokenResponse,
  type AuthorizedUser,
  type ClientConfig,
  DisconnectParamsSchema,
  LoginBodySchema,
  type LoginResponse,
  RegisterBodySchema,
  VERSION_LABEL,
} from '../contract/auth';
import { projectPermission } from '../access/ProjectAccess';
import { Errors } from '../errors';
import { defineRoute } from './define';

/** The e-mail of an auth body, lower-cased ('' when absent); the limiter runs after validation. */
function bodyEmail(request: FastifyRequest): string {
  const r = v.safeParse(v.object({ email: v.string() }), request.body);
  return r.success ? r.output.email.trim().toLowerCase() : '';
}

/**
 * Brute-force protection of a sign-in route (@fastify/rate-limit): `perMin` requests a minute per
 * client IP (and per e-mail when `byEmail`), then 429 'Too many {what} attempts. Try again in {time}.'
 * with Retry-After. Runs after validation (preHandler), so the key sees the parsed e-mail.
 */
function authLimit(perMin: number, what: string, byEmail: boolean): RateLimitOptions | false {
  if (perMin <= 0) return false;
  return {
    max: perMin,
    timeWindow: 60_000,
    hook: 'preHandler',
    keyGenerator: (request) => (byEmail ? `${request.ip}|${bodyEmail(request)}` : request.ip),
    errorResponseBuilder: (_request, context) => Errors.tooManyAttempts(what, context.after),
  };
}

/** Spraying and distributed guessing: per address over all e-mails, per e-mail over all addresses. */
export const WIDE_LIMIT_FACTOR = 5;

export default async function authRoutes(app: FastifyInstance): Promise<void> {
  const { config, users, tokens, access } = app.ctx;
  const prefix = `/api/auth/viewer/${config.instance}`;
  const perMin = config.authRateLimitPerMin;
  const wide = new AttemptThrottle(perMin * WIDE_LIMIT_FACTOR);
  // With an identity provider, accounts come from it (api/routes/oidc.ts): no registration, no passwords.
  const oidc = config.authProvider === 'oidc';

  defineRoute(app, {
    method: 'GET',
    url: '/api/config',
    access: Access.anonymous,
    handler: async (): Promise<ClientConfig> => ({
      // The spec names the identity-provider variant 'auth0'; Keelson speaks OpenID Connect to any provider.
      authenticationProvider: oidc ? 'auth0' : 'local',
      webViewerTimeoutInMin: config.webViewerTimeoutMin,
      allowLocalAuthUserRegistration: config.allowRegistration && !oidc,
      organizationDomain: config.organizationDomain,
      adminRegistered: await users.adminExists(),
      instance: config.instance,
      version: VERSION_LABEL,
    }),
  });

  // Registration. While no administrator exists, registerAdmin creates one (all permissions; exactly one
  // even under concurrent calls); after that it is refused (403). Ordinary registration needs
  // allowLocalAuthUserRegistration, except from an admin:view holder (the admin area's "Add user"). With an
  // identity provider every registration is refused (403): users are created on their first sign-in.
  defineRoute(app, {
    method: 'POST',
    url: `${prefix}/register`,
    access: Access.anonymous,
    body: RegisterBodySchema,
    rateLimit: authLimit(perMin, 'registration', false),
    handler: async ({ body, request }) => {
      if (oidc) throw Errors.registrationDisabled();
      if (body.registerAdmin) {
        await users.createWithDomainRule({
          email: body.email,
          name: body.fullName,
          password: body.password,
          admin: true,
        });
        return { success: true };
      }
      // The admin area's 'Add user': whoever holds admin:view (administrators hold it always).
      const byAdmin = request.user ? hasPermission(request.user, 'admin:view') : false;
      if (!config.allowRegistration && !byAdmin) throw Errors.registrationDisabled();
      await users.createWithDomainRule({
        email: body.email,
        name: body.fullName,
        password: body.password,
        requirePasswordReset: byAdmin ? body.requirePasswordReset === true : false,
      });
      return { success: true };
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: `${prefix}/login`,
    access: Access.anonymous,
    body: LoginBodySchema,
    rateLimit: authLimit(perMin, 'sign-in', true),
    handler: async ({ body, request }): Promise<LoginResponse> => {
      if (oidc) throw Errors.passwordSignInDisabled();
      const email = body.email.toLowerCase();
      wide.check([`ip|${request.ip}`, `email|${email}`], 'sign-in');
      const user = await users.authenticate(email, body.password);
      if (!user) throw Errors.invalidCredentials();
      return {
        success: true,
        token: await tokens.signFor(user),
        message: 'Login successful',
        requirePasswordReset: user.requirePasswordReset,
      };
    },
  });

  // The only call (with authorize-user and check-token) open to a user who must change the password.
  defineRoute(app, {
    method: 'POST',
    url: `${prefix}/changePassword`,
    access: Access.passwordChange,
    body: ChangePasswordBodySchema,
    rateLimit: authLimit(perMin, 'password change', true),
    handler: async ({ body, user }): Promise<ChangePasswordResponse> => {
      if (body.email.toLowerCase() !== user.email) throw Errors.emailMismatch();
      const ok = await users.authenticate(body.email, body.currentPassword);
      if (!ok) throw Errors.wrongCurrentPassword();
      await users.setPassword(user.email, body.newPassword);
      // The change revokes every older token; this one continues the session that made the change.
      const fresh = await users.find(user.email);
      return { success: true, token: fresh ? await tokens.signFor(fresh) : undefined };
    },
  });

  // Logout ends every session of the user: tokens issued before stop working at once.
  defineRoute(app, {
    method: 'POST',
    url: `${prefix}/logout`,
    access: Access.passwordChange,
    handler: async ({ user }) => {
      await users.revokeTokens(user.email);
      return { success: true };
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/api/disconnect/:clientId',
    access: Access.passwordChange,
    params: DisconnectParamsSchema,
    handler: async ({ user }) => {
      await users.revokeTokens(user.email);
      return { success: true };
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/api/authorize-user',
    access: Access.passwordChange,
    handler: async ({ user }): Promise<AuthorizedUser> => {
      const projects = (await access.entries(user.id, true)).map((e) => projectPermission(e.project));
      return toAuthorized(user, projects);
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/api/check-token',
    access: Access.passwordChange,
    handler: async ({ user }): Promise<CheckTokenResponse> => ({ valid: true, email: user.email }),
  });
}
