/**
 * Shared set-up of the comment API tests: one app with a converted sample project (NAPA-OCX_M1 unless
 * told; two revisions), a second project 'OTHER', and users: the administrator, an author, an assignee and a
 * bystander with access to SHIP only, and an outsider without access.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { attachRealtime } from '../../api/realtime';
import {
  bearer,
  grantProjects,
  login,
  makeApp,
  multipartFile,
  SAMPLES,
  signUp,
  type TestApp,
  uploadSample,
} from './helpers';

export const BASE = '/api/keelson-static/comments';
export const EMAILS = {
  admin: 'admin@yard.com',
  author: 'author@yard.com',
  assignee: 'assignee@yard.com',
  bystander: 'bystander@yard.com',
  outsider: 'outsider@yard.com',
} as const;
export type Who = keyof typeof EMAILS;

export interface CommentsWorld {
  t: TestApp;
  app: FastifyInstance;
  project: string;
  other: string;
  token: Record<Who, string>;
  /** An inject as `who` (JSON body as `payload`). */
  call(who: Who, opts: InjectOptions): Promise<LightMyRequestResponse>;
}

/** Builds the world (a few seconds: two conversions); `realtime` attaches socket.io before the first request. */
export async function commentsWorld(opts: { realtime?: boolean; model?: string } = {}): Promise<CommentsWorld> {
  const model = opts.model ?? 'NAPA-OCX_M1';
  const t = await makeApp({ organizationDomain: 'nobody.example' });
  if (opts.realtime) attachRealtime(t.app);
  const token = {} as Record<Who, string>;
  token.admin = await signUp(t.app, EMAILS.admin, { admin: true });
  const project = await uploadSample(t, token.admin, model);
  await uploadSample(t, token.admin, model);
  const other = await uploadAs(t, token.admin, 'OTHER');
  for (const who of ['author', 'assignee', 'bystander', 'outsider'] as const) await signUp(t.app, EMAILS[who]);
  for (const who of ['author', 'assignee', 'bystander'] as const)
    await grantProjects(t.app, token.admin, EMAILS[who], [project], { fixed: [] });
  for (const who of ['author', 'assignee', 'bystander', 'outsider'] as const)
    token[who] = await login(t.app, EMAILS[who]);
  return {
    t,
    app: t.app,
    project,
    other,
    token,
    call: (who, opts) =>
      t.app.inject({ ...opts, headers: { ...(opts.headers ?? {}), ...bearer(token[who]) } } as InjectOptions),
  };
}

/** Uploads the M1 sample under another project name. */
async function uploadAs(t: TestApp, adminToken: string, name: string): Promise<string> {
  const { payload, headers } = multipartFile('m1.3docx', readFileSync(path.join(SAMPLES, 'NAPA-OCX_M1.3docx')));
  const r = await t.app.inject({
    method: 'POST',
    url: `/api/viewer/project/add/project-uploaded?projectName=${name}`,
    payload,
    headers: { ...headers, ...bearer(adminToken) },
  });
  expect(r.statusCode, r.body).toBe(200);
  await t.app.ctx.conversions.wait(r.json().conversionId);
  return name;
}

/** Query string of the place of new comments. */
export const place = (project: string, revision = 1, extra: Record<string, string> = {}) =>
  new URLSearchParams({
    projectName: project,
    projectVersionName: 'MAIN',
    projectRevisionNumber: String(revision),
    ...extra,
  }).toString();
