/**
 * Passwords and bearer tokens (application.md §3 "Local token decodes to iss, sub
 * (the e-mail) and exp"). Passwords: argon2id via @node-rs/argon2. Tokens: HS256 JWT via jose.
 */
import { hash, verify } from '@node-rs/argon2';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { Errors } from '../errors';

/** Token issuer claim. */
export const TOKEN_ISSUER = 'keelson';

/** argon2id, the library's `Algorithm.Argon2id` (a const enum, unusable under isolatedModules). */
const ARGON2ID = 2;

/** Hashes a password with argon2id; returns the PHC string ('$argon2id$...'). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID as never });
}

/** True when `password` matches the PHC `hashed` string; false for a malformed hash. */
export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
  try {
    return await verify(hashed, password);
  } catch {
    return false;
  }
}

/** Signs and verifies tokens with one secret. */
export class TokenService {
  private readonly key: Uint8Array;

  /** @param secret the HS256 secret; @param ttlMin lifetime in minutes. */
  constructor(
    secret: string,
    private readonly ttlMin: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  /**
   * Issues a token with iss 'keelson', sub = e-mail, ver = the user's token version (0 when not given;
   * signFor passes the user's), iat and exp (now + ttl; or `expiresAt`, seconds).
   */
  async sign(email: string, expiresAt?: number, version = 0): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ ver: version })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(TOKEN_ISSUER)
      .setSubject(email)
      .setIssuedAt(now)
      .setExpirationTime(expiresAt ?? now + this.ttlMin * 60)
      .sign(this.key);
  }

  /** A token for `user` carrying its current token version (revoked when the version rises). */
  signFor(user: { email: string; tokenVersion: number }): Promise<string> {
    return this.sign(user.email, undefined, user.tokenVersion);
  }

  /**
   * Verifies a token and returns its e-mail (sub). Does not check revocation: api/access/session.ts does.
   * @throws ApiError 401 'Token expired' when exp has passed, 401 'Invalid token' otherwise.
   */
  async verify(token: string): Promise<string> {
    return (await this.verifyClaims(token)).email;
  }

  /**
   * Verifies a token and returns its e-mail (sub) and token version (ver, 0 when absent).
   * @throws ApiError 401 'Token expired' when exp has passed, 401 'Invalid token' otherwise.
   */
  async verifyClaims(token: string): Promise<{ email: string; version: number }> {
    try {
      const { payload } = await jwtVerify(token, this.key, { issuer: TOKEN_ISSUER, algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || !payload.sub) throw Errors.invalidToken();
      const ver = payload.ver;
      return { email: payload.sub, version: typeof ver === 'number' && Number.isInteger(ver) ? ver : 0 };
    } catch (e) {
      if (e instanceof joseErrors.JWTExpired) throw Errors.tokenExpired();
      throw Errors.invalidToken();
    }
  }
}
