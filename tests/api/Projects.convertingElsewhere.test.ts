/**
 * The model list (GET /api/viewer/project/models, application.md §3) shows a conversion another server
 * process queued a moment ago as converting: its row is written before this process's heartbeat has read
 * it into its view of other processes' conversions, and the list must not show the project as idle (nor
 * hide it from an admin) in that window; once the row is finished, the list shows it idle at once, before
 * the next heartbeat. Runs on SQLite ('unit') and PostgreSQL ('api-pg').
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Model } from '../../api/contract/projects';
import { bearer, makeApp, signUp, type TestApp } from './helpers';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A row as another process writes it when it queues a conversion (no holder yet). */
const queuedElsewhere = (id: string, finished: string | null) => ({
  id,
  project_name: 'ELSEWHERE',
  started_by: 'other@yard.com',
  status: 1,
  progress: 0,
  message: 'Queued',
  error: null,
  created_at: new Date().toISOString(),
  finished_at: finished,
  worker: null,
  heartbeat_at: null,
});

describe('the model list and a conversion queued by another process', () => {
  it('shows it converting at once, from its row, and idle as soon as the row is finished', async () => {
    t = await makeApp();
    const admin = await signUp(t.app, 'admin@yard.com', { admin: true });
    const models = async () => {
      const r = await t!.app.inject({ method: 'GET', url: '/api/viewer/project/models', headers: bearer(admin) });
      expect(r.statusCode, r.body).toBe(200);
      return (r.json() as Model[]).find((m) => m.name === 'ELSEWHERE');
    };
    const id = '33333333-4444-4555-8666-777777777777';
    await t.app.ctx.db.insertInto('conversions').values(queuedElsewhere(id, null)).execute();
    expect(await models()).toMatchObject({
      isConverting: true,
      convertingMessage: 'Queued',
      conversionStartedByEmail: 'other@yard.com',
      conversionId: id,
      waitingForCadFiles: false,
    });
    // past a heartbeat: this process's view of other processes' conversions now holds it too
    await new Promise((r) => setTimeout(r, 1500));
    expect(await models()).toMatchObject({ isConverting: true, conversionId: id });
    await t.app.ctx.db
      .updateTable('conversions')
      .set({ status: 3, message: 'Canceled', finished_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
    expect(await models()).toMatchObject({ isConverting: false, conversionCancelled: true, conversionId: id });
  });
});
