/**
 * The canvas bands the viewer's toolbars cover (viewer.md §2 "Viewer screen layout": the selection mode,
 * section and measure tools top left, the panel toggles top right, the tools bottom left are drawn over
 * the 3D view), so that Fit to window puts the model where it is seen rather than under a toolbar. The
 * view area carries `data-view-area`, each toolbar `data-view-overlay`. CSS px.
 */
import type { ViewInsets } from '../../engine/EngineApi';

/** A rectangle in page CSS px (DOMRect has these). */
export interface PageRect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Space kept between a toolbar and the fitted model's margin, CSS px. */
const GAP_PX = 8;

/**
 * Top and bottom bands of `area` covered by `overlays` (pure): an overlay in the upper half covers the band
 * from the area's top to its bottom edge (+8 px), one in the lower half the band from its top edge to the
 * area's bottom. Overlays outside the area, empty ones (hidden) and ones taller than 40 % of the area (a
 * panel, not a toolbar) are ignored; toolbars sit in corners, so the left and right bands stay 0.
 */
export function viewInsetsOf(area: PageRect, overlays: readonly PageRect[]): ViewInsets {
  const h = area.bottom - area.top;
  const out: ViewInsets = { top: 0, right: 0, bottom: 0, left: 0 };
  if (!(h > 0)) return out;
  for (const o of overlays) {
    const oh = o.bottom - o.top;
    if (!(oh > 0 && o.right > o.left) || oh > 0.4 * h) continue;
    if (o.bottom <= area.top || o.top >= area.bottom || o.right <= area.left || o.left >= area.right) continue;
    if ((o.top + o.bottom) / 2 < area.top + h / 2) out.top = Math.max(out.top, o.bottom - area.top + GAP_PX);
    else out.bottom = Math.max(out.bottom, area.bottom - o.top + GAP_PX);
  }
  return out;
}

/** The bands of the open viewer's area covered by its toolbars now (zero when no viewer is shown). */
export function measureViewInsets(): ViewInsets {
  const area = typeof document === 'undefined' ? null : document.querySelector('[data-view-area]');
  if (!area) return { top: 0, right: 0, bottom: 0, left: 0 };
  const overlays = [...area.querySelectorAll('[data-view-overlay]')].map((e) => e.getBoundingClientRect());
  return viewInsetsOf(area.getBoundingClientRect(), overlays);
}
