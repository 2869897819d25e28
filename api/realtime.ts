/**
 * socket.io at /api/socket.io (application.md §7 "A realtime channel at /api/socket.io (no transport
 * upgrade)"): websocket transport only, the JWT in the handshake's `auth.token` (checked like a bearer
 * token, revocation included). Clients send 'join' and 'leave' with a room name: a conversion id of a
 * project the user may see (application.md §4 "Model conversion"; the same rule as the REST calls, checked
 * on every join), `project:{NAME}` of a project the user may see (pushes to a project's users), or their own e-mail (§4 "Authentication and session": the realtime room keyed by the
 * user's e-mail). Any other room is refused with an 'error' event `{ error: 'Forbidden', message,
 * type: 'permission' }` (and the same in the optional acknowledgement); an unknown conversion and one of an
 * invisible project get the same refusal. The server sends 'progress' (ProgressEvent of
 * api/contract/common.ts) to the room of the conversion, and 'userNotification' (`{ kind, email }`) to
 * the e-mail room when an administrator changes or deletes the user; a deleted user's sockets are then
 * disconnected. Comment changes go to `project:{NAME}` as 'comment' (CommentEvent of api/contract/comments.ts),
 * tag changes as 'tags' (TagsEvent of api/contract/tags.ts). The upload state of a conversion paused for
 * its CAD files goes to the conversion's room as 'cadfiles' (CadUploadEvent of api/contract/cad.ts). Every socket is also in SIGNED_IN_ROOM, where
 * 'projectsChanged' tells those who may see a project that a conversion of it started or ended (start pages
 * then show other users' conversions live).
 *
 * Several server processes (PostgreSQL, `npm run start:cluster`): a socket.io adapter joins them, by
 * default the PostgreSQL adapter (LISTEN/NOTIFY on the same database), with REALTIME=redis the Redis adapter
 * (publish/subscribe on REDIS_URL; README "Running at scale"). Every push leaves its process once, as one
 * server-side event (RELAY_EVENT), and each process delivers it to its own sockets after checking their
 * access, so a client connected to any process gets what any other process emits, in the order it was
 * sent. On SQLite (one process) the in-memory adapter is kept.
 */
import type { FastifyInstance } from 'fastify';
import { createAdapter } from '@socket.io/postgres-adapter';
import pg from 'pg';
import { Server } from 'socket.io';
import { maySee, userOfToken } from './access/rules';
import { PROJECTS_CHANGED_EVENT, type ProgressEvent, type UserNotification } from './contract/common';
import { CAD_FILES_EVENT } from './contract/cad';
import { COMMENT_EVENT } from './contract/comments';
import { TAGS_EVENT } from './contract/tags';
import { ApiError, Errors } from './errors';

/** Conversion ids are UUIDs (ConversionManager.reserve). */
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Prefix of a project's room: `project:` + the upper-case project name. */
export const PROJECT_ROOM_PREFIX = 'project:';

/** The realtime room of a project (writes to the project are pushed there). */
export const projectRoom = (name: string): string => `${PROJECT_ROOM_PREFIX}${name}`;

/** The room every connected socket is in (events filtered per user by emitToProjectRoom). */
export const SIGNED_IN_ROOM = 'keelson:signed-in';

/** The server-side event that carries one push to the other server processes (PostgreSQL adapter). */
export const RELAY_EVENT = 'keelson:push';

/**
 * One push as it travels between processes: an event for a room whose members must still see `project`,
 * or a notice to a user's e-mail room (a 'user-deleted' notice also disconnects that user's sockets).
 */
export type Push =
  | { kind: 'room'; room: string; project: string; event: string; payload: unknown }
  | { kind: 'notice'; notice: UserNotification };

/**
 * The adapter's table for pushes over PostgreSQL's 8000-byte NOTIFY limit (created by migration
 * '010_realtime_attachments' of api/db/migrations.ts).
 */
export const ADAPTER_TABLE = 'socket_io_attachments';

/** `application_name` of the adapter's PostgreSQL connections (pg_stat_activity). */
export const REALTIME_APPLICATION_NAME = 'keelson-realtime';

/** Acknowledgement of a 'join' (when the client passes a callback). */
export type JoinReply = { ok: true; room: string } | { ok: false; error: string; message: string; type: string };

