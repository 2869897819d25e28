/**
 * Inactivity timer (viewer.md §4 "Connection", §9 "Timeouts": the client setting webViewerTimeoutInMin,
 * default 15 minutes): calls `onIdle` once when `timeoutMs` pass without `touch()`. `touch` only records
 * the time (cheap enough for every pointer move); one timer re-arms itself for the time left.
 */

/** Clock and timer functions (the browser's by default; tests pass fake ones). */
export interface IdleClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const browserClock: IdleClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/** A running inactivity timer. */
export interface IdleTimer {
  /** Records an interaction: the timeout counts from now. */
  touch(): void;
  /** Stops the timer; `onIdle` will not be called. Idempotent. */
  stop(): void;
}

/** Minutes of the client config to ms; a missing, non-positive or non-finite value gives the 15 minute default. */
export function idleTimeoutMs(minutes: number | null | undefined): number {
  const m = typeof minutes === 'number' && Number.isFinite(minutes) && minutes > 0 ? minutes : 15;
  return Math.round(m * 60_000);
}

/** Starts a timer that calls `onIdle` after `timeoutMs` ms without `touch()`. */
export function startIdleTimer(timeoutMs: number, onIdle: () => void, clock: IdleClock = browserClock): IdleTimer {
  let last = clock.now();
  let handle: unknown = null;
  let stopped = false;
  const arm = (ms: number) => {
    handle = clock.setTimeout(check, Math.max(0, ms));
  };
  function check(): void {
    handle = null;
    if (stopped) return;
    const idle = clock.now() - last;
    if (idle >= timeoutMs) {
      stopped = true;
      onIdle();
    } else arm(timeoutMs - idle);
  }
  arm(timeoutMs);
  return {
    touch: () => {
      last = clock.now();
    },
    stop: () => {
      stopped = true;
      if (handle !== null) clock.clearTimeout(handle);
      handle = null;
    },
  };
}
