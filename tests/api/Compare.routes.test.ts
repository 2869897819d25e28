/**
 * The comparison calls through inject (application.md §4 "Revision comparison", §7): a project PAIR with
 * NAPA-OCX_M4 as revision 1 and NAPA-OCX_M4_v300rc3 as revision 2. Answers, 400 / 404, access, the cache per
 * pair (one computation for concurrent requests; a replaced revision invalidates it), checkData, and the
 * comment threads whose referred objects changed since their revision.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompareService, inProcessCompareRunner, workerCompareRunner } from '../../api/compare/CompareService';
import {
  COMPARE_FORMAT,
  CheckCompareDataResponseSchema,
  CommentChangesResponseSchema,
  CompareResponseSchema,
  ModelObjectsResponseSchema,
  UploadResponseSchema,
} from '../../api/contract';
import { bearer, makeApp, multipartFile, SAMPLES, signUp, type TestApp } from './helpers';

let t: TestApp;
let admin: string;
let outsider: string;
const P = 'PAIR';
const url = (from: number | string, to: number | string, project = P) =>
  `/api/viewer/compare?projectName=${project}&fromRevision=${from}&toRevision=${to}`;

async function upload(sample: string, replace = false): Promise<void> {
  const { payload, headers } = multipartFile(`${sample}.3docx`, readFileSync(path.join(SAMPLES, `${sample}.3docx`)));
  const r = await t.app.inject({
    method: 'POST',
    url: `/api/viewer/project/add/project-uploaded?projectName=${P}${replace ? '&overwriteIfExists=true' : ''}`,
    payload,
    headers: { ...headers, ...bearer(admin) },
  });
  expect(r.statusCode, r.body).toBe(200);
  const job = await t.app.ctx.conversions.wait(v.parse(UploadResponseSchema, r.json()).conversionId);
  expect(job.status).toBe(2);
}
const get = (u: string, token = admin) => t.app.inject({ method: 'GET', url: u, headers: bearer(token) });
const checkData = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/viewer/compare/checkData', payload, headers: bearer(admin) });
const cacheFiles = () => readdirSync(path.join(t.config.dataDir, 'projects', P, 'compare'));

async function objectId(revision: number, name: string): Promise<string> {
  const r = await get(`/api/keelson-instance/model/objects?modelName=${P}&revision=${revision}`);
  const o = v.parse(ModelObjectsResponseSchema, r.json()).objects.find((x) => x.name === name);
  if (!o) throw new Error(`no ${name} in revision ${revision}`);
  return o.id;
}

beforeAll(async () => {
  t = await makeApp();
  admin = await signUp(t.app, 'admin@yard.com', { admin: true });
  outsider = await signUp(t.app, 'outsider@other.org');
  await upload('NAPA-OCX_M4');
  await upload('NAPA-OCX_M4_v300rc3');
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('GET /api/viewer/compare', () => {
  it('answers the comparison of revisions 1 and 2 in metres and tonnes', async () => {
    const r = await get(url(1, 2));
    expect(r.statusCode, r.body).toBe(200);
    const c = v.parse(CompareResponseSchema, r.json());
    expect(c).toMatchObject({ format: COMPARE_FORMAT, projectName: P, fromRevision: 1, toRevision: 2 });
    expect(c.steelObjectsChanged.map((x) => x.name).sort()).toEqual([
      'S:6TRTMO0U29/PANELP',
      'S:AKYLFBGOMT/PANELP',
      'S:C64GEAA2J1/PANELP',
      'S:DFF5AG10DW/PANELP',
      'S:TMSHT9ZLOL/PANELP',
      'S:UX7Y7JCYGJ/PANELP',
    ]);
    const tube = c.steelObjectsChanged.find((x) => x.name === 'S:AKYLFBGOMT/PANELP')!;
    expect(tube.changedProperties.find((p) => p.name === 'profile')).toMatchObject({
      from: 'CH200X10 (Tube)',
      to: 'C200 (RoundBar)',
    });
    expect(c.tolerances).toEqual({ thicknessM: 1e-5, lengthM: 5e-4, relative: 0.001, geometryM: 5e-4 });
  });

  it('answers 400 when fromRevision is not below toRevision, naming the field', async () => {
    for (const [a, b] of [
      [2, 1],
      [2, 2],
    ]) {
      const r = await get(url(a, b));
      expect(r.statusCode).toBe(400);
      expect(r.json().message).toContain('fromRevision');
      expect(r.json().message).toContain('Must be below toRevision');
    }
    expect((await get(url('x', 2))).statusCode).toBe(400);
  });

  it('answers 404 naming an unknown revision, and 404 as for a missing project to a user without access', async () => {
    const r = await get(url(1, 5));
    expect(r.statusCode).toBe(404);
    expect(r.json().message).toBe(`Revision 5 of project ${P} not found`);
    const o = await get(url(1, 2), outsider);
    expect(o.statusCode).toBe(404);
    expect(o.json().message).toBe(`Project ${P} not found`);
    expect((await get(url(1, 2, 'NOPE'))).json().message).toBe('Project NOPE not found');
  });

  it('caches the pair on disk and serves the cached comparison again', async () => {
    const first = v.parse(CompareResponseSchema, (await get(url(1, 2))).json());
    expect(cacheFiles()).toHaveLength(1);
    expect(cacheFiles()[0]).toMatch(/^1-2-[0-9a-f]{16}\.json$/);
    const again = v.parse(CompareResponseSchema, (await get(url(1, 2))).json());
    expect(again.computedAt).toBe(first.computedAt);
  });

  it('computes a pair once for concurrent requests', async () => {
    let runs = 0;
    const inner = inProcessCompareRunner();
    const service = new CompareService(t.app.ctx.projects, {
      run: (task) => {
        runs++;
        return inner.run(task);
      },
      close: inner.close,
    });
    const [a, b] = [await t.app.ctx.projects.revision(P, 1), await t.app.ctx.projects.revision(P, 2)];
    const file = service.cacheFile(P, a, b);
    // Remove the cached answer so the three calls below find nothing on disk.
    const { rm } = await import('node:fs/promises');
    await rm(file, { force: true });
    const pending = [service.get(P, a, b), service.get(P, a, b), service.get(P, a, b)];
    expect((await service.status(P, a, b)).computing).toBe(true);
    const results = await Promise.all(pending);
    expect(runs).toBe(1);
    expect(new Set(results.map((x) => x.computedAt)).size).toBe(1);
    expect(existsSync(file)).toBe(true);
  });
  it('computes the same comparison in a worker thread as in the server thread', async () => {
    const [a, b] = [await t.app.ctx.projects.revision(P, 1), await t.app.ctx.projects.revision(P, 2)];
    const loc = async (row: typeof a) => ({
      number: row.number,
      dir: await t.app.ctx.projects.revisionDir(row),
      scFile: JSON.parse(row.info).scFile as string,
    });
    const task = { projectName: P, from: await loc(a), to: await loc(b) };
    const worker = workerCompareRunner(1, 512);
    try {
      const inThread = await worker.run(task);
      const here = await inProcessCompareRunner().run(task);
      expect({ ...inThread, computedAt: '' }).toEqual({ ...here, computedAt: '' });
      expect(inThread.steelObjectsChanged).toHaveLength(6);
    } finally {
      await worker.close();
    }
  }, 60_000);
});

describe('POST /api/viewer/compare/checkData and replaced revisions', () => {
  it('tells a usable copy from a stale one; replacing revision 2 invalidates the cached pair', async () => {
    const c = v.parse(CompareResponseSchema, (await get(url(1, 2))).json());
    const before = v.parse(
      CheckCompareDataResponseSchema,
      (
        await checkData({
          projectName: P,
          fromRevision: 1,
          toRevision: 2,
          format: COMPARE_FORMAT,
          computedAt: c.computedAt,
        })
      ).json(),
    );
    expect(before).toEqual({
      format: COMPARE_FORMAT,
      cached: true,
      computing: false,
      computedAt: c.computedAt,
      usable: true,
    });
    const otherFormat = (
      await checkData({
        projectName: P,
        fromRevision: 1,
        toRevision: 2,
        format: 'old-format',
        computedAt: c.computedAt,
      })
    ).json();
    expect(otherFormat.usable).toBe(false);
    expect((await checkData({ projectName: P, fromRevision: 2, toRevision: 1 })).statusCode).toBe(400);
    expect((await checkData({ projectName: P, fromRevision: 1, toRevision: 9 })).statusCode).toBe(404);

    await upload('NAPA-OCX_M4', true); // revision 2 becomes the earlier file again
    const after = v.parse(
      CheckCompareDataResponseSchema,
      (
        await checkData({
          projectName: P,
          fromRevision: 1,
          toRevision: 2,
          format: COMPARE_FORMAT,
          computedAt: c.computedAt,
        })
      ).json(),
    );
    expect(after).toMatchObject({ cached: false, computedAt: null, usable: false });
    const fresh = v.parse(CompareResponseSchema, (await get(url(1, 2))).json());
    expect(fresh.computedAt).not.toBe(c.computedAt);
    // Same file twice: GUIDs agree, nothing changed.
    expect(fresh.steelObjectsChanged).toEqual([]);
    expect(fresh.steelObjectsChanged.length + fresh.steelObjectsAdded.length + fresh.steelObjectsRemoved.length).toBe(
      0,
    );
    expect(fresh.summary.perType.reduce((s, x) => s + x.unchanged, 0)).toBe(9);
    expect(cacheFiles()).toHaveLength(1);

    await upload('NAPA-OCX_M4_v300rc3', true); // and back, for the comment tests
  }, 120_000);
});

describe('GET /api/viewer/compare/comment-changes', () => {
  it('flags threads whose referred objects changed after their revision, with the revision of the change', async () => {
    const changed = await objectId(1, 'S:AKYLFBGOMT/PANELP');
    const unchanged = await objectId(1, 'P:P1/PANELP');
    const thread = async (message: string, referredObjects: string[]) => {
      const r = await t.app.inject({
        method: 'POST',
        url: `/api/keelson-static/comments/add-thread?projectName=${P}&projectVersionName=MAIN&projectRevisionNumber=1`,
        headers: bearer(admin),
        payload: { comment: { message, attachments: [{ fileName: 'view.png', type: 1, referredObjects, data: '' }] } },
      });
      expect(r.statusCode, r.body).toBe(200);
      return r.json().threadId as string;
    };
    const onChanged = await thread('the tube stiffener', [changed, unchanged]);
    await thread('the plate', [unchanged]);

    const r = await get(`/api/viewer/compare/comment-changes?projectName=${P}&revision=2`);
    expect(r.statusCode, r.body).toBe(200);
    expect(v.parse(CommentChangesResponseSchema, r.json()).threads).toEqual([
      { threadId: onChanged, threadRevision: 1, changedInRevision: 2, objects: [{ id: changed, removed: false }] },
    ]);
    // Seen from revision 1 nothing has changed yet.
    const at1 = await get(`/api/viewer/compare/comment-changes?projectName=${P}&revision=1`);
    expect(at1.json()).toEqual({ threads: [] });
    expect((await get(`/api/viewer/compare/comment-changes?projectName=${P}&revision=2`, outsider)).statusCode).toBe(
      404,
    );
  }, 60_000);
});
