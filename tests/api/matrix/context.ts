/**
 * The authorization matrix's shared parts (tests/api/Access.matrix.test.ts): the roles and what each holds, who
 * may call a route (`Who`, written here independently of the server's declarations), the answer a role must get,
 * and the fixture the sample requests use (the server, each role's token, the threads, tags and attachment made
 * before the matrix runs).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { PNG } from 'pngjs';
import * as v from 'valibot';
import { expect } from 'vitest';
import { UploadResponseSchema } from '../../../api/contract';
import { bearer, grantProjects, login, makeApp, multipartFile, SAMPLES, signUp, type TestApp } from '../helpers';

export type Role = 'anonymous' | 'outsider' | 'reader' | 'uploader' | 'admin';
export const ROLES: Role[] = ['anonymous', 'outsider', 'reader', 'uploader', 'admin'];
export const EMAIL: Record<Role, string> = {
  anonymous: '',
  outsider: 'outsider@other.org',
  reader: 'reader@other.org',
  uploader: 'uploader@other.org',
  admin: 'admin@yard.com',
};
/** Fixed permissions per role (the administrator holds all). */
export const FIXED: Record<Role, string[]> = {
  anonymous: [],
  outsider: [],
  reader: [],
  uploader: ['upload:model'],
  admin: ['admin:view', 'upload:model', 'comment:view', 'comment:edit', 'miscellaneous:view'],
};
/** Who sees the projects (the administrator sees all). */
export const SEES: Record<Role, boolean> = {
  anonymous: false,
  outsider: false,
  reader: true,
  uploader: true,
  admin: true,
};

export const M1 = readFileSync(path.join(SAMPLES, 'NAPA-OCX_M1.3docx'));
export const BCF_MINIMUM = readFileSync(path.join(SAMPLES, '../bcf/v3.0_Markup_Minimum_information.bcf'));
export const SHIP = 'SHIP';

/**
 * Who may call a route, written here independently of the server's declarations:
 * anyone; signedIn; admin (admin:view); read (sees the project); upload (sees it + upload:model);
 * delete (sees it + admin:view); remove (as delete, but visibility is checked first: the starter of a failed
 * first conversion may remove its card without admin:view, so the permission cannot be checked up front).
 */
export type Who = 'anyone' | 'signedIn' | 'admin' | 'read' | 'upload' | 'delete' | 'remove';

/** A request per route and role; `ok` are the statuses the handler may give once access is granted. */
export interface Sample {
  who: Who;
  req: (role: Role) => InjectOptions;
  ok?: number[];
  /** Project the rule names (for the 404 message). */
  project?: string;
  after?: (role: Role, res: LightMyRequestResponse) => Promise<void>;
}

export const q = (p: Record<string, string>) => new URLSearchParams(p).toString();
export const model = (extra: Record<string, string> = {}) => q({ modelName: SHIP, ...extra });

/** What the sample requests read at call time: filled by `setUpMatrix` and by the rows' `after` steps. */
export const state = {
  t: undefined as unknown as TestApp,
  /** Counter for unique e-mail addresses. */
  n: 0,
  /** The administrator's snapshot attachment. */
  snapshotId: '',
  /** The status option the administrator's POST made (its DELETE removes it). */
  statusId: 0,
};
/** Each role's bearer token ('' for anonymous). */
export const token: Record<Role, string> = { anonymous: '', outsider: '', reader: '', uploader: '', admin: '' };

/** Tags made in beforeAll: the custom tree root and its folder 'Matrix'; each role's own folder. */
export const tagFixture = { root: 0, folder: 0, own: {} as Partial<Record<Role, number>> };

export async function makeTags(): Promise<void> {
  const post = async (payload: object): Promise<number> => {
    const r = await state.t.app.inject({
      method: 'POST',
      url: `/api/viewer/tags?${q({ projectName: SHIP })}`,
      headers: bearer(token.admin),
      payload,
    });
    expect(r.statusCode, r.body).toBe(200);
    return r.json().id;
  };
  tagFixture.root = await post({ name: 'Custom-model-tree', type: 'ContextRoot', parent: null });
  tagFixture.folder = await post({ name: 'Matrix', type: 'UnrestrictedTree', parent: tagFixture.root });
}

