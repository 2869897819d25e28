/**
 * A TCP line between Chromium and a test server whose speed the test sets: the client's bytes (uploads)
 * go out at a chosen rate, and the server's bytes (answers) can be held back and let through later.
 *
 * Chromium's own network emulation (`Network.emulateNetworkConditions` with an upload throughput) does not
 * reliably slow an upload to a loopback server: now and then the whole body reaches the server at once.
 * A line in between makes "the upload is still running" and "the server answered, the page has not heard"
 * states a test can count on. Like a real slow link, bytes the client has written stay in the socket
 * buffers and arrive before the client's close does.
 */
import net from 'node:net';

/** A running line: `url` is what the page opens instead of the server's own address. */
export interface LineProxy {
  /** http://127.0.0.1:{port} of the line. */
  url: string;
  /** Client → server rate in bytes per second for every connection from now on; null for full speed. */
  upload(bytesPerSecond: number | null): void;
  /** While true, the server's bytes wait in the line; false sends what waited, in order, and the rest. */
  holdAnswers(hold: boolean): void;
  /** Closes the listener and every connection. */
  close(): Promise<void>;
}

/** Slices per second when the upload is slowed. */
const TICKS_PER_S = 20;

/**
 * Starts a line to the server at `target` (an http://host:port URL) on a free loopback port.
 * A client's close reaches the line after the bytes it wrote before it, as on a real link; the server side
 * is then closed at once, with the slice the line still held dropped.
 */
export async function startLineProxy(target: string): Promise<LineProxy> {
  const { hostname, port } = new URL(target);
  let rate: number | null = null;
  let hold = false;
  const held = new Set<() => void>();
  const sockets = new Set<net.Socket>();

  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    // The client gone (an aborted request): the server side closes now, whatever was still to go out.
    client.on('end', close).on('close', close).on('error', close);
    upstream.on('error', close);

    // Client → server: slices of rate / TICKS_PER_S bytes, one per tick, while a rate is set.
    let pending: Buffer[] = [];
    let timer: NodeJS.Timeout | null = null;
    const pump = () => {
      timer = null;
      while (pending.length > 0 && !upstream.destroyed) {
        if (rate === null) {
          upstream.write(pending.shift()!);
          continue;
        }
        const budget = Math.max(1, Math.floor(rate / TICKS_PER_S));
        const head = pending[0]!;
        upstream.write(head.subarray(0, budget));
        if (head.length > budget) pending[0] = head.subarray(budget);
        else pending.shift();
        timer = setTimeout(pump, 1000 / TICKS_PER_S);
        return;
      }
      client.resume();
    };
    client.on('data', (d: Buffer) => {
      pending.push(d);
      client.pause();
      if (!timer) pump();
    });
    client.on('close', () => {
      if (timer) clearTimeout(timer);
      pending = [];
    });

    // Server → client: passed on, or kept while answers are held.
    let waiting: Buffer[] = [];
    const release = () => {
      for (const b of waiting) client.write(b);
      waiting = [];
    };
    held.add(release);
    upstream.on('data', (d: Buffer) => {
      if (hold) waiting.push(d);
      else client.write(d);
    });
    // The server done: what it sent reaches the client (once let through), then the client side ends.
    upstream.on('end', () => {
      held.delete(release);
      const finish = () => {
        held.delete(finish);
        release();
        client.end();
      };
      if (hold) held.add(finish);
      else finish();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    upload: (bytesPerSecond) => {
      rate = bytesPerSecond;
    },
    holdAnswers: (h) => {
      hold = h;
      if (!h) for (const release of held) release();
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
