/**
 * Builds the Fastify instance without listening: tests use `inject`, server.ts adds
 * socket.io, the built UI and `listen`. Every /api route declares an access rule (api/access/rules.ts,
 * api/routes/define.ts): all but the anonymous ones need `Authorization: Bearer <token>` (401
 * 'Authentication required' / 'Token expired' / revoked). Errors reply `{ error, message, type }`
 * (application.md §3 "Error object"). Security headers come from helmet with CONTENT_SECURITY_POLICY.
 */
import Fastify, { type FastifyInstance, type FastifyError } from 'fastify';
import multipart from '@fastify/multipart';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import { UserStore } from './auth/UserStore';
import { TokenService } from './auth/tokens';
import type { ServerConfig } from './config';
import { type AppContext, UserNotices } from './context';
import { ConversionManager } from './conversion/ConversionManager';
import { failStranded } from './conversion/conversionLeases';
import { inProcessQueue } from './jobs/JobQueue';
import { pgBossQueue } from './jobs/pgBossQueue';
import healthRoutes from './routes/health';
import { inProcessRunner, workerRunner, type ConversionRunner } from './conversion/runners';
import { inProcessBcfImportRunner, workerBcfImportRunner } from './comments/bcf/bcfImportRunner';
import { CompareService, inProcessCompareRunner, workerCompareRunner } from './compare/CompareService';
import { openDatabase } from './db/database';
import { unstorableText } from './db/errors';
import { ApiError, Errors } from './errors';
import { ProjectStore } from './projects/ProjectStore';
import { ReadinessProbes } from './readinessProbes';
import { StorageUnavailable } from './storage/RevisionStorage';
import { openRevisionStorage } from './storage/storageConfig';
import { RevisionCache } from './projects/RevisionCache';
import { registerUi, wantsSpaFallback } from './ui';
import authRoutes from './routes/auth';
import oidcRoutes from './routes/oidc';
import projectRoutes from './routes/projects';
import modelRoutes from './routes/models';
import instanceRoutes, { renewViewerHold } from './routes/instance';
import referenceSystemRoutes from './routes/referenceSystem';
import blockRoutes from './routes/blocks';
import sectionRoutes from './routes/sections';
import geometryRoutes from './routes/geometry';
import adminRoutes from './routes/admin';
import approvalRoutes from './routes/approval';
import settingsRoutes from './routes/settings';
import { AdminSettings } from './settings/AdminSettings';
import { ProjectAccess } from './access/ProjectAccess';
import { CommentStore, STALE_UPLOAD_MS } from './comments/CommentStore';
import { CommentEvents } from './comments/events';
import { TagEvents } from './tags/events';
import { TagStore } from './tags/TagStore';
import tagRoutes from './routes/tags';
import commentRoutes from './routes/comments';
import compareRoutes from './routes/compare';
import tableRoutes from './routes/tables';
import { type AccessRule, authenticate } from './access/rules';
import { registerDocs } from './docs';
import { serverLoggerOptions } from './logging';
import licenseRoutes, { licenseGuard } from './routes/license';
import logRoutes from './routes/logs';
import whatsNewRoutes from './routes/whatsNew';
import { ProjectLocations } from './locations/ProjectLocations';
import { importFromLocation } from './locations/importSource';
import locationRoutes from './routes/locations';
import schedulingRoutes from './routes/scheduling';
import cadRoutes from './routes/cadFiles';
import { CadWaits } from './conversion/CadWaits';
import type { CadConverter } from './conversion/cadComponents';
import { inProcessCadAdder, workerCadAdder } from './conversion/cadAdders';
import { ProjectUpdateScheduler, type SchedulerClock } from './scheduling/ProjectUpdateScheduler';

/** A registered route and its access rule (the authorization matrix test reads these). */
export interface RouteEntry {
  method: string;
  url: string;
  access: AccessRule<never> | undefined;
}

/**
 * Content-Security-Policy of the built UI: scripts only from the server (no inline script), the render
 * worker from the server or a blob, WebAssembly compiled by the page's own scripts, images from data/blob
 * URLs (thumbnails, snapshots), the API and socket.io on the same origin. Inline style attributes are
 * allowed (React's style props); nothing may frame the application.
 */
