/**
 * The authorization matrix (ARCHITECTURE.md "Who may see what"; application.md §6), generated from the
 * server's own route table: every /api route × {anonymous, user without access, user with access,
 * upload:model user, administrator}. The expected answer of each cell follows from the route's declared
 * rule; a route without a rule cannot even be registered, and a route missing from SAMPLES fails here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { PNG } from 'pngjs';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OBJECT_PROPERTY_SETS, UploadResponseSchema } from '../../api/contract';
import { bearer, grantProjects, login, makeApp, multipartFile, SAMPLES, signUp, type TestApp } from './helpers';

type Role = 'anonymous' | 'outsider' | 'reader' | 'uploader' | 'admin';
const ROLES: Role[] = ['anonymous', 'outsider', 'reader', 'uploader', 'admin'];
const EMAIL: Record<Role, string> = {
  anonymous: '',
  outsider: 'outsider@other.org',
  reader: 'reader@other.org',
  uploader: 'uploader@other.org',
  admin: 'admin@yard.com',
};
/** Fixed permissions per role (the administrator holds all). */
const FIXED: Record<Role, string[]> = {
  anonymous: [],
  outsider: [],
  reader: [],
  uploader: ['upload:model'],
  admin: ['admin:view', 'upload:model', 'comment:view', 'comment:edit', 'miscellaneous:view'],
};
/** Who sees the projects (the administrator sees all). */
const SEES: Record<Role, boolean> = { anonymous: false, outsider: false, reader: true, uploader: true, admin: true };

const M1 = readFileSync(path.join(SAMPLES, 'NAPA-OCX_M1.3docx'));
const BCF_MINIMUM = readFileSync(path.join(SAMPLES, '../bcf/v3.0_Markup_Minimum_information.bcf'));
const SHIP = 'SHIP';

/**
 * Who may call a route, written here independently of the server's declarations:
 * anyone; signedIn; admin (admin:view); read (sees the project); upload (sees it + upload:model);
 * delete (sees it + admin:view); remove (as delete, but visibility is checked first: the starter of a failed
 * first conversion may remove its card without admin:view, so the permission cannot be checked up front).
 */
type Who = 'anyone' | 'signedIn' | 'admin' | 'read' | 'upload' | 'delete' | 'remove';

/** A request per route and role; `ok` are the statuses the handler may give once access is granted. */
interface Sample {
  who: Who;
  req: (role: Role) => InjectOptions;
  ok?: number[];
  /** Project the rule names (for the 404 message). */
  project?: string;
  after?: (role: Role, res: LightMyRequestResponse) => Promise<void>;
}

const q = (p: Record<string, string>) => new URLSearchParams(p).toString();
const model = (extra: Record<string, string> = {}) => q({ modelName: SHIP, ...extra });
let n = 0;

