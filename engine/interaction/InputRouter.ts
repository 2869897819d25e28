/**
 * Routes canvas input to the engine's parts (viewer.md §4 "Selection", "Camera", "Measuring",
 * "Clipping", "Annotations"; §9 "Camera and input"): the clipping planes take a press first (plane drag);
 * the rest goes through the mouse/pen (PointerGesture) or touch (TouchGesture) state machines, whose
 * actions are dispatched here: a click hides visible clipping planes, then belongs to the measure
 * operator while it is armed, else to an annotation under the cursor, else to selection; a right click
 * cancels measuring or opens the context menu; drags orbit, pan, pinch or draw the selection box; hover
 * (at most every 50 ms, the last position always) moves the snap marker while measuring, highlights, and reports the cursor point. Camera drags
 * (orbit, pan, pinch) hold the interactive detail (NavigationQuality) from drag-start to drag-end.
 */
import type { EngineEvent, PointerInput } from '../EngineApi';
import type { AnnotationManager } from '../tools/AnnotationManager';
import type { CommentMarkers } from '../tools/CommentMarkers';
import type { ClippingManager } from '../tools/ClippingManager';
import type { MeasureManager } from '../tools/MeasureManager';
import { boxSelectMode } from './boxSelect';
import type { NavigationQuality } from './NavigationQuality';
import type { CameraRig } from './CameraRig';
import { PointerGesture, type GestureAction } from './PointerGesture';
import type { SelectionController } from './SelectionController';
import { TouchGesture } from './TouchGesture';

/** Hover and cursor picking run at most this often, ms. */
export const HOVER_INTERVAL_MS = 50;

/** The parts input reaches. */
export interface InputTargets {
  cams: CameraRig;
  sel: SelectionController;
  clip: ClippingManager;
  measure: MeasureManager;
  annotations: AnnotationManager;
  /** Comment markers: placement takes clicks first; a click on a pin opens its thread. */
  markers: CommentMarkers;
  /** Model pick with the clipping filter: node and world point (mm), or null. */
  pick(x: number, y: number): { nodeId: number; point: [number, number, number] } | null;
  emit(event: EngineEvent): void;
  cameraMoved(): void;
  /** Interactive detail while a drag moves the camera (orbit, pan, pinch: from drag-start to drag-end). */
  nav: Pick<NavigationQuality, 'begin' | 'end'>;
  now(): number;
  alive(): boolean;
}

/** Pointer routing and the gesture state machines. */
export class InputRouter {
  readonly gesture = new PointerGesture();
  private readonly touch = new TouchGesture();
  private touchTimer: ReturnType<typeof setTimeout> | null = null;
  private lastHoverPick = -Infinity;
  private hoverTimer: ReturnType<typeof setTimeout> | null = null;
  private pendingHover: Extract<GestureAction, { type: 'hover' }> | null = null;

  constructor(private readonly t: InputTargets) {}

  /** One pointer event from the canvas. */
  pointer(input: PointerInput): void {
    if (input.pointerType === 'touch') {
      for (const a of this.touch.handle(input)) this.act(a, input.time);
      this.armTouchHold();
      return;
    }
    if (this.t.clip.pointer(input)) return;
    for (const a of this.gesture.handle(input)) this.act(a, input.time);
  }

  dispose(): void {
    if (this.touchTimer) clearTimeout(this.touchTimer);
    this.touchTimer = null;
    this.cancelHover();
  }

  /**
   * A hover inside the rate limit is kept, not dropped: the latest one runs when the interval is over, so
   * the snap marker, highlight and cursor point end where the pointer stopped (a pointer that stops right
   * after a move or a click would otherwise keep the previous position until it moves again).
   */
  private deferHover(a: Extract<GestureAction, { type: 'hover' }>, time: number): void {
    this.pendingHover = a;
    if (this.hoverTimer) return;
    this.hoverTimer = setTimeout(
      () => {
        this.hoverTimer = null;
        const next = this.pendingHover;
        this.pendingHover = null;
        if (!next || !this.t.alive()) return;
        this.act(next, Math.max(this.t.now(), this.lastHoverPick + HOVER_INTERVAL_MS));
      },
      Math.max(1, Math.ceil(this.lastHoverPick + HOVER_INTERVAL_MS - time)),
    );
  }

