/**
 * Where the movable properties panel goes (viewer.md §2 "Properties panel", "Clipping controls"): inside the
 * viewer area and above the bottom toolbar whatever it is dragged to, and never over the clipping controls — above them it ends at their
 * top, and where that leaves too little room it moves to their right.
 */
import { describe, expect, it } from 'vitest';
import {
  BOTTOM_TOOLBAR_HEIGHT,
  DEFAULT_PANEL_POSITION,
  PANEL_MARGIN,
  PANEL_MIN_HEIGHT,
  placePanel,
  type Rect,
} from '../../ui/logic/propertyPanelPlacement';

const AREA = { width: 1366, height: 700 };
const W = 384;
/** The clipping controls at the bottom left (bottom-16 left-3), 300 × 260 px. */
const CLIP: Rect = { left: 12, top: 700 - 64 - 260, width: 300, height: 260 };
const overlaps = (a: Rect, b: Rect) =>
  a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;

describe('placePanel', () => {
  const BOTTOM = AREA.height - BOTTOM_TOOLBAR_HEIGHT - PANEL_MARGIN;

  it('keeps the wanted place when it fits, growing down to the bottom toolbar', () => {
    expect(placePanel(DEFAULT_PANEL_POSITION, W, AREA, null)).toEqual({
      ...DEFAULT_PANEL_POSITION,
      maxHeight: BOTTOM - DEFAULT_PANEL_POSITION.top,
    });
  });

  it('clamps a drag past any edge into the area', () => {
    expect(placePanel({ left: -200, top: -50 }, W, AREA, null)).toMatchObject({
      left: PANEL_MARGIN,
      top: PANEL_MARGIN,
    });
    const far = placePanel({ left: 5000, top: 5000 }, W, AREA, null);
    expect(far.left).toBe(AREA.width - W - PANEL_MARGIN);
    expect(far.top).toBe(BOTTOM - PANEL_MIN_HEIGHT);
    expect(far.maxHeight).toBe(PANEL_MIN_HEIGHT);
  });

  it('above the clipping controls it ends at their top', () => {
    const p = placePanel(DEFAULT_PANEL_POSITION, W, AREA, CLIP);
    expect(p.left).toBe(DEFAULT_PANEL_POSITION.left);
    expect(p.top + p.maxHeight).toBe(CLIP.top - PANEL_MARGIN);
    expect(overlaps({ left: p.left, top: p.top, width: W, height: p.maxHeight }, CLIP)).toBe(false);
  });

  it('dragged down onto them it moves to their right', () => {
    const p = placePanel({ left: 40, top: 450 }, W, AREA, CLIP);
    expect(p.left).toBe(CLIP.left + CLIP.width + PANEL_MARGIN);
    expect(overlaps({ left: p.left, top: p.top, width: W, height: p.maxHeight }, CLIP)).toBe(false);
  });

  it('beside them it is left alone', () => {
    const p = placePanel({ left: 600, top: 300 }, W, AREA, CLIP);
    expect(p).toEqual({ left: 600, top: 300, maxHeight: BOTTOM - 300 });
  });
});
