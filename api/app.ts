/**
 * Builds the Fastify instance without listening: tests use `inject`, server.ts adds
 * socket.io, the built UI and `listen`. Every /api route except /api/config, /api/auth/*, /api/health
 * (and the socket.io path) needs `Authorization: Bearer <token>` (401 'Authentication required' /
 * 'Token expired'). Errors reply `{ error, message, type }` (application.md §3 "Error object").
 */
import Fastify, { type FastifyInstance, type FastifyError } from 'fastify';
import multipart from '@fastify/multipart';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import { UserStore } from './auth/UserStore';
import { TokenService } from './auth/tokens';
import type { ServerConfig } from './config';
import type { AppContext } from './context';
import { ConversionManager } from './conversion/ConversionManager';
import { inProcessRunner, workerRunner, type ConversionRunner } from './conversion/runners';
import { openDatabase } from './db/database';
import { ApiError, Errors } from './errors';
import { ProjectStore } from './projects/ProjectStore';
import { RevisionCache } from './projects/RevisionCache';
import { registerUi, wantsSpaFallback } from './ui';
import authRoutes from './routes/auth';
import projectRoutes from './routes/projects';
import modelRoutes from './routes/models';
import instanceRoutes from './routes/instance';
import referenceSystemRoutes from './routes/referenceSystem';
import sectionRoutes from './routes/sections';
import geometryRoutes from './routes/geometry';

/** Bearer routes open to a user who must change the password first (the rest answer 403). */
const PASSWORD_RESET_ALLOWED = new Set(['/api/authorize-user', '/api/check-token']);

/** Paths reachable without a token. */
function isPublic(url: string): boolean {
  const p = url.split('?')[0];
  return (
    !p.startsWith('/api/') ||
    p === '/api/config' ||
    p === '/api/health' ||
    p.startsWith('/api/auth/') ||
    p.startsWith('/api/socket.io')
  );
}

/**
 * Creates the database (migrated), services and routes. `app.ctx` holds the services; closing the app
 * aborts running conversions and closes the database.
 */
export async function buildApp(
  config: ServerConfig,
  options: {
    logger?: boolean;
    /** Overrides where conversions run (tests gate it). */
    runner?: ConversionRunner;
    /** Serve the built UI from config.uiDir with the history-mode fallback (server.ts). */
    serveUi?: boolean;
  } = {},
): Promise<FastifyInstance> {
  const db = await openDatabase(config.dataDir);
  const projects = new ProjectStore(db, config.dataDir);
  // Conversions left InProgress by a previous process cannot finish any more: mark them failed and
  // remove what they had half-written (temp revision directories, their uploads, extracted archives).
  const stale = await db.selectFrom('conversions').select('id').where('status', '=', 1).execute();
  await db
    .updateTable('conversions')
    .set({
      status: 4,
      message: 'The server stopped during the conversion',
      error: 'The server stopped during the conversion',
      finished_at: new Date().toISOString(),
    })
    .where('status', '=', 1)
    .execute();
  await projects.removeLeftovers(stale.map((r) => r.id));
  const ctx: AppContext = {
    config,
    db,
    users: new UserStore(db, config.organizationDomain),
    tokens: new TokenService(config.jwtSecret, config.tokenTtlMin),
    projects,
    conversions: new ConversionManager(
      db,
      projects,
      options.runner ?? (config.useWorkerThreads ? workerRunner() : inProcessRunner()),
    ),
    revisionCache: new RevisionCache(4),
  };

  const app = Fastify({ logger: options.logger ?? false, bodyLimit: 10 * 1024 * 1024, trustProxy: config.trustProxy });
  app.decorate('ctx', ctx);
  app.decorateRequest('user', null);
  await app.register(helmet, { contentSecurityPolicy: false, crossOriginEmbedderPolicy: false });
  // Routes opt in with `config.rateLimit` (the sign-in routes, api/routes/auth.ts).
  await app.register(rateLimit, { global: false });
  await app.register(multipart, { limits: { fileSize: config.maxUploadMb * 1024 * 1024, files: 1 } });

  app.setErrorHandler((err: FastifyError | ApiError, _request, reply) => {
    if (err instanceof ApiError) return reply.code(err.statusCode).send(err.toJSON());
    const status = err.statusCode ?? 500;
    if (status >= 500) app.log.error(err);
    const code = (err as FastifyError).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      return reply.code(413).send(Errors.uploadTooLarge(config.maxUploadMb).toJSON());
    if (
      code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ||
      (status === 400 && code?.startsWith('FST_'))
    )
      return reply.code(400).send({ error: 'BadRequest', message: err.message, type: 'validation' });
    const type = (err as { type?: string }).type;
    if (status < 500)
      return reply.code(status).send({ error: code ?? 'Error', message: err.message, type: type ?? 'error' });
    return reply.code(500).send(Errors.internal().toJSON());
  });
  const spa = options.serveUi ? await registerUi(app, config.uiDir) : false;
  app.setNotFoundHandler((request, reply) => {
    if (spa && wantsSpaFallback(request)) return reply.type('text/html').sendFile('index.html');
    return reply.code(404).send({
      error: 'NotFound',
      message: `Route ${request.method} ${request.url.split('?')[0]} not found`,
      type: 'notFound',
    });
  });

  // Bearer check (401) for every non-public /api route; sets request.user.
  app.addHook('onRequest', async (request) => {
    if (isPublic(request.url)) return;
    const h = request.headers.authorization;
    const m = typeof h === 'string' ? /^Bearer\s+(.+)$/i.exec(h.trim()) : null;
    if (!m) throw Errors.authRequired();
    const email = await ctx.tokens.verify(m[1]);
    const user = await ctx.users.find(email);
    if (!user) throw Errors.userNotFound();
    // A password set by an administrator must be changed before anything else (application.md §4).
    if (user.requirePasswordReset && !PASSWORD_RESET_ALLOWED.has(request.url.split('?')[0]))
      throw Errors.passwordChangeRequired();
    request.user = user;
  });

  app.get('/api/health', async () => ({ status: 'ok' }));
  await app.register(authRoutes);
  await app.register(projectRoutes);
  await app.register(modelRoutes);
  await app.register(instanceRoutes);
  await app.register(referenceSystemRoutes);
  await app.register(sectionRoutes);
  await app.register(geometryRoutes);

  app.addHook('onClose', async () => {
    await ctx.conversions.close();
    await db.destroy();
  });
  return app;
}
