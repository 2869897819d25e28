/**
 * Dragging a floating panel (the properties panel, the table panel; viewer.md §2): from a left-button
 * pointer-down, captures the pointer and reports the movement since the press until release or cancel.
 */
import type { PointerEvent as ReactPointerEvent } from 'react';

/** Starts a drag from `e`; `apply` gets the pointer's movement since the press (CSS px). Other buttons are ignored. */
export function startDrag(e: ReactPointerEvent, apply: (dx: number, dy: number) => void): void {
  if (e.button !== 0) return;
  e.preventDefault();
  const el = e.currentTarget as HTMLElement;
  const x0 = e.clientX;
  const y0 = e.clientY;
  el.setPointerCapture(e.pointerId);
  const move = (ev: PointerEvent) => apply(ev.clientX - x0, ev.clientY - y0);
  const up = () => {
    el.removeEventListener('pointermove', move);
    el.removeEventListener('pointerup', up);
    el.removeEventListener('pointercancel', up);
  };
  el.addEventListener('pointermove', move);
  el.addEventListener('pointerup', up);
  el.addEventListener('pointercancel', up);
}
