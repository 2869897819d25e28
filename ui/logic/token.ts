/**
 * The local token of application.md §3 ("Local token decodes to iss, sub (the e-mail) and exp"): decoding
 * without verification (the server verifies), for the expiry that sends the user to /login (§4).
 */
import { decodeJwt } from 'jose';

/** Claims the UI reads from the token. */
export interface TokenClaims {
  iss?: string;
  /** The user's e-mail. */
  sub?: string;
  /** Expiry, seconds since the epoch. */
  exp?: number;
}

/** Decodes the claims, or null when the token is not a readable JWT. */
export function readTokenClaims(token: string): TokenClaims | null {
  try {
    const c = decodeJwt(token);
    return { iss: c.iss, sub: c.sub, exp: typeof c.exp === 'number' ? c.exp : undefined };
  } catch {
    return null;
  }
}

/**
 * Milliseconds until the token expires at `nowMs` (≤ 0 when expired), Infinity when it has no exp,
 * and 0 when it cannot be decoded (an unreadable token counts as expired).
 */
export function msUntilExpiry(token: string, nowMs: number): number {
  const c = readTokenClaims(token);
  if (!c) return 0;
  if (c.exp === undefined) return Infinity;
  return c.exp * 1000 - nowMs;
}
