/**
 * Mouse coordinates panel and frame scale (viewer.md §2 "mouse coordinates", §7 Reference system, §9
 * "Frame scale"): the point under the cursor (mm) shown as x, y, z in metres with 3 decimals, and the
 * frame (X), longitudinal (Y) and vertical (Z) numbers there, computed locally from the model's reference
 * planes (engine/reference/frameSystem.ts, the same kernel the server's /frame-number uses). The frame
 * scale projects the ticks of engine/reference/frameScale.ts to the screen with the orthographic orbit
 * camera (engine/interaction/cameraMath.ts orbitBasis). Pure.
 */
import type { OrbitView } from '../../engine/EngineApi';
import { orbitBasis } from '../../engine/interaction/cameraMath';
import type { Box3Tuple, FrameTables } from '../../engine/model/types';
import type { FrameTick } from '../../engine/reference/frameScale';
import { frameAxis, numberAtCoordinate } from '../../engine/reference/frameSystem';

/** Metres with 3 decimals from mm ('12.345'). */
export function formatMetres(mm: number): string {
  const s = (mm / 1000).toFixed(3);
  return s === '-0.000' ? '0.000' : s;
}

/** A frame number with 2 decimals, or '–' when the system cannot give one. */
export function formatFrameNumber(n: number | null): string {
  if (n === null || !Number.isFinite(n)) return '–';
  const s = n.toFixed(2);
  return s === '-0.00' ? '0.00' : s;
}

/** What the mouse coordinates panel shows. */
export interface CursorReadout {
  x: string;
  y: string;
  z: string;
  frame: string;
  longitudinal: string;
  vertical: string;
}

/** The readout for a point (mm) and the model's frames (mm); null when the cursor is off the model. */
export function cursorReadout(
  point: readonly [number, number, number] | null,
  frames: FrameTables | null,
): CursorReadout | null {
  if (!point) return null;
  const num = (axis: 'x' | 'y' | 'z', c: number) => (frames ? numberAtCoordinate(frameAxis(frames, axis), c) : null);
  return {
    x: formatMetres(point[0]),
    y: formatMetres(point[1]),
    z: formatMetres(point[2]),
    frame: formatFrameNumber(num('x', point[0])),
    longitudinal: formatFrameNumber(num('y', point[1])),
    vertical: formatFrameNumber(num('z', point[2])),
  };
}

/**
 * Screen position (CSS px from the canvas' top-left) of a world point (mm) in the orthographic orbit view
 * on a canvas of `width` × `height` px. The view's width/height are the visible extents in mm.
 */
export function projectOrtho(
  view: OrbitView,
  width: number,
  height: number,
  p: readonly [number, number, number],
): [number, number] {
  const b = orbitBasis(view.longitude, view.latitude);
  const d = [p[0] - view.target.x, p[1] - view.target.y, p[2] - view.target.z];
  const r = d[0] * b.right[0] + d[1] * b.right[1] + d[2] * b.right[2];
  const u = d[0] * b.up[0] + d[1] * b.up[1] + d[2] * b.up[2];
  return [width / 2 + (r * width) / view.width, height / 2 - (u * height) / view.height];
}

/** A tick of the frame scale on screen. */
export interface ScreenTick {
  x: number;
  kind: FrameTick['kind'];
  label: string | null;
}

/**
 * Frame scale ticks on screen along the bottom of the view: each tick at the screen x of the point
 * (tick coordinate, model centre y, model bottom z). Ticks outside the canvas are dropped; minor ticks are
 * dropped when closer than 3 px, medium ones closer than 3 px too, labels closer than 40 px. Returns []
 * when the X axis is nearly along the view direction (the scale would collapse).
 */
export function screenFrameTicks(
  ticks: readonly FrameTick[],
  view: OrbitView,
  width: number,
  height: number,
  bounds: Box3Tuple,
): ScreenTick[] {
  if (!(width > 0 && height > 0 && view.width > 0 && view.height > 0)) return [];
  const b = orbitBasis(view.longitude, view.latitude);
  if (Math.abs(b.right[0]) < 0.2) return [];
  const yc = (bounds[1] + bounds[4]) / 2,
    zb = bounds[2];
  const out: ScreenTick[] = [];
  let lastMinor = -Infinity,
    lastLabel = -Infinity;
  const sorted = ticks
    .map((t) => ({ t, x: projectOrtho(view, width, height, [t.coordinate, yc, zb])[0] }))
    .filter((s) => s.x >= 0 && s.x <= width)
    .sort((a, c) => a.x - c.x);
  for (const { t, x } of sorted) {
    if (t.kind === 'minor' && x - lastMinor < 3) continue;
    let label = t.label;
    if (label !== null) {
      if (x - lastLabel < 40) label = null;
      else lastLabel = x;
    }
    lastMinor = x;
    out.push({ x, kind: t.kind, label });
  }
  return out;
}
