/**
 * Hardening found by attack (the server side of "Who may see what"): upload names checked before
 * anything is stored, nested archives refused, conversion threads with a memory limit, bounded inputs,
 * security headers, files for the server's user only, uploads of deleted projects removed, and a restart
 * after a process died while committing a revision.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { zipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app';
import { loadConfig } from '../../api/config';
import { workerRunner } from '../../api/conversion/runners';
import { writeShipOcx } from '../../tools/generator';
import { bearer, makeApp, multipartFile, SAMPLES, signUp, type TestApp, uploadSample } from './helpers';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const M1 = readFileSync(path.join(SAMPLES, 'NAPA-OCX_M1.3docx'));
const uploadsOf = (dataDir: string) => {
  const dir = path.join(dataDir, 'uploads');
  return existsSync(dir) ? readdirSync(dir) : [];
};

async function upload(app: TestApp, token: string, fileName: string, content: Buffer) {
  const { payload, headers } = multipartFile(fileName, content);
  return app.app.inject({
    method: 'POST',
    url: '/api/viewer/project/add/project-uploaded',
    payload,
    headers: { ...headers, ...bearer(token) },
  });
}

describe('uploads', () => {
  it('refuses a 300-character file name before storing anything, and leaves no project locked', async () => {
    t = await makeApp();
    const admin = await signUp(t.app, 'admin@yard.com', { admin: true });
    const r = await upload(t, admin, `${'a'.repeat(300)}.3docx`, M1);
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({
      error: 'BadRequest',
      message: 'Invalid file name: longer than 200 characters',
      type: 'validation',
    });
    const slash = await upload(t, admin, '..\\evil\u0001.3docx', M1);
    expect(slash.statusCode).toBe(400);
    expect(slash.json().message).toMatch(/^Invalid file name: /);
    expect(uploadsOf(t.config.dataDir)).toEqual([]);
    expect((await t.app.inject({ url: '/api/viewer/project/models', headers: bearer(admin) })).json()).toEqual([]);
    // the same content under a fair name goes through at once
    const ok = await upload(t, admin, 'ship.3docx', M1);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await t.app.ctx.conversions.wait(ok.json().conversionId)).status).toBe(2);
  });

  it('refuses a zip inside a zip and keeps nothing', async () => {
    t = await makeApp();
    const admin = await signUp(t.app, 'admin@yard.com', { admin: true });
    const inner = zipSync({ 'ship.3docx': new Uint8Array(M1) });
    const outer = Buffer.from(zipSync({ 'inner.3docx': inner }));
    const r = await upload(t, admin, 'outer.zip', outer);
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toBe('Nested archives are not supported: inner.3docx is itself a zip archive');
    expect(uploadsOf(t.config.dataDir)).toEqual([]);
    expect(t.app.ctx.conversions.running('OUTER')).toBeNull();
  });

  it('removes the uploaded originals with their project', async () => {
    t = await makeApp();
    const admin = await signUp(t.app, 'admin@yard.com', { admin: true });
    const zipped = Buffer.from(zipSync({ 'ship.3docx': new Uint8Array(M1) }));
    const r = await upload(t, admin, 'ship.zip', zipped);
    expect(r.statusCode, r.body).toBe(200);
    expect((await t.app.ctx.conversions.wait(r.json().conversionId)).status).toBe(2);
    expect(uploadsOf(t.config.dataDir)).toHaveLength(1); // the original archive is kept with the project
    const del = await t.app.inject({
      method: 'DELETE',
      url: '/api/viewer/project/delete-model?projectName=SHIP',
      headers: bearer(admin),
    });
    expect(del.statusCode).toBe(200);
    expect(uploadsOf(t.config.dataDir)).toEqual([]);
  });

  it('removes the uploaded original of a deleted or replaced revision and keeps the others', async () => {
    t = await makeApp();
    const admin = await signUp(t.app, 'admin@yard.com', { admin: true });
    const addTo = async (query: string) => {
      const { payload, headers } = multipartFile('ship.3docx', M1);
      const r = await (t as TestApp).app.inject({
        method: 'POST',
        url: `/api/viewer/project/add/project-uploaded?${query}`,
        payload,
        headers: { ...headers, ...bearer(admin) },
      });
      expect(r.statusCode, r.body).toBe(200);
      const id: string = r.json().conversionId;
      expect((await (t as TestApp).app.ctx.conversions.wait(id)).status).toBe(2);
      return id;
    };
    const created = await upload(t, admin, 'ship.3docx', M1);
    expect(created.statusCode, created.body).toBe(200);
    const first: string = created.json().conversionId;
    expect((await t.app.ctx.conversions.wait(first)).status).toBe(2);
    const second = await addTo('projectName=SHIP');
    const owners = () => uploadsOf((t as TestApp).config.dataDir).map((f) => f.slice(0, 36));
    expect(owners().sort()).toEqual([first, second].sort());
    const del = await t.app.inject({
      method: 'DELETE',
      url: '/api/viewer/project/delete-revision?projectName=SHIP&revisionNumber=1',
      headers: bearer(admin),
    });
    expect(del.statusCode, del.body).toBe(200);
    expect(owners()).toEqual([second]);
    const third = await addTo('projectName=SHIP&overwriteIfExists=true');
    expect(owners()).toEqual([third]);
  });
});

describe('conversion memory limit', () => {
  it('fails a conversion that needs more memory than its thread may use, and the next one runs', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'keelson-oom-'));
    const tight = workerRunner(1, 16);
    const normal = workerRunner(1);
    try {
      const signal = new AbortController().signal;
      // A generated ship of 8,000 parts needs far more than a 16 MB heap to convert.
      const big = path.join(dir, 'big.3docx');
      await writeShipOcx(big, { targetParts: 8000 });
      await expect(
        tight.run({ input: big, modelName: 'BIG', outDir: path.join(dir, 'a') }, () => {}, signal),
      ).rejects.toThrow(
        'The conversion needed more than 16 MB of memory and was stopped: the file may hold absurd coordinates or sizes',
      );
      const input = path.join(SAMPLES, 'NAPA-OCX_M1.3docx');
      const out = await normal.run({ input, modelName: 'M1', outDir: path.join(dir, 'b') }, () => {}, signal);
      expect(out.objectCount).toBeGreaterThan(0);
    } finally {
      await tight.close();
      await normal.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('bounded inputs', () => {
  it('refuses 10,001 quantity ids and a 5 MB section location with 400 naming the bound', async () => {
    t = await makeApp();
    const admin = await signUp(t.app, 'admin@yard.com', { admin: true });
    const ship = await uploadSample(t, admin, 'NAPA-OCX_M1');
    const ids = Array.from({ length: 10_001 }, (_, i) => `id${i}`);
    const q = await t.app.inject({
      method: 'POST',
      url: `/api/keelson-instance/steel/quantities?modelName=${ship}&qnts=W`,
      headers: bearer(admin),
      payload: ids,
    });
    expect(q.statusCode).toBe(400);
    expect(q.json().message).toBe("Invalid field 'body': At most 10000 object ids per call");
    const s = await t.app.inject({
      method: 'POST',
      url: '/api/viewer/ship-sections',
      headers: bearer(admin),
      payload: { projectName: ship, axis: 'X', location: `#${'1'.repeat(5 * 1048576)}` },
    });
    expect(s.statusCode).toBe(400);
    expect(s.json().message).toBe("Invalid field 'location': At most 100 characters");
  });
});

describe('security headers and files', () => {
  it('sends a Content-Security-Policy without inline script that the UI passes', async () => {
    t = await makeApp();
    const r = await t.app.inject({ url: '/api/health' });
    const csp = String(r.headers['content-security-policy']);
    const directive = (name: string) => csp.split(';').find((d) => d.trim().startsWith(`${name} `)) ?? '';
    expect(directive('script-src')).toBe("script-src 'self' 'wasm-unsafe-eval'");
    expect(directive('worker-src')).toContain('blob:');
    expect(directive('frame-ancestors')).toBe("frame-ancestors 'none'");
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    // the UI's page loads its scripts from files, never inline (checked on the source and a build, if any)
    const pages = [path.resolve(__dirname, '../../ui/index.html'), path.resolve(__dirname, '../../dist/ui/index.html')];
    for (const page of pages.filter((p) => existsSync(p))) {
      const scripts = [...readFileSync(page, 'utf8').matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.length).toBeGreaterThan(0);
      for (const [, attrs, body] of scripts) {
        expect(attrs).toMatch(/\ssrc=/);
        expect(body.trim()).toBe('');
      }
    }
  });

  it('keeps the database, its directory and uploads readable by the server user only', async () => {
    t = await makeApp();
    const admin = await signUp(t.app, 'admin@yard.com', { admin: true });
    await uploadSample(t, admin, 'NAPA-OCX_M1');
    const mode = (p: string) => statSync(p).mode & 0o777;
    expect(mode(t.config.dataDir)).toBe(0o700);
    // On PostgreSQL (the api-pg project) the tables live in the server, not in DATA_DIR.
    if (t.config.database.kind === 'sqlite') expect(mode(path.join(t.config.dataDir, 'keelson.sqlite'))).toBe(0o600);
    const uploads = path.join(t.config.dataDir, 'uploads');
    expect(mode(uploads)).toBe(0o700);
    for (const f of readdirSync(uploads)) expect(mode(path.join(uploads, f))).toBe(0o600);
  });
});

describe('restart after a process died while committing a revision', () => {
  it('removes a revision folder no row points to, and keeps the status a finished commit wrote', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'keelson-commit-crash-'));
    try {
      const config = loadConfig({}, { dataDir, demoShip: false, useWorkerThreads: false, jwtSecret: 'x' });
      let app = await buildApp(config);
      // A conversion whose commit went through, killed before it could report: row InProgress until the commit.
      const id = '22222222-3333-4444-8555-666666666666';
      await app.ctx.db
        .insertInto('conversions')
        .values({
          id,
          project_name: 'DONE',
          started_by: 'a@yard.com',
          status: 1,
          progress: 90,
          message: 'Writing',
          error: null,
          created_at: new Date().toISOString(),
          finished_at: null,
        })
        .execute();
      const tmpDir = await app.ctx.projects.createTempDir('DONE', id);
      writeFileSync(path.join(tmpDir, 'DONE.sc'), 'x');
      const output = {
        scFile: 'DONE.sc',
        bytes: 1,
        triangles: 0,
        objectCount: 0,
        warnings: 0,
        warningMessages: [],
        thumbnail: '',
        schemaVersion: '',
        originatingSystem: '',
      };
      await app.ctx.projects.commitRevision({
        name: 'DONE',
        tmpDir,
        description: '',
        replace: false,
        output,
        conversionId: id,
      });
      await app.close();
      // A rename that happened before a commit that never came: a folder with no row.
      const orphan = path.join(dataDir, 'projects', 'DONE', 'rev-2');
      mkdirSync(orphan, { recursive: true });
      writeFileSync(path.join(orphan, 'DONE.sc'), 'half');

      app = await buildApp(config);
      expect(await app.ctx.conversions.latest('DONE')).toMatchObject({ status: 2, message: 'Revision 1 is ready' });
      expect((await app.ctx.projects.revisions('DONE')).map((r) => r.number)).toEqual([1]);
      expect(existsSync(orphan)).toBe(false);
      expect(existsSync(path.join(dataDir, 'projects', 'DONE', 'rev-1', 'DONE.sc'))).toBe(true);
      await app.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