/** What Keelson itself calls on a connected Redis client (the `redis` package); the adapter uses the rest. */
interface RedisClient {
  close(): Promise<unknown>;
  /** Connected and not reconnecting. */
  readonly isReady: boolean;
  ping(): Promise<unknown>;
}

/**
 * The two connected Redis clients the Redis adapter needs (one publishes, one subscribes) and the adapter's
 * factory (both packages are loaded only with REALTIME=redis).
 */
export interface RedisClients {
  pub: RedisClient;
  sub: RedisClient;
  createAdapter: typeof import('@socket.io/redis-adapter').createAdapter;
}

/** Prefix of the Redis adapter's channels (another application on the same Redis keeps its own). */
export const REDIS_CHANNEL_PREFIX = 'keelson';

/**
 * Attaches socket.io with the adapter of the app's configuration (REALTIME): for Redis, first connects to
 * REDIS_URL. @returns the io server (closed with the app).
 * @throws Error 'Redis at URL cannot be reached: ...' (password hidden) when Redis does not answer at start.
 */
export async function openRealtime(app: FastifyInstance): Promise<Server> {
  const rt = app.ctx.config.realtime;
  return attachRealtime(app, rt.kind === 'redis' ? await connectRedis(rt.url, app) : undefined);
}

/**
 * Attaches socket.io to the app's HTTP server; closed with the app. `redis`: the connected clients of the
 * Redis adapter (openRealtime), closed with the app.
 * @returns the io server. @throws Error when the configuration asks for Redis and `redis` is not given.
 */
