/**
 * `keelson backup` / `keelson restore` (api/cli/backupArchive.ts): a server with a project revision, a
 * comment with an attachment, a saved section and a tag is backed up while it runs, restored into an
 * empty data directory (and, on the 'api-pg' project, an empty PostgreSQL database), and a server
 * started on the restored data finds all of it through the API.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app';
import { main } from '../../api/cli/backup';
import { backup, restore } from '../../api/cli/backupArchive';
import { openDatabase } from '../../api/db/database';
import { loadConfig } from '../../api/config';
import { AttachmentSchema, CommentSchema } from '../../api/contract';
import { bearer, makeApp, multipartFile, signUp, type TestApp, uploadSample } from './helpers';

const COMMENTS = '/api/keelson-static/comments';
let t: TestApp;
let token: string;
let project: string;
let work: string;
const note = Buffer.from('Weld seam at frame 12 needs a second look.\n');

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'keelson-backup-'));
  t = await makeApp();
  token = await signUp(t.app, 'admin@yard.com', { admin: true });
  project = await uploadSample(t, token, 'NAPA-OCX_M1');
}, 120_000);
afterAll(async () => {
  await t?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

const place = () =>
  new URLSearchParams({ projectName: project, projectVersionName: 'MAIN', projectRevisionNumber: '1' }).toString();

/** Fills the server: a comment thread with a file attachment, a saved section and a tag. @returns the ids. */
async function fill(): Promise<{ commentId: string; fileId: string; tagId: number }> {
  const { payload, headers } = multipartFile('notes.txt', note);
  const up = await t.app.inject({
    method: 'POST',
    url: `${COMMENTS}/upload-attachment?projectName=${project}`,
    payload,
    headers: { ...headers, ...bearer(token) },
  });
  expect(up.statusCode, up.body).toBe(200);
  const fileId = v.parse(AttachmentSchema, up.json()).fileId;
  const thread = await t.app.inject({
    method: 'POST',
    url: `${COMMENTS}/add-thread?${place()}`,
    headers: bearer(token),
    payload: { comment: { message: 'Check the weld', attachments: [{ fileId }] } },
  });
  expect(thread.statusCode, thread.body).toBe(200);
  const section = await t.app.inject({
    method: 'POST',
    url: '/api/viewer/ship-sections',
    headers: bearer(token),
    payload: { projectName: project, axis: 'X', location: '#12' },
  });
  expect(section.statusCode, section.body).toBe(200);
  const tagUrl = `/api/viewer/tags?projectName=${project}`;
  const root = await t.app.inject({
    method: 'POST',
    url: tagUrl,
    headers: bearer(token),
    payload: { name: 'Review', type: 'ContextRoot', parent: null },
  });
  expect(root.statusCode, root.body).toBe(200);
  const tag = await t.app.inject({
    method: 'POST',
    url: tagUrl,
    headers: bearer(token),
    payload: { name: 'Welds', type: 'Flat', parent: root.json().id },
  });
  expect(tag.statusCode, tag.body).toBe(200);
  return { commentId: v.parse(CommentSchema, thread.json()).id, fileId, tagId: tag.json().id };
}

