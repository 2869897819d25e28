/**
 * Local user accounts in the `users` table (application.md §3 "User", §5 "User form", §6 "Roles and
 * permissions"). E-mails are stored lower-case; fixed permissions as a JSON array; project access lives in
 * the `project_access` table (api/access/ProjectAccess.ts) and shows on the user as `project:{NAME}`.
 * Each user carries a token version: raising it makes every token issued before invalid at once.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ALL_PERMISSIONS, type AuthorizedUser, isOrganizationEmail, type UserType } from '../contract/auth';
import type { DB, UsersTable } from '../db/database';
import { uniqueViolation } from '../db/errors';
import { Errors } from '../errors';
import { hashPassword, verifyPassword } from './tokens';

/** A user as the server works with it. */
export interface User {
  id: number;
  email: string;
  name: string;
  userType: UserType;
  /** Fixed permissions (all of ALL_PERMISSIONS for an administrator); project access is separate. */
  permissions: string[];
  requirePasswordReset: boolean;
  /** Tokens signed with a lower version are refused. */
  tokenVersion: number;
}

type Row = { [K in keyof UsersTable]: K extends 'id' | 'token_version' ? number : UsersTable[K] };

/** Fixed permissions a stored JSON array may hold; anything else in it is ignored. */
const FIXED = new Set<string>(ALL_PERMISSIONS);

function parsePermissions(json: string): string[] {
  try {
    const p = JSON.parse(json);
    return Array.isArray(p) ? p.filter((x): x is string => typeof x === 'string' && FIXED.has(x)) : [];
  } catch {
    return [];
  }
}

function toUser(r: Row): User {
  return {
    id: r.id,
    email: r.email,
    name: r.name,
    userType: r.user_type,
    // application.md §6: "The administrator type always has all permissions."
    permissions: r.user_type === 'administrator' ? [...ALL_PERMISSIONS] : parsePermissions(r.permissions),
    requirePasswordReset: r.require_password_reset !== 0,
    tokenVersion: r.token_version,
  };
}

/** The authorize-user reply for a user; `projects` are the project permissions (`project:{NAME}`) held now. */
export function toAuthorized(u: User, projects: string[] = []): AuthorizedUser {
  return {
    email: u.email,
    name: u.name,
    permissions: [...u.permissions, ...projects],
    userType: u.userType,
    requirePasswordReset: u.requirePasswordReset,
  };
}

/** An argon2id hash of a random password: unknown e-mails are verified against it so they take as long. */
let dummyHash: Promise<string> | null = null;
function dummy(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return dummyHash;
}

/** Changes an administrator may make to a user (application.md §7 "PATCH /users?email"). */
export interface UserPatch {
  name?: string;
  /** Fixed permissions (ALL_PERMISSIONS members); ignored for an administrator. */
  permissions?: string[];
  /** A new password (administrator reset). */
  password?: string;
  requirePasswordReset?: boolean;
}

