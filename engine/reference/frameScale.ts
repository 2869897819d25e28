/**
 * Frame scale ticks along the model (viewer.md §9 "Frame scale: labels every 10, medium ticks every 5,
 * range padding 1% of largest extent"). Pure: frame system + model bounds in, ticks out (mm).
 */
import type { Box3Tuple } from '../model/types';
import { type FrameAxis, coordinateOfNumber, numberAtCoordinate } from './frameSystem';

/** Kind of a tick: 'major' carries a label (every 10 frames), 'medium' every 5, else 'minor'. */
export type FrameTickKind = 'major' | 'medium' | 'minor';

/** One tick: frame number, coordinate along the system's axis (mm), kind, and a label on majors ('#10'). */
export interface FrameTick {
  number: number;
  coordinate: number;
  kind: FrameTickKind;
  label: string | null;
}

/** viewer.md §9 frame scale constants. */
export const FRAME_SCALE = { labelEvery: 10, mediumEvery: 5, paddingFraction: 0.01 } as const;

/**
 * Ticks for every whole frame number whose coordinate lies in the model's extent along the system's
 * axis padded by 1 % of the largest extent of `bounds` (mm) on both sides. At most `maxTicks`
 * (default 5000) ticks; beyond that only medium and major ticks are kept.
 * @returns [] when the system has fewer than two numbered planes or the bounds are empty.
 */
export function frameScaleTicks(fa: FrameAxis, bounds: Box3Tuple, maxTicks = 5000): FrameTick[] {
  const k = fa.axis === 'x' ? 0 : fa.axis === 'y' ? 1 : 2;
  const ext = Math.max(bounds[3] - bounds[0], bounds[4] - bounds[1], bounds[5] - bounds[2]);
  if (!(ext >= 0) || !Number.isFinite(ext)) return [];
  const pad = ext * FRAME_SCALE.paddingFraction;
  const lo = bounds[k] - pad,
    hi = bounds[k + 3] + pad;
  const n0 = numberAtCoordinate(fa, lo),
    n1 = numberAtCoordinate(fa, hi);
  if (n0 === null || n1 === null) return [];
  const a = Math.ceil(Math.min(n0, n1)) || 0,
    b = Math.floor(Math.max(n0, n1));
  const thin = b - a + 1 > maxTicks;
  const ticks: FrameTick[] = [];
  for (let n = a; n <= b; n++) {
    const major = n % FRAME_SCALE.labelEvery === 0;
    const medium = !major && n % FRAME_SCALE.mediumEvery === 0;
    if (thin && !major && !medium) continue;
    const c = coordinateOfNumber(fa, n);
    if (c === null || c < lo - 1e-6 || c > hi + 1e-6) continue;
    ticks.push({
      number: n,
      coordinate: c,
      kind: major ? 'major' : medium ? 'medium' : 'minor',
      label: major ? `#${n}` : null,
    });
  }
  return ticks;
}
