/**
 * The licence (application.md §1 "license banner", §3 "License state", §6 "Licence notices", §7
 * `GET /api/keelson-static/license/expirationTime`, §8 "Type LicenseError"). The expiry comes from the
 * server configuration (LICENSE_EXPIRES; none = unlimited). Once it has passed, opening and adding models
 * is refused with 403 `{ error: 'LicenseError', message, type: 'LicenseError' }`; everything else (sign-in,
 * the project list, administration) keeps working so an administrator can still act.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Access } from '../access/rules';
import type { ServerConfig } from '../config';
import { LICENSE_ERROR_TYPE, type LicenseState } from '../contract/shell';
import { ApiError } from '../errors';
import { defineRoute } from './define';

const DAY_MS = 86_400_000;

/** URL prefixes a lapsed licence refuses: the model's instance calls, its scene files and adding projects. */
const LICENSED_PREFIXES = ['/api/keelson-instance/', '/api/keelson-static/models/', '/api/viewer/project/add/'];

/**
 * The licence at `now` (ms): days remaining are whole days until the expiry, rounded down (0 on its last
 * day, negative once past).
 */
export function licenseState(expires: string | null, now: number): LicenseState {
  if (expires === null) return { hasLicense: true, licenseError: null, daysRemaining: null, expirationTime: null };
  const end = Date.parse(expires);
  const hasLicense = now <= end;
  return {
    hasLicense,
    licenseError: hasLicense ? null : licenseMessage(expires),
    daysRemaining: Math.floor((end - now) / DAY_MS),
    expirationTime: expires,
  };
}

/** The LicenseError text. */
export function licenseMessage(expires: string): string {
  return `The Keelson licence expired on ${expires.slice(0, 10)}. Contact your administrator to renew it.`;
}

/**
 * onRequest hook (app.ts, after the access check): refuses the licensed calls once the licence has lapsed.
 * @throws ApiError 403 LicenseError.
 */
export function licenseGuard(config: ServerConfig): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    if (config.licenseExpires === null || Date.now() <= Date.parse(config.licenseExpires)) return;
    const url = request.url.split('?')[0];
    if (LICENSED_PREFIXES.some((p) => url.startsWith(p)))
      throw new ApiError(LICENSE_ERROR_TYPE, 403, licenseMessage(config.licenseExpires), LICENSE_ERROR_TYPE);
  };
}

export default async function licenseRoutes(app: FastifyInstance): Promise<void> {
  const { config } = app.ctx;
  defineRoute(app, {
    method: 'GET',
    url: '/api/keelson-static/license/expirationTime',
    access: Access.signedIn,
    handler: async (): Promise<LicenseState> => licenseState(config.licenseExpires, Date.now()),
  });
}
