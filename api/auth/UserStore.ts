/**
 * Local user accounts in the `users` table (application.md §3 "User", §6 "Roles and permissions").
 * E-mails are stored lower-case; permissions as a JSON array.
 */
import type { Kysely } from 'kysely';
import { ALL_PERMISSIONS, type AuthorizedUser, type UserType } from '../contract/auth';
import type { DB, UsersTable } from '../db/database';
import { Errors } from '../errors';
import { hashPassword, verifyPassword } from './tokens';

/** A user as the server works with it. */
export interface User {
  id: number;
  email: string;
  name: string;
  userType: UserType;
  permissions: string[];
  requirePasswordReset: boolean;
}

type Row = { [K in keyof UsersTable]: K extends 'id' ? number : UsersTable[K] };

function toUser(r: Row): User {
  let permissions: string[] = [];
  try {
    const p = JSON.parse(r.permissions);
    if (Array.isArray(p)) permissions = p.filter((x): x is string => typeof x === 'string');
  } catch {
    permissions = [];
  }
  return {
    id: r.id,
    email: r.email,
    name: r.name,
    userType: r.user_type,
    // application.md §6: "The administrator type always has all permissions."
    permissions: r.user_type === 'administrator' ? [...ALL_PERMISSIONS] : permissions,
    requirePasswordReset: r.require_password_reset !== 0,
  };
}

/** The authorize-user reply for a user. */
export function toAuthorized(u: User): AuthorizedUser {
  return {
    email: u.email,
    name: u.name,
    permissions: u.permissions,
    userType: u.userType,
    requirePasswordReset: u.requirePasswordReset,
  };
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

  /** True when an administrator account exists. */
  async adminExists(): Promise<boolean> {
    const r = await this.db
      .selectFrom('users')
      .select('id')
      .where('user_type', '=', 'administrator')
      .executeTakeFirst();
    return r !== undefined;
  }

  /**
   * Permissions of a newly registered ordinary user: ['upload:model', 'project:view'] when the e-mail
   * ends with the organisation domain (or the domain is empty), else [] (application.md §5 "User form").
   */
  defaultPermissions(email: string): { userType: UserType; permissions: string[] } {
    const d = this.organizationDomain.trim().toLowerCase().replace(/^@/, '');
    const internal = d === '' || email.toLowerCase().endsWith(`@${d}`) || email.toLowerCase().endsWith(`.${d}`);
    return internal
      ? { userType: 'internal', permissions: ['upload:model', 'project:view'] }
      : { userType: 'external', permissions: [] };
  }

  /**
   * Creates a user. `admin` makes an administrator (all permissions).
   * @throws ApiError 409 'A user with this e-mail already exists'.
   */
  async create(input: {
    email: string;
    name: string;
    password: string;
    requirePasswordReset?: boolean;
    admin?: boolean;
  }): Promise<User> {
    const email = input.email.trim().toLowerCase();
    if (await this.find(email)) throw Errors.userExists();
    const { userType, permissions } = input.admin
      ? { userType: 'administrator' as const, permissions: [...ALL_PERMISSIONS] }
      : this.defaultPermissions(email);
    const passwordHash = await hashPassword(input.password);
    try {
      await this.db
        .insertInto('users')
        .values({
          email,
          name: input.name.trim(),
          password_hash: passwordHash,
          user_type: userType,
          permissions: JSON.stringify(permissions),
          require_password_reset: input.requirePasswordReset ? 1 : 0,
          created_at: new Date().toISOString(),
        })
        .execute();
    } catch (e) {
      // A concurrent registration of the same e-mail hits the unique index.
      if (e instanceof Error && /UNIQUE/.test(e.message)) throw Errors.userExists();
      throw e;
    }
    const u = await this.find(email);
    if (!u) throw Errors.internal('The new user was not stored');
    return u;
  }

  /** The user when e-mail and password match, else null. */
  async authenticate(email: string, password: string): Promise<User | null> {
    const r = await this.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email.trim().toLowerCase())
      .executeTakeFirst();
    if (!r) return null;
    return (await verifyPassword(r.password_hash, password)) ? toUser(r as Row) : null;
  }

  /** Sets a new password and clears require_password_reset. */
  async setPassword(email: string, password: string): Promise<void> {
    const passwordHash = await hashPassword(password);
    await this.db
      .updateTable('users')
      .set({ password_hash: passwordHash, require_password_reset: 0 })
      .where('email', '=', email.trim().toLowerCase())
      .execute();
  }
}
