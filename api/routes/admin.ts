/**
 * The admin API (application.md §7 "Admin (/api/{instance}/viewer)", §3 "Permission", "Project in
 * admin"; §4 "Realtime user notification"): permissions, users with their project access, user update and
 * deletion. Every call needs admin:view. A password reset or a deletion revokes the user's tokens (a permission
 * change holds at once without it: rights are read per request); a change or deletion sends
 * `userNotification` (`user-updated` / `user-deleted`) to the room keyed by the user's e-mail.
 */
import type { FastifyInstance } from 'fastify';
import { type AccessEntry, projectOfPermission, projectPermission } from '../access/ProjectAccess';
import { Access } from '../access/rules';
import type { User } from '../auth/UserStore';
import {
  type AdminUser,
  type Permission,
  type PermissionCategory,
  type PermissionWithUsers,
  PermissionsWithUsersQuerySchema,
  UserEmailQuerySchema,
  UserUpdateBodySchema,
} from '../contract/admin';
import type { FixedPermission } from '../contract/auth';
import { Errors } from '../errors';
import { defineRoute } from './define';

/** The fixed permissions with their ids, names and descriptions (application.md §6). */
export const FIXED_PERMISSIONS: readonly (Permission & { identifier: FixedPermission })[] = [
  {
    id: 1,
    identifier: 'admin:view',
    name: 'Administration',
    description: 'Unlimited privileges to view, edit and delete all resources',
    category: 'admin',
  },
  {
    id: 2,
    identifier: 'upload:model',
    name: 'Add projects',
    description: 'Add projects and revisions',
    category: 'miscellaneous',
  },
  { id: 3, identifier: 'comment:view', name: 'View comments', description: 'Read comments', category: 'comment' },
  { id: 4, identifier: 'comment:edit', name: 'Edit comments', description: 'Write comments', category: 'comment' },
  {
    id: 5,
    identifier: 'miscellaneous:view',
    name: 'Miscellaneous',
    description: 'Server logs and other views',
    category: 'miscellaneous',
  },
];

/** Project permission ids follow the fixed ones. */
const PROJECT_ID_BASE = 1000;

