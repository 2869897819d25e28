import { describe, expect, it } from 'vitest';
import { TouchGesture } from '../../../engine/interaction/TouchGesture';
import type { PointerInput } from '../../../engine/EngineApi';
import { pointerInput } from './pointerInput';

function t(kind: PointerInput['kind'], x: number, y: number, pointerId = 1, time = 0): PointerInput {
  return pointerInput(kind, x, y, { pointerType: 'touch', pointerId, time });
}

describe('touch gestures', () => {
  it('a short still tap clicks', () => {
    const g = new TouchGesture();
    g.handle(t('down', 5, 5, 1, 0));
    expect(g.handle(t('up', 6, 6, 1, 200))).toEqual([{ type: 'click', x: 6, y: 6, toggle: false }]);
  });
  it('a still finger held 1000 ms opens the context menu while held, once; lifting then does nothing', () => {
    const g = new TouchGesture();
    g.handle(t('down', 5, 5, 1, 100));
    expect(g.holdDueAt).toBe(1100);
    expect(g.tick(1099)).toEqual([]);
    expect(g.tick(1100)).toEqual([{ type: 'context-menu', x: 5, y: 5 }]);
    expect(g.tick(1500)).toEqual([]);
    expect(g.handle(t('up', 5, 5, 1, 1600))).toEqual([]);
  });
  it('one finger moving beyond 3 px orbits and cancels the hold', () => {
    const g = new TouchGesture();
    g.handle(t('down', 0, 0));
    expect(g.handle(t('move', 3, 0))).toEqual([]);
    expect(g.handle(t('move', 5, 0))).toEqual([
      { type: 'drag-start', mode: 'orbit' },
      { type: 'orbit', dx: 5, dy: 0 },
    ]);
    expect(g.handle(t('move', 7, 2))).toEqual([{ type: 'orbit', dx: 2, dy: 2 }]);
    expect(g.holdDueAt).toBeNull();
    expect(g.tick(5000)).toEqual([]);
    expect(g.handle(t('up', 7, 2))).toEqual([{ type: 'drag-end', mode: 'orbit' }]);
  });
  it('two fingers pinch-zoom about their centre and pan with it', () => {
    const g = new TouchGesture();
    g.handle(t('down', 100, 100, 1));
    expect(g.handle(t('down', 200, 100, 2))).toEqual([{ type: 'drag-start', mode: 'pinch' }]);
    // Spread 100 → 150 → 200 px apart: the view width shrinks by the distance ratio each step.
    expect(g.handle(t('move', 50, 100, 1))).toEqual([
      { type: 'pinch', x: 125, y: 100, scale: 100 / 150 },
      { type: 'pan', dx: -25, dy: 0 },
    ]);
    expect(g.handle(t('move', 250, 100, 2))).toEqual([
      { type: 'pinch', x: 150, y: 100, scale: 150 / 200 },
      { type: 'pan', dx: 25, dy: 0 },
    ]);
    // Both fingers move down by 20 px: the centre pans by 20 in two steps; the distance ends where it began.
    expect(g.handle(t('move', 50, 120, 1))).toContainEqual({ type: 'pan', dx: 0, dy: 10 });
    const second = g.handle(t('move', 250, 120, 2));
    expect(second).toContainEqual({ type: 'pan', dx: 0, dy: 10 });
    const pinch = second.find((a) => a.type === 'pinch');
    expect(pinch && pinch.type === 'pinch' && pinch.scale * 200).toBeCloseTo(Math.hypot(200, 20));
    // Lifting one finger ends the pinch; the remaining finger does not orbit.
    expect(g.handle(t('up', 50, 120, 1))).toEqual([{ type: 'drag-end', mode: 'pinch' }]);
    expect(g.handle(t('move', 300, 300, 2))).toEqual([]);
    expect(g.handle(t('up', 300, 300, 2))).toEqual([]);
    g.handle(t('down', 0, 0, 3));
    expect(g.handle(t('up', 0, 0, 3, 10))[0].type).toBe('click');
  });
});
