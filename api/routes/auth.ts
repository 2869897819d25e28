/**
 * Local sign-in and client configuration (issue 2 item 4; application.md §3, §4 "Authentication and
 * session", §5 validation, §7 "Authentication" and "Session and configuration"):
 * POST /api/auth/viewer/{instance}/register | login | changePassword, POST /api/authorize-user,
 * GET /api/config.
 */
import type { FastifyInstance } from 'fastify';
import {
  ChangePasswordBodySchema, LoginBodySchema, RegisterBodySchema, VERSION_LABEL,
  type ChangePasswordBody, type ClientConfig, type LoginBody, type LoginResponse, type RegisterBody,
} from '../contract/auth';
import { validate } from '../contract/validate';
import { requireUser } from '../context';
import { toAuthorized } from '../auth/UserStore';
import { Errors } from '../errors';

export default async function authRoutes(app: FastifyInstance): Promise<void> {
  const { config, users, tokens } = app.ctx;
  const prefix = `/api/auth/viewer/${config.instance}`;

  app.get('/api/config', async (): Promise<ClientConfig> => ({
    authenticationProvider: 'local',
    webViewerTimeoutInMin: config.webViewerTimeoutMin,
    allowLocalAuthUserRegistration: config.allowRegistration,
    organizationDomain: config.organizationDomain,
    adminRegistered: await users.adminExists(),
    instance: config.instance,
    version: VERSION_LABEL,
  }));

  // Registration. While no administrator exists, registerAdmin creates one (all permissions); after that
  // registerAdmin is refused (403). Ordinary registration needs allowLocalAuthUserRegistration, except
  // from an administrator (the admin area's "Add user").
  app.post(`${prefix}/register`, { preValidation: validate({ body: RegisterBodySchema }) }, async (request) => {
    const body = request.body as RegisterBody;
    if (body.registerAdmin) {
      if (await users.adminExists()) throw Errors.adminExists();
      await users.create({ email: body.email, name: body.fullName, password: body.password, admin: true });
      return { success: true };
    }
    let byAdmin = false;
    const h = request.headers.authorization;
    if (typeof h === 'string' && /^Bearer\s+/i.test(h)) {
      const email = await tokens.verify(h.replace(/^Bearer\s+/i, '').trim());
      byAdmin = (await users.find(email))?.userType === 'administrator';
    }
    if (!config.allowRegistration && !byAdmin) throw Errors.registrationDisabled();
    await users.create({
      email: body.email,
      name: body.fullName,
      password: body.password,
      requirePasswordReset: byAdmin ? body.requirePasswordReset === true : false,
    });
    return { success: true };
  });

  app.post(`${prefix}/login`, { preValidation: validate({ body: LoginBodySchema }) }, async (request): Promise<LoginResponse> => {
    const body = request.body as LoginBody;
    const user = await users.authenticate(body.email, body.password);
    if (!user) throw Errors.invalidCredentials();
    return { success: true, token: await tokens.sign(user.email), message: 'Login successful', requirePasswordReset: user.requirePasswordReset };
  });

  // Bearer required (the onRequest hook skips /api/auth/*, so check it here).
  app.post(`${prefix}/changePassword`, { preValidation: validate({ body: ChangePasswordBodySchema }) }, async (request) => {
    const h = request.headers.authorization;
    if (typeof h !== 'string' || !/^Bearer\s+/i.test(h)) throw Errors.authRequired();
    const tokenEmail = await tokens.verify(h.replace(/^Bearer\s+/i, '').trim());
    const body = request.body as ChangePasswordBody;
    if (body.email.toLowerCase() !== tokenEmail.toLowerCase()) throw Errors.emailMismatch();
    const user = await users.authenticate(body.email, body.currentPassword);
    if (!user) throw Errors.wrongCurrentPassword();
    await users.setPassword(user.email, body.newPassword);
    return { success: true };
  });

  app.post('/api/authorize-user', async (request) => toAuthorized(requireUser(request)));

  app.get('/api/check-token', async (request) => ({ valid: true, email: requireUser(request).email }));
}
