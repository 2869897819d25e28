/**
 * Authentication contract: application.md §3 (Login response, Registration payload, Change-password
 * payload, Client config), §5 (validation messages, verbatim) and §7 "Authentication" / "Session and
 * configuration". Paths: POST /api/auth/viewer/{instance}/register | login | changePassword,
 * POST /api/authorize-user, GET /api/config.
 */
import * as v from 'valibot';
import { requiredString } from './common';

/** Password minimum length (application.md §9). */
export const PASSWORD_MIN_LENGTH = 8;

const email = () =>
  v.pipe(v.string('Field is required'), v.trim(), v.nonEmpty('Field is required'), v.email('Input a valid email'));

const newPassword = () =>
  v.pipe(
    v.string('Password is required'),
    v.nonEmpty('Password is required'),
    v.minLength(PASSWORD_MIN_LENGTH, 'Password must have at least 8 letters.'),
  );

/**
 * POST .../register body. `confirmPassword` is optional (the spec's payload does not carry it); when
 * present it must equal `password`. `registerAdmin` asks for the administrator account (accepted only
 * while no administrator exists).
 */
export const RegisterBodySchema = v.pipe(
  v.object({
    email: email(),
    password: newPassword(),
    confirmPassword: v.optional(v.string()),
    fullName: requiredString(),
    requirePasswordReset: v.optional(v.boolean()),
    adminEmail: v.optional(v.string()),
    registerAdmin: v.optional(v.boolean()),
  }),
  v.forward(
    v.check((x) => x.confirmPassword === undefined || x.confirmPassword === x.password, 'Passwords do not match'),
    ['confirmPassword'],
  ),
);
export type RegisterBody = v.InferOutput<typeof RegisterBodySchema>;

/** POST .../login body (inputs trimmed; application.md §5 "Login"). */
export const LoginBodySchema = v.object({
  email: email(),
  password: v.pipe(v.string('Password is required'), v.nonEmpty('Password is required')),
});
export type LoginBody = v.InferOutput<typeof LoginBodySchema>;

/** Login response (application.md §3): token only on success. */
export const LoginResponseSchema = v.object({
  success: v.boolean(),
  token: v.optional(v.string()),
  message: v.optional(v.string()),
  error: v.optional(v.string()),
  requirePasswordReset: v.boolean(),
});
export type LoginResponse = v.InferOutput<typeof LoginResponseSchema>;

/** POST .../changePassword body (application.md §3, §5 "Change password"); requires the bearer token. */
export const ChangePasswordBodySchema = v.pipe(
  v.object({
    email: email(),
    currentPassword: v.pipe(v.string('Field is required'), v.nonEmpty('Field is required')),
    newPassword: newPassword(),
    confirmNewPassword: v.string('Field is required'),
  }),
  v.forward(
    v.check((x) => x.confirmNewPassword === x.newPassword, 'Passwords do not match'),
    ['confirmNewPassword'],
  ),
);
export type ChangePasswordBody = v.InferOutput<typeof ChangePasswordBodySchema>;

/** User types (application.md §1). */
export const UserTypeSchema = v.picklist(['administrator', 'internal', 'external']);
export type UserType = v.InferOutput<typeof UserTypeSchema>;

/** POST /api/authorize-user response. */
export const AuthorizedUserSchema = v.object({
  email: v.string(),
  name: v.string(),
  permissions: v.array(v.string()),
  userType: UserTypeSchema,
  requirePasswordReset: v.boolean(),
});
export type AuthorizedUser = v.InferOutput<typeof AuthorizedUserSchema>;

/** GET /api/config response: application.md §3 "Client config" plus Keelson's extras. */
export const ClientConfigSchema = v.object({
  authenticationProvider: v.picklist(['local', 'auth0']),
  webViewerTimeoutInMin: v.number(),
  allowLocalAuthUserRegistration: v.boolean(),
  organizationDomain: v.string(),
  adminRegistered: v.boolean(),
  instance: v.string(),
  version: v.string(),
});
export type ClientConfig = v.InferOutput<typeof ClientConfigSchema>;

/** Version label (application.md §9). */
export const VERSION_LABEL = 'release-2025.1 B102';

/** Every permission an administrator holds (application.md §6). */
export const ALL_PERMISSIONS = [
  'admin:view',
  'upload:model',
  'project:view',
  'comment:view',
  'comment:edit',
  'miscellaneous:view',
] as const;
