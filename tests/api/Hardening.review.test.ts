/**
 * Hardening of the server (review pass): no internal details or stacks in 500 replies, the password
 * change an administrator required enforced by the server, a refused upload leaving no trace, a
 * conversion that cannot be half-cancelled or lock its name, and the start-up clean-up of conversions
 * a stopped process left behind.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { ChangePasswordResponseSchema } from '../../api/contract';
import { buildApp } from '../../api/app';
import { loadConfig } from '../../api/config';
import { ConversionManager, conversionErrorMessage, type RevisionWriter } from '../../api/conversion/ConversionManager';
import type { ConvertOutput } from '../../api/conversion/convertFile';
import { openDatabase } from '../../api/db/database';
import { bearer, makeApp, multipartFile, signUp, type TestApp } from './helpers';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

const OUTPUT: ConvertOutput = {
  scFile: 'X.sc',
  bytes: 0,
  triangles: 0,
  objectCount: 0,
  warnings: 0,
  warningMessages: [],
  thumbnail: '',
  schemaVersion: '',
  originatingSystem: '',
};

describe('error replies', () => {
  it('answers an unreadable revision with 500 naming the revision but no path or stack', async () => {
    t = await makeApp();
    const admin = await signUp(t.app, 'admin@yard.com', { admin: true });
    const tmpDir = await t.app.ctx.projects.createTempDir('BAD', 'x1');
    writeFileSync(path.join(tmpDir, 'objects.json'), '{ not json');
    await t.app.ctx.projects.commitRevision({ name: 'BAD', tmpDir, description: '', replace: false, output: OUTPUT });
    const r = await t.app.inject({
      url: '/api/keelson-instance/model/objects?modelName=BAD&revision=1',
      headers: bearer(admin),
    });
    expect(r.statusCode).toBe(500);
    expect(r.json()).toEqual({
      error: 'RevisionUnreadable',
      message: 'Revision 1 of project BAD cannot be read',
      type: 'error',
    });
    expect(r.body).not.toContain(t.config.dataDir);
  });

  it('answers an unexpected failure with the generic 500 message', async () => {
    t = await makeApp();
    const admin = await signUp(t.app, 'admin@yard.com', { admin: true });
    t.app.ctx.projects.list = async () => {
      throw new Error(`SQLITE_IOERR: disk I/O error at ${t.config.dataDir}/keelson.sqlite`);
    };
    const r = await t.app.inject({ url: '/api/viewer/project/models', headers: bearer(admin) });
    expect(r.statusCode).toBe(500);
    expect(r.json()).toEqual({
      error: 'InternalServerError',
      message: 'An error occurred, please try again. If the problem persists, contact administrator.',
      type: 'error',
    });
  });

  it('reports file-system failures of a conversion by code, not by path', () => {
    const e = Object.assign(new Error("ENOENT: no such file or directory, open '/srv/keelson/data/uploads/x.3docx'"), {
      code: 'ENOENT',
      syscall: 'open',
    });
    expect(conversionErrorMessage(e)).toBe('A file operation on the server failed (ENOENT)');
    expect(conversionErrorMessage(new Error('Missing element ocx:Vessel (line 3)'))).toBe(
      'Missing element ocx:Vessel (line 3)',
    );
  });
});

describe('permissions enforced by the server', () => {
  it('refuses every call but authorize-user and changePassword until a required password change', async () => {
    t = await makeApp();
    const admin = await signUp(t.app, 'admin@yard.com', { admin: true });
    const reg = await t.app.inject({
      method: 'POST',
      url: '/api/auth/viewer/default/register',
      headers: bearer(admin),
      payload: { email: 'new@yard.com', password: 'temporary-pw', fullName: 'New', requirePasswordReset: true },
    });
    expect(reg.statusCode, reg.body).toBe(200);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/viewer/default/login',
      payload: { email: 'new@yard.com', password: 'temporary-pw' },
    });
    expect(login.json().requirePasswordReset).toBe(true);
    const token = login.json().token as string;
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/authorize-user', headers: bearer(token) })).statusCode,
    ).toBe(200);
    const models = await t.app.inject({ url: '/api/viewer/project/models', headers: bearer(token) });
    expect(models.statusCode).toBe(403);
    expect(models.json()).toEqual({
      error: 'Forbidden',
      message: 'Change your password before continuing',
      type: 'permission',
    });
    const change = await t.app.inject({
      method: 'POST',
      url: '/api/auth/viewer/default/changePassword',
      headers: bearer(token),
      payload: {
        email: 'new@yard.com',
        currentPassword: 'temporary-pw',
        newPassword: 'my-own-password',
        confirmNewPassword: 'my-own-password',
      },
    });
    expect(change.statusCode, change.body).toBe(200);
    // The change revokes the old token; the reply's token continues the session.
    expect((await t.app.inject({ url: '/api/viewer/project/models', headers: bearer(token) })).statusCode).toBe(401);
    const fresh = v.parse(ChangePasswordResponseSchema, change.json()).token ?? '';
    expect((await t.app.inject({ url: '/api/viewer/project/models', headers: bearer(fresh) })).statusCode).toBe(200);
  });

  it('still lets a visitor with a stale token register', async () => {
    t = await makeApp();
    await signUp(t.app, 'admin@yard.com', { admin: true });
    const r = await t.app.inject({
      method: 'POST',
      url: '/api/auth/viewer/default/register',
      headers: bearer('stale.token.value'),
      payload: {
        email: 'visitor@yard.com',
        password: 'secret-password',
        fullName: 'Visitor',
        requirePasswordReset: true,
      },
    });
    expect(r.statusCode, r.body).toBe(200);
    // not an administrator's call: requirePasswordReset from a visitor is ignored
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/viewer/default/login',
      payload: { email: 'visitor@yard.com', password: 'secret-password' },
    });
    expect(login.json().requirePasswordReset).toBe(false);
  });
});

describe('nothing half-written', () => {
  it('leaves no conversion, card or file behind for an upload that is too large', async () => {
    t = await makeApp({ maxUploadMb: 1 });
    const admin = await signUp(t.app, 'admin@yard.com', { admin: true });
    const { payload, headers } = multipartFile('big.3docx', Buffer.alloc(1024 * 1024 + 10, 0x20));
    const r = await t.app.inject({
      method: 'POST',
      url: '/api/viewer/project/add/project-uploaded',
      payload,
      headers: { ...headers, ...bearer(admin) },
    });
    expect(r.statusCode).toBe(413);
    expect(r.json().message).toBe('The file is larger than 1 MB');
    const models = (
      await t.app.inject({ url: '/api/viewer/project/models', headers: bearer(admin) })
    ).json() as unknown[];
    expect(models).toEqual([]);
    expect(
      (await t.app.inject({ url: '/api/viewer/project/model-conversion?projectName=BIG', headers: bearer(admin) }))
        .statusCode,
    ).toBe(404);
    const uploads = path.join(t.config.dataDir, 'uploads');
    expect(existsSync(uploads) ? readdirSync(uploads) : []).toEqual([]);
    // the name is not locked
    expect(t.app.ctx.conversions.running('BIG')).toBeNull();
  });

  it('refuses a cancel once the revision is being committed, so status and data agree', async () => {
    t = await makeApp();
    let releaseCommit!: () => void;
    const committing = new Promise<void>((r) => (releaseCommit = r));
    let commitStarted!: () => void;
    const started = new Promise<void>((r) => (commitStarted = r));
    const scratch = mkdtempSync(path.join(os.tmpdir(), 'keelson-commit-'));
    const projects: RevisionWriter = {
      createTempDir: async () => scratch,
      projectDir: () => path.join(os.tmpdir(), 'keelson-no-such-project'),
      commitRevision: async () => {
        commitStarted();
        await committing;
        return 1;
      },
    };
    const m = new ConversionManager(t.app.ctx.db, projects, { run: async () => OUTPUT, close: async () => {} });
    const id = await m.reserve('SHIP', 'a@yard.com');
    m.start(id, { input: '/nonexistent', description: '', replace: false });
    await started;
    await expect(m.cancel('SHIP', 'a@yard.com')).rejects.toMatchObject({
      statusCode: 409,
      message: 'The conversion of SHIP is being saved and can no longer be canceled',
    });
    releaseCommit();
    expect((await m.wait(id)).status).toBe(2);
    rmSync(scratch, { recursive: true, force: true });
  });

  it('withdraws a reservation cancelled while its file is still being stored: nothing is kept', async () => {
    t = await makeApp();
    const m = t.app.ctx.conversions;
    const id = await m.reserve('SHIP', 'a@yard.com');
    const final = m.wait(id);
    await expect(m.cancel('SHIP', 'b@yard.com')).rejects.toMatchObject({ statusCode: 403 });
    await m.cancel('SHIP', 'a@yard.com');
    expect(await final).toMatchObject({ status: 3, message: 'Conversion canceled' });
    // No row (so no cancelled card), the name free again, and a late start of it refused.
    expect(await m.latest('SHIP')).toBeUndefined();
    expect(() => m.start(id, { input: '/nonexistent', description: '', replace: false })).toThrow();
    const again = await m.reserve('SHIP', 'a@yard.com');
    expect(again).not.toBe(id);
    await m.release(again);
  });

  it('lists the latest conversion of each project, whatever the history before it', async () => {
    t = await makeApp();
    const row = (id: string, project: string, status: number, at: string) => ({
      id,
      project_name: project,
      started_by: 'a@yard.com',
      status,
      progress: 100,
      message: `row ${id}`,
      error: null,
      created_at: at,
      finished_at: at,
      worker: null,
      heartbeat_at: null,
      job: null,
    });
    await t.app.ctx.db
      .insertInto('conversions')
      .values([
        row('a1', 'ALPHA', 4, '2026-01-01T00:00:00.000Z'),
        row('a3', 'ALPHA', 3, '2026-03-01T00:00:00.000Z'),
        row('a2', 'ALPHA', 2, '2026-02-01T00:00:00.000Z'),
        row('b1', 'BETA', 2, '2026-01-15T00:00:00.000Z'),
      ])
      .execute();
    const latest = await t.app.ctx.conversions.latestAll();
    expect([...latest].map(([name, r]) => [name, r.id, r.status])).toEqual([
      ['BETA', 'b1', 2],
      ['ALPHA', 'a3', 3],
    ]);
  });

  it('does not lock a project name when the conversion cannot be recorded', async () => {
    t = await makeApp();
    // A real database that can no longer be written: it was closed under the manager.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'keelson-closed-db-'));
    const closed = await openDatabase(dir);
    await closed.destroy();
    const m = new ConversionManager(closed, t.app.ctx.projects, {
      run: async () => OUTPUT,
      close: async () => {},
    });
    await expect(m.reserve('SHIP', 'a@yard.com')).rejects.toThrow();
    rmSync(dir, { recursive: true, force: true });
    expect(m.running('SHIP')).toBeNull();
  });

  it('on start, fails conversions a stopped process left running and removes their files', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'keelson-restart-'));
    try {
      const config = loadConfig({}, { dataDir, demoShip: false, useWorkerThreads: false, jwtSecret: 'x' });
      let app = await buildApp(config);
      const id = '11111111-2222-4333-8444-555555555555';
      await app.ctx.db
        .insertInto('conversions')
        .values({
          id,
          project_name: 'HALF',
          started_by: 'a@yard.com',
          status: 1,
          progress: 40,
          message: 'Converting',
          error: null,
          created_at: new Date().toISOString(),
          finished_at: null,
        })
        .execute();
      await app.close();
      const tmpDir = path.join(dataDir, 'projects', 'HALF', `.tmp-${id}`);
      mkdirSync(tmpDir, { recursive: true });
      writeFileSync(path.join(tmpDir, 'HALF.sc'), 'partial');
      mkdirSync(path.join(dataDir, 'uploads', `${id}-extracted`), { recursive: true });
      writeFileSync(path.join(dataDir, 'uploads', `${id}-half.3docx`), '<x/>');
      writeFileSync(path.join(dataDir, 'uploads', 'other-kept.3docx'), '<x/>');

      app = await buildApp(config);
      const row = await app.ctx.conversions.latest('HALF');
      expect(row).toMatchObject({ status: 4, message: 'The server stopped during the conversion' });
      expect(existsSync(path.join(dataDir, 'projects', 'HALF'))).toBe(false);
      expect(existsSync(path.join(dataDir, 'uploads', `${id}-half.3docx`))).toBe(false);
      expect(existsSync(path.join(dataDir, 'uploads', `${id}-extracted`))).toBe(false);
      expect(existsSync(path.join(dataDir, 'uploads', 'other-kept.3docx'))).toBe(true);
      await app.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
