/**
 * Projects from a server directory (application.md §3 "Available project location", §7
 * add/project-from-directory): the location tree lists the sample directory's OCX files; adding one runs
 * the real conversion (new revision, replaced revision, newRevision flag); paths outside the configured
 * locations are refused ('..', relative paths, symbolic links leading out), and adding needs upload:model.
 */
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AvailableProjectLocationsSchema, ModelListSchema, UploadResponseSchema } from '../../api/contract';
import { SAMPLES, bearer, grantProjects, makeApp, signUp, type TestApp } from './helpers';

let t: TestApp;
let admin: string;
let outside: string;
let linked: string;
const M1 = path.join(SAMPLES, 'NAPA-OCX_M1.3docx');

async function fromDirectory(token: string, query: Record<string, string>) {
  return t.app.inject({
    method: 'POST',
    url: `/api/viewer/project/add/project-from-directory?${new URLSearchParams(query)}`,
    headers: bearer(token),
  });
}

async function addAndWait(query: Record<string, string>) {
  const r = await fromDirectory(admin, query);
  expect(r.statusCode, r.body).toBe(200);
  const up = v.parse(UploadResponseSchema, r.json());
  expect((await t.app.ctx.conversions.wait(up.conversionId)).status).toBe(2);
  return up;
}

async function revisionsOf(name: string) {
  const r = await t.app.inject({ url: '/api/viewer/project/models', headers: bearer(admin) });
  return v.parse(ModelListSchema, r.json()).find((m) => m.name === name)?.revisions ?? [];
}

beforeAll(async () => {
  // A second location holding links: one to a file inside it, one to the samples (outside it).
  linked = mkdtempSync(path.join(os.tmpdir(), 'keelson-loc-'));
  outside = mkdtempSync(path.join(os.tmpdir(), 'keelson-outside-'));
  writeFileSync(path.join(outside, 'secret.ocx'), '<ocx/>');
  symlinkSync(path.join(outside, 'secret.ocx'), path.join(linked, 'escape.ocx'));
  symlinkSync(outside, path.join(linked, 'escape-dir'));
  // A location configured through a link: its files keep the configured path.
  symlinkSync(SAMPLES, path.join(outside, 'samples-link'));
  t = await makeApp({
    organizationDomain: 'yard.com',
    projectLocations: [
      { type: 'directory', path: SAMPLES, name: 'ocx' },
      { type: 'directory', path: linked, name: 'linked' },
      { type: 'directory', path: path.join(outside, 'samples-link'), name: 'via link' },
    ],
  });
  admin = await signUp(t.app, 'admin@yard.com', { admin: true });
  await signUp(t.app, 'reader@other.org');
  await signUp(t.app, 'uploader@other.org');
  await grantProjects(t.app, admin, 'uploader@other.org', []);
}, 60_000);

