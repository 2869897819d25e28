// `npm run start:cluster -- N [--no-build]`: N Keelson server processes (api/server.ts) on one port behind
// Node's cluster module, all on the PostgreSQL database of DATABASE_URL and the one DATA_DIR (README "Running
// at scale"). The primary accepts connections and hands them to the processes in turn; the realtime channel
// is websocket-only (one TCP connection per client, which stays with the process that accepted it), so no
// sticky sessions are needed, and the socket.io PostgreSQL adapter (api/realtime.ts) carries pushes between
// the processes. Run with tsx (package.json) so the DATABASE_URL check is the server's own (api/config.ts).
import cluster from 'node:cluster';
import os from 'node:os';
import path from 'node:path';
import { databaseConfig } from '../api/config.ts';
import { prepareUi, root } from './prepareUi.mjs';

/** Most processes one start may ask for. */
const MAX_PROCESSES = 64;
/** A process that dies sooner than this after starting is not replaced (it would only die again). */
const MIN_UPTIME_MS = 30_000;

function fail(message) {
  console.error(message);
  process.exit(1);
}

const args = process.argv.slice(2);
const build = !args.includes('--no-build');
const counts = args.filter((a) => a !== '--no-build');
const count = counts.length === 0 ? os.availableParallelism() : Number(counts[0]);
if (counts.length > 1 || !Number.isInteger(count) || count < 1 || count > MAX_PROCESSES)
  fail(
    `Usage: npm run start:cluster -- N [--no-build]  (N server processes, 1 to ${MAX_PROCESSES}; got "${args.join(' ')}")`,
  );

let database;
try {
  database = databaseConfig(process.env.DATABASE_URL);
} catch (e) {
  fail(e instanceof Error ? e.message : String(e));
}
if (database.kind !== 'postgres')
  fail(
    'npm run start:cluster needs PostgreSQL: set DATABASE_URL=postgres://user:password@host:port/database ' +
      '(several processes cannot share the SQLite file; npm start runs one process on SQLite).',
  );

if (build) prepareUi();
cluster.setupPrimary({ exec: path.join(root, 'api/server.ts'), execArgv: ['--import', 'tsx'], cwd: root });

let stopping = false;
let exitCode = 0;
const started = new Map();

/**
 * Starts process `n` and resolves once it listens. Only the last of the first start may import the demo
 * ship: the others have finished their start-up (which marks conversions left running by a stopped
 * server as failed) by then.
 */
function fork(n, demo) {
  const worker = cluster.fork({ KEELSON_PROCESS: String(n), ...(demo ? {} : { DEMO_SHIP: 'false' }) });
  started.set(worker.id, { n, at: Date.now() });
  return new Promise((resolve, reject) => {
    worker.once('listening', () => resolve(worker));
    worker.once('exit', (code, signal) =>
      reject(new Error(`Server process ${n} stopped while starting (${signal ?? code})`)),
    );
  });
}

cluster.on('exit', (worker, code, signal) => {
  const s = started.get(worker.id);
  started.delete(worker.id);
  if (stopping || !s) return;
  console.error(`Server process ${s.n} stopped (${signal ?? `exit code ${code}`})`);
  if (Date.now() - s.at < MIN_UPTIME_MS) return;
  fork(s.n, false).catch((e) => console.error(e.message));
});

function stop(signal) {
  if (stopping) return;
  stopping = true;
  for (const w of Object.values(cluster.workers ?? {})) w?.process.kill(signal);
  const done = () => {
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
  };
  cluster.on('exit', done);
  done();
}
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));

try {
  for (let n = 1; n <= count; n++) await fork(n, n === count);
} catch (e) {
  console.error(e instanceof Error ? e.message : String(e));
  exitCode = 1;
  stop('SIGTERM');
}
if (!stopping) console.log(`Keelson cluster: ${count} server processes on port ${process.env.PORT || 8080}`);
