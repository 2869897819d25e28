/**
 * Conversion jobs across real server processes on the test PostgreSQL cluster (README "Running at scale" →
 * "Conversion queue, health and shutdown"), beside an instance in this test on the same database and data
 * directory:
 * - a process killed (SIGKILL, by the test-only fault point of api/jobs/faultPoint.ts) after writing a
 *   conversion's job into its row and before sending it to the queue leaves no conversion that no process
 *   will take: row and queue entry are one transaction, so the row is still the dead process's reservation
 *   and the other instance fails it after the time-out, removes its upload and frees the name;
 * - a process killed after taking a conversion's job from the queue and before recording itself as its
 *   holder: the job is gone with it, and the other instance's heartbeat sends it again after the time-out
 *   (the conversion then completes there);
 * - a conversion paused for its CAD files by a process that then dies is answered by the other instance:
 *   the dialog's state, the CAD uploads and the Continue, after which that instance converts the CAD
 *   components and commits the revision.
 * Skipped on SQLite (one process there).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../api/app';
import { CadComponentsResponseSchema, CadFilesStateSchema, ConversionStatus } from '../../api/contract';
import type { ConvertOutput } from '../../api/conversion/convertFile';
import { type ConversionRunner, inProcessRunner } from '../../api/conversion/runners';
import { FaultPoints, KILL_AT_ENV } from '../../api/jobs/faultPoint';
import { boxStl, writeCadShip } from '../support/cadShip';
import { pgDatabaseFor } from '../support/pgSetup';
import { type ServerProcess, startServerProcess } from '../support/serverProcess';
import { bearer, multipartFile, multipartFiles, SAMPLES, jobsTestConfig, signUp } from './helpers';

const onPostgres = Boolean(inject('pgUrl'));
const SECRET = 'test-secret-0123456789';
/** JOB_TIMEOUT_SEC of every instance: how long a silent holder lives. */
const TIMEOUT_SEC = 3;

async function until(check: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 50));
}

const exited = (p: ServerProcess) =>
  new Promise<NodeJS.Signals | null>((resolve) => {
    if (p.child.exitCode !== null || p.child.signalCode !== null) resolve(p.child.signalCode);
    else p.child.once('exit', (_code, signal) => resolve(signal));
  });

