/**
 * The `load` suite: BENCH_USERS (default 50 and 200) simulated engineers work with a real Keelson server for
 * BENCH_SECONDS (default 30) each, over HTTP: sign-in, the model list, opening a model (its object table and
 * its streamed `.sc` package), steel sections, quantities, reading and writing comments (some with an
 * attachment) and, now and then, a conversion. Targets: one server process on the embedded default
 * (SQLite, `node api/server.ts`), and — when `scripts/startCluster.mjs` is there — two processes behind
 * `npm run start:cluster -- 2` on a throwaway PostgreSQL cluster (Debian's server, as the api-pg tests use).
 * Reports per call kind p50/p95/p99 (ms) and errors, the throughput (calls/s) and the lost writes (acknowledged
 * comments missing afterwards). BENCH_LOAD_SQLITE=0 leaves out the SQLite target and BENCH_LOAD_CLUSTER=0 the
 * PostgreSQL one. The load generator runs on the same machine as the server: its CPU is part of
 * the figures, as it would be for users on the same host.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ServerClient } from '../../tests/support/serverClient';
import { startServerProcess } from '../../tests/support/serverProcess';
import type { BenchRow } from '../run';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SAMPLES = path.resolve(ROOT, '../shared/models/ocx');
const SHIP = 'NAPA-OCX_M8.3docx';
const CONVERTED = 'NAPA-OCX_M1.3docx';

/** Call kinds and their share of a user's actions (out of 100). */
const MIX: [Kind, number][] = [
  ['sign-in', 4],
  ['model list', 14],
  ['open model', 6],
  ['section', 14],
  ['quantities', 14],
  ['comments list', 16],
  ['add comment', 27],
  ['comment with attachment', 4],
  ['conversion', 1],
];
type Kind =
  | 'sign-in'
  | 'model list'
  | 'open model'
  | 'section'
  | 'quantities'
  | 'comments list'
  | 'add comment'
  | 'comment with attachment'
  | 'conversion';

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : Number.NaN;
};

/** A running target: its URL and how to stop it. */
interface Target {
  name: string;
  url: string;
  stop(): Promise<void>;
}

