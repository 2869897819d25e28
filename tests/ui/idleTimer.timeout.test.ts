/**
 * The viewer's inactivity timer (viewer.md §4 "Connection", §9 "Timeouts"): fires once after the
 * configured minutes without interaction; every interaction restarts the count; a stopped timer never fires.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { idleTimeoutMs, startIdleTimer } from '../../ui/logic/idleTimer';

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(0);
});
afterEach(() => vi.useRealTimers());

describe('idle timer', () => {
  it('takes the client config minutes, 15 by default, fractions allowed', () => {
    expect(idleTimeoutMs(15)).toBe(900_000);
    expect(idleTimeoutMs(0.05)).toBe(3000);
    expect(idleTimeoutMs(undefined)).toBe(900_000);
    expect(idleTimeoutMs(0)).toBe(900_000);
    expect(idleTimeoutMs(Number.NaN)).toBe(900_000);
  });

  it('fires once after the timeout without interaction', () => {
    const onIdle = vi.fn();
    startIdleTimer(1000, onIdle);
    vi.advanceTimersByTime(999);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onIdle).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10_000);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('counts from the last interaction', () => {
    const onIdle = vi.fn();
    const timer = startIdleTimer(1000, onIdle);
    vi.advanceTimersByTime(600);
    timer.touch();
    vi.advanceTimersByTime(600);
    timer.touch();
    vi.advanceTimersByTime(999);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('never fires once stopped', () => {
    const onIdle = vi.fn();
    const timer = startIdleTimer(1000, onIdle);
    vi.advanceTimersByTime(500);
    timer.stop();
    timer.stop();
    vi.advanceTimersByTime(5000);
    expect(onIdle).not.toHaveBeenCalled();
  });
});