const SAMPLES_BY_ROUTE: Record<string, Sample> = {
  'GET /api/health': {
    who: 'anyone',
    req: () => ({ url: '/api/health' }),
  },
  'GET /api/config': {
    who: 'anyone',
    req: () => ({ url: '/api/config' }),
  },
  'POST /api/auth/viewer/default/register': {
    who: 'anyone',
    req: () => ({
      method: 'POST',
      url: '/api/auth/viewer/default/register',
      payload: { email: `new${++n}@other.org`, password: 'secret-password', fullName: 'New' },
    }),
  },
  'POST /api/auth/viewer/default/login': {
    who: 'anyone',
    req: () => ({
      method: 'POST',
      url: '/api/auth/viewer/default/login',
      payload: { email: 'outsider@other.org', password: 'secret-password' },
    }),
  },
  // Open to anyone; with local sign-in (this app) both answer 404 'not enabled' (tests/api/Auth.oidc.test.ts
  // runs them against a provider).
  'POST /api/auth/viewer/default/oidc/authorize': {
    who: 'anyone',
    req: () => ({
      method: 'POST',
      url: '/api/auth/viewer/default/oidc/authorize',
      payload: { redirectUri: 'http://keelson.test/login/callback' },
    }),
    ok: [404],
  },
  'POST /api/auth/viewer/default/oidc/token': {
    who: 'anyone',
    req: () => ({
      method: 'POST',
      url: '/api/auth/viewer/default/oidc/token',
      payload: { code: 'code', state: 'state' },
    }),
    ok: [404],
  },
  // The e-mail does not match the signed-in user: the handler refuses, nobody's password changes.
  'POST /api/auth/viewer/default/changePassword': {
    who: 'signedIn',
    req: () => ({
      method: 'POST',
      url: '/api/auth/viewer/default/changePassword',
      payload: {
        email: 'x@x.org',
        currentPassword: 'a',
        newPassword: 'new-password',
        confirmNewPassword: 'new-password',
      },
    }),
    ok: [403],
  },
  'POST /api/auth/viewer/default/logout': {
    who: 'signedIn',
    req: () => ({ method: 'POST', url: '/api/auth/viewer/default/logout' }),
    after: relogin,
  },
  'POST /api/disconnect/:clientId': {
    who: 'signedIn',
    req: () => ({ method: 'POST', url: '/api/disconnect/viewer-1' }),
    after: relogin,
  },
  'POST /api/authorize-user': {
    who: 'signedIn',
    req: () => ({ method: 'POST', url: '/api/authorize-user' }),
  },
  'GET /api/check-token': {
    who: 'signedIn',
    req: () => ({ url: '/api/check-token' }),
  },
  'GET /api/viewer/project/models': {
    who: 'signedIn',
    req: () => ({ url: '/api/viewer/project/models' }),
  },
  'POST /api/viewer/project/add/project-uploaded': {
    who: 'upload',
    project: SHIP,
    req: () => {
      const { payload, headers } = multipartFile('m1.3docx', M1);
      return {
        method: 'POST',
        url: `/api/viewer/project/add/project-uploaded?${q({ projectName: SHIP })}`,
        payload,
        headers,
      };
    },
    after: async (_role, res) => {
      if (res.statusCode === 200)
        await t.app.ctx.conversions.wait(v.parse(UploadResponseSchema, res.json()).conversionId);
    },
  },
  'GET /api/viewer/project/model-conversion': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/viewer/project/model-conversion?${q({ projectName: SHIP })}` }),
  },
  // Nothing runs: a user who may cancel learns that, with the handler's own 404 message.
  'DELETE /api/viewer/project/add/cancel-project': {
    who: 'upload',
    project: SHIP,
    req: () => ({ method: 'DELETE', url: `/api/viewer/project/add/cancel-project?${q({ projectName: SHIP })}` }),
    ok: [404],
  },
  'DELETE /api/viewer/project/delete-model': {
    who: 'remove',
    project: 'GONE',
    req: () => ({ method: 'DELETE', url: `/api/viewer/project/delete-model?${q({ projectName: 'GONE' })}` }),
  },
  'DELETE /api/viewer/project/delete-revision': {
    who: 'delete',
    project: 'DOOMED',
    req: () => ({
      method: 'DELETE',
      url: `/api/viewer/project/delete-revision?${q({ projectName: 'DOOMED', revisionNumber: '1' })}`,
    }),
  },
  'GET /api/viewer/project/project-info': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/viewer/project/project-info?${q({ projectName: SHIP })}` }),
  },
  'GET /api/viewer/project/highest-revision': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/viewer/project/highest-revision?${q({ projectName: SHIP })}` }),
  },
  'GET /api/viewer/project/cad-files-available': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/viewer/project/cad-files-available?${q({ projectName: SHIP })}` }),
  },
  // No conversion of SHIP waits for CAD files: a user who may upload learns that, with the handler's 409.
  'POST /api/viewer/project/upload-cad-files': {
    who: 'upload',
    project: SHIP,
    req: () => {
      const { payload, headers } = multipartFile('pump.stl', 'solid pump\nendsolid pump\n');
      const body = payload.toString('latin1').replace('name="file"', 'name="cadFiles"');
      return {
        method: 'POST',
        url: `/api/viewer/project/upload-cad-files?${q({ projectName: SHIP })}`,
        payload: Buffer.from(body, 'latin1'),
        headers,
      };
    },
    ok: [409],
  },
  'POST /api/viewer/project/notify-cad-files-uploaded': {
    who: 'upload',
    project: SHIP,
    req: () => ({
      method: 'POST',
      url: `/api/viewer/project/notify-cad-files-uploaded?${q({ projectName: SHIP })}`,
      payload: { fileNames: ['pump.stl'] },
    }),
    ok: [409],
  },
  'GET /api/viewer/project/cad-files-state': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/viewer/project/cad-files-state?${q({ projectName: SHIP })}` }),
    ok: [409],
  },
  'GET /api/keelson-instance/cad-components/all': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/cad-components/all?${model()}` }),
  },
  'GET /api/keelson-instance/cad-components/file-names': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/cad-components/file-names?${model()}` }),
  },
  // SHIP may hold one revision only (uploads by the matrix itself add more): 404 names the revision then.
  'GET /api/viewer/compare': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/viewer/compare?${q({ projectName: SHIP, fromRevision: '1', toRevision: '2' })}` }),
    ok: [200, 404],
  },
  'POST /api/viewer/compare/checkData': {
    who: 'read',
    project: SHIP,
    req: () => ({
      method: 'POST',
      url: '/api/viewer/compare/checkData',
      payload: { projectName: SHIP, fromRevision: 1, toRevision: 2 },
    }),
    ok: [200, 404],
  },
  'GET /api/viewer/compare/comment-changes': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/viewer/compare/comment-changes?${q({ projectName: SHIP, revision: '1' })}` }),
  },
  // No location is configured here: a caller who may add projects hears that the path is outside them.
  'GET /api/viewer/project/project-locations': {
    who: 'upload',
    req: () => ({ url: '/api/viewer/project/project-locations' }),
  },
  'POST /api/viewer/project/add/project-from-directory': {
    who: 'upload',
    req: () => ({
      method: 'POST',
      url: `/api/viewer/project/add/project-from-directory?${q({ projectPath: '/etc/passwd', projectName: SHIP })}`,
    }),
    ok: [400],
  },
  'POST /api/viewer/project/add/project-from-server': {
    who: 'upload',
    req: () => ({
      method: 'POST',
      url: `/api/viewer/project/add/project-from-server?${q({ masterServerUri: 'http://127.0.0.1:9', projectName: SHIP })}`,
    }),
    ok: [400],
  },
  'GET /api/viewer/project/project-file': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/viewer/project/project-file?${q({ projectName: SHIP })}` }),
  },
  'GET /api/keelson-static/models/:modelName/:revision/:file': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-static/models/${SHIP}/latest/${SHIP}.sc` }),
  },
  'GET /api/keelson-instance/model/objects': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/model/objects?${model()}` }),
  },
  'GET /api/keelson-instance/model/properties': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/model/properties?${model({ index: '0' })}` }),
  },
  'GET /api/keelson-instance/model/property-columns': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/model/property-columns?${model({ codes: 'NAME' })}` }),
  },
  'GET /api/keelson-instance/ship-model/purpose-colors': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/ship-model/purpose-colors?${model()}` }),
  },
  'GET /api/keelson-instance/table/types': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/table/types?${model()}` }),
  },
  'GET /api/keelson-instance/table/names': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/table/names?${model({ type: 'Weights' })}` }),
  },
  'GET /api/keelson-instance/table/read': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/table/read?${model({ name: 'Plates' })}` }),
  },
  'POST /api/keelson-instance/steel/quantities': {
    who: 'read',
    project: SHIP,
    req: () => ({
      method: 'POST',
      url: `/api/keelson-instance/steel/quantities?${model({ qnts: 'W' })}`,
      payload: ['x'],
    }),
  },
  'POST /api/keelson-instance/ship-model/quantities': {
    who: 'read',
    project: SHIP,
    req: () => ({
      method: 'POST',
      url: `/api/keelson-instance/ship-model/quantities?${model({ qnts: 'VOLM' })}`,
      payload: ['x'],
    }),
  },
  'POST /api/keelson-instance/steel/stiffener-web-flange-directions': {
    who: 'read',
    project: SHIP,
    req: () => ({
      method: 'POST',
      url: `/api/keelson-instance/steel/stiffener-web-flange-directions?${model()}`,
      payload: [{ id: 'x' }],
    }),
  },
  'POST /api/keelson-instance/steel/bracket-material-directions': {
    who: 'read',
    project: SHIP,
    req: () => ({
      method: 'POST',
      url: `/api/keelson-instance/steel/bracket-material-directions?${model()}`,
      payload: ['x'],
    }),
  },
  'POST /api/keelson-instance/maintenance/shutdown': {
    who: 'read',
    project: SHIP,
    req: () => ({ method: 'POST', url: `/api/keelson-instance/maintenance/shutdown?${model()}` }),
  },
  'GET /api/keelson-instance/maintenance/status': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/maintenance/status?${model()}` }),
  },
  'GET /api/keelson-instance/reference-system/coordinate': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/reference-system/coordinate?${model({ value: '1.5' })}` }),
  },
  // M1 has few numbered planes: the handler may answer 400 naming that; access was granted either way.
  'GET /api/keelson-instance/reference-system/frame-number': {
    who: 'read',
    project: SHIP,
    req: () => ({
      url: `/api/keelson-instance/reference-system/frame-number?${model({ type: 'frame', coordinate: '1' })}`,
    }),
    ok: [200, 400],
  },
  'GET /api/keelson-instance/reference-system/frame-coordinates': {
    who: 'read',
    project: SHIP,
    req: () => ({
      url: `/api/keelson-instance/reference-system/frame-coordinates?${model({ type: 'frame', startFrame: '0', endFrame: '2' })}`,
    }),
    ok: [200, 400],
  },
  'GET /api/keelson-instance/reference-system/frame': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/reference-system/frame?${model({ type: 'frame', coordinate: '1' })}` }),
    ok: [200, 400],
  },
  'POST /api/keelson-instance/reference-system/frames': {
    who: 'read',
    project: SHIP,
    req: () => ({ method: 'POST', url: `/api/keelson-instance/reference-system/frames?${model()}`, payload: {} }),
  },
  'GET /api/keelson-instance/steel/block-system': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/steel/block-system?${model()}` }),
  },
  // M1 has no blocks: the handler answers 404 naming the block; access was granted either way.
  'POST /api/keelson-instance/steel/blocks': {
    who: 'read',
    project: SHIP,
    req: () => ({ method: 'POST', url: `/api/keelson-instance/steel/blocks?${model()}`, payload: ['B1'] }),
    ok: [404],
  },
  'GET /api/keelson-instance/steel/arrangement': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/steel/arrangement?${model()}` }),
  },
  'GET /api/keelson-instance/ship-model/arrangement': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/ship-model/arrangement?${model()}` }),
  },
  'GET /api/keelson-instance/steel/section': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/steel/section?${model({ axis: 'X', coordinate: '1' })}` }),
  },
  'GET /api/keelson-instance/ship-model/section': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/ship-model/section?${model({ axis: 'X', coordinate: '1' })}` }),
  },
  'GET /api/keelson-instance/cad-components/section': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/cad-components/section?${model({ axis: 'X', coordinate: '1' })}` }),
  },
  // Each role saves, then deletes, its own section.
  'POST /api/viewer/ship-sections': {
    who: 'read',
    project: SHIP,
    req: (role) => ({
      method: 'POST',
      url: '/api/viewer/ship-sections',
      payload: { projectName: SHIP, axis: 'X', location: String(ROLES.indexOf(role)) },
    }),
  },
  'GET /api/viewer/ship-sections': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/viewer/ship-sections?${q({ projectName: SHIP })}` }),
  },
  'DELETE /api/viewer/ship-sections': {
    who: 'read',
    project: SHIP,
    req: (role) => ({
      method: 'DELETE',
      url: '/api/viewer/ship-sections',
      payload: { projectName: SHIP, axis: 'X', location: String(ROLES.indexOf(role)) },
    }),
  },
  // Custom model trees: every call needs access to the project (tags are shared by its users).
  'GET /api/viewer/tags/all': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/viewer/tags/all?${q({ projectName: SHIP })}` }),
  },
  'GET /api/viewer/tags/root': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/viewer/tags/root?${q({ projectName: SHIP, rootName: 'Custom-model-tree' })}` }),
  },
  'GET /api/viewer/tags': {
    who: 'read',
    project: SHIP,
    req: () => ({
      url: `/api/viewer/tags?${q({ projectName: SHIP, tagName: 'Matrix', parentId: String(tagFixture.root) })}`,
    }),
  },
  // Each role makes its own folder, which the DELETE row removes again.
  'POST /api/viewer/tags': {
    who: 'read',
    project: SHIP,
    req: (role) => ({
      method: 'POST',
      url: `/api/viewer/tags?${q({ projectName: SHIP })}`,
      payload: { name: `Folder of ${role}`, type: 'UnrestrictedTree', parent: tagFixture.root },
    }),
    after: async (role, res) => {
      if (res.statusCode === 200) tagFixture.own[role] = res.json().id;
    },
  },
  'PATCH /api/viewer/tags': {
    who: 'read',
    project: SHIP,
    req: () => ({
      method: 'PATCH',
      url: `/api/viewer/tags?${q({ projectName: SHIP, tagId: String(tagFixture.folder), newName: 'Matrix' })}`,
    }),
  },
  'DELETE /api/viewer/tags': {
    who: 'read',
    project: SHIP,
    req: (role) => ({
      method: 'DELETE',
      url: `/api/viewer/tags?${q({ projectName: SHIP, tagId: String(tagFixture.own[role] ?? 0) })}`,
    }),
  },
  'POST /api/viewer/tagging/tags-by-geometries': {
    who: 'read',
    project: SHIP,
    req: () => ({
      method: 'POST',
      url: `/api/viewer/tagging/tags-by-geometries?${q({ projectName: SHIP, tagTreeRootName: 'Custom-model-tree' })}`,
      payload: [],
    }),
  },
  'GET /api/viewer/tagging/tags-by-geometry': {
    who: 'read',
    project: SHIP,
    req: () => ({
      url: `/api/viewer/tagging/tags-by-geometry?${q({ projectName: SHIP, geometryName: 'x', tagTreeRootName: 'Custom-model-tree' })}`,
    }),
  },
  'GET /api/viewer/tagging/geometries-by-tag': {
    who: 'read',
    project: SHIP,
    req: () => ({
      url: `/api/viewer/tagging/geometries-by-tag?${q({ projectName: SHIP, tagId: String(tagFixture.folder) })}`,
    }),
  },
  'POST /api/viewer/tagging/add-tag-to-geometries': {
    who: 'read',
    project: SHIP,
    req: () => ({
      method: 'POST',
      url: `/api/viewer/tagging/add-tag-to-geometries?${q({ projectName: SHIP, tagId: String(tagFixture.folder) })}`,
      payload: ['x'],
    }),
  },
  'POST /api/viewer/tagging/remove-tag-from-geometries': {
    who: 'read',
    project: SHIP,
    req: () => ({
      method: 'POST',
      url: `/api/viewer/tagging/remove-tag-from-geometries?${q({ projectName: SHIP, tagId: String(tagFixture.folder) })}`,
      payload: ['x'],
    }),
  },
  'DELETE /api/viewer/tagging/delete-tag': {
    who: 'read',
    project: SHIP,
    req: () => ({
      method: 'DELETE',
      url: `/api/viewer/tagging/delete-tag?${q({ projectName: SHIP, tagId: String(tagFixture.folder) })}`,
    }),
  },
  'POST /api/keelson-instance/geometry/surface-objects': {
    who: 'read',
    project: SHIP,
    req: () => ({ method: 'POST', url: `/api/keelson-instance/geometry/surface-objects?${model()}`, payload: ['x'] }),
  },
  'POST /api/keelson-instance/geometry/surface-normals-at-points': {
    who: 'read',
    project: SHIP,
    req: () => ({
      method: 'POST',
      url: `/api/keelson-instance/geometry/surface-normals-at-points?${model()}`,
      payload: [{ x: 0, y: 0, z: 0 }],
    }),
  },
  'GET /api/keelson-static/comments/all': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-static/comments/all?${q({ projectName: SHIP })}` }),
  },
  'GET /api/keelson-static/comments/by-id': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-static/comments/by-id?${q({ commentId: threadOf('admin') })}` }),
  },
  'GET /api/keelson-static/comments/attachment-data': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-static/comments/attachment-data?${q({ attachmentId: snapshotId })}` }),
  },
  'GET /api/keelson-static/comments/attachment-thumbnail-data': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-static/comments/attachment-thumbnail-data?${q({ attachmentId: snapshotId })}` }),
  },
  'POST /api/keelson-static/comments/upload-attachment': {
    who: 'read',
    project: SHIP,
    req: () => {
      const { payload, headers } = multipartFile('note.txt', 'a note');
      return {
        method: 'POST',
        url: `/api/keelson-static/comments/upload-attachment?${q({ projectName: SHIP })}`,
        payload,
        headers,
      };
    },
  },
  'POST /api/keelson-static/comments/add-thread': {
    who: 'read',
    project: SHIP,
    req: () => ({
      method: 'POST',
      url: `/api/keelson-static/comments/add-thread?${commentPlace()}`,
      payload: { comment: { message: 'matrix' } },
    }),
  },
  'POST /api/keelson-static/comments/add-reply': {
    who: 'read',
    project: SHIP,
    req: () => ({
      method: 'POST',
      url: `/api/keelson-static/comments/add-reply?${commentPlace({ threadId: threadOf('admin') })}`,
      payload: { comment: { message: 'matrix reply' } },
    }),
  },
  // Each role changes the state of, and edits, its own thread (the author's rights; §6 rules have their own tests).
  'POST /api/keelson-static/comments/change-state': {
    who: 'read',
    project: SHIP,
    req: (role) => ({
      method: 'POST',
      url: `/api/keelson-static/comments/change-state?${q({ threadId: threadOf(role), newState: 'InProgress' })}`,
    }),
  },
  'POST /api/keelson-static/comments/update': {
    who: 'read',
    project: SHIP,
    req: (role) => ({
      method: 'POST',
      url: '/api/keelson-static/comments/update',
      payload: { comment: { id: threadOf(role), message: `edited by ${role}` } },
    }),
  },
  'POST /api/keelson-static/comments/delete-revision-comments': {
    who: 'delete',
    project: SHIP,
    req: () => ({
      method: 'POST',
      url: `/api/keelson-static/comments/delete-revision-comments?${commentPlace({}, '99')}`,
    }),
  },
  'GET /api/keelson-static/comments/bcf': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-static/comments/bcf?${q({ projectName: SHIP })}` }),
  },
  'POST /api/keelson-static/comments/bcf': {
    who: 'read',
    project: SHIP,
    req: () => {
      const { payload, headers } = multipartFile('minimum.bcf', BCF_MINIMUM);
      return { method: 'POST', url: `/api/keelson-static/comments/bcf?${q({ projectName: SHIP })}`, payload, headers };
    },
  },
  'GET /api/keelson-instance/users/all': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/users/all?${model()}` }),
  },
  // Object status options: read by every signed-in user, changed with admin:view. The administrator's POST
  // makes the option its DELETE removes.
  'GET /api/viewer/approval-status/all': {
    who: 'signedIn',
    req: () => ({ url: '/api/viewer/approval-status/all' }),
  },
  'GET /api/viewer/approval-status/options': {
    who: 'signedIn',
    req: () => ({ url: '/api/viewer/approval-status/options' }),
  },
  'GET /api/viewer/approval-status': {
    who: 'signedIn',
    req: () => ({ url: '/api/viewer/approval-status?id=1' }),
  },
  'GET /api/viewer/approval-status/usage': {
    who: 'admin',
    req: () => ({ url: '/api/viewer/approval-status/usage?id=1' }),
  },
  'POST /api/viewer/approval-status': {
    who: 'admin',
    req: () => ({ method: 'POST', url: '/api/viewer/approval-status', payload: { name: 'Matrix status' } }),
    after: async (_role, res) => {
      if (res.statusCode === 200) matrixStatusId = res.json().id;
    },
  },
  'PUT /api/viewer/approval-status': {
    who: 'admin',
    req: () => ({ method: 'PUT', url: '/api/viewer/approval-status?id=3', payload: { name: 'In review' } }),
  },
  'DELETE /api/viewer/approval-status': {
    who: 'admin',
    req: () => ({ method: 'DELETE', url: `/api/viewer/approval-status?id=${matrixStatusId}` }),
  },
  // Object statuses: read with access to the project (the change, the same path with approvalStatusId, also
  // needs upload:model: tests/api/Approval.routes.test.ts).
  'GET /api/viewer/geometry/approval-status/all': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/viewer/geometry/approval-status/all?${q({ projectName: SHIP })}` }),
  },
  'POST /api/viewer/geometry/approval-status': {
    who: 'read',
    project: SHIP,
    req: () => ({
      method: 'POST',
      url: `/api/viewer/geometry/approval-status?${q({ projectName: SHIP, revision: '1' })}`,
      payload: ['x'],
    }),
  },
  'GET /api/viewer/geometry/approval-status/revision-geometry-approval-status-count': {
    who: 'read',
    project: SHIP,
    req: () => ({
      url: `/api/viewer/geometry/approval-status/revision-geometry-approval-status-count?${q({ projectName: SHIP })}`,
    }),
  },
  // An id M1 does not hold answers 400 naming it once access was granted.
  'GET /api/viewer/geometry/approval-status/history': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/viewer/geometry/approval-status/history?${q({ projectName: SHIP, geometry: 'x' })}` }),
    ok: [400],
  },
  'GET /api/default/viewer/permissions/all': {
    who: 'admin',
    req: () => ({ url: '/api/default/viewer/permissions/all' }),
  },
  'GET /api/default/viewer/permissions/with-users': {
    who: 'admin',
    req: () => ({ url: '/api/default/viewer/permissions/with-users?category=project' }),
  },
  'GET /api/default/viewer/users/all': {
    who: 'admin',
    req: () => ({ url: '/api/default/viewer/users/all' }),
  },
  'PATCH /api/default/viewer/users': {
    who: 'admin',
    req: () => ({
      method: 'PATCH',
      url: '/api/default/viewer/users?email=victim%40other.org',
      payload: { name: 'Victim' },
    }),
  },
  'DELETE /api/default/viewer/users': {
    who: 'admin',
    req: () => ({ method: 'DELETE', url: '/api/default/viewer/users?email=victim%40other.org' }),
  },
  'GET /api/keelson-static/license/expirationTime': {
    who: 'signedIn',
    req: () => ({ url: '/api/keelson-static/license/expirationTime' }),
  },
  'GET /api/keelson-static/whats-new': {
    who: 'anyone',
    req: () => ({ url: '/api/keelson-static/whats-new' }),
  },
  'GET /api/default/viewer/logs': {
    who: 'admin',
    req: () => ({ url: '/api/default/viewer/logs' }),
  },
  'GET /api/default/viewer/config/conversion': {
    who: 'admin',
    req: () => ({ url: '/api/default/viewer/config/conversion' }),
  },
  'PATCH /api/default/viewer/config/conversion': {
    who: 'admin',
    req: () => ({ method: 'PATCH', url: '/api/default/viewer/config/conversion', payload: { screenshot: true } }),
  },
  'GET /api/viewer/settings/object-properties': {
    who: 'signedIn',
    req: () => ({ url: '/api/viewer/settings/object-properties' }),
  },
  'POST /api/viewer/settings/object-properties': {
    who: 'admin',
    req: () => ({
      method: 'POST',
      url: '/api/viewer/settings/object-properties',
      payload: Object.fromEntries(OBJECT_PROPERTY_SETS.map((set) => [set, [{ name: 'NAME', description: 'Name' }]])),
    }),
  },
  'GET /api/default/scheduling/project-update-schedule': {
    who: 'admin',
    req: () => ({ url: '/api/default/scheduling/project-update-schedule' }),
  },
  'POST /api/default/scheduling/project-update-schedule': {
    who: 'admin',
    req: () => ({ method: 'POST', url: '/api/default/scheduling/project-update-schedule', payload: [] }),
  },
};

