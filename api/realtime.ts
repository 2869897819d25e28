/**
 * socket.io at /api/socket.io (application.md §7 "A realtime channel at /api/socket.io (no transport
 * upgrade)"): websocket transport only, the JWT in the handshake's `auth.token`. Clients send 'join'
 * and 'leave' with a room name: a conversion id the server knows (application.md §4 "Model
 * conversion") or their own e-mail (§4 "Authentication and session": the realtime room keyed by the
 * user's e-mail). Any other room is refused with an 'error' event `{ error: 'Forbidden', message,
 * type: 'permission' }` (and the same in the optional acknowledgement). The server sends 'progress'
 * (ProgressEvent of api/contract/common.ts) to the room of the conversion, and 'userNotification' to
 * the e-mail room.
 */
import type { FastifyInstance } from 'fastify';
import { Server } from 'socket.io';
import type { ProgressEvent, UserNotification } from './contract/common';
import { ApiError, Errors } from './errors';

/** Conversion ids are UUIDs (ConversionManager.reserve). */
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Acknowledgement of a 'join' (when the client passes a callback). */
export type JoinReply = { ok: true; room: string } | { ok: false; error: string; message: string; type: string };

/** Attaches socket.io to the app's HTTP server; closed with the app. @returns the io server. */
export function attachRealtime(app: FastifyInstance): Server {
  const { tokens, users, conversions } = app.ctx;
  const io = new Server(app.server, {
    path: '/api/socket.io',
    transports: ['websocket'],
    allowUpgrades: false,
    serveClient: false,
  });

  io.use((socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    if (typeof token !== 'string' || !token) return next(new Error('Authentication required'));
    tokens
      .verify(token)
      .then(async (email) => {
        const user = await users.find(email);
        if (!user) throw Errors.userNotFound();
        socket.data.email = user.email;
        next();
      })
      // Only catalogued messages reach the client (no database or internal details).
      .catch((e: unknown) => next(new Error(e instanceof ApiError ? e.message : 'Authentication failed')));
  });

  io.on('connection', (socket) => {
    socket.on('join', (room: unknown, ack?: unknown) => {
      const reply = typeof ack === 'function' ? (ack as (r: JoinReply) => void) : () => {};
      void checkRoom(room, socket.data.email as string).then(
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
      if (typeof room === 'string') void socket.leave(room.includes('@') ? room.toLowerCase() : room);
    });
  });

  /**
   * The room a 'join' may enter: the caller's own e-mail (lower-cased) or a conversion id the server
   * knows (running or recorded). @throws ApiError 403 with the refusal message otherwise.
   */
  async function checkRoom(room: unknown, email: string): Promise<string> {
    if (typeof room !== 'string' || room.length === 0 || room.length > 200)
      throw Errors.forbidden('Room must be a conversion id or your e-mail');
    if (room.includes('@')) {
      if (room.trim().toLowerCase() !== email.toLowerCase())
        throw Errors.forbidden('You can only join the room of your own e-mail');
      return email.toLowerCase();
    }
    if (!UUID_RE.test(room) || !(await conversions.known(room))) throw Errors.forbidden(`Conversion ${room} not found`);
    return room;
  }

  const off = conversions.onProgress((e: ProgressEvent) => {
    io.to(e.conversionId).emit('progress', e);
  });
  app.addHook('onClose', async () => {
    off();
    await new Promise<void>((resolve) => io.close(() => resolve()));
  });
  return io;
}

/** Sends a user notification to the room keyed by the user's (lower-cased) e-mail. */
export function notifyUser(io: Server, n: UserNotification): void {
  io.to(n.email.toLowerCase()).emit('userNotification', n);
}