export default async function adminRoutes(app: FastifyInstance): Promise<void> {
  const { config, users, access, db, notices } = app.ctx;
  const base = `/api/${config.instance}/viewer`;
  const adminOnly = Access.permission('admin:view');

  /** Project permissions, one per project, with the newest revision's date. */
  async function projectPermissions(): Promise<(Permission & { date: string | null })[]> {
    const rows = await db
      .selectFrom('projects')
      .leftJoin('revisions', 'revisions.project_id', 'projects.id')
      .select(['projects.id', 'projects.name'])
      .select((eb) => eb.fn.max('revisions.last_updated').as('date'))
      .groupBy(['projects.id', 'projects.name'])
      .orderBy('projects.name')
      .execute();
    return rows.map((r) => ({
      id: PROJECT_ID_BASE + r.id,
      identifier: projectPermission(r.name),
      name: r.name,
      description: `Access to project ${r.name}`,
      category: 'project' as const,
      date: r.date ?? null,
    }));
  }

  /** The admin view of every user (or of `only`). */
  async function adminUsers(only?: User): Promise<AdminUser[]> {
    const list = only ? [only] : await users.list();
    const projects = await projectPermissions();
    const rows = await access.all();
    const now = new Date().toISOString();
    return list.map((u) => {
      const admin = u.userType === 'administrator';
      const held = admin
        ? projects.map((p) => ({ project: p.name, validUntil: null }))
        : rows.filter((r) => r.userId === u.id && (r.validUntil === null || r.validUntil > now));
      const fixed = FIXED_PERMISSIONS.filter((p) => u.permissions.includes(p.identifier));
      const permissionData = [
        ...fixed.map((p) => ({ id: p.id, identifier: p.identifier, validUntil: null })),
        ...held.map((h) => ({
          id: projects.find((p) => p.name === h.project)?.id ?? 0,
          identifier: projectPermission(h.project),
          validUntil: h.validUntil,
        })),
      ];
      const ends = held.map((h) => h.validUntil).filter((x): x is string => x !== null);
      return {
        id: u.id,
        email: u.email,
        name: u.name,
        userType: u.userType,
        picture: '',
        permissions: permissionData.map((p) => p.identifier),
        permissionData,
        valid: ends.length ? ends.sort()[0] : null,
        requirePasswordReset: u.requirePasswordReset,
      };
    });
  }

  defineRoute(app, {
    method: 'GET',
    url: `${base}/permissions/all`,
    access: adminOnly,
    handler: async (): Promise<Permission[]> => [
      ...FIXED_PERMISSIONS,
      ...(await projectPermissions()).map(({ date: _date, ...p }) => p),
    ],
  });

  defineRoute(app, {
    method: 'GET',
    url: `${base}/permissions/with-users`,
    access: adminOnly,
    query: PermissionsWithUsersQuerySchema,
    handler: async ({ query }): Promise<PermissionWithUsers[]> => {
      const all = await adminUsers();
      const perms: (Permission & { date: string | null })[] = [
        ...FIXED_PERMISSIONS.map((p) => ({ ...p, date: null })),
        ...(await projectPermissions()),
      ];
      const wanted = (c: PermissionCategory) => query.category === undefined || query.category === c;
      return perms
        .filter((p) => wanted(p.category))
        .map((p) => ({
          ...p,
          users: all
            .flatMap((u) => {
              const d = u.permissionData.find((x) => x.identifier === p.identifier);
              return d ? [{ email: u.email, name: u.name, userType: u.userType, validUntil: d.validUntil }] : [];
            })
            .sort((a, b) => a.name.localeCompare(b.name)),
        }));
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `${base}/users/all`,
    access: adminOnly,
    handler: async (): Promise<AdminUser[]> => adminUsers(),
  });

  defineRoute(app, {
    method: 'PATCH',
    url: `${base}/users`,
    access: adminOnly,
    query: UserEmailQuerySchema,
    body: UserUpdateBodySchema,
    handler: async ({ query, body, user }): Promise<AdminUser> => {
      const target = await users.find(query.email);
      if (!target) throw Errors.userUnknown(query.email.toLowerCase());
      // admin:view may be granted to others; the administrator account itself stays the administrator's.
      if (target.userType === 'administrator' && user.userType !== 'administrator')
        throw Errors.forbidden('Only the administrator can change the administrator account');
      let fixed: string[] | undefined;
      if (body.permissions !== undefined && target.userType !== 'administrator') {
        fixed = body.permissions.filter((p) => projectOfPermission(p) === null);
        const entries: AccessEntry[] = body.permissions.flatMap((p) => {
          const project = projectOfPermission(p);
          return project === null ? [] : [{ project, validUntil: toIso(body.validUntil?.[p] ?? null) }];
        });
        await access.replace(target.id, entries);
      }
      const updated = await users.update(target.email, {
        name: body.name,
        permissions: fixed,
        password: body.password,
        requirePasswordReset: body.requirePasswordReset,
      });
      notices.send({ kind: 'user-updated', email: updated.email });
      return (await adminUsers(updated))[0];
    },
  });

  defineRoute(app, {
    method: 'DELETE',
    url: `${base}/users`,
    access: adminOnly,
    query: UserEmailQuerySchema,
    handler: async ({ query, user }) => {
      const email = query.email.toLowerCase();
      if (email === user.email) throw Errors.forbidden('You cannot delete your own account');
      await users.delete(email);
      notices.send({ kind: 'user-deleted', email });
      return { success: true };
    },
  });
}

/** A stored valid-until: the ISO form of a parsed time, or null (permanent). */
function toIso(s: string | null): string | null {
  return s === null ? null : new Date(s).toISOString();
}
