/**
 * Local sign-in and client configuration (application.md §3, §4 "Authentication and
 * session", §5 validation, §7 "Authentication" and "Session and configuration"):
 * POST /api/auth/viewer/{instance}/register | login | changePassword, POST /api/authorize-user,
 * GET /api/config.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RateLimitOptions } from '@fastify/rate-limit';
import {
  ChangePasswordBodySchema,
  LoginBodySchema,
  RegisterBodySchema,
  VERSION_LABEL,
  type ChangePasswordBody,
  type ClientConfig,
  type LoginBody,
  type LoginResponse,
  type RegisterBody,
} from '../contract/auth';
import { validate } from './validate';
import { requireUser } from '../context';
import { toAuthorized } from '../auth/UserStore';
import { Errors } from '../errors';

/** The e-mail of a validated auth body, lower-cased ('' when absent). */
function bodyEmail(request: FastifyRequest): string {
  const e = (request.body as { email?: unknown } | undefined)?.email;
  return typeof e === 'string' ? e.trim().toLowerCase() : '';
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

export default async function authRoutes(app: FastifyInstance): Promise<void> {
  const { config, users, tokens } = app.ctx;
  const prefix = `/api/auth/viewer/${config.instance}`;
  const perMin = config.authRateLimitPerMin;

  app.get(
    '/api/config',
    async (): Promise<ClientConfig> => ({
      authenticationProvider: 'local',
      webViewerTimeoutInMin: config.webViewerTimeoutMin,
      allowLocalAuthUserRegistration: config.allowRegistration,
      organizationDomain: config.organizationDomain,
      adminRegistered: await users.adminExists(),
      instance: config.instance,
      version: VERSION_LABEL,
    }),
  );

  // Registration. While no administrator exists, registerAdmin creates one (all permissions); after that
  // registerAdmin is refused (403). Ordinary registration needs allowLocalAuthUserRegistration, except
  // from an administrator (the admin area's "Add user").
  app.post(
    `${prefix}/register`,
    {
      preValidation: validate({ body: RegisterBodySchema }),
      config: { rateLimit: authLimit(perMin, 'registration', false) },
    },
    async (request) => {
      const body = request.body as RegisterBody;
      if (body.registerAdmin) {
        if (await users.adminExists()) throw Errors.adminExists();
        await users.create({ email: body.email, name: body.fullName, password: body.password, admin: true });
        return { success: true };
      }
      let byAdmin = false;
      const h = request.headers.authorization;
      if (typeof h === 'string' && /^Bearer\s+/i.test(h)) {
        // A stale or invalid token only means "not an administrator": public registration still works.
        const email = await tokens.verify(h.replace(/^Bearer\s+/i, '').trim()).catch(() => null);
        byAdmin = email !== null && (await users.find(email))?.userType === 'administrator';
      }
      if (!config.allowRegistration && !byAdmin) throw Errors.registrationDisabled();
      await users.create({
        email: body.email,
        name: body.fullName,
        password: body.password,
        requirePasswordReset: byAdmin ? body.requirePasswordReset === true : false,
      });
      return { success: true };
    },
  );

  app.post(
    `${prefix}/login`,
    { preValidation: validate({ body: LoginBodySchema }), config: { rateLimit: authLimit(perMin, 'sign-in', true) } },
    async (request): Promise<LoginResponse> => {
      const body = request.body as LoginBody;
      const user = await users.authenticate(body.email, body.password);
      if (!user) throw Errors.invalidCredentials();
      return {
        success: true,
        token: await tokens.sign(user.email),
        message: 'Login successful',
        requirePasswordReset: user.requirePasswordReset,
      };
    },
  );

  // Bearer required (the onRequest hook skips /api/auth/*, so check it here).
  app.post(
    `${prefix}/changePassword`,
    {
      preValidation: validate({ body: ChangePasswordBodySchema }),
      config: { rateLimit: authLimit(perMin, 'password change', true) },
    },
    async (request) => {
      const h = request.headers.authorization;
      if (typeof h !== 'string' || !/^Bearer\s+/i.test(h)) throw Errors.authRequired();
      const tokenEmail = await tokens.verify(h.replace(/^Bearer\s+/i, '').trim());
      const body = request.body as ChangePasswordBody;
      if (body.email.toLowerCase() !== tokenEmail.toLowerCase()) throw Errors.emailMismatch();
      const user = await users.authenticate(body.email, body.currentPassword);
      if (!user) throw Errors.wrongCurrentPassword();
      await users.setPassword(user.email, body.newPassword);
      return { success: true };
    },
  );

  app.post('/api/authorize-user', async (request) => toAuthorized(requireUser(request)));

  app.get('/api/check-token', async (request) => ({ valid: true, email: requireUser(request).email }));
}
