/**
 * The shared conversion queue on PostgreSQL (api/jobs/pgBossQueue.ts, api/conversion/conversionLeases.ts):
 * two server instances on one database and data directory take jobs from one queue, a cancel made on the
 * instance that does not run the conversion stops it there, and readiness answers 503 once an instance
 * stops. Real PostgreSQL ('api-pg' project; skipped on SQLite, where the queue is in-process).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../api/app';
import type { ServerConfig } from '../../api/config';
import { ConversionStatus } from '../../api/contract/common';
import type { ConvertOutput } from '../../api/conversion/convertFile';
import { inProcessRunner, type ConversionRunner } from '../../api/conversion/runners';
import { bearer, multipartFile, SAMPLES, jobsTestConfig, signUp, ALL_READY } from './helpers';
import { cancelWhileArriving, startSlowUpload, storedUploads } from './slowUpload';
import { readFileSync } from 'node:fs';

const onPostgres = Boolean(inject('pgUrl'));

/** Holds every conversion until aborted (the instance stays busy); records the conversions it got. */
function holdingRunner() {
  const started: string[] = [];
  const aborted: string[] = [];
  const runner: ConversionRunner = {
    run: (task, onProgress, signal) =>
      new Promise<ConvertOutput>((_resolve, reject) => {
        started.push(task.modelName);
        onProgress(0.25, 'held');
        signal.addEventListener('abort', () => {
          aborted.push(task.modelName);
          reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
        });
      }),
    close: async () => {},
  };
  return { runner, started, aborted };
}

/** Resolves when `check` holds, polling every 50 ms (the outcome, not the time, is asserted). */
async function until(check: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 50));
}

describe.skipIf(!onPostgres)('two server instances on one PostgreSQL queue', () => {
  let dataDir: string;
  let config: ServerConfig;
  let a: FastifyInstance;
  let b: FastifyInstance;
  const held = holdingRunner();
  let admin: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'keelson-queue-'));
    config = jobsTestConfig(dataDir, 2);
    // A holds whatever it takes; B converts for real.
    a = await buildApp(config, { runner: held.runner });
    b = await buildApp(config, { runner: inProcessRunner() });
    admin = await signUp(a, 'admin@yard.com', { admin: true });
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const upload = (app: FastifyInstance, name: string, file = 'NAPA-OCX_M2.3docx') => {
    const { payload, headers } = multipartFile(`${name}.3docx`, readFileSync(path.join(SAMPLES, file), 'utf8'));
    return app.inject({
      method: 'POST',
      url: `/api/viewer/project/add/project-uploaded?projectName=${name}`,
      payload,
      headers: { ...headers, ...bearer(admin) },
    });
  };
  const row = (app: FastifyInstance, id: string) =>
    app.ctx.db.selectFrom('conversions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('the instance with room takes the job: A is full, so B converts the second upload made on A', async () => {
    const first = await upload(a, 'HELD');
    expect(first.statusCode, first.body).toBe(200);
    await until(() => held.started.includes('HELD'));
    expect((await row(a, first.json().conversionId)).worker).toBe(a.ctx.conversions.worker);
    // The same name is refused on the other instance too (one unfinished conversion per project).
    expect((await upload(b, 'HELD')).statusCode).toBe(409);

    const second = await upload(a, 'OTHER');
    expect(second.statusCode, second.body).toBe(200);
    const id = second.json().conversionId as string;
    const final = await b.ctx.conversions.wait(id);
    expect(final.status).toBe(ConversionStatus.Ready);
    const r = await row(a, id);
    expect(r).toMatchObject({ status: ConversionStatus.Ready, attempts: 1, worker: null });
    expect(held.started).not.toContain('OTHER');
    // Either instance answers the status from the table.
    const status = await a.inject({
      url: '/api/viewer/project/model-conversion?projectName=OTHER',
      headers: bearer(admin),
    });
    expect(status.json()).toMatchObject({ status: ConversionStatus.Ready, progress: 100 });
    expect((await b.ctx.projects.revisions('OTHER')).length).toBe(1);
  });

  it('a cancel made on B stops the conversion A runs; the status is Canceled and no revision is written', async () => {
    const running = await a.ctx.db
      .selectFrom('conversions')
      .selectAll()
      .where('project_name', '=', 'HELD')
      .executeTakeFirstOrThrow();
    // B sees A's conversion (model list, 409, Preparing) from the table.
    await until(() => b.ctx.conversions.running('HELD') !== null);
    const c = await b.inject({
      method: 'DELETE',
      url: '/api/viewer/project/add/cancel-project?projectName=HELD',
      headers: bearer(admin),
    });
    expect(c.statusCode, c.body).toBe(200);
    await until(() => held.aborted.includes('HELD'));
    expect((await a.ctx.conversions.wait(running.id)).status).toBe(ConversionStatus.Canceled);
    expect(await row(a, running.id)).toMatchObject({
      status: ConversionStatus.Canceled,
      message: 'Conversion canceled',
    });
    expect(await a.ctx.projects.revisions('HELD').catch(() => [])).toEqual([]);
    await until(() => a.ctx.conversions.running('HELD') === null);
    // The name is free on both.
    const again = await upload(b, 'HELD');
    expect(again.statusCode, again.body).toBe(200);
    expect((await b.ctx.conversions.wait(again.json().conversionId)).status).toBe(ConversionStatus.Ready);
  });

  it('a cancel made on B while A still receives the upload withdraws it: A stops storing, no row or card is left', async () => {
    const base = await a.listen({ port: 0, host: '127.0.0.1' });
    const up = startSlowUpload(base, admin, 'SLOWB');
    try {
      await until(() => Object.keys(storedUploads(dataDir)).some((f) => f.endsWith('-SLOWB.3docx')));
      const stored = Object.keys(storedUploads(dataDir)).find((f) => f.endsWith('-SLOWB.3docx'))!;
      const final = a.ctx.conversions.wait(stored.slice(0, -'-SLOWB.3docx'.length));
      await until(() => b.ctx.conversions.running('SLOWB') !== null);
      // A notices at its next heartbeat (≤ 1 s) and stops writing before the body ends.
      const reply = await cancelWhileArriving(b, admin, up, 'SLOWB', 10_000);
      expect(reply.status).toBe(404);
      expect(await final).toMatchObject({ status: ConversionStatus.Canceled, message: 'Conversion canceled' });
      // As for a cancel on the same instance: no row (so no cancelled card), no file, the name free on both.
      expect(await a.ctx.conversions.latest('SLOWB')).toBeUndefined();
      expect(Object.keys(storedUploads(dataDir)).filter((f) => f.endsWith('-SLOWB.3docx'))).toEqual([]);
      await until(() => a.ctx.conversions.running('SLOWB') === null && b.ctx.conversions.running('SLOWB') === null);
    } finally {
      up.destroy();
    }
  });

  it('readiness: 200 while serving, 503 naming the reason once the instance stops', async () => {
    const ready = await a.inject({ url: '/api/ready' });
    expect([ready.statusCode, ready.json()]).toEqual([200, ALL_READY]);
    a.ctx.lifecycle.stopping = true;
    const stopping = await a.inject({ url: '/api/ready' });
    expect(stopping.statusCode).toBe(503);
    expect(stopping.json()).toMatchObject({ ready: false, shuttingDown: true, reasons: ['shutting down'] });
    expect((await a.inject({ url: '/api/health' })).json()).toEqual({ status: 'ok' });
  });
});