/** Starts `script` (with `args`) as a server on a fresh data directory; resolves once it answers. */
async function startProcess(
  name: string,
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<Target> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'keelson-load-'));
  const proc = await startServerProcess(
    { DATA_DIR: dataDir, DEMO_SHIP: 'false', ORGANIZATION_DOMAIN: 'yard.com', AUTH_RATE_LIMIT_PER_MIN: '0', ...env },
    { script, args, timeoutMs: 300_000 },
  ).catch(async (e) => {
    await rm(dataDir, { recursive: true, force: true });
    throw new Error(`${name}: ${(e as Error).message}`);
  });
  return {
    name,
    url: proc.url,
    async stop() {
      // SIGTERM: a cluster's primary stops its processes and exits.
      await proc.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** One call as `token` (JSON or multipart body): its status and JSON body (null for other bodies). */
function call(url: string, method: string, p: string, token: string, body?: unknown) {
  return new ServerClient(url, token).call(method, p, body);
}

/** What the users share: the model, its part names and frame range, the acknowledged comment ids. */
interface World {
  url: string;
  admin: string;
  names: string[];
  xs: number[];
  acked: Set<string>;
  conversions: number;
}

async function signUp(url: string, email: string, admin = false): Promise<string> {
  const c = new ServerClient(url);
  await c.signUp(email, admin);
  return c.token;
}

async function signIn(url: string, email: string): Promise<string> {
  const c = new ServerClient(url);
  await c.signIn(email);
  return c.token;
}

/** Uploads `file` as project `name` and waits for its conversion to end; @returns the final status. */
async function convert(url: string, token: string, name: string, file: string): Promise<number> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(await readFile(path.join(SAMPLES, file)))]), file);
  const up = await call(url, 'POST', `/api/viewer/project/add/project-uploaded?projectName=${name}`, token, form);
  if (up.status !== 200) return up.status;
  for (;;) {
    const c = await call(url, 'GET', `/api/viewer/project/model-conversion?projectName=${name}`, token);
    const status = (c.json as { status?: number } | null)?.status;
    if (c.status === 200 && status !== 1) return status === 2 ? 200 : 500;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function setUp(url: string): Promise<World> {
  const admin = await signUp(url, 'admin@yard.com', true);
  if ((await convert(url, admin, 'LOADSHIP', SHIP)) !== 200) throw new Error('the load model did not convert');
  const objects = await call(
    url,
    'GET',
    '/api/keelson-instance/model/objects?modelName=LOADSHIP&revision=latest',
    admin,
  );
  const rows = (objects.json as { objects: { name: string; type: string }[] }).objects;
  const names = rows.filter((o) => o.type === 'PLATE' || o.type === 'STIFFENER').map((o) => o.name);
  // Section positions (m) across the model's length: those the server answers.
  const xs: number[] = [];
  for (let x = 0; x <= 60 && xs.length < 12; x += 2.5) {
    const r = await call(
      url,
      'GET',
      `/api/keelson-instance/steel/section?modelName=LOADSHIP&axis=X&coordinate=${x}`,
      admin,
    );
    if (r.status === 200) xs.push(x);
  }
  if (!xs.length) throw new Error('no section position answered');
  return { url, admin, names: names.slice(0, 400), xs, acked: new Set(), conversions: 0 };
}

/** One user's action of `kind`. @returns whether it succeeded. */
async function act(w: World, kind: Kind, user: { email: string; token: string }, n: number): Promise<boolean> {
  const { url } = w;
  const place = 'projectName=LOADSHIP&projectVersionName=MAIN&projectRevisionNumber=1';
  switch (kind) {
    case 'sign-in':
      user.token = await signIn(url, user.email);
      return true;
    case 'model list':
      return (await call(url, 'GET', '/api/viewer/project/models', user.token)).status === 200;
    case 'open model': {
      const o = await call(
        url,
        'GET',
        '/api/keelson-instance/model/objects?modelName=LOADSHIP&revision=latest',
        user.token,
      );
      const p = await call(url, 'GET', '/api/keelson-static/models/LOADSHIP/latest/LOADSHIP.sc', user.token);
      return o.status === 200 && p.status === 200;
    }
    case 'section': {
      const x = w.xs[n % w.xs.length];
      return (
        (
          await call(
            url,
            'GET',
            `/api/keelson-instance/steel/section?modelName=LOADSHIP&axis=X&coordinate=${x}`,
            user.token,
          )
        ).status === 200
      );
    }
    case 'quantities': {
      const start = (n * 7) % Math.max(1, w.names.length - 20);
      const r = await call(
        url,
        'POST',
        '/api/keelson-instance/steel/quantities?modelName=LOADSHIP&qnts=W',
        user.token,
        w.names.slice(start, start + 20),
      );
      return r.status === 200;
    }
    case 'comments list':
      return (
        (
          await call(
            url,
            'GET',
            '/api/keelson-static/comments/all?projectName=LOADSHIP&projectVersionName=MAIN',
            user.token,
          )
        ).status === 200
      );
    case 'add comment':
    case 'comment with attachment': {
      const comment: Record<string, unknown> = { message: `Check weld at frame ${n % 120} (${user.email})` };
      if (kind === 'comment with attachment') {
        const form = new FormData();
        form.append('file', new Blob([`measured gap ${n} mm\n`.repeat(500)]), `note-${n}.txt`);
        const a = await call(
          url,
          'POST',
          '/api/keelson-static/comments/upload-attachment?projectName=LOADSHIP',
          user.token,
          form,
        );
        if (a.status !== 200) return false;
        comment.attachments = [{ fileId: (a.json as { fileId: string }).fileId }];
      }
      const r = await call(url, 'POST', `/api/keelson-static/comments/add-thread?${place}`, user.token, { comment });
      if (r.status !== 200) return false;
      w.acked.add((r.json as { id: string }).id);
      return true;
    }
    case 'conversion':
      return (await convert(url, w.admin, `LOADCONV${w.conversions++}`, CONVERTED)) === 200;
  }
}

/** `users` users for `seconds`; rows named after `target`. */
async function runLoad(w: World, target: string, users: number, seconds: number): Promise<BenchRow[]> {
  const accounts: { email: string; token: string }[] = [];
  for (let i = 0; i < users; i++) {
    const email = `engineer${i}@yard.com`;
    let token: string;
    try {
      token = await signIn(w.url, email);
    } catch {
      token = await signUp(w.url, email);
    }
    accounts.push({ email, token });
  }
  const wheel: Kind[] = MIX.flatMap(([k, share]) => Array<Kind>(share).fill(k));
  const lat = new Map<Kind, number[]>(MIX.map(([k]) => [k, []]));
  const errors = new Map<Kind, number>(MIX.map(([k]) => [k, 0]));
  const ackedBefore = w.acked.size;
  const end = Date.now() + seconds * 1000;
  let seq = 0;
  const t0 = performance.now();
  await Promise.all(
    accounts.map(async (user) => {
      while (Date.now() < end) {
        const n = seq++;
        // A fixed spread over the wheel (n × a prime), so every kind comes up at its share.
        const kind = wheel[(n * 37) % wheel.length];
        const t = performance.now();
        let ok = false;
        try {
          ok = await act(w, kind, user, n);
        } catch {
          ok = false;
        }
        if (ok) lat.get(kind)?.push(performance.now() - t);
        else errors.set(kind, (errors.get(kind) ?? 0) + 1);
      }
    }),
  );
  const wall = (performance.now() - t0) / 1000;
  const all = await call(
    w.url,
    'GET',
    '/api/keelson-static/comments/all?projectName=LOADSHIP&projectVersionName=MAIN',
    w.admin,
  );
  const stored = new Set((all.json as { id: string }[]).map((c) => c.id));
  const lost = [...w.acked].filter((id) => !stored.has(id)).length;
  const calls = [...lat.values()].reduce((s, xs) => s + xs.length, 0);
  const failed = [...errors.values()].reduce((s, x) => s + x, 0);
  const tag = `${target}, ${users} users`;
  const rows: BenchRow[] = [
    { suite: 'load', case: `${tag}: throughput`, value: calls / wall, unit: 'calls/s' },
    { suite: 'load', case: `${tag}: errors`, value: failed, unit: 'calls' },
    { suite: 'load', case: `${tag}: comments acknowledged`, value: w.acked.size - ackedBefore, unit: 'writes' },
    { suite: 'load', case: `${tag}: lost writes`, value: lost, unit: 'writes' },
  ];
  for (const [kind, xs] of lat) {
    if (!xs.length && !errors.get(kind)) continue;
    rows.push({
      suite: 'load',
      case: `${tag}: ${kind} p50 / p95 / p99 (n=${xs.length}, errors ${errors.get(kind)})`,
      value: quantile(xs, 0.5),
      unit: `ms / ${quantile(xs, 0.95).toFixed(1)} / ${quantile(xs, 0.99).toFixed(1)}`,
    });
  }
  return rows;
}

/** Runs the suite; rows for bench/run.ts's table. */
export async function loadSuite(): Promise<BenchRow[]> {
  const userCounts = (process.env.BENCH_USERS ?? '50,200')
    .split(',')
    .map(Number)
    .filter((n) => n > 0);
  const seconds = Number(process.env.BENCH_SECONDS ?? 30);
  const rows: BenchRow[] = [];
  const targets: { name: string; start: () => Promise<{ target: Target; cleanup: () => Promise<void> }> }[] = [];
  if (process.env.BENCH_LOAD_SQLITE !== '0')
    targets.push({
      name: 'one process (SQLite)',
      start: async () => {
        const target = await startProcess('one process', 'api/server.ts', [], {});
        return { target, cleanup: async () => {} };
      },
    });
  if (existsSync(path.join(ROOT, 'scripts/startCluster.mjs')) && process.env.BENCH_LOAD_CLUSTER !== '0')
    targets.push({
      name: 'two processes (PostgreSQL)',
      start: async () => {
        const { startPgCluster } = await import('../../tests/support/pgCluster');
        const { withDatabase } = await import('../../api/db/postgres');
        const pg = await startPgCluster();
        try {
          const target = await startProcess('two processes', 'scripts/startCluster.mjs', ['2', '--no-build'], {
            DATABASE_URL: withDatabase(pg.url, 'keelson_load'),
          });
          return { target, cleanup: async () => pg.stop() };
        } catch (e) {
          pg.stop();
          throw e;
        }
      },
    });
  for (const t of targets) {
    console.error(`load bench: starting ${t.name} …`);
    const { target, cleanup } = await t.start();
    try {
      const w = await setUp(target.url);
      for (const users of userCounts) {
        console.error(`load bench: ${t.name}, ${users} users for ${seconds} s …`);
        rows.push(...(await runLoad(w, t.name, users, seconds)));
      }
    } finally {
      await target.stop();
      await cleanup();
    }
  }
  return rows;
}