/** Threads made in beforeAll: one per role that may write (the others use the administrator's). */
export const thread: Partial<Record<Role, string>> = {};
export const threadOf = (role: Role): string => thread[role] ?? thread.admin ?? '';
export const commentPlace = (extra: Record<string, string> = {}, revision = '1') =>
  q({ projectName: SHIP, projectVersionName: 'MAIN', projectRevisionNumber: revision, ...extra });
/** A 4×2 PNG (the snapshot attachment; thumbnails are made of images). */
export function png4x2(): string {
  const png = new PNG({ width: 4, height: 2 });
  png.data.fill(200);
  return PNG.sync.write(png).toString('base64');
}

export async function makeThreads(): Promise<void> {
  for (const role of ['reader', 'uploader', 'admin'] as const) {
    const attachments = role === 'admin' ? [{ fileName: 'snapshot.png', type: 1, data: png4x2() }] : [];
    const r = await state.t.app.inject({
      method: 'POST',
      url: `/api/keelson-static/comments/add-thread?${commentPlace()}`,
      headers: bearer(token[role]),
      payload: { comment: { message: `thread of ${role}`, attachments } },
    });
    expect(r.statusCode, r.body).toBe(200);
    thread[role] = r.json().id;
    if (role === 'admin') state.snapshotId = r.json().attachments[0].fileId;
  }
}

export async function relogin(role: Role): Promise<void> {
  if (role !== 'anonymous') token[role] = await login(state.t.app, EMAIL[role]);
}

export async function upload(name: string, as: string): Promise<void> {
  const { payload, headers } = multipartFile('m1.3docx', M1);
  const r = await state.t.app.inject({
    method: 'POST',
    url: `/api/viewer/project/add/project-uploaded?${q({ projectName: name })}`,
    payload,
    headers: { ...headers, ...bearer(as) },
  });
  expect(r.statusCode, r.body).toBe(200);
  expect((await state.t.app.ctx.conversions.wait(v.parse(UploadResponseSchema, r.json()).conversionId)).status).toBe(2);
}

/** Makes the server, the users with their permissions, the projects, the threads and the tags. */
export async function setUpMatrix(): Promise<void> {
  state.t = await makeApp({ organizationDomain: 'yard.com' });
  const t = state.t;
  token.admin = await signUp(t.app, EMAIL.admin, { admin: true });
  for (const name of [SHIP, 'DOOMED', 'DOOMED', 'GONE']) await upload(name, token.admin);
  for (const role of ['outsider', 'reader', 'uploader', 'victim'] as const)
    await signUp(t.app, role === 'victim' ? 'victim@other.org' : EMAIL[role]);
  for (const role of ['reader', 'uploader'] as const)
    await grantProjects(t.app, token.admin, EMAIL[role], [SHIP, 'DOOMED', 'GONE'], { fixed: FIXED[role] });
  for (const role of ['outsider', 'reader', 'uploader'] as const) await relogin(role);
  await makeThreads();
  await makeTags();
}

/**
 * The answer a role must get: a denial (status and message) or 'allowed'. A fixed permission is checked
 * before the project, so a user lacking it hears 403 whether or not the project exists; a project the
 * user may not see answers 404 exactly as a missing one.
 */
export function expected(who: Who, role: Role, project = ''): { status: number; message: string } | 'allowed' {
  if (who === 'anyone') return 'allowed';
  if (role === 'anonymous') return { status: 401, message: 'Authentication required' };
  if (who === 'signedIn') return 'allowed';
  if (who === 'remove' && !SEES[role]) return { status: 404, message: `Project ${project} not found` };
  const permission = who === 'upload' ? 'upload:model' : who === 'read' ? null : 'admin:view';
  if (permission && !FIXED[role].includes(permission))
    return { status: 403, message: `Missing permission ${permission}` };
  if (who !== 'admin' && !SEES[role]) return { status: 404, message: `Project ${project} not found` };
  return 'allowed';
}
