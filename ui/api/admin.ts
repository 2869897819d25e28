/**
 * The admin calls of application.md §7 "Admin (/api/{instance}/viewer)", the start page's deletions (§7
 * Projects: delete-revision; comments delete-revision-comments) and the shell's calls (licence, 'What's
 * new', the Server logs zip), typed by the contract (api/contract/admin.ts, projects.ts, comments.ts, shell.ts).
 */
import * as v from 'valibot';
import {
  AdminUserSchema,
  DEFAULT_VERSION_NAME,
  DeleteRevisionCommentsResponseSchema,
  LicenseStateSchema,
  PermissionSchema,
  PermissionWithUsersSchema,
  SuccessResponseSchema,
  WhatsNewSchema,
  type UserUpdateBody,
} from '../../api/contract';
import { fetchOk, request } from './client';
import { instanceName } from './calls';

const adminPath = (p: string) => `/api/${encodeURIComponent(instanceName())}/viewer/${p}`;

/** GET .../users/all: every user with permissions and project access. */
export const getAdminUsers = () => request('GET', adminPath('users/all'), v.array(AdminUserSchema));

/** GET .../permissions/all: fixed and project permissions. */
export const getAllPermissions = () => request('GET', adminPath('permissions/all'), v.array(PermissionSchema));

/** GET .../permissions/with-users?category=project: projects with their users and dates. */
export const getProjectPermissions = () =>
  request('GET', adminPath('permissions/with-users'), v.array(PermissionWithUsersSchema), {
    query: { category: 'project' },
  });

/** PATCH .../users?email: updates a user. Silent: the admin area shows its own warning toast. */
export const patchUser = (email: string, body: UserUpdateBody) =>
  request('PATCH', adminPath('users'), AdminUserSchema, { query: { email }, body, silent: true });

/** DELETE .../users?email. */
export const deleteUserCall = (email: string) => request('DELETE', adminPath('users'), null, { query: { email } });

/**
 * POST /api/auth/viewer/{instance}/register by an administrator ("Add user"): the bearer token lets the
 * server create the account even when self-registration is off, with the forced password change.
 */
export const registerUserCall = (body: {
  email: string;
  fullName: string;
  password: string;
  requirePasswordReset: boolean;
}) =>
  request('POST', `/api/auth/viewer/${encodeURIComponent(instanceName())}/register`, SuccessResponseSchema, {
    body: { ...body, adminEmail: '' },
    silent: true,
  });

/** DELETE /api/viewer/project/delete-revision?projectName&revisionNumber. */
export const deleteRevisionCall = (projectName: string, revisionNumber: number) =>
  request('DELETE', '/api/viewer/project/delete-revision', null, { query: { projectName, revisionNumber } });

/** POST /api/keelson-static/comments/delete-revision-comments (the revision's comments, when asked). */
export const deleteRevisionComments = (
  projectName: string,
  revisionNumber: number,
  projectVersionName = DEFAULT_VERSION_NAME,
) =>
  request('POST', '/api/keelson-static/comments/delete-revision-comments', DeleteRevisionCommentsResponseSchema, {
    query: { projectName, projectVersionName, projectRevisionNumber: revisionNumber },
  });

/** GET /api/keelson-static/license/expirationTime. Silent: the licence notice is best effort. */
export const getLicenseState = () =>
  request('GET', '/api/keelson-static/license/expirationTime', LicenseStateSchema, { silent: true, expected: true });

/** GET /api/keelson-static/whats-new: the 'What's new' list. */
export const getWhatsNew = () =>
  request('GET', '/api/keelson-static/whats-new', WhatsNewSchema, { silent: true, expected: true });

/**
 * GET .../logs: the server's log files as a zip, saved by the browser as `keelson-logs-{date}.zip`
 * (the bearer header rules out a plain link). @throws ApiError after the central handling.
 */
export async function downloadServerLogs(): Promise<void> {
  const res = await fetchOk(adminPath('logs'), false);
  const name = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '')?.[1] ?? 'keelson-logs.zip';
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
