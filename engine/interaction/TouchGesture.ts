/**
 * Touch gestures of the viewer (viewer.md §2 "Context menu": "a touch held for 1000 ms", §4).
 * Pure state machine over touch
 * PointerInputs (several pointer ids) plus `tick(now)` for the hold timer; no DOM, no timers.
 * - One finger: a tap (moved ≤ 3 px, lifted before 1000 ms) clicks; a drag beyond 3 px orbits; held still
 *   for 1000 ms it opens the context menu while still held (`tick` reports it once; lifting then does
 *   nothing).
 * - Two fingers: pinch zooms about the fingers' centre (scale = previous distance / new distance, the
 *   factor on the view width) and moving the centre pans. Lifting one finger ends the gesture until all
 *   fingers are up (no jump back into orbiting).
 */
import type { PointerInput } from '../EngineApi';
import { CAMERA_CONSTANTS } from './cameraMath';
import type { GestureAction } from './PointerGesture';

interface Finger {
  x: number;
  y: number;
}

/** Touch gesture classifier. */
export class TouchGesture {
  private fingers = new Map<number, Finger>();
  private mode: 'idle' | 'press' | 'orbit' | 'pinch' | 'held' | 'done' = 'idle';
  private start = { x: 0, y: 0, time: 0 };
  private pinch = { cx: 0, cy: 0, dist: 1 };

  constructor(
    private readonly thresholdPx: number = CAMERA_CONSTANTS.dragThresholdPx,
    private readonly holdMs: number = CAMERA_CONSTANTS.touchHoldMs,
  ) {}

  /** Time (ms) at which `tick` should be called to detect a hold, or null when no hold is pending. */
  get holdDueAt(): number | null {
    return this.mode === 'press' ? this.start.time + this.holdMs : null;
  }

  /** Feeds one touch pointer event. */
  handle(e: PointerInput): GestureAction[] {
    switch (e.kind) {
      case 'down':
        return this.down(e);
      case 'move':
        return this.move(e);
      case 'up':
        return this.up(e, false);
      case 'cancel':
        return this.up(e, true);
      case 'leave':
        return [];
      default:
        throw new Error(`TouchGesture: unknown pointer kind "${(e as { kind: string }).kind}"`);
    }
  }

  /** Hold detection: a single still finger held ≥ 1000 ms opens the context menu (once). */
  tick(now: number): GestureAction[] {
    if (this.mode !== 'press' || now - this.start.time < this.holdMs) return [];
    this.mode = 'held';
    return [{ type: 'context-menu', x: this.start.x, y: this.start.y }];
  }

  private down(e: PointerInput): GestureAction[] {
    this.fingers.set(e.pointerId, { x: e.x, y: e.y });
    if (this.fingers.size === 1) {
      this.mode = 'press';
      this.start = { x: e.x, y: e.y, time: e.time };
      return [];
    }
    if (this.fingers.size === 2 && this.mode !== 'done') {
      const out: GestureAction[] = this.mode === 'orbit' ? [{ type: 'drag-end', mode: 'orbit' }] : [];
      this.mode = 'pinch';
      this.pinch = this.centre();
      out.push({ type: 'drag-start', mode: 'pinch' });
      return out;
    }
    return [];
  }

  private move(e: PointerInput): GestureAction[] {
    const f = this.fingers.get(e.pointerId);
    if (!f) return [];
    const dx = e.x - f.x,
      dy = e.y - f.y;
    f.x = e.x;
    f.y = e.y;
    if (this.mode === 'press') {
      if (Math.hypot(e.x - this.start.x, e.y - this.start.y) <= this.thresholdPx) return [];
      this.mode = 'orbit';
      return [
        { type: 'drag-start', mode: 'orbit' },
        { type: 'orbit', dx: e.x - this.start.x, dy: e.y - this.start.y },
      ];
    }
    if (this.mode === 'orbit') return dx || dy ? [{ type: 'orbit', dx, dy }] : [];
    if (this.mode === 'pinch' && this.fingers.size === 2) {
      const c = this.centre();
      const out: GestureAction[] = [];
      if (c.dist > 0 && this.pinch.dist > 0 && c.dist !== this.pinch.dist)
        out.push({ type: 'pinch', x: c.cx, y: c.cy, scale: this.pinch.dist / c.dist });
      if (c.cx !== this.pinch.cx || c.cy !== this.pinch.cy)
        out.push({ type: 'pan', dx: c.cx - this.pinch.cx, dy: c.cy - this.pinch.cy });
      this.pinch = c;
      return out;
    }
    return [];
  }

  private up(e: PointerInput, cancelled: boolean): GestureAction[] {
    if (!this.fingers.delete(e.pointerId)) return [];
    const mode = this.mode;
    const out: GestureAction[] = [];
    if (mode === 'orbit') out.push({ type: 'drag-end', mode: 'orbit' });
    if (mode === 'pinch') out.push({ type: 'drag-end', mode: 'pinch' });
    if (
      mode === 'press' &&
      !cancelled &&
      e.time - this.start.time < this.holdMs &&
      Math.hypot(e.x - this.start.x, e.y - this.start.y) <= this.thresholdPx
    ) {
      out.push({ type: 'click', x: e.x, y: e.y, toggle: false });
    }
    this.mode = this.fingers.size === 0 ? 'idle' : 'done';
    return out;
  }

  private centre(): { cx: number; cy: number; dist: number } {
    const [a, b] = [...this.fingers.values()];
    return { cx: (a.x + b.x) / 2, cy: (a.y + b.y) / 2, dist: Math.hypot(a.x - b.x, a.y - b.y) };
  }
}
