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
/** Longest password accepted (hashing cost stays bounded). */
export const PASSWORD_MAX_LENGTH = 256;
/** Longest e-mail address (RFC 5321 path limit). */
export const EMAIL_MAX_LENGTH = 254;
/** Longest full name. */
export const NAME_MAX_LENGTH = 200;

const email = () =>
  v.pipe(
    v.string('Field is required'),
    v.trim(),
    v.nonEmpty('Field is required'),
    v.maxLength(EMAIL_MAX_LENGTH, `At most ${EMAIL_MAX_LENGTH} characters`),
    v.email('Input a valid email'),
  );

const anyPassword = (required: string) =>
  v.pipe(
    v.string(required),
    v.nonEmpty(required),
    v.maxLength(PASSWORD_MAX_LENGTH, `At most ${PASSWORD_MAX_LENGTH} characters`),
  );

const newPassword = () =>
  v.pipe(
    anyPassword('Password is required'),
    v.minLength(PASSWORD_MIN_LENGTH, 'Password must have at least 8 letters.'),
  );

const fullName = () => v.pipe(requiredString(), v.maxLength(NAME_MAX_LENGTH, `At most ${NAME_MAX_LENGTH} characters`));

/**
 * POST .../register body. `confirmPassword` is optional (the spec's payload does not carry it); when
 * present it must equal `password`. `registerAdmin` asks for the administrator account (accepted only
 * while no administrator exists).
 */
export const RegisterBodySchema = v.pipe(
  v.object({
    email: email(),
    password: newPassword(),
    confirmPassword: v.optional(v.pipe(v.string(), v.maxLength(PASSWORD_MAX_LENGTH))),
    fullName: fullName(),
    requirePasswordReset: v.optional(v.boolean()),
    adminEmail: v.optional(v.pipe(v.string(), v.maxLength(EMAIL_MAX_LENGTH))),
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
  password: anyPassword('Password is required'),
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
    currentPassword: anyPassword('Password is required'),
    newPassword: newPassword(),
    confirmNewPassword: v.pipe(v.string('Field is required'), v.maxLength(PASSWORD_MAX_LENGTH)),
  }),
  v.forward(
    v.check((x) => x.confirmNewPassword === x.newPassword, 'Passwords do not match'),
    ['confirmNewPassword'],
  ),
);
export type ChangePasswordBody = v.InferOutput<typeof ChangePasswordBodySchema>;

/**
 * POST .../changePassword response: the change revokes every older token of the user, so the reply carries
 * a fresh token that continues the session which made the change.
 */
export const ChangePasswordResponseSchema = v.object({ success: v.boolean(), token: v.optional(v.string()) });
export type ChangePasswordResponse = v.InferOutput<typeof ChangePasswordResponseSchema>;

/** POST /api/disconnect/{clientId} params: the viewer's client id (viewerId). */
export const DisconnectParamsSchema = v.object({
  clientId: v.pipe(v.string(), v.nonEmpty('Field is required'), v.maxLength(100, 'At most 100 characters')),
});

/** GET /api/check-token response. */
export const CheckTokenResponseSchema = v.object({ valid: v.boolean(), email: v.string() });
export type CheckTokenResponse = v.InferOutput<typeof CheckTokenResponseSchema>;

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

/**
 * The fixed permissions (application.md §3 "Permission", §6); an administrator holds all of them and
 * access to every project. Project access is a permission `project:{NAME}` per project (PROJECT_PERMISSION_PREFIX).
 */
export const ALL_PERMISSIONS = [
  'admin:view',
  'upload:model',
  'comment:view',
  'comment:edit',
  'miscellaneous:view',
] as const;
export type FixedPermission = (typeof ALL_PERMISSIONS)[number];

/**
 * The organisation-domain rule (application.md §5 "User form (admin)"): true when `email` belongs to the
 * organisation `domain` (the domain or a subdomain of it; a leading '@' is ignored). An empty domain counts
 * every e-mail as the organisation's. The server creates users by it; the admin form pre-selects by it.
 */
export function isOrganizationEmail(email: string, domain: string): boolean {
  const d = domain.trim().toLowerCase().replace(/^@/, '');
  const e = email.trim().toLowerCase();
  return d === '' || e.endsWith(`@${d}`) || e.endsWith(`.${d}`);
}

/** Prefix of a project permission's identifier: `project:` + the upper-case project name. */
export const PROJECT_PERMISSION_PREFIX = 'project:';

/** Longest URL accepted from a client (redirect URIs). */
export const URL_MAX_LENGTH = 2000;

/**
 * POST /api/auth/viewer/{instance}/oidc/authorize body: where the provider returns the browser to (the
 * UI's `/login/callback`). Answered with the provider's authorization URL (OidcAuthorizeResponse).
 */
export const OidcAuthorizeBodySchema = v.object({
  redirectUri: v.pipe(
    v.string('Field is required'),
    v.nonEmpty('Field is required'),
    v.maxLength(URL_MAX_LENGTH, `At most ${URL_MAX_LENGTH} characters`),
    v.url('Input a valid URL'),
  ),
});
export type OidcAuthorizeBody = v.InferOutput<typeof OidcAuthorizeBodySchema>;

/** POST .../oidc/authorize response: the URL the browser opens at the identity provider. */
export const OidcAuthorizeResponseSchema = v.object({ url: v.string() });
export type OidcAuthorizeResponse = v.InferOutput<typeof OidcAuthorizeResponseSchema>;

/**
 * POST .../oidc/token body: the provider's `code` and `state` from the callback URL. Answered like a login
 * (LoginResponse with Keelson's own bearer token).
 */
export const OidcTokenBodySchema = v.object({
  code: v.pipe(
    v.string('Field is required'),
    v.nonEmpty('Field is required'),
    v.maxLength(2000, 'At most 2000 characters'),
  ),
  state: v.pipe(
    v.string('Field is required'),
    v.nonEmpty('Field is required'),
    v.maxLength(200, 'At most 200 characters'),
  ),
});
export type OidcTokenBody = v.InferOutput<typeof OidcTokenBodySchema>;