export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
  workerSrc: ["'self'", 'blob:'],
  connectSrc: ["'self'", 'ws:', 'wss:'],
  imgSrc: ["'self'", 'data:', 'blob:'],
  styleSrc: ["'self'", "'unsafe-inline'"],
  fontSrc: ["'self'", 'data:'],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

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
    /** Overrides the converter of CAD files (then run in the calling thread; default api/cad/convertCad.ts). */
    cadConverter?: CadConverter;
    /** Serve the built UI from config.uiDir with the history-mode fallback (server.ts). */
    serveUi?: boolean;
    /** The scheduler's clock (tests move time instead of waiting). */
    schedulerClock?: SchedulerClock;
  } = {},
): Promise<FastifyInstance> {
  // The revision store first: an unreachable bucket stops the start before the database opens.
  const storage = await openRevisionStorage(config.storage, config.dataDir);
  const db = await openDatabase(config.dataDir, config.database);
  const projects = new ProjectStore(db, config.dataDir, storage);
  // Conversions run from a job queue: in this process on SQLite, shared by every process on PostgreSQL.
  let queueLog: (message: string) => void = () => {};
  const queue =
    config.database.kind === 'postgres' ? pgBossQueue(config.database.url, (m) => queueLog(m)) : inProcessQueue();
  // Conversions no process can finish any more fail, and what they half-wrote goes (temp revision
  // directories, their uploads, extracted archives); the sweep runs under the write lock, so a revision
  // another process is committing is either referenced or not yet moved into place.
  const stranded = await failStranded(db, queue.shared);
  await projects.removeLeftovers(stranded);
  const settings = new AdminSettings(db);
  const cadWaits = new CadWaits((name) => projects.cadDir(name));
  const ctx: AppContext = {
    config,
    db,
    users: new UserStore(db, config.organizationDomain),
    tokens: new TokenService(config.jwtSecret, config.tokenTtlMin),
    projects,
    conversions: new ConversionManager(
      db,
      projects,
      options.runner ??
        (config.useWorkerThreads ? workerRunner(undefined, config.convertWorkerMemoryMb) : inProcessRunner()),
      () => settings.conversion(),
      {
        waits: cadWaits,
        adder:
          config.useWorkerThreads && !options.cadConverter
            ? workerCadAdder(config.convertWorkerMemoryMb)
            : inProcessCadAdder(options.cadConverter),
      },
      {
        queue,
        leases: { timeoutMs: config.jobs.timeoutSec * 1000, attempts: config.jobs.attempts },
        concurrency: config.jobs.concurrency,
        log: (m) => queueLog(m),
      },
    ),
    cadWaits,
    revisionCache: new RevisionCache(4, config.webViewerTimeoutMin * 60_000),
    access: new ProjectAccess(db),
    notices: new UserNotices(),
    comments: new CommentStore(db, config.dataDir),
    commentEvents: new CommentEvents(),
    compare: new CompareService(
      projects,
      config.useWorkerThreads ? workerCompareRunner(1, config.convertWorkerMemoryMb) : inProcessCompareRunner(),
    ),
    bcfImport: config.useWorkerThreads
      ? workerBcfImportRunner(1, config.convertWorkerMemoryMb)
      : inProcessBcfImportRunner(),
    settings,
    locations: new ProjectLocations(config.projectLocations),
    // Runs each source as the job's user through the same import as the add-project routes.
    scheduler: new ProjectUpdateScheduler(
      db,
      async (email, source, replace) => {
        const user = await ctx.users.find(email);
        if (!user) throw Errors.userUnknown(email);
        return importFromLocation(ctx, user, { source, description: 'Scheduled project update', replace });
      },
      { clock: options.schedulerClock, timezone: config.scheduleTimezone, log: (m) => schedulerLog(m) },
    ),
    tags: new TagStore(db),
    tagEvents: new TagEvents(),
    lifecycle: { stopping: false },
    readiness: new ReadinessProbes(),
  };
  // The bucket is asked again on GET /api/ready (its answer reused for a few seconds).
  if (storage.check) ctx.readiness.add('storage', () => storage.check?.() ?? Promise.resolve());
  let schedulerLog: (message: string) => void = () => {};

  // Uploads that never became part of a comment are dropped a day later (checked at start).
  await ctx.comments.removeStaleUploads(STALE_UPLOAD_MS);

  // With a logger, lines also go to the rotating files the 'Server logs' download zips (api/logging.ts).
  const app = Fastify({
    logger: options.logger ? serverLoggerOptions(config) : false,
    bodyLimit: 10 * 1024 * 1024,
    trustProxy: config.trustProxy,
  });
  const routes: RouteEntry[] = [];
  app.decorate('ctx', ctx);
  schedulerLog = (m) => app.log.warn(m);
  queueLog = (m) => app.log.warn(m);
  app.decorate('routeTable', routes);
  app.decorateRequest('user', null);
  // Every /api route declares who may call it (api/routes/define.ts); one without a rule stops the start.
  app.addHook('onRoute', (r) => {
    const methods = Array.isArray(r.method) ? r.method : [r.method];
    if (!r.url.startsWith('/api/') || methods.every((m) => m === 'HEAD')) return;
    const access = r.config?.access;
    if (!access) throw new Error(`Route ${methods.join(',')} ${r.url} declares no access rule`);
    for (const m of methods) if (m !== 'HEAD') routes.push({ method: m, url: r.url, access });
  });
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    crossOriginEmbedderPolicy: false,
  });
  // Routes opt in with `config.rateLimit` (the sign-in routes, api/routes/auth.ts).
  await app.register(rateLimit, { global: false });
  await app.register(multipart, { limits: { fileSize: config.maxUploadMb * 1024 * 1024, files: 1 } });

  app.setErrorHandler((err: FastifyError | ApiError, _request, reply) => {
    if (err instanceof ApiError) {
      if (err.retryAfter !== undefined) reply.header('Retry-After', String(err.retryAfter));
      return reply.code(err.statusCode).send(err.toJSON());
    }
    // Every reader of a revision's files (package, sections, quantities, comparisons): the details go to the log.
    if (err instanceof StorageUnavailable) {
      app.log.error(err);
      return reply.code(503).send(Errors.storageUnavailable().toJSON());
    }
    if (unstorableText(err))
      return reply.code(400).send(Errors.badRequest('Text must not contain the NUL character').toJSON());
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

  // The access rule's first half (token, password reset, fixed permission) runs before anything is parsed.
  app.addHook('onRequest', async (request) => {
    const rule = request.routeOptions.config?.access;
    if (rule) await authenticate(ctx, request, rule);
  });
  // A lapsed licence refuses opening and adding models (after the access check: anonymous callers get 401).
  app.addHook('onRequest', licenseGuard(config));
  app.addHook('onResponse', renewViewerHold(ctx));
  // A reply sent before its request's body was read off (a multipart upload refused, failed or withdrawn
  // while it streamed; the parser stops reading once its file stream is destroyed): the rest is read and
  // dropped. A request nobody reads never sees its client leave, and its connection would stay open until
  // the server's timeouts.
  // Other bodies are parsed whole before the handler, or never started (Node discards those itself).
  app.addHook('onResponse', async (request) => {
    const raw = request.raw;
    if (raw.readableEnded || raw.destroyed || !request.isMultipart()) return;
    raw.unpipe();
    raw.resume();
  });

  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(oidcRoutes);
  await app.register(projectRoutes);
  await app.register(modelRoutes);
  await app.register(instanceRoutes);
  await app.register(referenceSystemRoutes);
  await app.register(blockRoutes);
  await app.register(sectionRoutes);
  await app.register(geometryRoutes);
  await app.register(adminRoutes);
  await app.register(settingsRoutes);
  await app.register(commentRoutes);
  await app.register(compareRoutes);
  await app.register(tableRoutes);
  await app.register(approvalRoutes);
  await app.register(licenseRoutes);
  await app.register(whatsNewRoutes);
  await app.register(logRoutes);
  await registerDocs(app);
  await app.register(locationRoutes);
  await app.register(schedulingRoutes);
  // Jobs saved before a restart run again at their times.
  await ctx.scheduler.arm();
  await app.register(tagRoutes);
  await app.register(cadRoutes);
  // This process takes conversion jobs (and, on PostgreSQL, watches the other processes' ones) once the
  // queue has started; the start does not wait for it.
  ctx.conversions.begin().catch((e) => app.log.error(e));

  app.addHook('onClose', async () => {
    ctx.lifecycle.stopping = true;
    ctx.scheduler.stop();
    await ctx.conversions.close();
    await ctx.compare.close();
    await ctx.bcfImport.close();
    await db.destroy();
  });
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every /api route with its access rule, in registration order. */
    routeTable: RouteEntry[];
  }
}
