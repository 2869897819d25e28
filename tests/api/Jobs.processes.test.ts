/**
 * Conversion jobs survive their server process (README "Running at scale"): real server processes
 * (node --import tsx api/server.ts) on the test PostgreSQL cluster share a data directory with an instance
 * in this test. A process killed with SIGKILL during a conversion: after JOB_TIMEOUT_SEC the other
 * instance takes the job again and commits exactly one revision, and an upload the killed process was
 * receiving fails with a true status and leaves no file. A process stopped with SIGTERM answers
 * readiness 503 at once and finishes its conversion within the grace period; with no grace period it hands
 * the conversion back and the other instance completes it. Skipped on SQLite (one process there).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../api/app';
import { ConversionStatus } from '../../api/contract/common';
import { inProcessRunner } from '../../api/conversion/runners';
import { writeShipOcx } from '../../tools/generator/generateShip';
import { pgDatabaseFor } from '../support/pgSetup';
import { jobsTestConfig, signUp } from './helpers';
import { freePort } from '../support/serverProcess';

const onPostgres = Boolean(inject('pgUrl'));
const ROOT = path.resolve(__dirname, '../..');
/** A generated ship big enough that its conversion is still running when the test acts on it, on a quiet machine too (several seconds; progress reaches the database once a second; 20,000 parts once converted too fast to catch below half). */
const SHIP_PARTS = 40_000;
const SECRET = 'test-secret-0123456789';
/** JOB_TIMEOUT_SEC of every instance: how long a silent holder lives. */
const TIMEOUT_SEC = 5;

async function until(check: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 50));
}

/** A server process on the shared data directory and database; resolves once it is ready. */
async function startServer(dataDir: string, env: Record<string, string>): Promise<{ proc: ChildProcess; url: string }> {
  const port = await freePort();
  const proc = spawn(process.execPath, ['--import', 'tsx', 'api/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: pgDatabaseFor(dataDir).kind === 'postgres' ? (pgDatabaseFor(dataDir) as { url: string }).url : '',
      PORT: String(port),
      HOST: '127.0.0.1',
      JWT_SECRET: SECRET,
      LOG: 'false',
      DEMO_SHIP: 'false',
      // Conversions in worker threads, as in production: the heartbeat keeps beating while one runs.
      CONVERT_IN_WORKERS: 'true',
      JOB_TIMEOUT_SEC: String(TIMEOUT_SEC),
      JOB_CONCURRENCY: '1',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  proc.stderr?.on('data', (d) => (stderr += String(d)));
  const url = `http://127.0.0.1:${port}`;
  await until(async () => {
    if (proc.exitCode !== null) throw new Error(`server exited (${proc.exitCode}): ${stderr}`);
    return fetch(`${url}/api/ready`).then(
      (r) => r.status === 200,
      () => false,
    );
  });
  return { proc, url };
}

const exited = (proc: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) resolve(proc.exitCode);
    else proc.once('exit', (code) => resolve(code));
  });

