/**
 * The auth wait (application.md §4, §9): a sign-in step is polled every 200 ms for up to 10,000 ms and
 * then fails with 'Timeout on authentication to auth0' and is aborted; a step that ends in time keeps its
 * own result or error. Driven by a hand-stepped clock.
 */
import { describe, expect, it } from 'vitest';
import { AUTH_POLL_MS, AUTH_TIMEOUT_TEXT, AUTH_WAIT_MS, withAuthWait, type WaitClock } from '../../ui/logic/authWait';

/** A clock whose interval callbacks run when the test calls tick(). */
function steppedClock() {
  const timers = new Map<number, { fn: () => void; ms: number }>();
  let next = 1;
  const clock: WaitClock = {
    setInterval: (fn, ms) => {
      timers.set(next, { fn, ms });
      return next++;
    },
    clearInterval: (id) => timers.delete(id as number),
  };
  return { clock, timers, tick: () => [...timers.values()].forEach((t) => t.fn()) };
}

describe('auth wait', () => {
  it('polls every 200 ms for 10 s: 49 polls leave the step running, the 50th fails it and aborts it', async () => {
    expect(AUTH_POLL_MS).toBe(200);
    expect(AUTH_WAIT_MS).toBe(10_000);
    const { clock, timers, tick } = steppedClock();
    let signal: AbortSignal | undefined;
    let outcome: string | undefined;
    withAuthWait(
      (s) => {
        signal = s;
        return new Promise<string>(() => {});
      },
      { clock },
    ).then(
      () => (outcome = 'resolved'),
      (e: Error) => (outcome = e.message),
    );
    expect([...timers.values()].map((t) => t.ms)).toEqual([200]);
    for (let i = 0; i < 49; i++) tick();
    await Promise.resolve();
    expect(outcome).toBeUndefined();
    expect(signal?.aborted).toBe(false);
    tick();
    await Promise.resolve();
    expect(outcome).toBe(AUTH_TIMEOUT_TEXT);
    expect(outcome).toBe('Timeout on authentication to auth0');
    expect(signal?.aborted).toBe(true);
    expect(timers.size).toBe(0);
  });

  it('keeps the result of a step that ends in time and stops polling', async () => {
    const { clock, timers, tick } = steppedClock();
    let finish: (v: string) => void = () => {};
    const p = withAuthWait(() => new Promise<string>((r) => (finish = r)), { clock });
    for (let i = 0; i < 30; i++) tick();
    finish('token');
    await expect(p).resolves.toBe('token');
    expect(timers.size).toBe(0);
  });

  it("passes a step's own error on", async () => {
    const { clock } = steppedClock();
    await expect(withAuthWait(() => Promise.reject(new Error('access_denied')), { clock })).rejects.toThrow(
      'access_denied',
    );
  });
});