export function attachRealtime(app: FastifyInstance, redis?: RedisClients): Server {
  const ctx = app.ctx;
  const { conversions } = ctx;
  const io = new Server(app.server, {
    path: '/api/socket.io',
    transports: ['websocket'],
    allowUpgrades: false,
    serveClient: false,
  });

  io.use((socket, next) => {
    const auth: unknown = socket.handshake.auth;
    const token = typeof auth === 'object' && auth !== null && 'token' in auth ? auth.token : undefined;
    if (typeof token !== 'string' || !token) return next(new Error('Authentication required'));
    userOfToken(ctx, token)
      .then((user) => {
        socket.data.email = user.email;
        socket.data.token = token;
        next();
      })
      // Only catalogued messages reach the client (no database or internal details).
      .catch((e: unknown) => next(new Error(e instanceof ApiError ? e.message : 'Authentication failed')));
  });

  io.on('connection', (socket) => {
    void socket.join(SIGNED_IN_ROOM);
    socket.on('join', (room: unknown, ack?: unknown) => {
      const reply = typeof ack === 'function' ? (ack as (r: JoinReply) => void) : () => {};
      void checkRoom(room, String(socket.data.token)).then(
        (name) => {
          void socket.join(name);
          reply({ ok: true, room: name });
        },
        (e: unknown) => {
          const err = {
            error: 'Forbidden',
            message: e instanceof ApiError ? e.message : 'The room cannot be joined now',
            type: 'permission',
          };
          socket.emit('error', err);
          reply({ ok: false, ...err });
        },
      );
    });
    socket.on('leave', (room: unknown) => {
      if (typeof room !== 'string') return;
      const name = room.includes('@')
        ? room.toLowerCase()
        : room.startsWith(PROJECT_ROOM_PREFIX)
          ? projectRoom(room.slice(PROJECT_ROOM_PREFIX.length).trim().toUpperCase())
          : room;
      void socket.leave(name);
    });
  });

  /**
   * The room a 'join' may enter: the caller's own e-mail (lower-cased) or a conversion id of a project
   * the caller may see now (the token is checked again: a revoked session cannot join).
   * @throws ApiError 403 with the refusal message otherwise (401 text for a revoked token).
   */
  async function checkRoom(room: unknown, token: string): Promise<string> {
    const user = await userOfToken(ctx, token);
    if (typeof room !== 'string' || room.length === 0 || room.length > 200)
      throw Errors.forbidden('Room must be a conversion id or your e-mail');
    if (room.includes('@')) {
      if (room.trim().toLowerCase() !== user.email)
        throw Errors.forbidden('You can only join the room of your own e-mail');
      return user.email;
    }
    // As on the REST routes: until the required password change, only the user's own room (its notices).
    if (user.requirePasswordReset) throw Errors.passwordChangeRequired();
    if (room.startsWith(PROJECT_ROOM_PREFIX)) {
      const name = room.slice(PROJECT_ROOM_PREFIX.length).trim().toUpperCase();
      if (!name || !(await maySee(ctx, user, name))) throw Errors.forbidden(`Project ${name} not found`);
      return projectRoom(name);
    }
    const project = UUID_RE.test(room) ? await conversions.projectOf(room) : null;
    if (project === null || !(await maySee(ctx, user, project))) throw Errors.forbidden(`Conversion ${room} not found`);
    return room;
  }

  // One queue keeps events in the order they happened while each member's access is checked per event.
  let queue = Promise.resolve();
  const deliver = (p: Push) => {
    queue = queue
      .then(() =>
        p.kind === 'room'
          ? emitToProjectRoom(io, ctx, p.room, p.project, p.event, p.payload)
          : deliverNotice(io, p.notice),
      )
      .catch(() => {});
  };
  const { database, realtime } = ctx.config;
  if (realtime.kind === 'redis' && !redis) throw new Error('REALTIME=redis: connect with openRealtime');
  let closeAdapter: (() => Promise<void>) | null = null;
  if (redis) {
    io.adapter(redis.createAdapter(redis.pub, redis.sub, { key: REDIS_CHANNEL_PREFIX }));
    // Ready while both clients are connected and Redis answers a PING (GET /api/ready).
    const offProbe = ctx.readiness.add('realtime', async () => {
      if (!redis.pub.isReady || !redis.sub.isReady) throw new Error('Redis connection lost');
      await redis.pub.ping();
    });
    closeAdapter = async () => {
      offProbe();
      await Promise.allSettled([redis.pub.close(), redis.sub.close()]);
    };
  } else if (realtime.kind === 'postgres' && database.kind === 'postgres') {
    const pool = useClusterAdapter(io, database.url, app);
    closeAdapter = () => pool.end();
  }
  const clustered = closeAdapter !== null;
  // The other processes get each push once and deliver it to their own sockets (see the file comment).
  if (clustered) io.on(RELAY_EVENT, (p: Push) => deliver(p));
  const push = (p: Push) => {
    if (clustered) io.serverSideEmit(RELAY_EVENT, p);
    deliver(p);
  };
  const send = (room: string, project: string, event: string, payload: unknown) =>
    push({ kind: 'room', room, project, event, payload });
  const off = conversions.onProgress((e: ProgressEvent) => send(e.conversionId, e.projectName, 'progress', e));
  // Conversions announced to SIGNED_IN_ROOM once when they start and once when they end, by whichever
  // process queued or ended them (a conversion may run on several processes in between).
  const offStartEnd = conversions.onStartOrEnd((projectName) =>
    send(SIGNED_IN_ROOM, projectName, PROJECTS_CHANGED_EVENT, { projectName }),
  );
  const offComments = ctx.commentEvents.on((e) => send(projectRoom(e.projectName), e.projectName, COMMENT_EVENT, e));
  const offTags = ctx.tagEvents.on((e) => send(projectRoom(e.projectName), e.projectName, TAGS_EVENT, e));
  // The upload state of a conversion paused for its CAD files, to every client watching that conversion.
  const offCad = ctx.cadWaits.onChange((e) => send(e.conversionId, e.projectName, CAD_FILES_EVENT, e));
  const offNotices = ctx.notices.on((notice) => push({ kind: 'notice', notice }));
  // Open sockets keep the HTTP server from closing: end them first, so that a stopping server (SIGTERM)
  // exits while viewers are connected and the clients see the server close their connection.
  // Only this process's sockets: the others keep serving theirs.
  app.addHook('preClose', async () => {
    io.local.disconnectSockets(true);
  });
  app.addHook('onClose', async () => {
    off();
    offStartEnd();
    offNotices();
    offComments();
    offTags();
    offCad();
    await new Promise<void>((resolve) => io.close(() => resolve()));
    await queue;
    await closeAdapter?.();
  });
  return io;
}

