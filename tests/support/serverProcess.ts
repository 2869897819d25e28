/**
 * Keelson servers as real child processes for the multi-process tests: `node --import tsx api/server.ts`
 * (or another script of the repository, e.g. scripts/startCluster.mjs) with its own environment, on a free
 * local port, ready once GET /api/health answers (or a given line appears on stdout); `stop` sends SIGTERM and
 * waits for the exit code.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

/** The repository root. */
export const ROOT = path.resolve(import.meta.dirname, '../..');

/** A started server process. */
export interface ServerProcess {
  /** http://127.0.0.1:PORT */
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** SIGTERM, then the exit code (null when killed by a signal). */
  stop(): Promise<number | null>;
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (a && typeof a === 'object' ? resolve(a.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Starts `script` (relative to the repository root; default api/server.ts) with `args` under tsx, with the
 * environment `env` on top of this process's, PORT and HOST set. Resolves when `readyLine` is printed, or
 * (without one) when GET /api/health answers 200.
 * @throws Error with the process's output when it exits first or is not ready within `timeoutMs`.
 */
export async function startServerProcess(
  env: Record<string, string>,
  opts: { script?: string; args?: string[]; readyLine?: string; timeoutMs?: number } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const script = path.join(ROOT, opts.script ?? 'api/server.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...(opts.args ?? [])], {
    cwd: ROOT,
    env: { ...process.env, LOG: 'false', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (opts.timeoutMs ?? 90_000);
  let gone = false;
  void exited.then(() => (gone = true));
  for (;;) {
    if (gone) throw new Error(`${script} exited before it was ready:\n${out}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${script} was not ready in time:\n${out}`);
    }
    if (opts.readyLine ? out.includes(opts.readyLine) : await healthy(url)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    port,
    child,
    output: () => out,
    async stop() {
      if (!gone) child.kill('SIGTERM');
      return exited;
    },
  };
}

async function healthy(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/api/health`)).status === 200;
  } catch {
    return false;
  }
}
