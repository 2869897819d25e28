/**
 * Upload → conversion → revision → model data, through inject with the real importer and package
 * writer on a real sample (../shared/models/ocx/NAPA-OCX_M1.3docx).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import {
  ModelListSchema,
  ModelObjectsResponseSchema,
  PropertiesResponseSchema,
  PropertyColumnsResponseSchema,
  ProjectRevisionInfoSchema,
  QuantitiesResponseSchema,
  UploadResponseSchema,
} from '../../api/contract';
import { SAMPLES, bearer, makeApp, multipartFile, signUp, type TestApp } from './helpers';

const SAMPLE = path.join(SAMPLES, 'NAPA-OCX_M1.3docx');
let t: TestApp;
let admin: string;

async function upload(token: string, fileName: string, content: Buffer | string, query = '') {
  const { payload, headers } = multipartFile(fileName, content);
  return t.app.inject({
    method: 'POST',
    url: `/api/viewer/project/add/project-uploaded${query}`,
    payload,
    headers: { ...headers, ...bearer(token) },
  });
}

async function uploadAndWait(fileName: string, content: Buffer | string, query = '') {
  const r = await upload(admin, fileName, content, query);
  expect(r.statusCode, r.body).toBe(200);
  const { conversionId, projectName } = v.parse(UploadResponseSchema, r.json());
  const final = await t.app.ctx.conversions.wait(conversionId);
  return { conversionId, projectName, final };
}

async function models() {
  const r = await t.app.inject({ method: 'GET', url: '/api/viewer/project/models', headers: bearer(admin) });
  expect(r.statusCode).toBe(200);
  return v.parse(ModelListSchema, r.json());
}

/** Every file under dir with size and mtime, to prove a failed upload changed nothing. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const p = path.join(e.parentPath, e.name);
    if (e.isFile()) out[path.relative(dir, p)] = `${statSync(p).size}:${statSync(p).mtimeMs}`;
  }
  return out;
}

beforeAll(async () => {
  t = await makeApp();
  admin = await signUp(t.app, 'admin@yard.com', { admin: true });
});
afterAll(async () => {
  await t.close();
});

describe('permissions and validation', () => {
  it('refuses an upload without upload:model with 403', async () => {
    await t.app.close();
    t = await makeApp({ organizationDomain: 'yard.com' });
    admin = await signUp(t.app, 'admin@yard.com', { admin: true });
    const guest = await signUp(t.app, 'guest@other.org');
    const r = await upload(guest, 'M1.3docx', readFileSync(SAMPLE));
    expect(r.statusCode).toBe(403);
    expect(r.json()).toEqual({ error: 'Forbidden', message: 'Missing permission upload:model', type: 'permission' });
  });

  it('refuses unsupported file types with 400', async () => {
    const r = await upload(admin, 'model.db64', 'data');
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toBe('Unsupported file type ".db64": expected .3docx, .ocx or .xml');
  });

  it('refuses a bad overwriteIfExists value naming the field', async () => {
    const r = await upload(admin, 'M1.3docx', 'x', '?overwriteIfExists=maybe');
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toMatch(/^Invalid field 'overwriteIfExists'/);
  });
});

describe('conversion of a real sample', () => {
  it('converts to Ready and serves the model list, objects, properties, quantities and the .sc', async () => {
    const events: number[] = [];
    const off = t.app.ctx.conversions.onProgress((e) => events.push(e.progress));
    const { projectName, final } = await uploadAndWait(
      'NAPA-OCX_M1.3docx',
      readFileSync(SAMPLE),
      '?projectName=m1&description=first',
    );
    off();
    expect(final.status, final.message).toBe(2);
    expect(projectName).toBe('M1');
    expect(final.progress).toBe(100);
    for (let i = 1; i < events.length; i++) expect(events[i]).toBeGreaterThanOrEqual(events[i - 1]);

    const m = (await models()).find((x) => x.name === 'M1')!;
    expect(m.isConverting).toBe(false);
    expect(m.revisions).toHaveLength(1);
    expect(m.revisions[0].revisionInfo).toMatchObject({
      revisionNumber: 1,
      description: 'first',
      projectInfo: { projectName: 'M1' },
    });
    expect(Buffer.from(m.revisions[0].image, 'base64').subarray(1, 4).toString()).toBe('PNG');

    const objs = await t.app.inject({
      method: 'GET',
      url: '/api/keelson-instance/model/objects?modelName=M1&revision=latest',
      headers: bearer(admin),
    });
    expect(objs.statusCode, objs.body).toBe(200);
    const o = v.parse(ModelObjectsResponseSchema, objs.json());
    expect(o.objects.length).toBeGreaterThan(0);
    // metres: a ship model spans metres to hundreds of metres, not millimetres
    const span = o.info.bounds[3] - o.info.bounds[0];
    expect(span).toBeGreaterThan(0.1);
    expect(span).toBeLessThan(1000);

    const withBounds = o.objects.find((x) => x.bounds !== null)!;
    const props = await t.app.inject({
      method: 'GET',
      url: `/api/keelson-instance/model/properties?modelName=M1&revision=1&index=${withBounds.index}`,
      headers: bearer(admin),
    });
    expect(props.statusCode, props.body).toBe(200);
    const p = v.parse(PropertiesResponseSchema, props.json());
    expect(p.id).toBe(withBounds.id);
    expect(p.properties.length).toBeGreaterThan(0);
    const nameRow = p.properties.find((r) => r.name === 'NAME');
    if (nameRow) expect(nameRow.value).toBe(withBounds.name);

    const q = await t.app.inject({
      method: 'POST',
      url: '/api/keelson-instance/steel/quantities?modelName=M1&revision=1&qnts=W,AREA',
      headers: bearer(admin),
      payload: [withBounds.id, 'no-such-id'],
    });
    expect(q.statusCode, q.body).toBe(200);
    const qs = v.parse(QuantitiesResponseSchema, q.json());
    expect(qs.map((x) => x.id)).toEqual([withBounds.id, 'no-such-id']);
    expect(Object.keys(qs[0].quantities)).toEqual(['W', 'AREA']);
    expect(qs[1].quantities).toEqual({ W: null, AREA: null });

    const cols = await t.app.inject({
      method: 'GET',
      url: '/api/keelson-instance/model/property-columns?modelName=M1&revision=1&codes=PLTH,name,PLTH',
      headers: bearer(admin),
    });
    expect(cols.statusCode, cols.body).toBe(200);
    const c = v.parse(PropertyColumnsResponseSchema, cols.json());
    expect(c.codes).toEqual(['PLTH', 'NAME']);
    expect(c.columns.NAME).toHaveLength(o.objects.length);
    expect(c.columns.NAME[withBounds.index]).toBe(withBounds.name);
    const plate = o.objects.findIndex((x) => x.type === 'PLATE');
    expect(c.columns.PLTH[plate]).toBeGreaterThan(0);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/keelson-instance/model/property-columns?modelName=M1&revision=1',
          headers: bearer(admin),
        })
      ).statusCode,
    ).toBe(400);

    const sc = await t.app.inject({
      method: 'GET',
      url: '/api/keelson-static/models/M1/latest/M1.sc',
      headers: bearer(admin),
    });
    expect(sc.statusCode).toBe(200);
    expect(sc.headers['content-type']).toBe('application/octet-stream');
    expect(Number(sc.headers['content-length'])).toBe(sc.rawPayload.length);
    expect(sc.rawPayload.subarray(0, 4).toString('latin1')).toBe('KSC1');
    expect((await t.app.inject({ method: 'GET', url: '/api/keelson-static/models/M1/latest/M1.sc' })).statusCode).toBe(
      401,
    );

    const info = await t.app.inject({
      method: 'GET',
      url: '/api/viewer/project/project-info?projectName=m1',
      headers: bearer(admin),
    });
    expect(v.parse(ProjectRevisionInfoSchema, info.json())).toMatchObject({
      revision: 1,
      projectInfo: { projectName: 'M1', revisions: [1] },
    });
    const st = await t.app.inject({
      method: 'GET',
      url: '/api/keelson-instance/maintenance/status?modelName=M1&modelRevision=1&keelsonUser=admin@yard.com',
      headers: bearer(admin),
    });
    expect(st.json()).toEqual({ status: 'Ok' });
  });

  it('adds a new revision, or replaces the latest with overwriteIfExists=true', async () => {
    const content = readFileSync(SAMPLE);
    const second = await uploadAndWait(
      'm1.3docx',
      content,
      '?projectName=M1&description=second&overwriteIfExists=false',
    );
    expect(second.final.status).toBe(2);
    let m = (await models()).find((x) => x.name === 'M1')!;
    expect(m.revisions.map((r) => r.revisionInfo.revisionNumber)).toEqual([2, 1]);
    const before = m.revisions[0].revisionInfo.lastUpdatedDate;
    const replaced = await uploadAndWait(
      'm1.3docx',
      content,
      '?projectName=M1&description=replaced&overwriteIfExists=true',
    );
    expect(replaced.final.status).toBe(2);
    m = (await models()).find((x) => x.name === 'M1')!;
    expect(m.revisions.map((r) => r.revisionInfo.revisionNumber)).toEqual([2, 1]);
    expect(m.revisions[0].revisionInfo.description).toBe('replaced');
    expect(m.revisions[0].revisionInfo.lastUpdatedDate >= before).toBe(true);
    const hr = await t.app.inject({
      method: 'GET',
      url: '/api/viewer/project/highest-revision?projectName=M1',
      headers: bearer(admin),
    });
    expect(hr.json()).toEqual({ projectName: 'M1', highestRevision: 2 });
    const sc = await t.app.inject({
      method: 'GET',
      url: '/api/keelson-static/models/M1/2/M1.sc',
      headers: bearer(admin),
    });
    expect(sc.statusCode).toBe(200);
  });

  it('refuses a broken file with status Error and leaves every project as it was', async () => {
    const projectsDir = path.join(t.config.dataDir, 'projects');
    const before = snapshot(projectsDir);
    const modelsBefore = await models();
    const broken = readFileSync(SAMPLE, 'utf8').slice(0, 5000);
    const { final } = await uploadAndWait('M1.3docx', broken, '?projectName=M1&overwriteIfExists=true');
    expect(final.status).toBe(4);
    expect(final.message).toMatch(/^Failed to add project M1: .+/);
    expect(snapshot(projectsDir)).toEqual(before);
    const after = await models();
    expect(after.find((x) => x.name === 'M1')!.revisions).toEqual(modelsBefore.find((x) => x.name === 'M1')!.revisions);

    const { final: f2 } = await uploadAndWait('NEW.xml', 'this is not xml at all');
    expect(f2.status).toBe(4);
    const card = (await models()).find((x) => x.name === 'NEW')!;
    expect(card).toMatchObject({ revisions: [], conversionFailed: true, isConverting: false });
    const conv = await t.app.inject({
      method: 'GET',
      url: '/api/viewer/project/model-conversion?projectName=NEW',
      headers: bearer(admin),
    });
    expect(conv.json()).toMatchObject({ status: 4, projectName: 'NEW' });
    const rm = await t.app.inject({
      method: 'DELETE',
      url: '/api/viewer/project/delete-model?projectName=NEW',
      headers: bearer(admin),
    });
    expect(rm.statusCode).toBe(200);
    expect((await models()).find((x) => x.name === 'NEW')).toBeUndefined();
    expect(snapshot(projectsDir)).toEqual(before);
  });

  it('deletes a revision and a project (admin:view)', async () => {
    const r = await t.app.inject({
      method: 'DELETE',
      url: '/api/viewer/project/delete-revision?projectName=M1&revisionNumber=1',
      headers: bearer(admin),
    });
    expect(r.statusCode, r.body).toBe(200);
    expect((await models()).find((x) => x.name === 'M1')!.revisions.map((x) => x.revisionInfo.revisionNumber)).toEqual([
      2,
    ]);
    const last = await t.app.inject({
      method: 'DELETE',
      url: '/api/viewer/project/delete-revision?projectName=M1&revisionNumber=2',
      headers: bearer(admin),
    });
    expect(last.statusCode).toBe(400);
    const d = await t.app.inject({
      method: 'DELETE',
      url: '/api/viewer/project/delete-model?projectName=M1',
      headers: bearer(admin),
    });
    expect(d.statusCode).toBe(200);
    expect((await models()).find((x) => x.name === 'M1')).toBeUndefined();
  });
});