/** Tags made in beforeAll: the custom tree root and its folder 'Matrix'; each role's own folder. */
const tagFixture = { root: 0, folder: 0, own: {} as Partial<Record<Role, number>> };

async function makeTags(): Promise<void> {
  const post = async (payload: object): Promise<number> => {
    const r = await t.app.inject({
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
const thread: Partial<Record<Role, string>> = {};
let snapshotId = '';
let matrixStatusId = 0;
const threadOf = (role: Role): string => thread[role] ?? thread.admin ?? '';
const commentPlace = (extra: Record<string, string> = {}, revision = '1') =>
  q({ projectName: SHIP, projectVersionName: 'MAIN', projectRevisionNumber: revision, ...extra });
/** A 4×2 PNG (the snapshot attachment; thumbnails are made of images). */
function png4x2(): string {
  const png = new PNG({ width: 4, height: 2 });
  png.data.fill(200);
  return PNG.sync.write(png).toString('base64');
}

async function makeThreads(): Promise<void> {
  for (const role of ['reader', 'uploader', 'admin'] as const) {
    const attachments = role === 'admin' ? [{ fileName: 'snapshot.png', type: 1, data: png4x2() }] : [];
    const r = await t.app.inject({
      method: 'POST',
      url: `/api/keelson-static/comments/add-thread?${commentPlace()}`,
      headers: bearer(token[role]),
      payload: { comment: { message: `thread of ${role}`, attachments } },
    });
    expect(r.statusCode, r.body).toBe(200);
    thread[role] = r.json().id;
    if (role === 'admin') snapshotId = r.json().attachments[0].fileId;
  }
}

let t: TestApp;
const token: Record<Role, string> = { anonymous: '', outsider: '', reader: '', uploader: '', admin: '' };

async function relogin(role: Role): Promise<void> {
  if (role !== 'anonymous') token[role] = await login(t.app, EMAIL[role]);
}

async function upload(name: string, as: string): Promise<void> {
  const { payload, headers } = multipartFile('m1.3docx', M1);
  const r = await t.app.inject({
    method: 'POST',
    url: `/api/viewer/project/add/project-uploaded?${q({ projectName: name })}`,
    payload,
    headers: { ...headers, ...bearer(as) },
  });
  expect(r.statusCode, r.body).toBe(200);
  expect((await t.app.ctx.conversions.wait(v.parse(UploadResponseSchema, r.json()).conversionId)).status).toBe(2);
}

beforeAll(async () => {
  t = await makeApp({ organizationDomain: 'yard.com' });
  token.admin = await signUp(t.app, EMAIL.admin, { admin: true });
  for (const name of [SHIP, 'DOOMED', 'DOOMED', 'GONE']) await upload(name, token.admin);
  for (const role of ['outsider', 'reader', 'uploader', 'victim'] as const)
    await signUp(t.app, role === 'victim' ? 'victim@other.org' : EMAIL[role]);
  for (const role of ['reader', 'uploader'] as const)
    await grantProjects(t.app, token.admin, EMAIL[role], [SHIP, 'DOOMED', 'GONE'], { fixed: FIXED[role] });
  for (const role of ['outsider', 'reader', 'uploader'] as const) await relogin(role);
  await makeThreads();
  await makeTags();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/**
 * The answer a role must get: a denial (status and message) or 'allowed'. A fixed permission is checked
 * before the project, so a user lacking it hears 403 whether or not the project exists; a project the
 * user may not see answers 404 exactly as a missing one.
 */
function expected(who: Who, role: Role, project = ''): { status: number; message: string } | 'allowed' {
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

describe('authorization matrix', () => {
  it('refuses to register an /api route that declares no rule', async () => {
    const fresh = await makeApp();
    try {
      expect(() => fresh.app.get('/api/new-route-without-rule', async () => ({}))).toThrow(
        'Route GET /api/new-route-without-rule declares no access rule',
      );
    } finally {
      await fresh.close();
    }
  });

  it('has a sample request for every route of the route table', () => {
    const keys = t.app.routeTable.map((r) => `${r.method} ${r.url}`);
    expect(keys.filter((k) => !(k in SAMPLES_BY_ROUTE))).toEqual([]);
    expect(Object.keys(SAMPLES_BY_ROUTE).filter((k) => !keys.includes(k))).toEqual([]);
  });

  it('answers every route × role as its rule says', async () => {
    const cells: string[] = [];
    for (const route of t.app.routeTable) {
      const key = `${route.method} ${route.url}`;
      const sample = SAMPLES_BY_ROUTE[key];
      if (!sample) continue;
      for (const role of ROLES) {
        const opts = sample.req(role);
        const headers = { ...(opts.headers ?? {}), ...(role === 'anonymous' ? {} : bearer(token[role])) };
        const res = await t.app.inject({ ...opts, method: opts.method ?? 'GET', headers });
        const want = expected(sample.who, role, sample.project);
        const body = res.headers['content-type']?.toString().includes('json') ? res.json() : {};
        if (want === 'allowed') {
          const ok = (sample.ok ?? [200]).includes(res.statusCode);
          const denied =
            res.statusCode === 401 || /^Missing permission|^Project .* not found$/.test(String(body.message));
          cells.push(`${key} ${role}: ${ok && !denied ? 'ok' : `got ${res.statusCode} ${res.body.slice(0, 120)}`}`);
        } else {
          const same = res.statusCode === want.status && body.message === want.message;
          cells.push(
            `${key} ${role}: ${same ? 'ok' : `want ${want.status} '${want.message}', got ${res.statusCode} ${res.body.slice(0, 120)}`}`,
          );
        }
        await sample.after?.(role, res);
      }
    }
    expect(cells.filter((c) => !c.endsWith(': ok'))).toEqual([]);
    expect(cells.length).toBe(t.app.routeTable.length * ROLES.length);
  }, 120_000);
});
