/**
 * The viewer's connection to the server (viewer.md §4 "Connection", §8): its own socket.io connection at
 * /api/socket.io (application.md §7; websocket only, the bearer token in the handshake) that joins the
 * project's room `project:{NAME}` while a model is open. A close the client did not ask for is reported
 * once through `onLost` (the viewer shuts down and shows 'Stream cache server connection closed.'); the
 * connection keeps trying and reports `onRestored` when the server answers again (the viewer reopens).
 * Separate from ui/api/realtime.ts so that closing it on inactivity leaves conversion progress untouched.
 */
import { io } from 'socket.io-client';

/** What the viewer session hears from its connection. */
export interface ViewerConnectionEvents {
  /** The connection to the server was lost (not closed by the client). Called once per loss. */
  onLost(): void;
  /** The server answers again after a loss. */
  onRestored(): void;
}

/** An open viewer connection. */
export interface ViewerConnection {
  /** Closes the connection for good (no reconnection, no events). Idempotent. */
  close(): void;
}

/** Longest wait between reconnection attempts, ms (socket.io backs off up to this). */
const RECONNECT_DELAY_MAX_MS = 2000;

/** Opens the viewer connection for project `modelName` with the session token. */
export function openViewerConnection(
  token: string,
  modelName: string,
  events: ViewerConnectionEvents,
): ViewerConnection {
  const socket = io({
    path: '/api/socket.io',
    transports: ['websocket'],
    auth: { token },
    forceNew: true,
    reconnectionDelayMax: RECONNECT_DELAY_MAX_MS,
  });
  let connectedOnce = false;
  let lost = false;
  let closed = false;
  socket.on('connect', () => {
    socket.emit('join', `project:${modelName}`);
    connectedOnce = true;
    if (lost) {
      lost = false;
      events.onRestored();
    }
  });
  socket.on('disconnect', (reason) => {
    if (closed || reason === 'io client disconnect') return;
    // A connection that never came up (e.g. a proxy without websockets) does not shut the viewer down.
    if (connectedOnce && !lost) {
      lost = true;
      events.onLost();
    }
    // A server that closes the socket (shutdown) ends socket.io's own reconnection: keep trying.
    if (reason === 'io server disconnect') socket.connect();
  });
  return {
    close: () => {
      if (closed) return;
      closed = true;
      socket.disconnect();
    },
  };
}
