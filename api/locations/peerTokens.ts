/**
 * Tokens one Keelson server sends another to act for one of its users (README "Project locations"): an
 * HS256 JWT signed with the secret the two servers share, iss 'keelson-peer:{issuer}', sub = the user's
 * e-mail, valid PEER_TOKEN_TTL_S. The receiving server accepts it only when TRUSTED_SERVERS names that
 * issuer with that secret, treats it as its own user of that e-mail (that user's rights there) and only
 * for reading calls (GET).
 */
import { SignJWT, decodeJwt, errors as joseErrors, jwtVerify } from 'jose';
import { Errors } from '../errors';
import type { ServerLocation, TrustedServer } from './locationsConfig';

/** Issuer prefix of peer tokens (a server's own tokens have iss 'keelson'). */
export const PEER_ISSUER_PREFIX = 'keelson-peer:';
/** Lifetime of a peer token, seconds: one listing or one download. */
export const PEER_TOKEN_TTL_S = 300;

/** A token for `email` to present to the server location `loc`. */
export function signPeerToken(loc: Pick<ServerLocation, 'issuer' | 'secret'>, email: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(`${PEER_ISSUER_PREFIX}${loc.issuer}`)
    .setSubject(email)
    .setIssuedAt(now)
    .setExpirationTime(now + PEER_TOKEN_TTL_S)
    .sign(new TextEncoder().encode(loc.secret));
}

/** True when `token` claims to come from another server (not verified here). */
export function isPeerToken(token: string | undefined): boolean {
  if (!token) return false;
  try {
    const iss = decodeJwt(token).iss;
    return typeof iss === 'string' && iss.startsWith(PEER_ISSUER_PREFIX);
  } catch {
    return false;
  }
}

/**
 * Verifies a peer token against the trusted servers; returns the user's e-mail (lower case).
 * @throws ApiError 401 'Invalid token' (unknown issuer, bad signature, no subject) or 'Token expired'.
 */
export async function verifyPeerToken(trusted: readonly TrustedServer[], token: string): Promise<string> {
  let iss: unknown;
  try {
    iss = decodeJwt(token).iss;
  } catch {
    throw Errors.invalidToken();
  }
  const peer = typeof iss === 'string' ? trusted.find((t) => `${PEER_ISSUER_PREFIX}${t.issuer}` === iss) : undefined;
  if (!peer) throw Errors.invalidToken();
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(peer.secret), {
      issuer: `${PEER_ISSUER_PREFIX}${peer.issuer}`,
      algorithms: ['HS256'],
    });
    if (typeof payload.sub !== 'string' || !payload.sub) throw Errors.invalidToken();
    return payload.sub.toLowerCase();
  } catch (e) {
    if (e instanceof joseErrors.JWTExpired) throw Errors.tokenExpired();
    throw Errors.invalidToken();
  }
}
