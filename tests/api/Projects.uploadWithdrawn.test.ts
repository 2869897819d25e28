/**
 * Cancel while an upload is still arriving (application.md §4 "Model conversion": the user who started it
 * may cancel; nothing of a cancelled upload is kept): a real listening server and a real HTTP client that
 * sends the multipart body slowly, as a slow link does. The server must stop writing at the cancel, not
 * when the last byte arrives: answer the upload, remove what it stored and free the name, while the client
 * still has bytes to send.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, signUp, type TestApp } from './helpers';
import { cancelWhileArriving, startSlowUpload, storedUploads, until } from './slowUpload';

let t: TestApp;
let admin: string;
let base: string;

beforeAll(async () => {
  t = await makeApp();
  admin = await signUp(t.app, 'admin@yard.com', { admin: true });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await t?.close();
});

/** Open connections of the listening server. */
const connections = () =>
  new Promise<number>((resolve, reject) => t.app.server.getConnections((e, n) => (e ? reject(e) : resolve(n))));

describe('cancel while the upload is still arriving', () => {
  it('stops storing at the cancel: the upload is answered, its file removed and the name free, before the body ends', async () => {
    const up = startSlowUpload(base, admin, 'SLOW');
    // A failed expectation must not leave the connection open (the app would not close).
    try {
      // The reservation exists and part of the file is on disk.
      await until('the stored part', () => Object.values(storedUploads(t.config.dataDir)).some((n) => n > 0));
      expect(t.app.ctx.conversions.running('SLOW')).not.toBeNull();
      // More of the body arrives after the cancel; none of it may be written.
      const reply = await cancelWhileArriving(t.app, admin, up, 'SLOW', 5000);
      expect(reply.status).toBe(404);
      expect(JSON.parse(reply.body).message).toMatch(/^No conversion found for project /);
      up.send(64 * 1024);
      await new Promise((r) => setTimeout(r, 100));
      expect(storedUploads(t.config.dataDir)).toEqual({});
      // Nothing kept: no running conversion, no card.
      expect(t.app.ctx.conversions.running('SLOW')).toBeNull();
      expect(await t.app.ctx.conversions.latest('SLOW')).toBeUndefined();
    } finally {
      up.destroy();
    }
    // The server reads and drops the rest, so it sees the client leave: no connection is left open.
    await until('the upload connection closed', async () => (await connections()) === 0);
    // The name can be added again.
    const again = await t.app.ctx.conversions.reserve('SLOW', 'admin@yard.com');
    await t.app.ctx.conversions.release(again);
  });

  it('a storing failure frees the name, answers at once and reads off the rest, so the connection closes with the client', async () => {
    // The uploads directory cannot be made: a file holds its name (so the clean-up's removal fails too, which
    // used to leave the name reserved until a restart).
    const uploads = path.join(t.config.dataDir, 'uploads');
    rmSync(uploads, { recursive: true, force: true });
    writeFileSync(uploads, 'not a directory');
    const up = startSlowUpload(base, admin, 'BROKEN');
    try {
      const reply = await up.answer(5000);
      expect(reply.status).toBe(500);
      expect(t.app.ctx.conversions.running('BROKEN')).toBeNull();
      expect(await t.app.ctx.conversions.latest('BROKEN')).toBeUndefined();
      up.send(64 * 1024);
    } finally {
      up.destroy();
      rmSync(uploads, { force: true });
    }
    await until('the upload connection closed', async () => (await connections()) === 0, 5000);
  });
});
