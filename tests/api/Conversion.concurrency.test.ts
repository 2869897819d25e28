/**
 * One conversion per project name (409), cancel by the starter only, and progress that never goes
 * back: a gated runner holds the conversion open while the test acts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversionRunner } from '../../api/conversion/runners';
import type { ConvertOutput } from '../../api/conversion/convertFile';
import { bearer, makeApp, multipartFile, signUp, type TestApp } from './helpers';

/** Reports the given fractions, then waits until released or aborted. */
function gatedRunner(fractions: number[]) {
  let release!: (o: ConvertOutput) => void;
  const runner: ConversionRunner = {
    run: (_task, onProgress, signal) =>
      new Promise<ConvertOutput>((resolve, reject) => {
        for (const f of fractions) onProgress(f, `step ${f}`);
        release = resolve;
        signal.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })));
      }),
    close: async () => {},
  };
  return { runner, release: (o: ConvertOutput) => release(o) };
}

let t: TestApp;
afterEach(async () => {
  await t.close();
});

async function upload(token: string, name: string) {
  const { payload, headers } = multipartFile(`${name}.3docx`, '<x/>');
  return t.app.inject({
    method: 'POST',
    url: `/api/viewer/project/add/project-uploaded?projectName=${name}`,
    payload,
    headers: { ...headers, ...bearer(token) },
  });
}

describe('conversion concurrency', () => {
  it('answers 409 while the same project is being added; other projects may start', async () => {
    const g = gatedRunner([0.1, 0.5, 0.3]);
    t = await makeApp({}, g.runner);
    const admin = await signUp(t.app, 'admin@yard.com', { admin: true });
    const first = await upload(admin, 'ship');
    expect(first.statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 20));
    const again = await upload(admin, 'SHIP');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      error: 'Conflict',
      message: 'Adding the project SHIP is already in progress',
      type: 'conflict',
    });
    expect((await upload(admin, 'other')).statusCode).toBe(200);
    const models = (
      await t.app.inject({ method: 'GET', url: '/api/viewer/project/models', headers: bearer(admin) })
    ).json();
    const card = models.find((m: { name: string }) => m.name === 'SHIP');
    expect(card).toMatchObject({
      isConverting: true,
      conversionStartedByEmail: 'admin@yard.com',
      conversionId: first.json().conversionId,
    });
    // 0.3 after 0.5 must not lower the progress
    expect(card.convertingPercentage).toBe(50);
    const st = await t.app.inject({
      method: 'GET',
      url: '/api/keelson-instance/maintenance/status?modelName=SHIP&modelRevision=latest',
      headers: bearer(admin),
    });
    expect(st.json()).toEqual({ status: 'Preparing' });
  });

  it('lets only the starter cancel (others do not even see the new project); the status becomes Canceled and the name is free again', async () => {
    const g = gatedRunner([0.2]);
    t = await makeApp({}, g.runner);
    const admin = await signUp(t.app, 'admin@yard.com', { admin: true });
    const other = await signUp(t.app, 'eng@yard.com');
    const r = await upload(admin, 'ship');
    const { conversionId } = r.json();
    const events: number[] = [];
    t.app.ctx.conversions.onProgress((e) => events.push(e.status));
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: '/api/viewer/project/add/cancel-project?projectName=SHIP',
          headers: bearer(other),
        })
      ).statusCode,
    ).toBe(404);
    const c = await t.app.inject({
      method: 'DELETE',
      url: '/api/viewer/project/add/cancel-project?projectName=SHIP',
      headers: bearer(admin),
    });
    expect(c.statusCode).toBe(200);
    const final = await t.app.ctx.conversions.wait(conversionId);
    expect(final.status).toBe(3);
    expect(events.at(-1)).toBe(3);
    const models = (
      await t.app.inject({ method: 'GET', url: '/api/viewer/project/models', headers: bearer(admin) })
    ).json();
    expect(models.find((m: { name: string }) => m.name === 'SHIP')).toMatchObject({
      conversionCancelled: true,
      isConverting: false,
      revisions: [],
    });
    expect((await upload(admin, 'ship')).statusCode).toBe(200);
  });
});
