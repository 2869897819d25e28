/**
 * Graceful stop of a server instance (ConversionManager.shutdown, called by api/server.ts on SIGTERM) with a
 * conversion running past the grace period: on SQLite (the only process) it fails with a true status and
 * its upload goes; on PostgreSQL it is handed back to the shared queue with its upload kept, for another
 * process to continue. New uploads are refused with 503 meanwhile. Runs on both databases.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { ConversionStatus } from '../../api/contract/common';
import type { ConvertOutput } from '../../api/conversion/convertFile';
import type { ConversionRunner } from '../../api/conversion/runners';
import { bearer, makeApp, multipartFile, signUp, type TestApp } from './helpers';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

it('a conversion still running after the grace period is failed (SQLite) or handed back (PostgreSQL)', async () => {
  let started!: () => void;
  const running = new Promise<void>((r) => (started = r));
  const runner: ConversionRunner = {
    run: (_task, onProgress, signal) =>
      new Promise<ConvertOutput>((_resolve, reject) => {
        onProgress(0.4, 'held');
        started();
        signal.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })));
      }),
    close: async () => {},
  };
  t = await makeApp({}, runner);
  const token = await signUp(t.app, 'admin@yard.com', { admin: true });
  const upload = () => {
    const { payload, headers } = multipartFile('SHIP.3docx', '<x/>');
    return t!.app.inject({
      method: 'POST',
      url: '/api/viewer/project/add/project-uploaded?projectName=SHIP2',
      payload,
      headers: { ...headers, ...bearer(token) },
    });
  };
  const r = await upload();
  expect(r.statusCode, r.body).toBe(200);
  const id = r.json().conversionId as string;
  await running;

  t.app.ctx.lifecycle.stopping = true;
  await t.app.ctx.conversions.shutdown(50);
  const refused = await upload();
  expect([refused.statusCode, refused.json().message]).toEqual([503, 'The server is shutting down']);

  const row = await t.app.ctx.db.selectFrom('conversions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const uploads = readdirSync(path.join(t.config.dataDir, 'uploads')).filter((f) => f.startsWith(id));
  if (t.config.database.kind === 'postgres') {
    expect(row).toMatchObject({
      status: ConversionStatus.InProgress,
      finished_at: null,
      worker: null,
      attempts: 1,
      message: 'The server converting the model stopped; continuing on another server',
    });
    expect(JSON.parse(row.job ?? '{}').input).toContain(id);
    expect(uploads.length).toBe(1);
  } else {
    expect(row).toMatchObject({
      status: ConversionStatus.Error,
      message: 'Failed to add project SHIP2: The server stopped during the conversion',
      error: 'The server stopped during the conversion',
    });
    expect(uploads).toEqual([]);
  }
  // No temp revision directory is left by the stopped attempt.
  const dir = path.join(t.config.dataDir, 'projects', 'SHIP2');
  expect(existsSync(dir) ? readdirSync(dir).filter((e) => e.startsWith('.tmp-')) : []).toEqual([]);
});
