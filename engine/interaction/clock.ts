/**
 * The one clock of viewer input (viewer.md §2 "Context menu": a touch held for 1000 ms): epoch
 * milliseconds with sub-millisecond resolution, `performance.timeOrigin + performance.now()`. The page and
 * the render worker each have their own `performance.now()` (their time origins differ by however long the
 * page lived before the viewer started its worker), so event time stamps cross to the worker converted to
 * this clock and the engine measures with it too; a hold is then timed from the finger's real press.
 */

/** Time origin (epoch ms) of this realm's performance clock, or 0 where there is none. */
function origin(): number {
  return globalThis.performance?.timeOrigin ?? 0;
}

/** Now, epoch ms (high resolution where the runtime has a performance clock, else Date.now()). */
export function epochNow(): number {
  return globalThis.performance ? origin() + globalThis.performance.now() : Date.now();
}

/**
 * An event's `timeStamp` (ms on this realm's performance clock, as DOM events carry it) as epoch ms;
 * a missing (0) time stamp means now.
 */
export function eventEpochTime(timeStamp: number): number {
  return timeStamp > 0 && globalThis.performance ? origin() + timeStamp : epochNow();
}
