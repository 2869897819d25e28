/**
 * Warming the box-selection kernel while the engine is idle (viewer.md §4 "Selection"; ./boxSelect.ts).
 * A user's first box after loading used to run the kernel in V8's unoptimised tiers: 13–25 ms for a box
 * over the middle third of the 10k bench ship in Node against 2–4 ms for the same box a moment later, with
 * the same work. Once the hierarchy of object bounds is built, the idle builder (scene/ModelLoader.ts) runs
 * BOX_WARM_UP_BOXES small boxes of both modes through the kernel in the current view, one per idle slice,
 * and discards their results, so the first real box runs optimised code. Nothing is selected or emitted.
 */
import type { BoxSelectMode, ScreenRect } from './boxSelect';

/** Boxes run before the first real one; four already sufficed on the 10k bench ship (two margins). */
export const BOX_WARM_UP_BOXES = 8;

/**
 * Corners of the warm-up boxes as fractions of the canvas (x0, y0, x1, y1): about a sixth of the canvas
 * each, around its centre where the fitted model lies, so that each box meets objects inside, outside and on
 * its edge (every branch of the kernel) while one box stays a small share of an idle slice on a large ship.
 */
const BOXES: readonly (readonly [number, number, number, number])[] = [
  [0.4, 0.4, 0.55, 0.6],
  [0.62, 0.35, 0.47, 0.5],
  [0.3, 0.55, 0.45, 0.7],
  [0.6, 0.5, 0.45, 0.65],
];

/**
 * The `k`-th warm-up box (0 ≤ k < BOX_WARM_UP_BOXES) on a `width` × `height` CSS-px canvas: its
 * rectangle and mode (alternating inside and touch, as the drag direction would).
 */
export function warmUpBox(k: number, width: number, height: number): { rect: ScreenRect; mode: BoxSelectMode } {
  const [fx0, fy0, fx1, fy1] = BOXES[k % BOXES.length];
  return {
    rect: { x0: fx0 * width, y0: fy0 * height, x1: fx1 * width, y1: fy1 * height },
    mode: k % 2 === 0 ? 'inside' : 'touch',
  };
}