describe.skipIf(!onPostgres)('conversion jobs across server processes', () => {
  let dataDir: string;
  let shipDir: string;
  let ship: Buffer;
  let b: FastifyInstance;
  let token: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'keelson-procs-'));
    shipDir = mkdtempSync(path.join(os.tmpdir(), 'keelson-procs-ship-'));
    await writeShipOcx(path.join(shipDir, 'ship.3docx'), { targetParts: SHIP_PARTS, seed: 7 });
    ship = readFileSync(path.join(shipDir, 'ship.3docx'));
    const config = jobsTestConfig(dataDir, TIMEOUT_SEC);
    b = await buildApp(config, { runner: inProcessRunner() });
    token = await signUp(b, 'admin@yard.com', { admin: true });
  });

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await b?.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(shipDir, { recursive: true, force: true });
  });

  /** Uploads the ship to the process at `url` as project `name`; returns the conversion id. */
  async function upload(url: string, name: string): Promise<string> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(ship)]), `${name}.3docx`);
    const r = await fetch(`${url}/api/viewer/project/add/project-uploaded?projectName=${name}`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(r.status, await r.clone().text()).toBe(200);
    return ((await r.json()) as { conversionId: string }).conversionId;
  }

  /** Starts an upload to `url` whose body stops after its first half and never ends (rejects when cut off). */
  function halfUpload(url: string, name: string): Promise<Response> {
    const boundary = 'keelson-half-upload';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}.3docx"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(head));
        controller.enqueue(new Uint8Array(ship.subarray(0, ship.length >> 1)));
      },
    });
    return fetch(`${url}/api/viewer/project/add/project-uploaded?projectName=${name}`, {
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      duplex: 'half',
    } as RequestInit);
  }

  const row = (id: string) =>
    b.ctx.db.selectFrom('conversions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  /**
   * Resolves once process `proc` holds conversion `id` and has written progress below half (it is
   * converting, with the larger part still to do). @throws when it got past half first.
   */
  async function converting(id: string, proc: ChildProcess): Promise<void> {
    await until(async () => {
      const r = await row(id);
      if (r.finished_at !== null || r.progress >= 50)
        throw new Error(`The conversion got to ${r.progress} % before the test could act`);
      return r.worker?.split(':')[1] === String(proc.pid) && r.progress > 0;
    });
  }

  it('SIGKILL during a conversion: the other instance takes the job again and commits one revision', async () => {
    const a = await startServer(dataDir, {});
    children.push(a.proc);
    const id = await upload(a.url, 'KILLED');
    await converting(id, a.proc);
    // An upload still arriving at the same process: its body stops half-way and never ends.
    // Cut off by the kill: its rejection is expected (caught at once, so it is never unhandled).
    const half = halfUpload(a.url, 'UPLOADING').catch(() => null);
    await until(
      async () => (await b.ctx.conversions.latest('UPLOADING'))?.worker?.split(':')[1] === String(a.proc.pid),
    );
    const reserved = (await b.ctx.conversions.latest('UPLOADING'))!.id;
    a.proc.kill('SIGKILL');
    await exited(a.proc);
    await half;
    // The upload that never arrived fails after the time-out; its stored part goes; the name is free again.
    expect((await b.ctx.conversions.wait(reserved)).status).toBe(ConversionStatus.Error);
    expect(await row(reserved)).toMatchObject({
      error: 'The server receiving the upload stopped',
      attempts: 0,
      job: null,
    });
    expect(readdirSync(path.join(dataDir, 'uploads')).filter((f) => f.startsWith(reserved))).toEqual([]);
    expect(b.ctx.conversions.running('UPLOADING')).toBeNull();
    const final = await b.ctx.conversions.wait(id);
    expect(final.status).toBe(ConversionStatus.Ready);
    expect(await row(id)).toMatchObject({ status: ConversionStatus.Ready, attempts: 2, worker: null, progress: 100 });
    const revisions = await b.ctx.projects.revisions('KILLED');
    expect(revisions.map((r) => r.number)).toEqual([1]);
    // Nothing half-written is left: no temp directory of the dead attempt.
    expect(readdirSync(path.join(dataDir, 'projects', 'KILLED')).filter((e) => e.startsWith('.tmp-'))).toEqual([]);
  });

  it('SIGTERM: readiness 503 at once, the running conversion finishes within the grace period', async () => {
    const a = await startServer(dataDir, { SHUTDOWN_GRACE_SEC: '120' });
    children.push(a.proc);
    const id = await upload(a.url, 'GRACE');
    await converting(id, a.proc);
    a.proc.kill('SIGTERM');
    const ready = await fetch(`${a.url}/api/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ ready: false, shuttingDown: true });
    expect(await exited(a.proc)).toBe(0);
    expect(await row(id)).toMatchObject({ status: ConversionStatus.Ready, attempts: 1, error: null });
    expect((await b.ctx.projects.revisions('GRACE')).map((r) => r.number)).toEqual([1]);
  });

  it('SIGTERM past the grace period hands the conversion back; the other instance completes it', async () => {
    const a = await startServer(dataDir, { SHUTDOWN_GRACE_SEC: '0' });
    children.push(a.proc);
    const id = await upload(a.url, 'HANDED');
    await converting(id, a.proc);
    a.proc.kill('SIGTERM');
    expect(await exited(a.proc)).toBe(0);
    const final = await b.ctx.conversions.wait(id);
    expect(final.status).toBe(ConversionStatus.Ready);
    expect(await row(id)).toMatchObject({ status: ConversionStatus.Ready, attempts: 2 });
    expect((await b.ctx.projects.revisions('HANDED')).map((r) => r.number)).toEqual([1]);
  });
});