afterAll(async () => {
  await t?.close();
  rmSync(linked, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('project locations', () => {
  it('lists the directory locations with their project files, and no link that leads out', async () => {
    const r = await t.app.inject({ url: '/api/viewer/project/project-locations', headers: bearer(admin) });
    expect(r.statusCode, r.body).toBe(200);
    const locs = v.parse(AvailableProjectLocationsSchema, r.json());
    expect(locs.map((l) => [l.location, l.locationType])).toEqual([
      [SAMPLES, 'Directory'],
      [linked, 'Directory'],
      [path.join(outside, 'samples-link'), 'Directory'],
    ]);
    const viaLink = locs[2].projects.find((p) => p.name === 'NAPA-OCX_M1.3docx')?.filePath ?? '';
    expect(viaLink).toBe(path.join(outside, 'samples-link', 'NAPA-OCX_M1.3docx'));
    expect(await t.app.ctx.locations.resolveFile(viaLink)).toBe(M1);
    expect(() => t.app.ctx.locations.checkSource(viaLink)).not.toThrow();
    const names = locs[0].projects.map((p) => p.name);
    expect(names).toContain('NAPA-OCX_M1.3docx');
    expect(names).not.toContain('OCX_Schema_3.0.0.xsd');
    const m1 = locs[0].projects.find((p) => p.name === 'NAPA-OCX_M1.3docx');
    expect(m1?.filePath).toBe(M1);
    expect(locs[1].projects).toEqual([]);
  });

  it('refuses paths outside the locations: "..", relative, links leading out, other types', async () => {
    const cases = [
      `${SAMPLES}/../ocx/NAPA-OCX_M1.3docx`,
      'NAPA-OCX_M1.3docx',
      path.join(linked, 'escape.ocx'),
      path.join(linked, 'escape-dir', 'secret.ocx'),
      path.join(outside, 'secret.ocx'),
      path.join(SAMPLES, 'OCX_Schema_3.0.0.xsd'),
      'http://127.0.0.1:9->SHIP',
    ];
    for (const projectPath of cases) {
      const r = await fromDirectory(admin, { projectPath, projectName: 'ESCAPE' });
      expect([r.statusCode, r.json().message], projectPath).toEqual([
        400,
        'The path is not inside a configured project location',
      ]);
    }
    const missing = await fromDirectory(admin, { projectPath: path.join(SAMPLES, 'nothing.3docx') });
    expect([missing.statusCode, missing.json().message]).toEqual([
      404,
      'Project file nothing.3docx not found in the project locations',
    ]);
    expect(await revisionsOf('ESCAPE')).toEqual([]);
  });

  it('adds a project from a directory: new revision, replace latest, newRevision wins', async () => {
    const first = await addAndWait({ projectPath: M1, description: 'from the share' });
    expect(first.projectName).toBe('NAPA-OCX_M1');
    expect((await revisionsOf('NAPA-OCX_M1')).map((r) => r.revisionInfo.description)).toEqual(['from the share']);

    await addAndWait({ projectPath: M1, overwriteIfExists: 'true', description: 'replaced' });
    expect(
      (await revisionsOf('NAPA-OCX_M1')).map((r) => [r.revisionInfo.revisionNumber, r.revisionInfo.description]),
    ).toEqual([[1, 'replaced']]);

    await addAndWait({ projectPath: M1, overwriteIfExists: 'true', newRevision: 'true', description: 'second' });
    expect((await revisionsOf('NAPA-OCX_M1')).map((r) => r.revisionInfo.revisionNumber)).toEqual([2, 1]);

    // The original is kept as the revision's file (another server pulls it from here).
    const file = await t.app.inject({
      url: '/api/viewer/project/project-file?projectName=NAPA-OCX_M1',
      headers: bearer(admin),
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toBe('attachment; filename="NAPA-OCX_M1.3docx"');
    expect(file.rawPayload.length).toBe((await import('node:fs')).statSync(M1).size);
  }, 120_000);

  it('needs upload:model, and access to an existing project', async () => {
    const reader = await t.app.inject({
      method: 'POST',
      url: '/api/auth/viewer/default/login',
      payload: { email: 'reader@other.org', password: 'secret-password' },
    });
    const noRight = await fromDirectory(reader.json().token, { projectPath: M1, projectName: 'OTHER' });
    expect([noRight.statusCode, noRight.json().message]).toEqual([403, 'Missing permission upload:model']);
    const list = await t.app.inject({
      url: '/api/viewer/project/project-locations',
      headers: bearer(reader.json().token),
    });
    expect(list.statusCode).toBe(403);
    // upload:model, but the existing project is not the uploader's: it answers as if it did not exist.
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/viewer/default/login',
      payload: { email: 'uploader@other.org', password: 'secret-password' },
    });
    const hidden = await fromDirectory(login.json().token, { projectPath: M1 });
    expect([hidden.statusCode, hidden.json().message]).toEqual([404, 'Project NAPA-OCX_M1 not found']);
  });
});
