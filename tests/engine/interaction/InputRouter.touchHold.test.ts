/**
 * The touch hold's timer in InputRouter (viewer.md §2 "Context menu": a touch held for 1000 ms opens the menu
 * while held). The hold is measured on the input clock (`now()`, epoch ms), but the timer runs on the
 * runtime's own clock with whole-millisecond delays: when the two disagree by a fraction of a millisecond
 * (or the input clock runs a little slower), the timer fires before the hold is due, and the router must try
 * again rather than leave the press waiting for ever.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EngineEvent, PointerInput } from '../../../engine/EngineApi';
import { InputRouter, type InputTargets } from '../../../engine/interaction/InputRouter';
import { pointerInput } from './pointerInput';

/** A router whose input clock is `clock()`; only the parts a touch hold reaches do anything. */
function router(clock: () => number, events: EngineEvent[]): InputRouter {
  const targets = {
    measure: { active: false },
    markers: { placingMarker: false, click: () => false },
    clip: { click() {} },
    annotations: { count: 0 },
    sel: { click() {} },
    pick: () => null,
    emit: (e: EngineEvent) => events.push(e),
    now: clock,
    alive: () => true,
    nav: { begin() {}, end() {} },
  } as unknown as InputTargets;
  return new InputRouter(targets);
}

function touch(kind: PointerInput['kind'], time: number, x = 200, y = 150): PointerInput {
  return pointerInput(kind, x, y, { pointerType: 'touch', pointerId: 7, time });
}

describe('InputRouter touch hold timer', () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  it('opens the menu once when the input clock runs slower than the timers', () => {
    const events: EngineEvent[] = [];
    // The input clock gains 0.999 ms per timer millisecond: the first timer comes 1 ms "early" by it.
    const r = router(() => Date.now() * 0.999, events);
    r.pointer(touch('down', 0));
    vi.advanceTimersByTime(1000);
    expect(events).toEqual([]);
    vi.advanceTimersByTime(10);
    expect(events).toEqual([{ type: 'context-menu', x: 200, y: 150 }]);
    vi.advanceTimersByTime(5000);
    expect(events).toHaveLength(1);
    r.dispose();
  });

  it('opens the menu when the press time has a fraction of a millisecond the timer delay drops', () => {
    const events: EngineEvent[] = [];
    let offset = 0;
    const r = router(() => Date.now() + offset, events);
    // Pressed at 0.6 ms on the input clock: due at 1000.6, a 1000 ms timer would fire 0.6 ms early.
    offset = 0.6;
    r.pointer(touch('down', 0.6 + 0.6));
    vi.advanceTimersByTime(2000);
    expect(events).toEqual([{ type: 'context-menu', x: 200, y: 150 }]);
    r.dispose();
  });

  it('does not open the menu for a finger lifted before the hold', () => {
    const events: EngineEvent[] = [];
    const r = router(() => Date.now(), events);
    r.pointer(touch('down', 0));
    vi.advanceTimersByTime(400);
    r.pointer(touch('up', Date.now()));
    vi.advanceTimersByTime(3000);
    expect(events.filter((e) => e.type === 'context-menu')).toEqual([]);
    r.dispose();
  });
});