describe.skipIf(!onPostgres)('conversion jobs when a process dies at the wrong moment', () => {
  let dataDir: string;
  let shipDir: string;
  let b: FastifyInstance;
  let token: string;
  const children: ServerProcess[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'keelson-faults-'));
    shipDir = mkdtempSync(path.join(os.tmpdir(), 'keelson-faults-ship-'));
    const config = jobsTestConfig(dataDir, TIMEOUT_SEC);
    b = await buildApp(config, { runner: inProcessRunner() });
    token = await signUp(b, 'admin@yard.com', { admin: true });
  });

  afterAll(async () => {
    for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
    await b?.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(shipDir, { recursive: true, force: true });
  });

  /** A server process on the shared data directory and database with `env` on top. */
  async function serverProcess(env: Record<string, string> = {}): Promise<ServerProcess> {
    const db = pgDatabaseFor(dataDir);
    const p = await startServerProcess({
      DATA_DIR: dataDir,
      DATABASE_URL: db.kind === 'postgres' ? db.url : '',
      JWT_SECRET: SECRET,
      DEMO_SHIP: 'false',
      JOB_TIMEOUT_SEC: String(TIMEOUT_SEC),
      JOB_CONCURRENCY: '1',
      ...env,
    });
    children.push(p);
    return p;
  }

  /** Uploads `file` to the process at `url` as project `name` (the response, or null when the process died). */
  function upload(url: string, name: string, file: Buffer): Promise<Response | null> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(file)]), `${name}.3docx`);
    return fetch(`${url}/api/viewer/project/add/project-uploaded?projectName=${name}`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${token}` },
    }).catch(() => null);
  }

  const rowOf = (name: string) => b.ctx.conversions.latest(name);
  const uploadsOf = (id: string) => readdirSync(path.join(dataDir, 'uploads')).filter((f) => f.startsWith(id));

  it('a process killed between writing the job and queueing it leaves no stuck conversion', async () => {
    const a = await serverProcess({ [KILL_AT_ENV]: FaultPoints.jobWritten });
    const sample = readFileSync(path.join(SAMPLES, 'NAPA-OCX_M2.3docx'));
    const pending = upload(a.url, 'STUCK', sample);
    // The process kills itself at the fault point, after storing the upload and reserving the name.
    expect(await exited(a)).toBe('SIGKILL');
    await pending;
    const reserved = await rowOf('STUCK');
    expect(reserved?.worker?.split(':')[1]).toBe(String(a.child.pid));
    // Its transaction died with it: the row is still its reservation, without a job.
    expect(reserved).toMatchObject({ finished_at: null, job: null });

    const final = await b.ctx.conversions.wait(reserved!.id);
    expect(final.status).toBe(ConversionStatus.Error);
    expect(await rowOf('STUCK')).toMatchObject({
      error: 'The server receiving the upload stopped',
      worker: null,
      job: null,
    });
    expect(uploadsOf(reserved!.id)).toEqual([]);
    // The name is free again, and a new upload of it converts.
    await until(() => b.ctx.conversions.running('STUCK') === null);
    const { payload, headers } = multipartFile('STUCK.3docx', sample);
    const retry = await b.inject({
      method: 'POST',
      url: '/api/viewer/project/add/project-uploaded?projectName=STUCK',
      payload,
      headers: { ...headers, ...bearer(token) },
    });
    expect(retry.statusCode, retry.body).toBe(200);
    expect((await b.ctx.conversions.wait(retry.json().conversionId)).status).toBe(ConversionStatus.Ready);
  }, 180_000);

  it('a CAD pause outlives the process that paused it: the other instance uploads, continues and commits', async () => {
    const name = 'CADPAUSE';
    const ship = await writeCadShip(path.join(shipDir, 'cad.3docx'), name, {
      'as1-oc-214.stp': 'pump.stl',
      'cube-10mm.igs': 'hatch.stl',
      'IfcOpenHouse_IFC4.ifc': 'house.stl',
    });
    const patch = await b.inject({
      method: 'PATCH',
      url: '/api/default/viewer/config/conversion',
      headers: bearer(token),
      payload: { cadComponents: true, screenshot: false },
    });
    expect(patch.statusCode, patch.body).toBe(200);

    const a = await serverProcess();
    const res = await upload(a.url, name, ship);
    expect(res?.status).toBe(200);
    const id = ((await res!.json()) as { conversionId: string }).conversionId;
    // Paused on A: the pause is in the database, so B sees it (dialog state, model list) without A.
    await until(async () => (await b.ctx.cadWaits.state(name)) !== null);
    await until(() => b.ctx.conversions.running(name)?.waitingForCadFiles === true);
    expect(await rowOf(name)).toMatchObject({ id, worker: null, finished_at: null });
    a.child.kill('SIGKILL');
    await exited(a);

    const state = await b.inject({
      url: `/api/viewer/project/cad-files-state?projectName=${name}`,
      headers: bearer(token),
    });
    expect(state.statusCode, state.body).toBe(200);
    expect(v.parse(CadFilesStateSchema, state.json()).files.map((f) => [f.fileName, f.status])).toEqual([
      ['pump.stl', 'missing'],
      ['hatch.stl', 'missing'],
      ['house.stl', 'missing'],
    ]);
    const files = [
      { name: 'pump.stl', content: boxStl([400, 300, 200], [1000, 2000, 3000]) },
      { name: 'hatch.stl', content: boxStl([2000, 1000, 50], [5000, 0, 10000]) },
      { name: 'house.stl', content: boxStl([100, 100, 100], [0, 0, 0]) },
    ];
    const { payload, headers } = multipartFiles('cadFiles', files);
    const up = await b.inject({
      method: 'POST',
      url: `/api/viewer/project/upload-cad-files?projectName=${name}`,
      payload,
      headers: { ...headers, ...bearer(token) },
    });
    expect(up.statusCode, up.body).toBe(200);
    const go = await b.inject({
      method: 'POST',
      url: `/api/viewer/project/notify-cad-files-uploaded?projectName=${name}`,
      headers: bearer(token),
      payload: { fileNames: files.map((f) => f.name) },
    });
    expect(go.statusCode, go.body).toBe(200);

    const final = await b.ctx.conversions.wait(id);
    expect(final.status, JSON.stringify(final)).toBe(ConversionStatus.Ready);
    expect(await rowOf(name)).toMatchObject({ status: ConversionStatus.Ready, worker: null, progress: 100 });
    expect((await b.ctx.projects.revisions(name)).map((r) => r.number)).toEqual([1]);
    const all = await b.inject({
      url: `/api/keelson-instance/cad-components/all?modelName=${name}`,
      headers: bearer(token),
    });
    expect(all.statusCode, all.body).toBe(200);
    expect(v.parse(CadComponentsResponseSchema, all.json()).map((c) => [c.fileName, c.triangles])).toEqual([
      ['pump.stl', 12],
      ['pump.stl', 12],
      ['hatch.stl', 12],
      ['house.stl', 12],
    ]);
    // The staged model of the pause became the revision: nothing staged is left, and no upload either.
    expect(readdirSync(path.join(dataDir, 'projects', name)).filter((e) => e.startsWith('.tmp-'))).toEqual([]);
    expect(await b.ctx.cadWaits.isWaiting(name)).toBe(false);
  }, 240_000);
});

describe.skipIf(!onPostgres)('a conversion job taken by a process that dies before holding it', () => {
  let dataDir: string;
  let b: FastifyInstance;
  let token: string;
  let a: ServerProcess | undefined;
  /** B's runner: the conversion of HELD runs until aborted (B stays full); the others convert for real. */
  const real = inProcessRunner();
  const runner: ConversionRunner = {
    run: (task, onProgress, signal) =>
      task.modelName !== 'HELD'
        ? real.run(task, onProgress, signal)
        : new Promise<ConvertOutput>((_resolve, reject) => {
            onProgress(0.25, 'held');
            signal.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })));
          }),
    close: () => real.close(),
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'keelson-taken-'));
    const config = jobsTestConfig(dataDir, TIMEOUT_SEC);
    b = await buildApp(config, { runner });
    token = await signUp(b, 'admin@yard.com', { admin: true });
  });

  afterAll(async () => {
    if (a && a.child.exitCode === null && a.child.signalCode === null) a.child.kill('SIGKILL');
    await b?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const upload = (name: string) => {
    const { payload, headers } = multipartFile(`${name}.3docx`, readFileSync(path.join(SAMPLES, 'NAPA-OCX_M2.3docx')));
    return b.inject({
      method: 'POST',
      url: `/api/viewer/project/add/project-uploaded?projectName=${name}`,
      payload,
      headers: { ...headers, ...bearer(token) },
    });
  };

  it('is sent again by the other instance after the time-out and completes there', async () => {
    const held = await upload('HELD');
    expect(held.statusCode, held.body).toBe(200);
    await until(() => b.ctx.conversions.running('HELD')?.message === 'held');
    const db = pgDatabaseFor(dataDir);
    a = await startServerProcess({
      DATA_DIR: dataDir,
      DATABASE_URL: db.kind === 'postgres' ? db.url : '',
      JWT_SECRET: SECRET,
      DEMO_SHIP: 'false',
      JOB_TIMEOUT_SEC: String(TIMEOUT_SEC),
      JOB_CONCURRENCY: '1',
      [KILL_AT_ENV]: FaultPoints.jobTaken,
    });
    // B is full, so the job waits in the queue until A, idle, takes it and dies before holding it.
    const other = await upload('OTHER');
    expect(other.statusCode, other.body).toBe(200);
    const id = other.json().conversionId as string;
    expect(await exited(a)).toBe('SIGKILL');
    expect(await b.ctx.conversions.latest('OTHER')).toMatchObject({ id, worker: null, finished_at: null });
    // B gets room; only a job sent again can bring the conversion to it.
    await b.ctx.conversions.cancel('HELD', 'admin@yard.com');
    const final = await b.ctx.conversions.wait(id);
    expect(final.status, JSON.stringify(final)).toBe(ConversionStatus.Ready);
    expect(await b.ctx.conversions.latest('OTHER')).toMatchObject({ status: ConversionStatus.Ready, attempts: 1 });
    expect((await b.ctx.projects.revisions('OTHER')).map((r) => r.number)).toEqual([1]);
  }, 180_000);
});