/**
 * Joins `io` to the other server processes on the PostgreSQL database `url` through the socket.io
 * PostgreSQL adapter. Pushes are sent through a pool of one connection and arrive in the order they were
 * made, also around a push over the NOTIFY limit (publishInOrder on the sending side, inOrder on the
 * receiving one). The adapter's LISTEN connection is a client of its own outside that pool: when the database
 * drops it (a restart), the error is logged instead of ending the process, and the adapter's reconnection
 * opens a fresh one (a pooled one would keep its slot for ever and stall the sends). @returns the pool
 * (ended when the app closes).
 */
function useClusterAdapter(io: Server, url: string, app: FastifyInstance): pg.Pool {
  const lost = (e: Error) => app.log.warn({ err: e }, 'realtime adapter connection lost');
  const options = { connectionString: url, application_name: REALTIME_APPLICATION_NAME };
  const pool = new pg.Pool({ ...options, max: 1 });
  pool.on('error', lost);
  const listenClient = async () => {
    const client = new pg.Client(options);
    client.on('error', lost);
    inOrder(client);
    await client.connect();
    // The adapter hands its connection back with release() when it closes.
    return Object.assign(client, { release: () => void client.end().catch(() => {}) });
  };
  // The adapter uses exactly these two methods of its pool (LISTEN connection, NOTIFY and attachment queries).
  const adapterPool = { connect: listenClient, query: publishInOrder(pool) } as unknown as pg.Pool;
  io.adapter(
    createAdapter(adapterPool, {
      tableName: ADAPTER_TABLE,
      errorHandler: (e) => app.log.warn({ err: e }, 'realtime adapter error'),
    }),
  );
  return pool;
}

/** Longest time the pushes after an attachment push wait for its NOTIFY, ms. */
const ATTACHMENT_NOTIFY_WAIT_MS = 5000;

/**
 * The adapter's queries on `pool`, with its pushes leaving in the order they were made. A push over the
 * 8000-byte NOTIFY limit is two queries (its attachment row, then the NOTIFY naming it): the pushes made
 * meanwhile wait until that NOTIFY has gone instead of overtaking it. Other queries (reading an
 * attachment, removing old ones) pass at once.
 */
function publishInOrder(pool: pg.Pool): (text: string, values?: unknown[]) => Promise<pg.QueryResult> {
  // Settles when the pushes made so far have been sent (or failed).
  let sent: Promise<void> = Promise.resolve();
  // The end of each attachment push, by attachment id, released once its NOTIFY has gone.
  const ends = new Map<string, () => void>();
  /** Takes the next place in the order: resolves when the earlier pushes are out; call done() when this one is. */
  const nextPlace = () => {
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    const before = sent;
    sent = mine;
    return { before, done };
  };
  return async (text, values) => {
    if (text.startsWith(`INSERT INTO ${ADAPTER_TABLE}`)) {
      const { before, done } = nextPlace();
      await before;
      try {
        const r = await pool.query(text, values);
        const id = String(r.rows[0]?.id);
        ends.set(id, done);
        // Its NOTIFY follows at once; should it never come, the later pushes are not held for ever.
        setTimeout(() => {
          if (ends.get(id) === done) ends.delete(id);
          done();
        }, ATTACHMENT_NOTIFY_WAIT_MS).unref();
        return r;
      } catch (e) {
        done();
        throw e;
      }
    }
    if (text.startsWith('SELECT pg_notify')) {
      const header = JSON.parse(String(values?.[1] ?? '{}')) as { attachmentId?: unknown };
      const end = header.attachmentId === undefined ? undefined : ends.get(String(header.attachmentId));
      if (end) {
        // Its place was taken with its attachment row.
        ends.delete(String(header.attachmentId));
        return pool.query(text, values).finally(end);
      }
      const { before, done } = nextPlace();
      await before;
      return pool.query(text, values).finally(done);
    }
    return pool.query(text, values);
  };
}

/**
 * Makes the 'notification' handlers of the adapter's LISTEN client run one after another, in the order the
 * notifications arrived. The adapter's handler is async: a push over the 8000-byte NOTIFY limit waits for
 * its attachment row to be read back, and a small push that arrived after it would otherwise be delivered
 * first (a removal before the addition it follows).
 */
