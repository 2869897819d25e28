/**
 * Admin contract: application.md §3 "User" (admin list fields), "Permission", "Project in admin", §5 "User
 * form (admin)" and §7 "Admin (/api/{instance}/viewer)":
 * - GET    /api/{instance}/viewer/permissions/all                 → Permission[]
 * - GET    /api/{instance}/viewer/permissions/with-users?category → PermissionWithUsers[]
 * - GET    /api/{instance}/viewer/users/all                       → AdminUser[]
 * - PATCH  /api/{instance}/viewer/users?email   body UserUpdateBody → AdminUser
 * - DELETE /api/{instance}/viewer/users?email                     → { success: true }
 * Every call needs the admin:view permission. Times are ISO 8601; a null valid-until is "Permanent".
 */
import * as v from 'valibot';
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, UserTypeSchema } from './auth';

/** Permission categories (application.md §3 "Permission"). */
export const PermissionCategorySchema = v.picklist(['project', 'comment', 'miscellaneous', 'admin']);
export type PermissionCategory = v.InferOutput<typeof PermissionCategorySchema>;

/** A permission: identifier 'category:action' (fixed) or 'project:{NAME}' (access to one project). */
export const PermissionSchema = v.object({
  id: v.number(),
  identifier: v.string(),
  description: v.string(),
  name: v.string(),
  category: PermissionCategorySchema,
});
export type Permission = v.InferOutput<typeof PermissionSchema>;

/** A user holding a permission; validUntil null = permanent. */
export const PermissionUserSchema = v.object({
  email: v.string(),
  name: v.string(),
  userType: UserTypeSchema,
  validUntil: v.nullable(v.string()),
});

/**
 * A permission with its users. For a project permission also the project's `date` (last update of the
 * newest revision, application.md §2 "Projects tab"); null otherwise.
 */
export const PermissionWithUsersSchema = v.object({
  ...PermissionSchema.entries,
  users: v.array(PermissionUserSchema),
  date: v.nullable(v.string()),
});
export type PermissionWithUsers = v.InferOutput<typeof PermissionWithUsersSchema>;

export const PermissionsWithUsersQuerySchema = v.object({ category: v.optional(PermissionCategorySchema) });

/** An entry of a user's permissionData: a permission held, with its valid-until (null = permanent). */
export const PermissionDataSchema = v.object({
  id: v.number(),
  identifier: v.string(),
  validUntil: v.nullable(v.string()),
});

/**
 * A user in the admin list (application.md §3 "User": id, picture, permissionData, valid). `permissions`
 * are the identifiers held now; `valid` is the earliest valid-until among them, null when all are permanent.
 */
export const AdminUserSchema = v.object({
  id: v.number(),
  email: v.string(),
  name: v.string(),
  userType: UserTypeSchema,
  picture: v.string(),
  permissions: v.array(v.string()),
  permissionData: v.array(PermissionDataSchema),
  valid: v.nullable(v.string()),
  requirePasswordReset: v.boolean(),
});
export type AdminUser = v.InferOutput<typeof AdminUserSchema>;

/** `?email=` of the user calls. */
export const UserEmailQuerySchema = v.object({
  email: v.pipe(
    v.string('Email is required'),
    v.trim(),
    v.nonEmpty('Email is required'),
    v.maxLength(EMAIL_MAX_LENGTH, `At most ${EMAIL_MAX_LENGTH} characters`),
    v.email('A valid email address is required'),
  ),
});

/** Most permission identifiers one update may carry (fixed ones plus one per project). */
export const MAX_PERMISSIONS_PER_USER = 5000;
const identifier = () => v.pipe(v.string(), v.nonEmpty(), v.maxLength(120, 'At most 120 characters'));
const isoTime = () =>
  v.pipe(
    v.string(),
    v.maxLength(40),
    v.check((s) => !Number.isNaN(Date.parse(s)), 'Must be an ISO 8601 time'),
  );

/**
 * PATCH .../users?email body (application.md §5 "User form (admin)", messages verbatim). `permissions`
 * replaces the user's permissions (fixed ones and `project:{NAME}`); `validUntil` maps a project
 * permission to the moment its access ends (absent or null = permanent). A password resets the user's
 * password. Inputs are trimmed. The e-mail cannot be changed. An administrator keeps all permissions.
 */
export const UserUpdateBodySchema = v.object({
  name: v.optional(
    v.pipe(
      v.string('Name is required'),
      v.trim(),
      v.nonEmpty('Name is required'),
      v.maxLength(NAME_MAX_LENGTH, `At most ${NAME_MAX_LENGTH} characters`),
    ),
  ),
  permissions: v.optional(
    v.pipe(
      v.array(identifier()),
      v.maxLength(MAX_PERMISSIONS_PER_USER, `At most ${MAX_PERMISSIONS_PER_USER} permissions`),
    ),
  ),
  validUntil: v.optional(
    v.pipe(
      v.record(identifier(), v.nullable(isoTime())),
      v.check((r) => Object.keys(r).length <= MAX_PERMISSIONS_PER_USER, `At most ${MAX_PERMISSIONS_PER_USER} entries`),
    ),
  ),
  password: v.optional(
    v.pipe(
      v.string('Password is required'),
      v.nonEmpty('Password is required'),
      v.minLength(PASSWORD_MIN_LENGTH, 'Password needs to be at least 8 characters long'),
      v.maxLength(PASSWORD_MAX_LENGTH, `At most ${PASSWORD_MAX_LENGTH} characters`),
    ),
  ),
  requirePasswordReset: v.optional(v.boolean()),
  adminEmail: v.optional(v.pipe(v.string(), v.maxLength(EMAIL_MAX_LENGTH))),
});
export type UserUpdateBody = v.InferOutput<typeof UserUpdateBodySchema>;

const formName = () =>
  v.pipe(
    v.string('Name is required'),
    v.trim(),
    v.nonEmpty('Name is required'),
    v.maxLength(NAME_MAX_LENGTH, `At most ${NAME_MAX_LENGTH} characters`),
  );
const formPassword = () =>
  v.pipe(
    v.string('Password is required'),
    v.nonEmpty('Password is required'),
    v.minLength(PASSWORD_MIN_LENGTH, 'Password needs to be at least 8 characters long'),
    v.maxLength(PASSWORD_MAX_LENGTH, `At most ${PASSWORD_MAX_LENGTH} characters`),
  );

/**
 * The admin user form of a new user or of a password reset (application.md §5 "User form (admin)",
 * messages verbatim): name, e-mail and password required; the e-mail valid; the password at least 8
 * characters. The admin area validates with it before registering or saving.
 */
export const UserFormSchema = v.object({
  fullName: formName(),
  email: UserEmailQuerySchema.entries.email,
  password: formPassword(),
});

/** The admin user form of an existing user without a password reset: the name only (the e-mail is fixed). */
export const UserEditFormSchema = v.object({ fullName: formName() });
