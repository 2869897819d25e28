/**
 * Choice of the displayed error message, application.md §8 "Central handling": the call's own message,
 * then the server's data.message, data.reason, a standard text for the status code, and finally the
 * default text.
 */

/** Default message of application.md §8. */
export const DEFAULT_ERROR_MESSAGE =
  'There was a problem accessing the site. Try again in a few moments. If the problem persists, contact the service administrator for more information.';

/** Generic toast default of application.md §8. */
export const GENERIC_TOAST_MESSAGE =
  'An error occurred, please try again. If the problem persists, contact administrator.';

/** Standard texts per HTTP status code. */
export const STATUS_TEXTS: Readonly<Record<number, string>> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  408: 'Request timeout',
  409: 'Conflict',
  413: 'Payload too large',
  429: 'Too many requests',
  500: 'Internal server error',
  502: 'Bad gateway',
  503: 'Service unavailable',
  504: 'Gateway timeout',
};

function nonEmpty(v: unknown): v is string {
  return typeof v === 'string' && v.trim().length > 0;
}

/**
 * Picks the message to show for a failed call.
 * @param ownMessage the message the calling code gives for this call (wins when set)
 * @param data the parsed response body, if any
 * @param status the HTTP status, or 0 for a network failure
 */
export function chooseErrorMessage(ownMessage: string | undefined, data: unknown, status: number): string {
  if (nonEmpty(ownMessage)) return ownMessage;
  if (data && typeof data === 'object') {
    const d = data as { message?: unknown; reason?: unknown };
    if (nonEmpty(d.message)) return d.message;
    if (nonEmpty(d.reason)) return d.reason;
  }
  const std = STATUS_TEXTS[status];
  if (std) return std;
  return DEFAULT_ERROR_MESSAGE;
}

/** True when a reply body is a LicenseError (application.md §8; api/routes/license.ts). */
export function isLicenseError(data: unknown): boolean {
  return !!data && typeof data === 'object' && (data as { type?: unknown }).type === 'LicenseError';
}

/**
 * The message a LicenseError shows (application.md §6 "licence error messages are replaced by the generic
 * message" for external users; §8 "External users see only the default message").
 */
export function licenseErrorMessage(message: string, userType: string | undefined): string {
  return userType === 'external' ? DEFAULT_ERROR_MESSAGE : message;
}
