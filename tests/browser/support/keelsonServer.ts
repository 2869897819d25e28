/**
 * Starts a real Keelson server for browser tests (and the API fault tests): builds the UI once if dist/ui
 * is missing or stale (unless told not to), then runs `node --import tsx api/server.ts` on a free loopback
 * port with a fresh DATA_DIR (or a given one).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../support/serverProcess';

export const repoRoot = path.resolve(import.meta.dirname, '../../..');
export const samplesDir = path.resolve(repoRoot, '../shared/models/ocx');

/** A running server: its base URL, data directory and a stop function. */
export interface RunningServer {
  url: string;
  dataDir: string;
  output: () => string;
  stop: () => Promise<void>;
  /** Ends the process (SIGTERM) and keeps its data, so that `start` can bring the same server back. */
  halt: () => Promise<void>;
  /** Starts the process again on the same port and data directory (`env` added); resolves once it answers. */
  start: (env?: Record<string, string>) => Promise<void>;
  /** Ends the process with SIGKILL (a crash: nothing is flushed or closed) and waits until it is gone. */
  crash: () => Promise<void>;
}

/** How to start: `buildUi` false serves the API only (no Vite build); `dataDir` an existing directory to use. */
export interface StartOptions {
  buildUi?: boolean;
  dataDir?: string;
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const m = statSync(path.join(entry.parentPath, entry.name)).mtimeMs;
    if (m > newest) newest = m;
  }
  return newest;
}

/** Builds dist/ui with Vite unless it is newer than every source file of ui/, engine/ and workers/. */
export function ensureUiBuilt(): void {
  const index = path.join(repoRoot, 'dist/ui/index.html');
  const sources = ['ui', 'engine', 'workers'].map((d) => newestMtime(path.join(repoRoot, d)));
  if (existsSync(index) && statSync(index).mtimeMs > Math.max(...sources)) return;
  const r = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: repoRoot, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('vite build failed');
}

/** Starts the server with `env` overrides; resolves once GET /api/config answers. */
export async function startServer(env: Record<string, string> = {}, opts: StartOptions = {}): Promise<RunningServer> {
  if (opts.buildUi !== false) ensureUiBuilt();
  const port = await freePort();
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(tmpdir(), 'keelson-browser-'));
  const url = `http://127.0.0.1:${port}`;
  let log = '';
  let child: ChildProcess | null = null;
  const start = async (more: Record<string, string> = {}) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', 'api/server.ts'], {
      cwd: repoRoot,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DEMO_SHIP: 'false',
        ...env,
        ...more,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    proc.stdout!.on('data', (d) => (log += d));
    proc.stderr!.on('data', (d) => (log += d));
    // Generous: on a busy machine the first start compiles the server's TypeScript.
    const deadline = Date.now() + 180_000;
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`server exited early:\n${log}`);
      try {
        const r = await fetch(`${url}/api/config`);
        if (r.ok) break;
      } catch {
        /* not listening yet */
      }
      if (Date.now() > deadline) throw new Error(`server did not start within 180 s:\n${log}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  const halt = async () => {
    const proc = child;
    if (proc && proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      // A server that does not stop within 30 s is ended, so that no test leaves one behind.
      const force = setTimeout(() => proc.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(force);
    }
  };
  const crash = async () => {
    const proc = child;
    if (proc && proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGKILL');
      await exited;
    }
  };
  await start();
  return {
    url,
    dataDir,
    output: () => log,
    halt,
    start,
    crash,
    stop: async () => {
      await halt();
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
