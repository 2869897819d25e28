/**
 * Shell contract (application.md §1 'What's new', §3 "License state", §7, §8 LicenseError):
 * - GET /api/keelson-static/license/expirationTime → LicenseState (any signed-in user)
 * - GET /api/keelson-static/whats-new             → WhatsNew (anyone; from CHANGELOG.md)
 * - GET /api/{instance}/viewer/logs               → application/zip of the server's log files (admin:view)
 * - GET /docs/ and /docs/{page}                   → the user guide as HTML (not under /api, no sign-in)
 */
import * as v from 'valibot';

/**
 * The licence (application.md §3 "License state"): `hasLicense` false once the expiry has passed;
 * `expirationTime` ISO 8601 or null (no expiry configured); `daysRemaining` whole days left (0 on the last
 * day, negative once expired), null without expiry; `licenseError` the LicenseError message once expired.
 */
export const LicenseStateSchema = v.object({
  hasLicense: v.boolean(),
  licenseError: v.nullable(v.string()),
  daysRemaining: v.nullable(v.number()),
  expirationTime: v.nullable(v.string()),
});
export type LicenseState = v.InferOutput<typeof LicenseStateSchema>;

/** The error type of a refusal because the licence has expired (application.md §8). */
export const LICENSE_ERROR_TYPE = 'LicenseError';

/** The licence-expiry notice is shown while at most this many days remain (application.md §9: under 8). */
export const LICENSE_WARNING_DAYS = 7;

/** One version of the 'What's new' list: its label and the items, in the changelog's order. */
export const WhatsNewVersionSchema = v.object({ version: v.string(), items: v.array(v.string()) });
export const WhatsNewSchema = v.array(WhatsNewVersionSchema);
export type WhatsNew = v.InferOutput<typeof WhatsNewSchema>;
