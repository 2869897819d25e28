/**
 * socket.io at /api/socket.io (application.md §7 "A realtime channel at /api/socket.io (no transport
 * upgrade)"): websocket transport only, the JWT in the handshake's `auth.token`. Clients send 'join'
 * and 'leave' with a room name (a conversion id, or their e-mail); the server sends 'progress'
 * (ProgressEvent of api/contract/common.ts) to the room of the conversion, and 'userNotification'.
 */
import type { FastifyInstance } from 'fastify';
import { Server } from 'socket.io';
import type { ProgressEvent, UserNotification } from './contract/common';

/** Attaches socket.io to the app's HTTP server; closed with the app. @returns the io server. */
export function attachRealtime(app: FastifyInstance): Server {
  const { tokens, users, conversions } = app.ctx;
  const io = new Server(app.server, { path: '/api/socket.io', transports: ['websocket'], allowUpgrades: false, serveClient: false });

  io.use((socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    if (typeof token !== 'string' || !token) return next(new Error('Authentication required'));
    tokens
      .verify(token)
      .then(async (email) => {
        const user = await users.find(email);
        if (!user) throw new Error('User not found');
        socket.data.email = user.email;
        next();
      })
      .catch((e: Error) => next(new Error(e.message)));
  });

  io.on('connection', (socket) => {
    socket.on('join', (room: unknown) => {
      if (typeof room === 'string' && room.length > 0 && room.length <= 200) void socket.join(room);
    });
    socket.on('leave', (room: unknown) => {
      if (typeof room === 'string') void socket.leave(room);
    });
  });

  const off = conversions.onProgress((e: ProgressEvent) => {
    io.to(e.conversionId).emit('progress', e);
  });
  app.addHook('onClose', async () => {
    off();
    await new Promise<void>((resolve) => io.close(() => resolve()));
  });
  return io;
}

/** Sends a user notification to the room keyed by the user's e-mail. */
export function notifyUser(io: Server, n: UserNotification): void {
  io.to(n.email).emit('userNotification', n);
}
