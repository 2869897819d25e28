/**
 * socket.io clients of a Keelson server for tests (application.md §7 "A realtime channel at /api/socket.io
 * (no transport upgrade)"): websocket only, `auth` in the handshake, no reconnection.
 */
import { io as connect, type Socket } from 'socket.io-client';

/**
 * Connects to the server at `url` with the handshake `auth` (e.g. `{ token }`); resolves once connected,
 * rejects with the server's refusal (the socket closed). The socket is also pushed to `opened`, when given,
 * for the test's clean-up.
 */
export function openSocket(url: string, auth: Record<string, string>, opened?: Socket[]): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(url, {
      path: '/api/socket.io',
      transports: ['websocket'],
      upgrade: false,
      auth,
      reconnection: false,
    });
    opened?.push(s);
    s.on('connect', () => resolve(s));
    s.on('connect_error', (e) => {
      s.close();
      reject(e);
    });
  });
}
