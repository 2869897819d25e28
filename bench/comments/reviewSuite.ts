/**
 * The `review` suite: REVIEWERS (default 50) signed-in reviewers post threads and replies and read the
 * thread list of one project for BENCH_SECONDS (default 60) over real HTTP against a listening server,
 * each with a socket.io client in the project's room. Reports p50/p95 per call, the error count, whether
 * every acknowledged write is stored (no lost write) and whether every client received every push.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { io as connect, type Socket } from 'socket.io-client';
import { buildApp } from '../../api/app';
import { loadConfig } from '../../api/config';
import { COMMENT_EVENT } from '../../api/contract/comments';
import { attachRealtime } from '../../api/realtime';
import type { BenchRow } from '../run';

const SAMPLE = path.resolve(import.meta.dirname, '../../../shared/models/ocx/NAPA-OCX_M1.3docx');

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN;
};

/** Runs the load scenario; rows for the results table. */
export async function reviewSuite(): Promise<BenchRow[]> {
  const reviewers = Number(process.env.REVIEWERS ?? 50);
  const seconds = Number(process.env.BENCH_SECONDS ?? 60);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'keelson-review-'));
  const config = loadConfig(
    {},
    {
      dataDir,
      demoShip: false,
      useWorkerThreads: false,
      jwtSecret: 'bench-secret-0123456789',
      authRateLimitPerMin: 0,
      organizationDomain: 'yard.com',
    },
  );
  const app = await buildApp(config);
  attachRealtime(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const sockets: Socket[] = [];
  try {
    const json = async (method: string, p: string, token: string, body?: unknown) => {
      const r = await fetch(`${url}${p}`, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (r.status !== 200) throw new Error(`${method} ${p}: ${r.status} ${await r.text()}`);
      return r.json() as Promise<Record<string, unknown>>;
    };
    const signUp = async (email: string, admin = false) => {
      await json('POST', '/api/auth/viewer/default/register', '', {
        email,
        password: 'secret-password',
        fullName: email.split('@')[0],
        requirePasswordReset: false,
        adminEmail: '',
        registerAdmin: admin,
      });
      return (await json('POST', '/api/auth/viewer/default/login', '', { email, password: 'secret-password' }))
        .token as string;
    };
    const admin = await signUp('admin@yard.com', true);
    const form = new FormData();
    form.append('file', new Blob([await readFile(SAMPLE)]), 'REVIEW.3docx');
    const up = await fetch(`${url}/api/viewer/project/add/project-uploaded?projectName=REVIEW`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
      body: form,
    });
    await app.ctx.conversions.wait(((await up.json()) as { conversionId: string }).conversionId);
    // Users of the organisation's domain get access to every existing project when they register.
    const tokens: string[] = [];
    for (let i = 0; i < reviewers; i++) tokens.push(await signUp(`reviewer${i}@yard.com`));
    const received = tokens.map(() => 0);
    for (const [i, token] of tokens.entries()) {
      const s = connect(url, {
        path: '/api/socket.io',
        transports: ['websocket'],
        auth: { token },
        reconnection: false,
      });
      sockets.push(s);
      await new Promise<void>((resolve, reject) => {
        s.on('connect', () => resolve());
        s.on('connect_error', reject);
      });
      await s.emitWithAck('join', 'project:REVIEW');
      s.on(COMMENT_EVENT, () => received[i]++);
    }

    const lat: Record<'add-thread' | 'add-reply' | 'all', number[]> = { 'add-thread': [], 'add-reply': [], all: [] };
    let errors = 0;
    let writes = 0;
    const threadIds: string[] = [];
    const place = 'projectName=REVIEW&projectVersionName=MAIN&projectRevisionNumber=1';
    const end = Date.now() + seconds * 1000;
    let seq = 0;
    await Promise.all(
      tokens.map(async (token, i) => {
        while (Date.now() < end) {
          const n = seq++;
          const kind = n % 10 < 3 ? 'add-thread' : n % 10 < 6 && threadIds.length ? 'add-reply' : 'all';
          const t = performance.now();
          try {
            if (kind === 'add-thread') {
              const c = await json('POST', `/api/keelson-static/comments/add-thread?${place}`, token, {
                comment: { message: `Finding ${n} by reviewer ${i}`, labels: [`deck ${n % 7}`] },
              });
              threadIds.push(c.id as string);
              writes++;
            } else if (kind === 'add-reply') {
              const id = threadIds[n % threadIds.length];
              await json('POST', `/api/keelson-static/comments/add-reply?${place}&threadId=${id}`, token, {
                comment: { message: `Reply ${n} by reviewer ${i}` },
              });
              writes++;
            } else await json('GET', '/api/keelson-static/comments/all?projectName=REVIEW', token);
            lat[kind].push(performance.now() - t);
          } catch {
            errors++;
          }
        }
      }),
    );
    const stored = await app.ctx.db
      .selectFrom('comments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_name', '=', 'REVIEW')
      .executeTakeFirstOrThrow();
    // Pushes still in flight arrive within a moment of the last write.
    const deadline = Date.now() + 10_000;
    while (received.some((r) => r < writes) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const rows: BenchRow[] = [
      { suite: 'review', case: 'reviewers', value: reviewers, unit: 'users' },
      { suite: 'review', case: 'duration', value: seconds, unit: 's' },
      { suite: 'review', case: 'errors', value: errors, unit: 'calls' },
      { suite: 'review', case: 'writes acknowledged', value: writes, unit: 'comments' },
      { suite: 'review', case: 'writes stored (lost = difference)', value: Number(stored.n), unit: 'comments' },
      {
        suite: 'review',
        case: 'clients that received every push',
        value: received.filter((r) => r === writes).length,
        unit: 'clients',
      },
    ];
    for (const [k, xs] of Object.entries(lat)) {
      rows.push({ suite: 'review', case: `${k} calls`, value: xs.length, unit: 'calls' });
      rows.push({ suite: 'review', case: `${k} p50`, value: quantile(xs, 0.5), unit: 'ms' });
      rows.push({ suite: 'review', case: `${k} p95`, value: quantile(xs, 0.95), unit: 'ms' });
    }
    return rows;
  } finally {
    for (const s of sockets) s.close();
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
