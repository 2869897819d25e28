/** Shared set-up for API tests: a fresh DATA_DIR per app, DEMO_SHIP off, requests through inject. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { expect } from 'vitest';
import { buildApp } from '../../api/app';
import { UploadResponseSchema } from '../../api/contract';
import { type ShipOptions, writeShipOcx } from '../../tools/generator';
import { loadConfig, type ServerConfig } from '../../api/config';
import type { ConversionRunner } from '../../api/conversion/runners';

export const SAMPLES = path.resolve(__dirname, '../../../shared/models/ocx');

export interface TestApp {
  app: FastifyInstance;
  config: ServerConfig;
  close(): Promise<void>;
}

/**
 * The configuration of a test server on the shared queue: `dataDir` its DATA_DIR (the caller removes it),
 * in-process conversions, the tests' JWT secret and sign-in limit, and conversion jobs taken as lost after
 * `timeoutSec` seconds of silence, 2 attempts, one at a time per process, no shutdown grace.
 */
export function jobsTestConfig(dataDir: string, timeoutSec: number): ServerConfig {
  return loadConfig(
    {},
    {
      dataDir,
      demoShip: false,
      useWorkerThreads: false,
      jwtSecret: 'test-secret-0123456789',
      authRateLimitPerMin: 1000,
      jobs: { timeoutSec, attempts: 2, concurrency: 1, shutdownGraceSec: 0 },
    },
  );
}

/**
 * Builds an app on a new temp DATA_DIR; `close` closes it and removes the directory. The sign-in limit
 * is raised to 1000/min (tests sign in often); rate-limit tests pass their own `authRateLimitPerMin`.
 */
export async function makeApp(overrides: Partial<ServerConfig> = {}, runner?: ConversionRunner): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'keelson-api-'));
  const config = loadConfig(
    {},
    {
      dataDir,
      demoShip: false,
      useWorkerThreads: false,
      jwtSecret: 'test-secret-0123456789',
      authRateLimitPerMin: 1000,
      ...overrides,
    },
  );
  const app = await buildApp(config, { runner });
  return {
    app,
    config,
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Logs in; returns the bearer token. */
export async function login(app: FastifyInstance, email: string, password = 'secret-password'): Promise<string> {
  const l = await app.inject({ method: 'POST', url: '/api/auth/viewer/default/login', payload: { email, password } });
  if (l.statusCode !== 200) throw new Error(`login ${email}: ${l.statusCode} ${l.body}`);
  return l.json().token as string;
}

/** Registers (admin when `admin`) and logs in; returns the bearer token. */
export async function signUp(
  app: FastifyInstance,
  email: string,
  opts: { admin?: boolean; password?: string } = {},
): Promise<string> {
  const password = opts.password ?? 'secret-password';
  const r = await app.inject({
    method: 'POST',
    url: '/api/auth/viewer/default/register',
    payload: {
      email,
      password,
      fullName: email.split('@')[0],
      requirePasswordReset: false,
      adminEmail: '',
      registerAdmin: opts.admin === true,
    },
  });
  if (r.statusCode !== 200) throw new Error(`register ${email}: ${r.statusCode} ${r.body}`);
  const l = await app.inject({ method: 'POST', url: '/api/auth/viewer/default/login', payload: { email, password } });
  if (l.statusCode !== 200) throw new Error(`login ${email}: ${l.statusCode} ${l.body}`);
  return l.json().token as string;
}

/**
 * Gives `email` access to `projects` (each until `validUntil`, ISO, or permanent) through the admin API
 * (PATCH /api/default/viewer/users?email), keeping the user's fixed permissions. @returns the reply.
 */
export async function grantProjects(
  app: FastifyInstance,
  adminToken: string,
  email: string,
  projects: string[],
  opts: { validUntil?: string; fixed?: string[] } = {},
) {
  const permissions = [...(opts.fixed ?? ['upload:model']), ...projects.map((p) => `project:${p}`)];
  const validUntil = opts.validUntil ? Object.fromEntries(projects.map((p) => [`project:${p}`, opts.validUntil])) : {};
  const r = await app.inject({
    method: 'PATCH',
    url: `/api/default/viewer/users?email=${encodeURIComponent(email)}`,
    headers: bearer(adminToken),
    payload: { permissions, validUntil },
  });
  if (r.statusCode !== 200) throw new Error(`grant ${email}: ${r.statusCode} ${r.body}`);
  return r;
}

/** A multipart/form-data body with one file field named 'file'. */
export function multipartFile(
  fileName: string,
  content: Buffer | string,
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----keelson${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, Buffer.isBuffer(content) ? content : Buffer.from(content), tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** GET /api/ready's body when every check passes (api/contract/health.ts). */
export const ALL_READY = {
  ready: true,
  database: true,
  migrations: true,
  shuttingDown: false,
  storage: true,
  realtime: true,
  reasons: [],
};

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Uploads the sample `<model>.3docx` from SAMPLES as `token`, waits for its conversion; returns the project name. */
export async function uploadSample(t: TestApp, token: string, model: string): Promise<string> {
  return uploadFile(t, token, `${model}.3docx`, readFileSync(path.join(SAMPLES, `${model}.3docx`)));
}

/** Uploads `content` as the project file `fileName` as `token`, waits for its conversion; returns the project name. */
export async function uploadFile(
  t: TestApp,
  token: string,
  fileName: string,
  content: string | Buffer,
): Promise<string> {
  const { payload, headers } = multipartFile(fileName, content);
  const r = await t.app.inject({
    method: 'POST',
    url: '/api/viewer/project/add/project-uploaded',
    payload,
    headers: { ...headers, ...bearer(token) },
  });
  expect(r.statusCode, r.body).toBe(200);
  const up = v.parse(UploadResponseSchema, r.json());
  await t.app.ctx.conversions.wait(up.conversionId);
  return up.projectName;
}

/** A multipart/form-data body with one file part per entry, all under the field name `field`. */
export function multipartFiles(
  field: string,
  files: readonly { name: string; content: Buffer | string }[],
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----keelson${Math.random().toString(16).slice(2)}`;
  const parts = files.map((f) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${f.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      Buffer.isBuffer(f.content) ? f.content : Buffer.from(f.content),
      Buffer.from('\r\n'),
    ]),
  );
  return {
    payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/**
 * Writes a generated ship (tools/generator `writeShipOcx`, `options`) into a temporary directory, uploads it as
 * `fileName` and removes the directory. @returns the OCX text uploaded.
 */
export async function uploadGeneratedShip(
  t: TestApp,
  token: string,
  fileName: string,
  options: ShipOptions,
): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'keelson-ship-'));
  try {
    const file = path.join(dir, fileName);
    await writeShipOcx(file, options);
    const text = readFileSync(file, 'utf8');
    await uploadFile(t, token, fileName, text);
    return text;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
