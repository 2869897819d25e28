import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NAV_IDLE_MS, NavigationQuality } from '../../../engine/interaction/NavigationQuality';

describe('NavigationQuality', () => {
  let changes: boolean[];
  let nav: NavigationQuality;
  beforeEach(() => {
    vi.useFakeTimers();
    changes = [];
    nav = new NavigationQuality(
      (on) => void changes.push(on),
      () => Date.now(),
    );
  });
  afterEach(() => {
    nav.dispose();
    vi.useRealTimers();
  });

  it('is active from a drag start to its end and reports each change once', () => {
    expect(nav.active).toBe(false);
    nav.begin('drag');
    nav.begin('drag');
    expect(nav.active).toBe(true);
    nav.end('drag');
    expect(nav.active).toBe(false);
    expect(changes).toEqual([true, false]);
  });

  it('a wheel pulse lasts NAV_IDLE_MS after the last wheel event', () => {
    nav.pulse('wheel');
    vi.advanceTimersByTime(NAV_IDLE_MS - 50);
    nav.pulse('wheel'); // a later event extends it
    vi.advanceTimersByTime(NAV_IDLE_MS - 10);
    expect(nav.active).toBe(true);
    vi.advanceTimersByTime(20);
    expect(nav.active).toBe(false);
    expect(changes).toEqual([true, false]);
  });

  it('stays active while a drag is held after the wheel times out, and reset ends everything', () => {
    nav.pulse('keys');
    nav.begin('drag');
    vi.advanceTimersByTime(NAV_IDLE_MS * 2);
    expect(nav.active).toBe(true);
    nav.pulse('wheel');
    nav.reset();
    expect(nav.active).toBe(false);
    vi.advanceTimersByTime(NAV_IDLE_MS * 2);
    expect(changes).toEqual([true, false]);
  });

  it('ends pulses even when the clock does not advance with the timer', () => {
    const fixed = new NavigationQuality(
      (on) => void changes.push(on),
      () => 1000,
    );
    fixed.pulse('wheel');
    vi.advanceTimersByTime(NAV_IDLE_MS);
    expect(fixed.active).toBe(false);
    expect(changes).toEqual([true, false]);
  });
});