describe('backup and restore', () => {
  it('restores a running server into an empty one that finds every project, revision, comment, attachment, section and tag', async () => {
    const ids = await fill();
    const archive = path.join(work, 'keelson.tar.gz');
    const manifest = await backup(t.config, archive);
    expect(manifest.database).toBe(t.config.database.kind);
    expect(existsSync(archive)).toBe(true);

    const dataDir = path.join(work, 'restored');
    const config = loadConfig({}, { dataDir, demoShip: false, useWorkerThreads: false, jwtSecret: 'other-secret' });
    expect(config.database.kind).toBe(t.config.database.kind);
    if (config.database.kind === 'postgres') expect(config.database).not.toEqual(t.config.database);
    await restore(config, archive);
    expect(existsSync(path.join(dataDir, 'keelson-backup'))).toBe(false);
    const app = await buildApp(config);
    try {
      const login = await app.inject({
        method: 'POST',
        url: '/api/auth/viewer/default/login',
        payload: { email: 'admin@yard.com', password: 'secret-password' },
      });
      expect(login.statusCode, login.body).toBe(200);
      const auth = bearer(login.json().token);
      const projects = await app.inject({ url: '/api/viewer/project/models', headers: auth });
      expect(projects.statusCode, projects.body).toBe(200);
      expect(JSON.stringify(projects.json())).toContain(project);
      const before = await t.app.ctx.projects.revision(project, 'latest');
      const after = await app.ctx.projects.revision(project, 'latest');
      expect(after.number).toBe(before.number);
      expect(existsSync(path.join(dataDir, after.dir))).toBe(true);

      const threads = await app.inject({ url: `${COMMENTS}/all?${place()}`, headers: auth });
      expect(threads.statusCode, threads.body).toBe(200);
      const [thread] = v.parse(v.array(CommentSchema), threads.json());
      expect(thread).toMatchObject({ id: ids.commentId, message: 'Check the weld' });
      expect(thread.attachments.map((a) => a.fileId)).toEqual([ids.fileId]);
      const data = await app.inject({ url: `${COMMENTS}/attachment-data?attachmentId=${ids.fileId}`, headers: auth });
      expect(data.statusCode).toBe(200);
      expect(data.rawPayload.equals(note)).toBe(true);

      const sections = await app.inject({ url: `/api/viewer/ship-sections?projectName=${project}`, headers: auth });
      expect(sections.json().map((s: { name: string }) => s.name)).toEqual(['X=#12']);
      const tags = await app.inject({ url: `/api/viewer/tags/all?projectName=${project}`, headers: auth });
      expect(JSON.stringify(tags.json())).toContain(`"id":${ids.tagId}`);
      expect(JSON.stringify(tags.json())).toContain('"name":"Welds"');

      // The restored database keeps numbering after the restored rows.
      const next = await app.inject({
        method: 'POST',
        url: `/api/viewer/tags?projectName=${project}`,
        headers: auth,
        payload: { name: 'Plates', type: 'Flat', parent: tags.json()[0].id },
      });
      expect(next.statusCode, next.body).toBe(200);
      expect(next.json().id).toBeGreaterThan(ids.tagId);
    } finally {
      await app.close();
    }
  });

  it('refuses a data directory that is not empty and an archive that is no backup', async () => {
    const full = path.join(work, 'full');
    const config = loadConfig({}, { dataDir: full, demoShip: false, useWorkerThreads: false, jwtSecret: 'x' });
    writeFileSync(path.join(work, 'stray.txt'), 'x');
    const archive = path.join(work, 'second.tar');
    await backup(t.config, archive);
    mkdirSync(full);
    writeFileSync(path.join(full, 'keep.txt'), 'mine');
    await expect(restore(config, archive)).rejects.toThrow(/not empty/);
    expect(readFileSync(path.join(full, 'keep.txt'), 'utf8')).toBe('mine');

    const empty = path.join(work, 'empty');
    const config2 = loadConfig({}, { dataDir: empty, demoShip: false, useWorkerThreads: false, jwtSecret: 'x' });
    await expect(restore(config2, path.join(work, 'stray.txt'))).rejects.toThrow();
    await expect(backup(t.config, path.join(t.config.dataDir, 'inside.tar'))).rejects.toThrow(/outside the data/);
  });

  it('runs as `npm run backup -- FILE` / `npm run restore -- FILE` on the DATA_DIR of the environment', async () => {
    const saved = process.env.DATA_DIR;
    const archive = path.join(work, 'cli.tar');
    const dataDir = path.join(work, 'cli-restored');
    try {
      expect(await main(['backup'])).toBe(2);
      expect(await main(['copy', archive])).toBe(2);
      process.env.DATA_DIR = t.config.dataDir;
      expect(await main(['backup', archive])).toBe(0);
      process.env.DATA_DIR = dataDir;
      expect(await main(['restore', archive])).toBe(0);
      expect(await main(['restore', archive])).toBe(1); // no longer empty
    } finally {
      if (saved === undefined) delete process.env.DATA_DIR;
      else process.env.DATA_DIR = saved;
    }
    const db = await openDatabase(dataDir, loadConfig({}, { dataDir, jwtSecret: 'x' }).database);
    try {
      const names = (await db.selectFrom('projects').select('name').execute()).map((p) => p.name);
      expect(names).toEqual([project]);
    } finally {
      await db.destroy();
    }
  });
});
