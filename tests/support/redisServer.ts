/**
 * A throwaway Redis for the tests of the Redis realtime adapter: Debian's `redis-server` on a free local
 * port, nothing written to disk (`--save ''`, `--appendonly no`), stopped with SIGTERM.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './serverProcess';

/** A running redis-server. */
export interface TestRedis {
  /** redis://127.0.0.1:PORT */
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts `redis-server` (REDIS_SERVER, default the one on PATH) on `port` (default a free one; the port of
 * a stopped one starts it again for the clients that were connected) and resolves once it accepts
 * connections. @throws Error with its output when it exits first or is not ready within 20 s.
 */
export async function startRedis(port?: number): Promise<TestRedis> {
  port ??= await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'keelson-redis-'));
  const child = spawn(
    process.env.REDIS_SERVER ?? 'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server not ready in 20 s:\n${out}`)), 20_000);
    const on = (d: Buffer) => {
      out += d.toString();
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', on);
    child.stderr?.on('data', on);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}:\n${out}`));
    });
  });
  await ready;
  return {
    url: `redis://127.0.0.1:${port}`,
    child,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