function inOrder(client: pg.Client): void {
  const on = client.on.bind(client);
  let last: Promise<unknown> = Promise.resolve();
  client.on = ((event: Parameters<typeof on>[0], handler: (...args: unknown[]) => unknown) => {
    if (event !== 'notification') return on(event, handler as never);
    return on(event, (message: pg.Notification) => {
      last = last.then(() => handler(message)).catch(() => {});
    });
  }) as typeof client.on;
}

/** Attempts to reach Redis at start before the server gives up; once connected, it reconnects for ever. */
const REDIS_START_ATTEMPTS = 5;

/**
 * Connects the Redis adapter's two clients to `url`. A lost connection (a Redis restart) is logged and
 * reconnected with a back-off of up to 2 s, without ending the process.
 * @throws Error naming Redis (URL without its password) and the cause when it does not answer at start.
 */
async function connectRedis(url: string, app: FastifyInstance): Promise<RedisClients> {
  const shown = new URL(url);
  if (shown.password) shown.password = '***';
  let started = false;
  const reconnectStrategy = (retries: number, cause: Error) =>
    !started && retries >= REDIS_START_ATTEMPTS
      ? new Error(`Redis at ${shown.toString()} cannot be reached: ${cause.message || cause.name}`)
      : Math.min(100 * 2 ** retries, 2000);
  const [{ createClient }, { createAdapter }] = await Promise.all([
    import('redis'),
    import('@socket.io/redis-adapter'),
  ]);
  const pub = createClient({ url, socket: { reconnectStrategy } });
  const sub = createClient({ url, socket: { reconnectStrategy } });
  for (const c of [pub, sub])
    c.on('error', (e: Error) => {
      if (started) app.log.warn({ err: e }, 'realtime adapter connection lost');
    });
  try {
    await Promise.all([pub.connect(), sub.connect()]);
  } catch (e) {
    for (const c of [pub, sub])
      try {
        c.destroy();
      } catch {
        // never opened
      }
    throw e;
  }
  started = true;
  return { pub, sub, createAdapter };
}

/** How long a member's checked access to a project is trusted before the next event checks it again, ms. */
export const ROOM_ACCESS_RECHECK_MS = 1000;

/**
 * Emits `event` to the sockets in `room` whose user may still see `project`: access that expires ('valid
 * until' passed) or is taken away after a join ends delivery within ROOM_ACCESS_RECHECK_MS (a member's
 * positive check is trusted that long, so a busy room costs one check per member and second, not per event),
 * and such a socket is removed from the room (it may join again when access returns; SIGNED_IN_ROOM, which
 * carries every project's news, is kept). A socket whose token no longer holds is disconnected.
 */
export async function emitToProjectRoom(
  io: Server,
  ctx: FastifyInstance['ctx'],
  room: string,
  project: string,
  event: string,
  payload: unknown,
): Promise<void> {
  // This process's sockets only: the other processes deliver the same push to theirs (RELAY_EVENT).
  const sockets = await io.local.in(room).fetchSockets();
  const now = Date.now();
  await Promise.all(
    sockets.map(async (socket) => {
      const trusted: Record<string, number> = socket.data.accessUntil ?? {};
      if ((trusted[project] ?? 0) > now) {
        socket.emit(event, payload);
        return;
      }
      let allowed = false;
      try {
        allowed = await maySee(ctx, await userOfToken(ctx, String(socket.data.token)), project);
      } catch {
        socket.disconnect(true);
        return;
      }
      if (allowed) {
        socket.data.accessUntil = { ...trusted, [project]: now + ROOM_ACCESS_RECHECK_MS };
        socket.emit(event, payload);
      } else if (room !== SIGNED_IN_ROOM) socket.leave(room);
    }),
  );
}

/**
 * Sends a user notification to the room keyed by the user's (lower-cased) e-mail, on every process
 * (through the adapter when there are several).
 */
export function notifyUser(io: Server, n: UserNotification): void {
  io.to(n.email.toLowerCase()).emit('userNotification', n);
}

/**
 * Delivers a notice to this process's sockets of the user: 'userNotification', then, for 'user-deleted',
 * the sockets are disconnected (after the notice, which one process sends in order).
 */
function deliverNotice(io: Server, n: UserNotification): void {
  const room = n.email.toLowerCase();
  io.local.to(room).emit('userNotification', n);
  if (n.kind === 'user-deleted') io.local.in(room).disconnectSockets(true);
}
