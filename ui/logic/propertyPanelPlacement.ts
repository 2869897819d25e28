/**
 * Where the movable properties panel sits (viewer.md §2 "Properties panel", "Clipping controls"): the
 * position the user dragged it to, clamped to the viewer area and kept off the clipping controls. All in
 * CSS px relative to the viewer area.
 */

/** A rectangle in CSS px relative to the viewer area. */
export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Where the panel goes and how tall it may grow. */
export interface PanelPlacement {
  left: number;
  top: number;
  maxHeight: number;
}

/** The panel's place before it is moved: top left, below the selection mode selector. */
export const DEFAULT_PANEL_POSITION = { left: 12, top: 64 };
/** Gap kept to the area's edges and to the clipping controls. */
export const PANEL_MARGIN = 8;
/** The panel is never squeezed below this height to fit above the clipping controls. */
export const PANEL_MIN_HEIGHT = 120;
/** The bottom strip kept free for the bottom-left toolbar and the mouse coordinates (bottom-16). */
export const BOTTOM_TOOLBAR_HEIGHT = 64;

const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(v, Math.max(lo, hi)));

/**
 * Places a panel of `width` px wanted at `want` inside `area` (width × height) so that it stays inside,
 * above the bottom toolbar strip, and does not cover `avoid` (the clipping controls, or null when they are
 * hidden): above them it may grow only down to their top; when that leaves less than PANEL_MIN_HEIGHT it
 * moves to their right.
 */
export function placePanel(
  want: { left: number; top: number },
  width: number,
  area: { width: number; height: number },
  avoid: Rect | null,
): PanelPlacement {
  const m = PANEL_MARGIN;
  let left = clamp(want.left, m, area.width - width - m);
  let bottom = area.height - BOTTOM_TOOLBAR_HEIGHT - m;
  const top = clamp(want.top, m, bottom - PANEL_MIN_HEIGHT);
  if (avoid) {
    const overlapsX = left < avoid.left + avoid.width + m && left + width + m > avoid.left;
    const aboveBottom = top < avoid.top + avoid.height + m;
    if (overlapsX && aboveBottom) {
      if (avoid.top - m - top >= PANEL_MIN_HEIGHT) bottom = Math.min(bottom, avoid.top - m);
      else left = clamp(avoid.left + avoid.width + m, m, area.width - width - m);
    }
  }
  return { left, top, maxHeight: Math.max(0, bottom - top) };
}