/** Reads and writes users. */
export class UserStore {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly organizationDomain: string,
  ) {}

  /** The user with this e-mail (case-insensitive), or null. */
  async find(email: string): Promise<User | null> {
    const r = await this.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email.trim().toLowerCase())
      .executeTakeFirst();
    return r ? toUser(r as Row) : null;
  }

  /** Every user, sorted by e-mail. */
  async list(): Promise<User[]> {
    const rows = await this.db.selectFrom('users').selectAll().orderBy('email').execute();
    return rows.map((r) => toUser(r as Row));
  }

  /** True when an administrator account exists. */
  async adminExists(): Promise<boolean> {
    const r = await this.db
      .selectFrom('users')
      .select('id')
      .where('user_type', '=', 'administrator')
      .executeTakeFirst();
    return r !== undefined;
  }

  /** True when `email` ends with the organisation domain (every e-mail when no domain is configured). */
  isInternal(email: string): boolean {
    return isOrganizationEmail(email, this.organizationDomain);
  }

  /**
   * Fixed permissions of a new ordinary user (application.md §5 "User form"): ['upload:model'] and
   * access to all projects when the e-mail ends with the organisation domain (or no domain is set), else
   * nothing.
   */
  defaultPermissions(email: string): { userType: UserType; permissions: string[]; allProjects: boolean } {
    return this.isInternal(email)
      ? { userType: 'internal', permissions: ['upload:model'], allProjects: true }
      : { userType: 'external', permissions: [], allProjects: false };
  }

  /**
   * Creates a user with the domain rule of application.md §5: an e-mail of the organisation domain gets
   * `upload:model` and permanent access to every existing project, any other e-mail nothing. `admin`
   * makes the administrator instead (all permissions), refused when one exists, also under concurrent
   * calls (one transaction and a unique index on the administrator type). Without `password` the account
   * cannot sign in locally (identity-provider users).
   * @throws ApiError 409 'A user with this e-mail already exists', 403 'An administrator is already registered'.
   */
  async createWithDomainRule(input: {
    email: string;
    name: string;
    password?: string;
    requirePasswordReset?: boolean;
    admin?: boolean;
  }): Promise<User> {
    const email = input.email.trim().toLowerCase();
    const rule = input.admin
      ? { userType: 'administrator' as const, permissions: [...ALL_PERMISSIONS], allProjects: false }
      : this.defaultPermissions(email);
    const passwordHash = await hashPassword(input.password ?? randomBytes(32).toString('hex'));
    try {
      await this.db.transaction().execute(async (trx) => {
        if (input.admin) {
          const admin = await trx
            .selectFrom('users')
            .select('id')
            .where('user_type', '=', 'administrator')
            .executeTakeFirst();
          if (admin) throw Errors.adminExists();
        }
        const { id } = await trx
          .insertInto('users')
          .values({
            email,
            name: input.name.trim(),
            password_hash: passwordHash,
            user_type: rule.userType,
            permissions: JSON.stringify(rule.permissions),
            require_password_reset: input.requirePasswordReset ? 1 : 0,
            created_at: new Date().toISOString(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        if (rule.allProjects) {
          const projects = await trx.selectFrom('projects').select('name').execute();
          if (projects.length > 0)
            await trx
              .insertInto('project_access')
              .values(projects.map((p) => ({ user_id: id, project_name: p.name, valid_until: null })))
              .execute();
        }
      });
    } catch (e) {
      // Concurrent registrations meet the unique indexes: the e-mail, or the single administrator.
      const collided = uniqueViolation(e);
      if (collided?.includes('user_type')) throw Errors.adminExists();
      if (collided !== null) throw Errors.userExists();
      throw e;
    }
    const u = await this.find(email);
    if (!u) throw Errors.internal('The new user was not stored');
    return u;
  }

  /** Same as createWithDomainRule (the name older callers use). */
  create(input: {
    email: string;
    name: string;
    password: string;
    requirePasswordReset?: boolean;
    admin?: boolean;
  }): Promise<User> {
    return this.createWithDomainRule(input);
  }

  /**
   * The user when e-mail and password match, else null. An unknown e-mail costs one argon2 verification
   * too, so the answer time does not tell whether the e-mail is registered.
   */
  async authenticate(email: string, password: string): Promise<User | null> {
    const r = await this.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email.trim().toLowerCase())
      .executeTakeFirst();
    if (!r) {
      await verifyPassword(await dummy(), password);
      return null;
    }
    return (await verifyPassword(r.password_hash, password)) ? toUser(r as Row) : null;
  }

  /** Sets a new password, clears require_password_reset and revokes older tokens. */
  async setPassword(email: string, password: string): Promise<void> {
    const passwordHash = await hashPassword(password);
    await this.db
      .updateTable('users')
      .set((eb) => ({
        password_hash: passwordHash,
        require_password_reset: 0,
        token_version: eb('token_version', '+', 1),
      }))
      .where('email', '=', email.trim().toLowerCase())
      .execute();
  }

  /** Revokes every token of the user issued so far (logout, disconnect). */
  async revokeTokens(email: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set((eb) => ({ token_version: eb('token_version', '+', 1) }))
      .where('email', '=', email.trim().toLowerCase())
      .execute();
  }

  /**
   * Applies an administrator's change. A new password or a required password reset revokes the user's
   * tokens (they sign in again); a change of name or permissions does not, because permissions and project
   * access are read from the database on every request — the change holds at once for open sessions, and the
   * user's notice dialog can reload permissions in place (application.md §4 "user-updated").
   * An administrator's permissions stay all permissions.
   * @throws ApiError 404 'User {email} not found'.
   */
  async update(email: string, patch: UserPatch): Promise<User> {
    const e = email.trim().toLowerCase();
    const u = await this.find(e);
    if (!u) throw Errors.userUnknown(e);
    const passwordHash = patch.password !== undefined ? await hashPassword(patch.password) : undefined;
    const revoke = passwordHash !== undefined || patch.requirePasswordReset === true;
    const changes =
      patch.name !== undefined ||
      (patch.permissions !== undefined && u.userType !== 'administrator') ||
      passwordHash !== undefined ||
      patch.requirePasswordReset !== undefined;
    if (!changes) return u;
    await this.db
      .updateTable('users')
      .set((eb) => ({
        ...(patch.name !== undefined ? { name: patch.name.trim() } : {}),
        ...(patch.permissions !== undefined && u.userType !== 'administrator'
          ? { permissions: JSON.stringify([...new Set(patch.permissions.filter((p) => FIXED.has(p)))]) }
          : {}),
        ...(passwordHash !== undefined ? { password_hash: passwordHash } : {}),
        ...(patch.requirePasswordReset !== undefined
          ? { require_password_reset: patch.requirePasswordReset ? 1 : 0 }
          : {}),
        ...(revoke ? { token_version: eb('token_version', '+', 1) } : {}),
      }))
      .where('id', '=', u.id)
      .execute();
    const after = await this.find(e);
    if (!after) throw Errors.userUnknown(e);
    return after;
  }

  /**
   * Deletes a user and the user's project access. The administrator cannot be deleted.
   * @throws ApiError 404 'User {email} not found', 403 for the administrator.
   */
  async delete(email: string): Promise<void> {
    const e = email.trim().toLowerCase();
    const u = await this.find(e);
    if (!u) throw Errors.userUnknown(e);
    if (u.userType === 'administrator') throw Errors.forbidden('The administrator cannot be deleted');
    await this.db.deleteFrom('users').where('id', '=', u.id).execute();
  }
}
