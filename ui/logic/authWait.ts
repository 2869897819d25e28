/**
 * The auth wait of application.md §4 "Authentication and session" and §9: a step of the identity-provider
 * sign-in is polled every 200 ms for up to 10,000 ms; if it is still loading then, the sign-in fails with
 * 'Timeout on authentication to auth0' (and the step is aborted).
 */

/** Longest wait for a sign-in step, ms (application.md §9 "Auth wait"). */
export const AUTH_WAIT_MS = 10_000;
/** Polling interval of the auth wait, ms. */
export const AUTH_POLL_MS = 200;
/** The spec's text when the provider has not answered within the auth wait. */
export const AUTH_TIMEOUT_TEXT = 'Timeout on authentication to auth0';

/** Timers the wait uses (tests pass fake ones). */
export interface WaitClock {
  setInterval: (fn: () => void, ms: number) => unknown;
  clearInterval: (id: unknown) => void;
}

const realClock: WaitClock = {
  setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
  clearInterval: (id) => globalThis.clearInterval(id as ReturnType<typeof setInterval>),
};

/**
 * Runs `step` (given an AbortSignal) and resolves with its result; polls every `pollMs` whether it is
 * still loading and, once `waitMs` have passed with it still loading, aborts it and rejects with
 * Error(AUTH_TIMEOUT_TEXT). A step that fails rejects with its own error.
 */
export function withAuthWait<T>(
  step: (signal: AbortSignal) => Promise<T>,
  opts: { waitMs?: number; pollMs?: number; clock?: WaitClock } = {},
): Promise<T> {
  const { waitMs = AUTH_WAIT_MS, pollMs = AUTH_POLL_MS, clock = realClock } = opts;
  const controller = new AbortController();
  return new Promise<T>((resolve, reject) => {
    let loading = true;
    let waited = 0;
    const timer = clock.setInterval(() => {
      if (!loading) return;
      waited += pollMs;
      if (waited < waitMs) return;
      loading = false;
      clock.clearInterval(timer);
      controller.abort();
      reject(new Error(AUTH_TIMEOUT_TEXT));
    }, pollMs);
    step(controller.signal).then(
      (value) => {
        if (!loading) return;
        loading = false;
        clock.clearInterval(timer);
        resolve(value);
      },
      (e: unknown) => {
        if (!loading) return;
        loading = false;
        clock.clearInterval(timer);
        reject(e);
      },
    );
  });
}
