/**
 * Who may see which project (application.md §6 "Project-category permissions give access to projects",
 * §7 "Admin"; ARCHITECTURE.md "Who may see what"). Access is a row per user and project with an optional
 * valid-until; it is read on every request, so an access that ends stops at that moment, also for open
 * sessions. Administrators see every project and cannot lose access.
 */
import type { Kysely } from 'kysely';
import { PROJECT_PERMISSION_PREFIX } from '../contract/auth';
import type { DB } from '../db/database';
import type { User } from '../auth/UserStore';

/** One user's access to one project; `validUntil` null = permanent. */
export interface AccessEntry {
  project: string;
  validUntil: string | null;
}

/** The permission identifier of a project's access. */
export const projectPermission = (name: string): string => `${PROJECT_PERMISSION_PREFIX}${name}`;

/** The project name of a project permission identifier, or null for another permission. */
export function projectOfPermission(identifier: string): string | null {
  return identifier.startsWith(PROJECT_PERMISSION_PREFIX) ? identifier.slice(PROJECT_PERMISSION_PREFIX.length) : null;
}

/** Reads and changes project access. */
export class ProjectAccess {
  constructor(private readonly db: Kysely<DB>) {}

  /** True when `user` may see project `name` now (administrators always). */
  async canSee(user: User, name: string): Promise<boolean> {
    if (user.userType === 'administrator') return true;
    const now = new Date().toISOString();
    const r = await this.db
      .selectFrom('project_access')
      .select('project_name')
      .where('user_id', '=', user.id)
      .where('project_name', '=', name)
      .where((eb) => eb.or([eb('valid_until', 'is', null), eb('valid_until', '>', now)]))
      .executeTakeFirst();
    return r !== undefined;
  }

  /** The projects `user` may see now, or 'all' for an administrator. */
  async visible(user: User): Promise<Set<string> | 'all'> {
    if (user.userType === 'administrator') return 'all';
    return new Set((await this.entries(user.id, true)).map((e) => e.project));
  }

  /** A user's access rows (only those valid now with `current`), sorted by project. */
  async entries(userId: number, current = false): Promise<AccessEntry[]> {
    const now = new Date().toISOString();
    let q = this.db
      .selectFrom('project_access')
      .select(['project_name', 'valid_until'])
      .where('user_id', '=', userId)
      .orderBy('project_name');
    if (current) q = q.where((eb) => eb.or([eb('valid_until', 'is', null), eb('valid_until', '>', now)]));
    return (await q.execute()).map((r) => ({ project: r.project_name, validUntil: r.valid_until }));
  }

  /** Every access row, for the admin lists. */
  async all(): Promise<{ userId: number; project: string; validUntil: string | null }[]> {
    const rows = await this.db.selectFrom('project_access').selectAll().orderBy('project_name').execute();
    return rows.map((r) => ({ userId: r.user_id, project: r.project_name, validUntil: r.valid_until }));
  }

  /** Gives `userId` permanent access to `name` (the creator of a new project); keeps an existing row. */
  async grant(userId: number, name: string): Promise<void> {
    await this.db
      .insertInto('project_access')
      .values({ user_id: userId, project_name: name, valid_until: null })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  /** Replaces a user's project access by `entries` (unknown projects are ignored). */
  async replace(userId: number, entries: AccessEntry[]): Promise<void> {
    const known = new Set((await this.db.selectFrom('projects').select('name').execute()).map((p) => p.name));
    const rows = entries.filter((e) => known.has(e.project));
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('project_access').where('user_id', '=', userId).execute();
      if (rows.length > 0)
        await trx
          .insertInto('project_access')
          .values(rows.map((e) => ({ user_id: userId, project_name: e.project, valid_until: e.validUntil })))
          .onConflict((oc) => oc.doNothing())
          .execute();
    });
  }

  /** Removes every access to a deleted project. */
  async removeProject(name: string): Promise<void> {
    await this.db.deleteFrom('project_access').where('project_name', '=', name).execute();
  }
}
