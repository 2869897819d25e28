/**
 * Classifies raw mouse/pen input into viewer gestures (viewer.md §2 "Context menu", §4 "Selection",
 * §9 thresholds): a press that moves at most 3 px is a click (left) or a context-menu request (right);
 * more movement becomes a drag:
 * - left drag: orbit;
 * - Shift+left drag: box selection (viewer.md §4; left-to-right = contained, right-to-left = touched), or
 *   orbit when the box is disabled (walk mode);
 * - right or middle drag: pan.
 * Touch input goes to ./TouchGesture.ts. Pure state machine (no DOM, no timers): feed PointerInput, get
 * actions.
 */
import type { PointerInput } from '../EngineApi';
import { CAMERA_CONSTANTS } from './cameraMath';

/** What the engine should do for one input event. Positions and deltas are CSS px. */
export type GestureAction =
  | { type: 'click'; x: number; y: number; toggle: boolean }
  | { type: 'context-menu'; x: number; y: number }
  | { type: 'drag-start'; mode: DragMode }
  | { type: 'orbit'; dx: number; dy: number }
  | { type: 'pan'; dx: number; dy: number }
  | { type: 'pinch'; x: number; y: number; scale: number }
  | { type: 'box'; x0: number; y0: number; x1: number; y1: number }
  | { type: 'drag-end'; mode: DragMode; x0?: number; y0?: number; x1?: number; y1?: number; toggle?: boolean }
  | { type: 'hover'; x: number; y: number }
  | { type: 'hover-clear' };

/** Kinds of drag. */
export type DragMode = 'orbit' | 'pan' | 'box' | 'pinch';

interface Press {
  pointerId: number;
  button: number;
  startX: number;
  startY: number;
  lastX: number;
  lastY: number;
  shift: boolean;
  drag: 'orbit' | 'pan' | 'box' | null;
}

/** Tracks one pressed pointer at a time; further pointers while one is pressed are ignored. */
export class PointerGesture {
  private press: Press | null = null;
  /** When false (walk mode) Shift+left drags orbit instead of drawing a selection box. */
  boxEnabled = true;

  constructor(private readonly thresholdPx: number = CAMERA_CONSTANTS.dragThresholdPx) {}

  /** True while a drag (orbit or pan) is in progress. */
  get dragging(): boolean {
    return this.press?.drag != null;
  }

  /** Feeds one pointer event; returns the resulting actions in order (often none). */
  handle(e: PointerInput): GestureAction[] {
    switch (e.kind) {
      case 'down':
        return this.down(e);
      case 'move':
        return this.move(e);
      case 'up':
        return this.up(e);
      case 'leave':
      case 'cancel':
        return this.cancel(e);
      default:
        throw new Error(`PointerGesture: unknown pointer kind "${(e as { kind: string }).kind}"`);
    }
  }

  private down(e: PointerInput): GestureAction[] {
    if (this.press) return [];
    this.press = {
      pointerId: e.pointerId,
      button: e.button,
      startX: e.x,
      startY: e.y,
      lastX: e.x,
      lastY: e.y,
      shift: e.shiftKey,
      drag: null,
    };
    return [];
  }

  private move(e: PointerInput): GestureAction[] {
    const p = this.press;
    if (!p) return [{ type: 'hover', x: e.x, y: e.y }];
    if (e.pointerId !== p.pointerId) return [];
    const out: GestureAction[] = [];
    if (!p.drag) {
      if (Math.hypot(e.x - p.startX, e.y - p.startY) <= this.thresholdPx) return [];
      p.drag = p.button === 0 ? (p.shift && this.boxEnabled ? 'box' : 'orbit') : 'pan';
      out.push({ type: 'drag-start', mode: p.drag });
    }
    const dx = e.x - p.lastX,
      dy = e.y - p.lastY;
    p.lastX = e.x;
    p.lastY = e.y;
    if (p.drag === 'box') out.push({ type: 'box', x0: p.startX, y0: p.startY, x1: e.x, y1: e.y });
    else if (dx !== 0 || dy !== 0) out.push({ type: p.drag, dx, dy });
    return out;
  }

  private up(e: PointerInput): GestureAction[] {
    const p = this.press;
    if (!p || e.pointerId !== p.pointerId) return [];
    this.press = null;
    if (p.drag === 'box')
      return [
        { type: 'drag-end', mode: 'box', x0: p.startX, y0: p.startY, x1: e.x, y1: e.y, toggle: e.ctrlKey || e.metaKey },
      ];
    if (p.drag) return [{ type: 'drag-end', mode: p.drag }];
    if (Math.hypot(e.x - p.startX, e.y - p.startY) > this.thresholdPx) return [];
    if (p.button === 2) return [{ type: 'context-menu', x: e.x, y: e.y }];
    if (p.button === 0) return [{ type: 'click', x: e.x, y: e.y, toggle: e.ctrlKey || e.metaKey }];
    return [];
  }

  private cancel(e: PointerInput): GestureAction[] {
    const p = this.press;
    if (!p) return e.kind === 'leave' ? [{ type: 'hover-clear' }] : [];
    if (e.pointerId !== p.pointerId) return [];
    // A pointer that leaves while pressed keeps its capture in the UI, so only 'cancel' ends the press.
    if (e.kind === 'leave') return [];
    this.press = null;
    // A cancelled box selects nothing: it ends as a plain drag.
    return p.drag ? [{ type: 'drag-end', mode: p.drag === 'box' ? 'orbit' : p.drag }] : [];
  }
}

/**
 * New selection after a click (viewer.md §4): a hit selects that node alone; with `toggle` (Ctrl) it is
 * added or removed; a click on nothing clears (with Ctrl it keeps the selection). Order is preserved.
 */
export function selectionAfterClick(current: readonly number[], hit: number | null, toggle: boolean): number[] {
  if (hit === null) return toggle ? [...current] : [];
  if (!toggle) return [hit];
  return current.includes(hit) ? current.filter((n) => n !== hit) : [...current, hit];
}
