/**
 * Brute-force protection of /api/auth/* (@fastify/rate-limit, AUTH_RATE_LIMIT_PER_MIN): login and
 * changePassword per client IP + e-mail, registration per client IP; the excess gets 429 with a clear
 * message and Retry-After. The limit comes from the configuration (here 3 per minute).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../api/config';
import { bearer, makeApp, signUp, type TestApp } from './helpers';

let t: TestApp;
afterEach(async () => {
  await t.close();
});

const login = (email: string, password: string, ip = '127.0.0.1') =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/viewer/default/login',
    payload: { email, password },
    remoteAddress: ip,
  });
const register = (email: string, ip = '127.0.0.1') =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/viewer/default/register',
    payload: { email, password: 'secret-password', fullName: 'X' },
    remoteAddress: ip,
  });

describe('sign-in rate limit', () => {
  it('answers 429 after AUTH_RATE_LIMIT_PER_MIN login attempts of one IP and e-mail', async () => {
    t = await makeApp({ authRateLimitPerMin: 3 });
    await signUp(t.app, 'admin@yard.com', { admin: true }); // 1 login of admin@yard.com
    for (let i = 0; i < 2; i++) expect((await login('admin@yard.com', 'wrong-password')).statusCode).toBe(401);
    const limited = await login('admin@yard.com', 'secret-password');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      error: 'TooManyRequests',
      message: expect.stringMatching(/^Too many sign-in attempts\. Try again in \d+ (second|minute)s?\.$/),
      type: 'rateLimit',
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    // another e-mail from the same IP, and the same e-mail from another IP, still get through
    expect((await login('other@yard.com', 'whatever-pw')).statusCode).toBe(401);
    expect((await login('admin@yard.com', 'secret-password', '10.0.0.7')).statusCode).toBe(200);
    // the e-mail is keyed case-insensitively
    expect((await login('ADMIN@yard.com', 'secret-password')).statusCode).toBe(429);
  });

  it('does not count requests refused by validation', async () => {
    t = await makeApp({ authRateLimitPerMin: 2 });
    for (let i = 0; i < 4; i++) expect((await login('not-an-email', 'x')).statusCode).toBe(400);
    await signUp(t.app, 'admin@yard.com', { admin: true });
    expect((await login('admin@yard.com', 'secret-password')).statusCode).toBe(200);
  });

  it('limits registrations per IP', async () => {
    t = await makeApp({ authRateLimitPerMin: 2 });
    expect((await register('a@yard.com')).statusCode).toBe(200);
    expect((await register('b@yard.com')).statusCode).toBe(200);
    const r = await register('c@yard.com');
    expect(r.statusCode).toBe(429);
    expect(r.json().message).toMatch(/^Too many registration attempts\./);
    expect((await register('c@yard.com', '10.0.0.8')).statusCode).toBe(200);
  });

  it('limits changePassword per IP and e-mail', async () => {
    t = await makeApp({ authRateLimitPerMin: 2 });
    const token = await signUp(t.app, 'admin@yard.com', { admin: true });
    const change = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/viewer/default/changePassword',
        headers: bearer(token),
        payload: {
          email: 'admin@yard.com',
          currentPassword: 'guess-guess',
          newPassword: 'new-password-1',
          confirmNewPassword: 'new-password-1',
        },
      });
    expect((await change()).statusCode).toBe(401);
    expect((await change()).statusCode).toBe(401);
    expect((await change()).statusCode).toBe(429);
  });

  it('is off with AUTH_RATE_LIMIT_PER_MIN=0, and read from the environment', async () => {
    expect(loadConfig({ AUTH_RATE_LIMIT_PER_MIN: '25' }, { jwtSecret: 'x' }).authRateLimitPerMin).toBe(25);
    expect(loadConfig({}, { jwtSecret: 'x' }).authRateLimitPerMin).toBe(10);
    expect(() => loadConfig({ AUTH_RATE_LIMIT_PER_MIN: 'many' }, { jwtSecret: 'x' })).toThrow(
      'AUTH_RATE_LIMIT_PER_MIN',
    );
    t = await makeApp({ authRateLimitPerMin: 0 });
    await signUp(t.app, 'admin@yard.com', { admin: true });
    for (let i = 0; i < 12; i++) expect((await login('admin@yard.com', 'wrong-password')).statusCode).toBe(401);
  });
});
