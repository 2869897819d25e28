/**
 * A throwaway PostgreSQL cluster for tests: initdb into a temp directory, the server on a free local
 * port (127.0.0.1) with its socket in that directory, stopped and removed by `stop`. When run as root
 * (CI containers) the server runs as Debian's `postgres` user: PostgreSQL refuses to run as root.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pgBinary } from '../../api/db/pgBinaries';
import { freePort } from './serverProcess';

/** A running cluster: `url` reaches its maintenance database as superuser `postgres` (trust auth). */
export interface PgCluster {
  url: string;
  port: number;
  /**
   * Restarts the server (fast shutdown: open connections are ended) without blocking this process's event
   * loop; resolves once it accepts connections again.
   */
  restart(): Promise<void>;
  stop(): void;
}

/** uid/gid of the `postgres` user when this process is root, else none (run as ourselves). */
function runAs(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

function run(bin: string, args: string[], user: { uid: number; gid: number } | null, log?: string): void {
  const r = spawnSync(pgBinary(bin), args, {
    encoding: 'utf8',
    ...(user ? { uid: user.uid, gid: user.gid } : {}),
    env: { ...process.env, LC_ALL: 'C' },
  });
  if (r.status !== 0) {
    const tail = log ? readFileSync(log, 'utf8').slice(-2000) : '';
    throw new Error(`${bin} ${args.join(' ')} failed (${r.status}): ${r.stderr || r.error}\n${tail}`);
  }
}

/**
 * Starts a cluster tuned for tests (no fsync: the data is thrown away), UTF-8 with the C locale so text
 * sorts as in SQLite. @throws Error with the server's log when it does not start.
 */
export async function startPgCluster(): Promise<PgCluster> {
  const user = runAs();
  const root = mkdtempSync(path.join(os.tmpdir(), 'keelson-pg-'));
  const data = path.join(root, 'data');
  const sock = path.join(root, 'sock');
  const log = path.join(root, 'server.log');
  mkdirSync(sock);
  if (user) for (const d of [root, sock]) chownSync(d, user.uid, user.gid);
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-locale', '--no-sync'], user);
  const port = await freePort();
  const options = [
    `-p ${port}`,
    `-k ${sock}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=400',
    '-c shared_buffers=32MB',
  ].join(' ');
  run('pg_ctl', ['-D', data, '-o', options, '-l', log, '-w', '-t', '120', 'start'], user, log);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    restart() {
      const args = ['-D', data, '-o', options, '-l', log, '-m', 'fast', '-w', '-t', '120', 'restart'];
      return new Promise<void>((resolve, reject) =>
        execFile(
          pgBinary('pg_ctl'),
          args,
          { ...(user ? { uid: user.uid, gid: user.gid } : {}), env: { ...process.env, LC_ALL: 'C' } },
          (e, _out, err) => (e ? reject(new Error(`pg_ctl restart failed: ${err || e.message}`)) : resolve()),
        ),
      );
    },
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'], user);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
}
