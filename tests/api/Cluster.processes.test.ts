/**
 * Several server processes on one PostgreSQL database and one DATA_DIR (README "Running at scale"), as real
 * child processes with real socket.io clients: a project uploaded on process A is watched converting from a
 * client connected to process B (the conversion pauses for its CAD files, so B joins its room before it can
 * end; the Continue goes to B, which takes the rest, and B's client hears the resume, the end, and the start and
 * the end announced once each), a comment written on A reaches B's client, and a user deleted on A
 * gets the notice and is disconnected on B — once with the socket.io PostgreSQL adapter and once with the Redis
 * adapter (REALTIME=redis on a throwaway Debian redis-server, with the revisions in a local s3rver bucket,
 * STORAGE=s3), each surviving its connections being cut (api/realtime.ts); B streams the package A stored. `npm run
 * start:cluster -- 2` serves clients spread over both of its processes on one port, every one of them
 * getting the comment, and refuses SQLite with a clear error. The PostgreSQL parts run in the 'api-pg'
 * project (its throwaway cluster); the SQLite refusal in 'unit'.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Socket } from 'socket.io-client';
import pg from 'pg';
import * as v from 'valibot';
import { afterAll, describe, expect, inject, it } from 'vitest';
import {
  CAD_FILES_EVENT,
  CadFilesStateSchema,
  COMMENT_EVENT,
  CommentEventSchema,
  ConversionStatus,
  PROJECTS_CHANGED_EVENT,
  type ProgressEvent,
  ProgressEventSchema,
  UploadResponseSchema,
  UserNotificationSchema,
} from '../../api/contract';
import { createClient } from 'redis';
import { withDatabase } from '../../api/db/postgres';
import { type JoinReply, REALTIME_APPLICATION_NAME } from '../../api/realtime';
import { writeCadShip } from '../support/cadShip';
import { startRedis, type TestRedis } from '../support/redisServer';
import { startS3Server, type TestS3Server } from '../support/s3Server';
import { ROOT, type ServerProcess, startServerProcess } from '../support/serverProcess';
import { bearer, multipartFile, SAMPLES } from './helpers';
import { openSocket } from '../support/realtimeClient';

const pgUrl = inject('pgUrl') as string | undefined;
const COMMENTS = '/api/keelson-static/comments';
const ADMIN = 'admin@yard.com';
const READER = 'reader@yard.com';
const PASSWORD = 'secret-password';

const started: ServerProcess[] = [];
const sockets: Socket[] = [];
const dirs: string[] = [];
let redis: TestRedis | undefined;
let s3: TestS3Server | undefined;
afterAll(async () => {
  for (const s of sockets) s.close();
  await Promise.all(started.map((p) => p.stop()));
  await redis?.stop();
  await s3?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** How the realtime adapter's connections are counted and cut (as by a restart of the server behind them). */
interface AdapterLinks {
  /** Adapter connections subscribed now (one per server process when all are listening). */
  listening(): Promise<number>;
  cut(): Promise<void>;
  close(): Promise<void>;
}

/** The adapters the scenario runs with: the server's extra environment and their connections. */
const ADAPTERS: {
  name: string;
  env: () => Promise<Record<string, string>>;
  links: (store: { DATABASE_URL: string }) => Promise<AdapterLinks>;
}[] = [
  {
    name: 'the PostgreSQL adapter',
    env: async () => ({}),
    links: async (store) => {
      const db = new pg.Client({ connectionString: store.DATABASE_URL });
      await db.connect();
      // pg_terminate_backend only signals: a cut backend stays in pg_stat_activity (still 'listening') for a
      // moment, so the connections cut are never counted again.
      let cutPids: number[] = [];
      return {
        listening: async () =>
          (
            await db.query(
              "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database() AND query LIKE 'LISTEN%' AND pid <> ALL($2::int[])",
              [REALTIME_APPLICATION_NAME, cutPids],
            )
          ).rows[0].n as number,
        cut: async () => {
          const { rows } = await db.query(
            'SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()',
            [REALTIME_APPLICATION_NAME],
          );
          const pids = rows.map((r: { pid: number }) => r.pid);
          await db.query('SELECT pg_terminate_backend(p) FROM unnest($1::int[]) AS p', [pids]);
          cutPids = [...cutPids, ...pids];
        },
        close: () => db.end(),
      };
    },
  },
  {
    name: 'the Redis adapter (REALTIME=redis) and the revisions in S3 (STORAGE=s3)',
    env: async () => {
      redis ??= await startRedis();
      s3 ??= await startS3Server();
      return { REALTIME: 'redis', REDIS_URL: redis.url, ...s3.env };
    },
    links: async () => {
      const admin = createClient({ url: redis?.url });
      await admin.connect();
      return {
        // The subscribing client of each process (the publishing ones are type 'normal').
        listening: async () =>
          (await admin.sendCommand(['CLIENT', 'LIST', 'TYPE', 'pubsub']))
            .toString()
            .split('\n')
            .filter((l) => l.trim()).length,
        cut: async () => {
          await admin.sendCommand(['CLIENT', 'KILL', 'TYPE', 'pubsub']);
          await admin.sendCommand(['CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes']);
        },
        close: () => admin.close(),
      };
    },
  },
];

