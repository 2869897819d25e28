import { describe, expect, it } from 'vitest';
import { PointerGesture, selectionAfterClick } from '../../../engine/interaction/PointerGesture';
import type { PointerInput } from '../../../engine/EngineApi';
import { pointerInput } from './pointerInput';

function ev(kind: PointerInput['kind'], x: number, y: number, over: Partial<PointerInput> = {}): PointerInput {
  return pointerInput(kind, x, y, over);
}

describe('click vs drag', () => {
  it('a press that moves at most 3 px is a click', () => {
    const g = new PointerGesture();
    g.handle(ev('down', 10, 10));
    expect(g.handle(ev('move', 12, 12))).toEqual([]);
    expect(g.handle(ev('up', 12, 12))).toEqual([{ type: 'click', x: 12, y: 12, toggle: false }]);
  });
  it('Ctrl (or Cmd) click toggles', () => {
    const g = new PointerGesture();
    g.handle(ev('down', 0, 0));
    expect(g.handle(ev('up', 0, 0, { ctrlKey: true }))).toEqual([{ type: 'click', x: 0, y: 0, toggle: true }]);
  });
  it('left drag beyond 3 px orbits, with deltas from the last position', () => {
    const g = new PointerGesture();
    g.handle(ev('down', 0, 0));
    expect(g.handle(ev('move', 4, 0))).toEqual([
      { type: 'drag-start', mode: 'orbit' },
      { type: 'orbit', dx: 4, dy: 0 },
    ]);
    expect(g.handle(ev('move', 6, 3))).toEqual([{ type: 'orbit', dx: 2, dy: 3 }]);
    expect(g.dragging).toBe(true);
    expect(g.handle(ev('up', 6, 3))).toEqual([{ type: 'drag-end', mode: 'orbit' }]);
    expect(g.dragging).toBe(false);
  });
  it('right and middle drags pan', () => {
    for (const over of [{ button: 2 }, { button: 1 }]) {
      const g = new PointerGesture();
      g.handle(ev('down', 0, 0, over));
      expect(g.handle(ev('move', 0, 10, over))[0]).toEqual({ type: 'drag-start', mode: 'pan' });
    }
  });
  it('shift+left drag draws a selection box from the press point and ends with its rectangle', () => {
    const g = new PointerGesture();
    g.handle(ev('down', 100, 50, { shiftKey: true }));
    expect(g.handle(ev('move', 102, 51, { shiftKey: true }))).toEqual([]);
    expect(g.handle(ev('move', 60, 80, { shiftKey: true }))).toEqual([
      { type: 'drag-start', mode: 'box' },
      { type: 'box', x0: 100, y0: 50, x1: 60, y1: 80 },
    ]);
    expect(g.handle(ev('up', 40, 90, { ctrlKey: true }))).toEqual([
      { type: 'drag-end', mode: 'box', x0: 100, y0: 50, x1: 40, y1: 90, toggle: true },
    ]);
  });
  it('in walk mode (box disabled) shift+left drag orbits instead', () => {
    const g = new PointerGesture();
    g.boxEnabled = false;
    g.handle(ev('down', 0, 0, { shiftKey: true }));
    expect(g.handle(ev('move', 10, 0, { shiftKey: true }))[0]).toEqual({ type: 'drag-start', mode: 'orbit' });
  });
  it('a right click that moved ≤ 3 px opens the context menu; one that moved more does not', () => {
    const g = new PointerGesture();
    g.handle(ev('down', 5, 5, { button: 2 }));
    expect(g.handle(ev('up', 7, 6, { button: 2 }))).toEqual([{ type: 'context-menu', x: 7, y: 6 }]);
    g.handle(ev('down', 5, 5, { button: 2 }));
    g.handle(ev('move', 20, 5, { button: 2 }));
    expect(g.handle(ev('up', 20, 5, { button: 2 }))).toEqual([{ type: 'drag-end', mode: 'pan' }]);
  });
  it('moves without a press hover; leave clears hover; cancel ends a drag', () => {
    const g = new PointerGesture();
    expect(g.handle(ev('move', 3, 4))).toEqual([{ type: 'hover', x: 3, y: 4 }]);
    expect(g.handle(ev('leave', 3, 4))).toEqual([{ type: 'hover-clear' }]);
    g.handle(ev('down', 0, 0));
    g.handle(ev('move', 10, 0));
    expect(g.handle(ev('cancel', 10, 0))).toEqual([{ type: 'drag-end', mode: 'orbit' }]);
  });
  it('ignores a second pointer while one is pressed', () => {
    const g = new PointerGesture();
    g.handle(ev('down', 0, 0));
    expect(g.handle(ev('down', 50, 50, { pointerId: 2 }))).toEqual([]);
    expect(g.handle(ev('move', 60, 50, { pointerId: 2 }))).toEqual([]);
    expect(g.handle(ev('up', 0, 0))[0].type).toBe('click');
  });
});

describe('selection after a click', () => {
  it('selects one, toggles with Ctrl, clears on a miss', () => {
    expect(selectionAfterClick([1, 2], 5, false)).toEqual([5]);
    expect(selectionAfterClick([1, 2], 5, true)).toEqual([1, 2, 5]);
    expect(selectionAfterClick([1, 2, 5], 2, true)).toEqual([1, 5]);
    expect(selectionAfterClick([1, 2], null, false)).toEqual([]);
    expect(selectionAfterClick([1, 2], null, true)).toEqual([1, 2]);
  });
});
