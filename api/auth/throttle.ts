/**
 * Sign-in throttling beyond one address and one e-mail (@fastify/rate-limit covers that pair in
 * api/routes/auth.ts): password spraying tries many e-mails from one address, and a distributed guess
 * tries one account from many addresses. Each key may make `max` attempts per window; the counts are the
 * same for registered and unknown e-mails, so the answer does not tell which e-mails exist.
 */
import { Errors } from '../errors';

/** Fixed-window attempt counters keyed by string. */
export class AttemptThrottle {
  private readonly windows = new Map<string, { start: number; count: number }>();

  /** @param max attempts per key and window (0 = off); @param windowMs window length. */
  constructor(
    private readonly max: number,
    private readonly windowMs = 60_000,
  ) {}

  /**
   * Counts one attempt against every key.
   * @returns null when allowed, else the seconds until the fullest key's window ends.
   */
  hit(keys: string[], now = Date.now()): number | null {
    if (this.max <= 0) return null;
    let wait = 0;
    for (const key of keys) {
      let w = this.windows.get(key);
      if (!w || now - w.start >= this.windowMs) {
        w = { start: now, count: 0 };
        this.windows.set(key, w);
      }
      w.count++;
      if (w.count > this.max) wait = Math.max(wait, Math.ceil((w.start + this.windowMs - now) / 1000));
    }
    if (this.windows.size > 10_000) this.prune(now);
    return wait > 0 ? wait : null;
  }

  /**
   * Counts an attempt and throws when a key is over its limit.
   * @throws ApiError 429 'Too many {what} attempts. Try again in N seconds.' with `retryAfter` seconds.
   */
  check(keys: string[], what: string): void {
    const wait = this.hit(keys);
    if (wait === null) return;
    const e = Errors.tooManyAttempts(what, `${wait} second${wait === 1 ? '' : 's'}`);
    e.retryAfter = wait;
    throw e;
  }

  /** Drops windows that have ended (bounds memory under a flood of distinct keys). */
  private prune(now: number): void {
    for (const [k, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(k);
  }
}
