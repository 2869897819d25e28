/**
 * The realtime channel of application.md §7 ("/api/socket.io (no transport upgrade)"): one socket.io
 * connection with the bearer token; 'join' a room keyed by a conversion id to receive its 'progress'
 * events (§4 "Model conversion").
 */
import { io, type Socket } from 'socket.io-client';
import * as v from 'valibot';
import { ProgressEventSchema, type ProgressEvent } from '../../api/contract';

let socket: Socket | null = null;
let socketToken: string | null = null;
const joined = new Set<string>();
const listeners = new Set<(e: ProgressEvent) => void>();

function connect(token: string): Socket {
  if (socket && socketToken === token) return socket;
  socket?.disconnect();
  socketToken = token;
  socket = io({ path: '/api/socket.io', transports: ['websocket'], auth: { token } });
  // Rooms are lost on reconnect; join them again.
  socket.on('connect', () => joined.forEach((id) => socket?.emit('join', id)));
  // A stopping server closes the socket itself, which ends socket.io's own reconnection: keep trying, so
  // progress resumes when the server is back (a refused token then ends it with connect_error).
  socket.on('disconnect', (reason) => {
    if (reason === 'io server disconnect') socket?.connect();
  });
  socket.on('progress', (raw: unknown) => {
    const r = v.safeParse(ProgressEventSchema, raw);
    if (!r.success) return;
    listeners.forEach((l) => l(r.output));
  });
  return socket;
}

/** Joins the room of a conversion (idempotent). */
export function joinConversion(token: string, conversionId: string): void {
  const s = connect(token);
  if (joined.has(conversionId)) return;
  joined.add(conversionId);
  if (s.connected) s.emit('join', conversionId);
}

/** Leaves the room of a finished conversion. */
export function leaveConversion(conversionId: string): void {
  if (!joined.delete(conversionId)) return;
  socket?.emit('leave', conversionId);
}

/** Subscribes to progress events; returns the unsubscribe function. */
export function onProgress(listener: (e: ProgressEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Leaves the user's room and closes the connection (logout, application.md §4). */
export function disconnectRealtime(email: string | null): void {
  if (!socket) return;
  if (email) socket.emit('leave', email);
  socket.disconnect();
  socket = null;
  socketToken = null;
  joined.clear();
}