/** A fresh DATA_DIR and database of the test cluster (each scenario its own). */
function freshStore(): { DATA_DIR: string; DATABASE_URL: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'keelson-cluster-'));
  dirs.push(dir);
  const db = `keelson_cluster_${path
    .basename(dir)
    .replace(/[^a-z0-9]/gi, '')
    .toLowerCase()}`;
  return { DATA_DIR: dir, DATABASE_URL: withDatabase(pgUrl ?? '', db) };
}

async function http(base: string, token: string | null, method: string, url: string, body?: unknown) {
  const r = await fetch(`${base}${url}`, {
    method,
    headers: { ...(token ? bearer(token) : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  if (r.status !== 200) throw new Error(`${method} ${url}: ${r.status} ${text}`);
  return text ? (JSON.parse(text) as unknown) : null;
}

/** Registers on `base` (the first user as administrator) and signs in there; returns the token. */
async function signUp(base: string, email: string, admin: boolean): Promise<string> {
  await http(base, null, 'POST', '/api/auth/viewer/default/register', {
    email,
    password: PASSWORD,
    fullName: email.split('@')[0],
    requirePasswordReset: false,
    adminEmail: '',
    registerAdmin: admin,
  });
  return signIn(base, email);
}

async function signIn(base: string, email: string): Promise<string> {
  const r = (await http(base, null, 'POST', '/api/auth/viewer/default/login', { email, password: PASSWORD })) as {
    token: string;
  };
  return r.token;
}

const open = (base: string, token: string): Promise<Socket> => openSocket(base, { token }, sockets);

async function join(s: Socket, room: string): Promise<void> {
  const ack = (await s.emitWithAck('join', room)) as JoinReply;
  expect(ack).toMatchObject({ ok: true });
}

/** The first `event` on `s` whose payload passes `test`. */
function next<T>(s: Socket, event: string, test: (e: T) => boolean = () => true): Promise<T> {
  return new Promise((resolve) => {
    const on = (e: T) => {
      if (!test(e)) return;
      s.off(event, on);
      resolve(e);
    };
    s.on(event, on);
  });
}

async function upload(base: string, token: string, file: string, project: string): Promise<string> {
  const { payload, headers } = multipartFile(path.basename(file), readFileSync(path.resolve(SAMPLES, file)));
  const r = await fetch(`${base}/api/viewer/project/add/project-uploaded?projectName=${project}`, {
    method: 'POST',
    body: new Uint8Array(payload),
    headers: { ...headers, ...bearer(token) },
  });
  expect(r.status).toBe(200);
  return v.parse(UploadResponseSchema, await r.json()).conversionId;
}

const place = (project: string) =>
  new URLSearchParams({ projectName: project, projectVersionName: 'MAIN', projectRevisionNumber: '1' }).toString();

describe.skipIf(!pgUrl).each(ADAPTERS)('two server processes on one PostgreSQL database, $name', (adapter) => {
  it('upload on A, watch progress on B, comment on A, see it on B; a user deleted on A leaves B', async () => {
    const store = freshStore();
    const env = { ...store, DEMO_SHIP: 'false', CONVERT_IN_WORKERS: 'false', ...(await adapter.env()) };
    // One after the other: a starting server marks conversions left running by a stopped one as failed.
    const a = await startServerProcess(env);
    started.push(a);
    const b = await startServerProcess(env);
    started.push(b);

    // One JWT secret (created once in the shared DATA_DIR): A's token opens B's socket and B's routes.
    const admin = await signUp(a.url, ADMIN, true);
    const onB = await open(b.url, admin);
    const changed: string[] = [];
    const startedAndEnded = new Promise<void>((resolve) =>
      onB.on(PROJECTS_CHANGED_EVENT, (e: { projectName: string }) => {
        changed.push(e.projectName);
        if (changed.length === 2) resolve();
      }),
    );
    const progress: ProgressEvent[] = [];
    onB.on('progress', (e: unknown) => progress.push(v.parse(ProgressEventSchema, e)));
    const ended = next<unknown>(onB, 'progress', (e) => {
      const s = v.parse(ProgressEventSchema, e).status;
      return s !== ConversionStatus.InProgress && s !== ConversionStatus.Warning;
    });

    // With CAD components on, the generator's ship pauses for its equipment's CAD files on A.
    await http(a.url, admin, 'PATCH', '/api/default/viewer/config/conversion', {
      cadComponents: true,
      screenshot: false,
    });
    const ship = path.join(store.DATA_DIR, 'spread.3docx');
    await writeCadShip(ship, 'SPREAD', {});
    const conversionId = await upload(a.url, admin, ship, 'SPREAD');
    await join(onB, conversionId);
    const resumed = next<unknown>(onB, CAD_FILES_EVENT, (e) => !v.parse(CadFilesStateSchema, e).waiting);
    // The pause is A's (409 until the model part is converted).
    for (;;) {
      const r = await fetch(`${a.url}/api/viewer/project/cad-files-state?projectName=SPREAD`, {
        headers: bearer(admin),
      });
      if (r.status === 200 && v.parse(CadFilesStateSchema, await r.json()).waiting) break;
      expect(progress.some((e) => e.status !== ConversionStatus.InProgress)).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Continue without the files, sent to B: the pause is a database record, so B continues what A
    // converted; the components stay without geometry (warnings), the revision is made.
    await http(b.url, admin, 'POST', '/api/viewer/project/notify-cad-files-uploaded?projectName=SPREAD', {
      fileNames: [],
    });
    expect(v.parse(CadFilesStateSchema, await resumed)).toMatchObject({ conversionId, waiting: false });
    await ended;
    // (the message says why when a conversion ends otherwise)
    expect(progress.at(-1), JSON.stringify(progress.at(-1))).toMatchObject({
      conversionId,
      projectName: 'SPREAD',
      status: ConversionStatus.Ready,
    });
    for (let i = 1; i < progress.length; i++)
      expect(progress[i].progress).toBeGreaterThanOrEqual(progress[i - 1].progress);
    // Announced to every signed-in client once when it started and once when it ended.
    await startedAndEnded;
    expect(changed).toEqual(['SPREAD', 'SPREAD']);
    const models = (await http(b.url, admin, 'GET', '/api/viewer/project/models')) as { projectName: string }[];
    expect(JSON.stringify(models)).toContain('SPREAD');
    // The revision A stored streams from B (the shared revision store: DATA_DIR, or the S3 bucket).
    const sc = await fetch(`${b.url}/api/keelson-static/models/SPREAD/latest/SPREAD.sc`, { headers: bearer(admin) });
    expect(sc.status).toBe(200);
    expect(
      Buffer.from(await sc.arrayBuffer())
        .subarray(0, 4)
        .toString('latin1'),
    ).toBe('KSC1');

    await join(onB, 'project:SPREAD');
    const seen = next<unknown>(onB, COMMENT_EVENT);
    await http(a.url, admin, 'POST', `${COMMENTS}/add-thread?${place('SPREAD')}`, {
      comment: { message: 'Written on A' },
    });
    const e = v.parse(CommentEventSchema, await seen);
    expect(e.kind === 'threadChanged' && e.thread.message).toBe('Written on A');

    // The adapter's connections cut (as by a restart of the database or of Redis): both processes keep
    // running, listen again, and the next comment reaches B. A push made while a process is not listening
    // is lost to it (publish/subscribe keeps nothing), so the comment waits until both listen again.
    const links = await adapter.links(store);
    expect(await links.listening()).toBe(2);
    await links.cut();
    while ((await links.listening()) < 2) {
      expect([a.child.exitCode, b.child.exitCode]).toEqual([null, null]);
      await new Promise((r) => setTimeout(r, 100));
    }
    await links.close();
    const again = next<unknown>(onB, COMMENT_EVENT);
    await http(a.url, admin, 'POST', `${COMMENTS}/add-thread?${place('SPREAD')}`, {
      comment: { message: 'Written on A after the cut' },
    });
    const e2 = v.parse(CommentEventSchema, await again);
    expect(e2.kind === 'threadChanged' && e2.thread.message).toBe('Written on A after the cut');

    // The reader is signed in on B; the administrator deletes the account on A.
    const reader = await open(b.url, await signUp(b.url, READER, false));
    await join(reader, READER);
    const notice = next<unknown>(reader, 'userNotification');
    const gone = new Promise<string>((resolve) => reader.on('disconnect', (why) => resolve(why)));
    await http(a.url, admin, 'DELETE', `/api/default/viewer/users?email=${encodeURIComponent(READER)}`);
    expect(v.parse(UserNotificationSchema, await notice)).toEqual({ kind: 'user-deleted', email: READER });
    expect(await gone).toBe('io server disconnect');
    // B's own clients stay connected while A stops.
    expect(await a.stop()).toBe(0);
    expect(onB.connected).toBe(true);
    // Two server processes started one after the other, a conversion and a user deletion: on a CI machine
    // busy with other test files this has taken over two minutes.
  }, 300_000);
});

describe.skipIf(!pgUrl)('npm run start:cluster on PostgreSQL', () => {
  it('npm run start:cluster -- 2 spreads clients over both processes on one port; each gets the comment', async () => {
    const store = freshStore();
    const cluster = await startServerProcess(
      { ...store, DEMO_SHIP: 'false', CONVERT_IN_WORKERS: 'false' },
      {
        script: 'scripts/startCluster.mjs',
        args: ['2', '--no-build'],
        readyLine: 'Keelson cluster: 2 server processes',
      },
    );
    started.push(cluster);
    const admin = await signUp(cluster.url, ADMIN, true);
    const watcher = await open(cluster.url, admin);
    const ended = next<{ status: number }>(watcher, 'progress', (e) => e.status === ConversionStatus.Ready);
    await join(watcher, await upload(cluster.url, admin, 'NAPA-OCX_M1.3docx', 'BALANCED'));
    await ended;

    const clients = await Promise.all([1, 2, 3, 4, 5, 6].map(() => open(cluster.url, admin)));
    for (const c of clients) await join(c, 'project:BALANCED');
    // The processes holding the clients' connections: both of the cluster's server processes.
    const holders = new Set(
      execFileSync('ss', ['-Htnp', 'state', 'established', `( sport = :${cluster.port} )`], { encoding: 'utf8' })
        .split('\n')
        .flatMap((line) => [...line.matchAll(/pid=(\d+)/g)].map((m) => m[1])),
    );
    holders.delete(String(cluster.child.pid));
    expect(holders.size).toBe(2);

    const got = Promise.all(clients.map((c) => next<unknown>(c, COMMENT_EVENT)));
    await http(cluster.url, admin, 'POST', `${COMMENTS}/add-thread?${place('BALANCED')}`, {
      comment: { message: 'To every process' },
    });
    for (const e of await got) {
      const ev = v.parse(CommentEventSchema, e);
      expect(ev.kind === 'threadChanged' && ev.thread.message).toBe('To every process');
    }
    expect(await cluster.stop()).toBe(0);
  });
});

describe.skipIf(pgUrl)('npm run start:cluster on SQLite', () => {
  it('refuses to start without a PostgreSQL DATABASE_URL', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'keelson-cluster-'));
    dirs.push(dir);
    let failure = '';
    try {
      execFileSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/startCluster.mjs'), '2'], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: '', DATA_DIR: dir },
        encoding: 'utf8',
        stdio: 'pipe',
      });
    } catch (e) {
      const err = e as { status: number; stderr: string };
      failure = `${err.status} ${err.stderr}`;
    }
    expect(failure).toContain('1 npm run start:cluster needs PostgreSQL: set DATABASE_URL=postgres://');
  });
});
