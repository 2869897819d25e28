/**
 * An upload that arrives slowly, as over a slow link: a real HTTP client that sends the multipart head and
 * then the file in pieces when the test says, to a listening server. For the tests of a cancel while the
 * file still arrives.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

/** A slow upload in progress. */
export interface SlowUpload {
  /** Sends `bytes` more of the file (spaces). */
  send(bytes: number): void;
  /** The server's answer (status and body), whenever it comes. */
  answered: Promise<{ status: number; body: string }>;
  /** The answer, or an error after `ms` without one. */
  answer(ms: number): Promise<{ status: number; body: string }>;
  /** Closes the connection (always call it: an open connection keeps the server from closing). */
  destroy(): void;
}

/**
 * Starts `POST {base}/api/viewer/project/add/project-uploaded?projectName={name}` with `token`, sending the
 * multipart head and `first` bytes of a file `{name}.3docx`; the body is never ended.
 */
export function startSlowUpload(base: string | URL, token: string, name: string, first = 64 * 1024): SlowUpload {
  const boundary = '----keelsonslow';
  const req = http.request(new URL(`/api/viewer/project/add/project-uploaded?projectName=${name}`, base), {
    method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${token}` },
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
  // Unhandled when the test ends before an answer (it destroys the request then).
  answered.catch(() => {});
  const send = (bytes: number) => req.write(Buffer.alloc(bytes, 0x20));
  req.write(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}.3docx"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  send(first);
  return {
    send,
    answered,
    answer: (ms) =>
      Promise.race([
        answered,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`no answer within ${ms} ms, before the body ended`)), ms),
        ),
      ]),
    destroy: () => req.destroy(),
  };
}

/** Files in `{dataDir}/uploads` with their sizes. */
export function storedUploads(dataDir: string): Record<string, number> {
  const dir = path.join(dataDir, 'uploads');
  if (!existsSync(dir)) return {};
  return Object.fromEntries(readdirSync(dir).map((f) => [f, statSync(path.join(dir, f)).size]));
}

/** Resolves with `fn`'s first truthy value, polling every 20 ms; throws naming `what` after `ms`. */
export async function until<T>(what: string, fn: () => T | Promise<T> | undefined | false, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Cancels project `name` on `app` as `token` (DELETE .../add/cancel-project, which must answer 200) while
 * `up` still arrives, sends 64 KiB more of it, and returns the server's answer to the upload (within `ms`).
 */
export async function cancelWhileArriving(
  app: FastifyInstance,
  token: string,
  up: SlowUpload,
  name: string,
  ms: number,
): Promise<{ status: number; body: string }> {
  const cancel = await app.inject({
    method: 'DELETE',
    url: `/api/viewer/project/add/cancel-project?projectName=${name}`,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(cancel.statusCode, cancel.body).toBe(200);
  up.send(64 * 1024);
  return up.answer(ms);
}