  /** Forgets a deferred hover (another action came first: a click, a drag, the pointer leaving). */
  private cancelHover(): void {
    if (this.hoverTimer) clearTimeout(this.hoverTimer);
    this.hoverTimer = null;
    this.pendingHover = null;
  }

  /** Executes one gesture action. */
  act(a: GestureAction, time: number): void {
    const t = this.t;
    if (a.type !== 'hover') this.cancelHover();
    switch (a.type) {
      case 'click': {
        if (t.markers.placingMarker) return void t.markers.click(a.x, a.y);
        t.clip.click();
        if (t.measure.active) return t.measure.click(a.x, a.y);
        if (t.markers.click(a.x, a.y)) return;
        if (t.annotations.count > 0 && t.annotations.click(a.x, a.y, a.toggle)) return;
        return t.sel.click(t.pick(a.x, a.y)?.nodeId ?? null, a.toggle);
      }
      case 'context-menu':
        // Right click cancels the measure operator (viewer.md §4 "Measuring") instead of opening the menu.
        if (t.measure.active) return t.measure.cancel();
        if (t.markers.placingMarker) return t.markers.cancelPlacement();
        return t.emit({ type: 'context-menu', x: a.x, y: a.y });
      case 'drag-start':
        if (a.mode !== 'box') t.nav.begin('drag');
        return t.sel.setHover(null);
      case 'orbit':
        t.cams.orbitBy(a.dx, a.dy);
        return t.cameraMoved();
      case 'pan':
        t.cams.panBy(a.dx, a.dy);
        return t.cameraMoved();
      case 'pinch':
        t.cams.pinch(a.x, a.y, a.scale);
        return t.cameraMoved();
      case 'box':
        return t.emit({
          type: 'box-changed',
          box: { x0: a.x0, y0: a.y0, x1: a.x1, y1: a.y1, mode: boxSelectMode(a.x0, a.x1) },
        });
      case 'drag-end':
        t.nav.end('drag');
        if (a.mode === 'box') {
          t.emit({ type: 'box-changed', box: null });
          if (a.x0 !== undefined && a.y0 !== undefined && a.x1 !== undefined && a.y1 !== undefined)
            t.sel.selectBox({ x0: a.x0, y0: a.y0, x1: a.x1, y1: a.y1 }, a.toggle === true);
        }
        return t.cameraMoved();
      case 'hover': {
        if (time - this.lastHoverPick < HOVER_INTERVAL_MS) return this.deferHover(a, time);
        this.lastHoverPick = time;
        if (t.measure.active) {
          const s = t.measure.move(a.x, a.y);
          t.emit({ type: 'snap-changed', snap: s.type === 'snap' ? s : null });
        } else if (t.markers.placingMarker) t.markers.move(a.x, a.y);
        const hit = t.pick(a.x, a.y);
        t.emit({ type: 'cursor', point: hit ? hit.point : null });
        return t.sel.hoverPicked(hit ? hit.nodeId : null);
      }
      case 'hover-clear':
        t.emit({ type: 'cursor', point: null });
        return t.sel.setHover(null);
    }
  }

  /**
   * Re-arms the touch hold timer: 1000 ms after a still finger went down, the context menu opens while held.
   * A timer's delay is whole milliseconds (a fraction is dropped) and its clock is not the input clock, so it
   * may fire a little before the hold is due by `now()`: the timer then arms again until the hold is decided,
   * instead of leaving the press waiting for a timer that never comes.
   */
  private armTouchHold(): void {
    if (this.touchTimer) clearTimeout(this.touchTimer);
    this.touchTimer = null;
    const due = this.touch.holdDueAt;
    if (due === null) return;
    this.touchTimer = setTimeout(
      () => {
        this.touchTimer = null;
        if (!this.t.alive()) return;
        for (const a of this.touch.tick(this.t.now())) this.act(a, this.t.now());
        this.armTouchHold();
      },
      Math.max(1, Math.ceil(due - this.t.now())),
    );
  }
}
