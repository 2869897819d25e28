/**
 * The server's error catalogue (ARCHITECTURE.md house rule 9; application.md §8): each error has a
 * code, an HTTP status and the spec's message. Replies are `{ error, message, type }` (§3 "Error object").
 */

/** An error with a catalogue code and HTTP status; thrown by handlers, turned into a reply by app.ts. */
export class ApiError extends Error {
  /** Seconds a client should wait before retrying (sent as Retry-After with a 429). */
  retryAfter?: number;

  constructor(
    public readonly code: string,
    public readonly statusCode: number,
    message: string,
    public readonly type: string = 'error',
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The reply body, application.md §3 "Error object". */
  toJSON(): { error: string; message: string; type: string } {
    return { error: this.code, message: this.message, type: this.type };
  }
}

/** Constructors for every catalogued error. */
export const Errors = {
  badRequest: (message: string) => new ApiError('BadRequest', 400, message, 'validation'),
  authRequired: () => new ApiError('Unauthorized', 401, 'Authentication required', 'authentication'),
  tokenExpired: () => new ApiError('Unauthorized', 401, 'Token expired', 'authentication'),
  invalidToken: () => new ApiError('Unauthorized', 401, 'Invalid token', 'authentication'),
  invalidCredentials: () => new ApiError('Unauthorized', 401, 'Invalid e-mail or password', 'authentication'),
  wrongCurrentPassword: () => new ApiError('Unauthorized', 401, 'Current password is incorrect', 'authentication'),
  missingPermission: (permission: string) =>
    new ApiError('Forbidden', 403, `Missing permission ${permission}`, 'permission'),
  forbidden: (message: string) => new ApiError('Forbidden', 403, message, 'permission'),
  adminExists: () => new ApiError('Forbidden', 403, 'An administrator is already registered', 'permission'),
  registrationDisabled: () => new ApiError('Forbidden', 403, 'Registration is not allowed', 'permission'),
  // Sign-in at an OpenID Connect provider (api/auth/oidc.ts); the timeout is application.md §4's text.
  oidcDisabled: () => new ApiError('NotFound', 404, 'OpenID Connect sign-in is not enabled', 'notFound'),
  oidcTimeout: () => new ApiError('GatewayTimeout', 504, 'Timeout on authentication to auth0', 'authentication'),
  oidcProvider: (detail: string) =>
    new ApiError('BadGateway', 502, `The identity provider refused the sign-in: ${detail}`, 'authentication'),
  oidcUnknownState: () =>
    new ApiError('BadRequest', 400, 'The sign-in has expired or was already used; sign in again', 'validation'),
  oidcBadRedirect: () =>
    new ApiError('BadRequest', 400, 'The redirect URI is not the one registered for Keelson', 'validation'),
  oidcBadIdToken: (detail: string) =>
    new ApiError('Unauthorized', 401, `The identity provider's ID token is not valid: ${detail}`, 'authentication'),
  oidcNoEmail: () =>
    new ApiError('Forbidden', 403, 'The identity provider did not vouch for an e-mail address', 'permission'),
  passwordSignInDisabled: () =>
    new ApiError(
      'Forbidden',
      403,
      'Sign-in with a password is not enabled; sign in with the identity provider',
      'permission',
    ),
  emailMismatch: () => new ApiError('Forbidden', 403, 'The e-mail does not match the signed-in user', 'permission'),
  userExists: () => new ApiError('Conflict', 409, 'A user with this e-mail already exists', 'conflict'),
  conversionInProgress: (name: string) =>
    new ApiError('Conflict', 409, `Adding the project ${name} is already in progress`, 'conflict'),
  /** A server process that is stopping (SIGTERM) refuses new work; the balancer sends the retry elsewhere. */
  shuttingDown: () => new ApiError('ServiceUnavailable', 503, 'The server is shutting down', 'unavailable'),
  storageUnavailable: () =>
    new ApiError('StorageUnavailable', 503, 'The revision store cannot be reached now', 'unavailable'),
  rangeNotSatisfiable: (size: number) =>
    new ApiError('RangeNotSatisfiable', 416, `The range asked for is outside the file of ${size} bytes`, 'validation'),
  conversionFinishing: (name: string) =>
    new ApiError('Conflict', 409, `The conversion of ${name} is being saved and can no longer be canceled`, 'conflict'),
  passwordChangeRequired: () => new ApiError('Forbidden', 403, 'Change your password before continuing', 'permission'),
  unsupportedFile: (ext: string) =>
    new ApiError('BadRequest', 400, `Unsupported file type "${ext}": expected .3docx, .ocx or .xml`, 'validation'),
  badArchive: (message: string) => new ApiError('BadRequest', 400, message, 'validation'),
  missingFile: () => new ApiError('BadRequest', 400, "Invalid field 'file': Field is required", 'validation'),
  projectNotFound: (name: string) => new ApiError('NotFound', 404, `Project ${name} not found`, 'notFound'),
  revisionNotFound: (name: string, rev: number | string) =>
    new ApiError('NotFound', 404, `Revision ${rev} of project ${name} not found`, 'notFound'),
  objectNotFound: (index: number) => new ApiError('NotFound', 404, `Object ${index} not found`, 'notFound'),
  blockSystemNotFound: (name: string) => new ApiError('NotFound', 404, `Block system "${name}" not found`, 'notFound'),
  blockNotFound: (name: string) => new ApiError('NotFound', 404, `Block "${name}" not found`, 'notFound'),
  // Tables of model data (viewer.md §7 "Tables").
  tableTypeNotFound: (type: string) => new ApiError('NotFound', 404, `Table type ${type} not found`, 'notFound'),
  tableNotFound: (name: string) => new ApiError('NotFound', 404, `Table ${name} not found`, 'notFound'),
  conversionNotFound: (name: string) =>
    new ApiError('NotFound', 404, `No conversion found for project ${name}`, 'notFound'),
  lastRevision: () =>
    new ApiError(
      'BadRequest',
      400,
      'The only revision of a project cannot be deleted; delete the project',
      'validation',
    ),
  userUnknown: (email: string) => new ApiError('NotFound', 404, `User ${email} not found`, 'notFound'),
  tokenRevoked: () => new ApiError('Unauthorized', 401, 'The session has ended; sign in again', 'authentication'),
  badFileName: (reason: string) => new ApiError('BadRequest', 400, `Invalid file name: ${reason}`, 'validation'),
  userNotFound: () => new ApiError('Unauthorized', 401, 'User not found', 'authentication'),
  tooManyAttempts: (what: string, after: string) =>
    new ApiError('TooManyRequests', 429, `Too many ${what} attempts. Try again in ${after}.`, 'rateLimit'),
  uploadTooLarge: (mb: number) =>
    new ApiError('PayloadTooLarge', 413, `The file is larger than ${mb} MB`, 'validation'),
  // Project locations (api/locations): paths are checked against the configured directories.
  pathOutsideLocations: () =>
    new ApiError('BadRequest', 400, 'The path is not inside a configured project location', 'validation'),
  projectFileNotFound: (file: string) =>
    new ApiError('NotFound', 404, `Project file ${file} not found in the project locations`, 'notFound'),
  unknownServerLocation: (url: string) =>
    new ApiError('BadRequest', 400, `${url} is not a configured project location`, 'validation'),
  remoteServer: (url: string, detail: string) =>
    new ApiError('BadGateway', 502, `The Keelson server ${url} answered: ${detail}`, 'error'),
  originalNotKept: (name: string) =>
    new ApiError('NotFound', 404, `The original file of project ${name} is not kept on this server`, 'notFound'),
  peerTokenReadOnly: () =>
    new ApiError('Forbidden', 403, 'A token of another Keelson server may only read', 'permission'),
  internal: (message = 'An error occurred, please try again. If the problem persists, contact administrator.') =>
    new ApiError('InternalServerError', 500, message, 'error'),
} as const;
