/**
 * Cancel while an upload is still arriving (application.md §4 "Model conversion": the user who started it
 * may cancel; nothing of a cancelled upload is kept): a real listening server and a real HTTP client that
 * sends the multipart body slowly, as a slow link does. The server must stop writing at the cancel, not
 * when the last byte arrives: answer the upload, remove what it stored and free the name, while the client
 * still has bytes to send.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, makeApp, signUp, type TestApp } from './helpers';

let t: TestApp;
let admin: string;
let base: URL;

beforeAll(async () => {
  t = await makeApp();
  admin = await signUp(t.app, 'admin@yard.com', { admin: true });
  base = new URL(await t.app.listen({ port: 0, host: '127.0.0.1' }));
});

afterAll(async () => {
  await t?.close();
});

/** Files in DATA_DIR/uploads with their sizes. */
function uploads(): Record<string, number> {
  const dir = path.join(t.config.dataDir, 'uploads');
  if (!existsSync(dir)) return {};
  return Object.fromEntries(readdirSync(dir).map((f) => [f, statSync(path.join(dir, f)).size]));
}

/** Open connections of the listening server. */
const connections = () =>
  new Promise<number>((resolve, reject) => t.app.server.getConnections((e, n) => (e ? reject(e) : resolve(n))));

async function until<T>(what: string, fn: () => T | Promise<T> | undefined | false, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('cancel while the upload is still arriving', () => {
  it('stops storing at the cancel: the upload is answered, its file removed and the name free, before the body ends', async () => {
    const boundary = '----keelsonslow';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.3docx"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    const piece = Buffer.alloc(64 * 1024, 0x20);
    const req = http.request(new URL('/api/viewer/project/add/project-uploaded?projectName=SLOW', base), {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...bearer(admin) },
    });
    const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
    });
    // A failed expectation must not leave the connection open (the app would not close).
    try {
      await slowUpload(req, head, piece, answered);
    } finally {
      req.destroy();
    }
    // The server reads and drops the rest, so it sees the client leave: no connection is left open.
    await until('the upload connection closed', async () => (await connections()) === 0);
    const again = await t.app.ctx.conversions.reserve('SLOW', 'admin@yard.com');
    await t.app.ctx.conversions.release(again);
  });
});

async function slowUpload(
  req: http.ClientRequest,
  head: Buffer,
  piece: Buffer,
  answered: Promise<{ status: number; body: string }>,
): Promise<void> {
  req.write(head);
  req.write(piece);
  // The reservation exists and part of the file is on disk.
  await until('the stored part', () => Object.values(uploads()).some((n) => n > 0));
  expect(t.app.ctx.conversions.running('SLOW')).not.toBeNull();

  const cancel = await t.app.inject({
    method: 'DELETE',
    url: '/api/viewer/project/add/cancel-project?projectName=SLOW',
    headers: bearer(admin),
  });
  expect(cancel.statusCode, cancel.body).toBe(200);

  // More of the body arrives after the cancel; none of it may be written.
  req.write(piece);
  const reply = await Promise.race([
    answered,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer before the body ended')), 5000)),
  ]);
  expect(reply.status).toBe(404);
  expect(JSON.parse(reply.body).message).toMatch(/^No conversion found for project /);
  req.write(piece);
  await new Promise((r) => setTimeout(r, 100));
  expect(uploads()).toEqual({});
  // Nothing kept: no running conversion, no card, and the name can be added again.
  expect(t.app.ctx.conversions.running('SLOW')).toBeNull();
  expect(await t.app.ctx.conversions.latest('SLOW')).toBeUndefined();
}
