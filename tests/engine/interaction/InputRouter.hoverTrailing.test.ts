/**
 * Hover in InputRouter runs at most every HOVER_INTERVAL_MS (viewer.md §4 "Measuring": the snap marker
 * follows the pointer). A move inside the interval is kept and run when the interval ends, so the marker,
 * highlight and cursor point end where the pointer stopped, also right after a click; a click, drag or
 * leave in between forgets it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EngineEvent, PointerInput } from '../../../engine/EngineApi';
import { HOVER_INTERVAL_MS, InputRouter, type InputTargets } from '../../../engine/interaction/InputRouter';
import { pointerInput } from './pointerInput';

/** A router measuring: every hover snaps where it is (the snap's point is the canvas position). */
function router(events: EngineEvent[]): InputRouter {
  const targets = {
    measure: {
      active: true,
      move: (x: number, y: number) => ({ type: 'snap', point: [x, y, 0] }),
      click() {},
    },
    markers: { placingMarker: false, click: () => false },
    clip: { click() {}, pointer: () => false },
    annotations: { count: 0 },
    sel: { click() {}, hoverPicked() {}, setHover() {} },
    pick: () => null,
    emit: (e: EngineEvent) => events.push(e),
    now: () => Date.now(),
    alive: () => true,
    nav: { begin() {}, end() {} },
  } as unknown as InputTargets;
  return new InputRouter(targets);
}

const move = (x: number, time: number): PointerInput => pointerInput('move', x, 100, { buttons: 0, time });
/** The x of each snap the router reported. */
const snaps = (events: EngineEvent[]) =>
  events.flatMap((e) => (e.type === 'snap-changed' && e.snap ? [(e.snap as { point: number[] }).point[0]] : []));

describe('InputRouter hover rate limit', () => {
  beforeEach(() => vi.useFakeTimers({ now: 1000 }));
  afterEach(() => vi.useRealTimers());

  it('runs the last move of an interval when it ends, once', () => {
    const events: EngineEvent[] = [];
    const r = router(events);
    r.pointer(move(10, 1000));
    r.pointer(move(20, 1010));
    r.pointer(move(30, 1020)); // the pointer stops here
    expect(snaps(events)).toEqual([10]);
    vi.advanceTimersByTime(HOVER_INTERVAL_MS);
    expect(snaps(events)).toEqual([10, 30]);
    vi.advanceTimersByTime(10 * HOVER_INTERVAL_MS);
    expect(snaps(events)).toEqual([10, 30]);
    r.dispose();
  });

  it('snaps where the pointer went right after a click', () => {
    const events: EngineEvent[] = [];
    const r = router(events);
    r.pointer(move(10, 1000));
    r.pointer(pointerInput('down', 10, 100, { time: 1005 }));
    r.pointer(pointerInput('up', 10, 100, { time: 1008 }));
    r.pointer(move(300, 1012));
    vi.advanceTimersByTime(HOVER_INTERVAL_MS);
    expect(snaps(events).at(-1)).toBe(300);
    r.dispose();
  });

  it('forgets a kept move when the pointer leaves first', () => {
    const events: EngineEvent[] = [];
    const r = router(events);
    r.pointer(move(10, 1000));
    r.pointer(move(20, 1010));
    r.pointer(pointerInput('leave', 20, 100, { buttons: 0, time: 1015 }));
    vi.advanceTimersByTime(5 * HOVER_INTERVAL_MS);
    expect(snaps(events)).toEqual([10]);
    r.dispose();
  });
});
