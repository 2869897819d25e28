/**
 * Clipping controls logic (viewer.md §2 "Clipping controls", §5 "Clipping coordinate input", §9
 * "Clipping"): the six inputs Xmin…Zmax show the stored box value (mm) / 1000 with 3 decimals (metres);
 * an entry in the frame syntax (engine/reference/frameSyntax.ts) is evaluated to mm (plain numbers × 1000,
 * '#n' frames, '#Ln' longitudinals, '#Vn' / '#Wn' verticals); a min must stay below its max and a max above
 * its min. Plus / minus step the entry by 1 (one frame when the entry has a frame prefix). Pure.
 */
import type { ClipBox, ClipPlaneKey } from '../../engine/EngineApi';
import type { FrameTables } from '../../engine/model/types';
import {
  COORDINATE_NOT_SET_ERROR,
  evaluateFrameExpression,
  stepFrameExpression,
  validateFrameExpression,
} from '../../engine/reference/frameSyntax';

/** The six planes in the order of the controls. */
export const CLIP_KEYS: readonly ClipPlaneKey[] = ['xMin', 'xMax', 'yMin', 'yMax', 'zMin', 'zMax'];

/** Labels of the six inputs (viewer.md §2). */
export const CLIP_LABELS: Readonly<Record<ClipPlaneKey, string>> = {
  xMin: 'Xmin',
  xMax: 'Xmax',
  yMin: 'Ymin',
  yMax: 'Ymax',
  zMin: 'Zmin',
  zMax: 'Zmax',
};

/** Displayed value of a stored coordinate: mm / 1000 rounded to 3 decimals ('12.345'). */
export function formatClipValue(mm: number): string {
  const s = (mm / 1000).toFixed(3);
  return s === '-0.000' ? '0.000' : s;
}

/** The opposite plane of `key` (xMin ↔ xMax ...). */
export function oppositePlane(key: ClipPlaneKey): ClipPlaneKey {
  return (key.endsWith('Min') ? key.replace('Min', 'Max') : key.replace('Max', 'Min')) as ClipPlaneKey;
}

/** True when moving plane `key` to `mm` keeps a min strictly below its max (viewer.md §5). */
export function clipPlaneAllowed(key: ClipPlaneKey, mm: number, box: ClipBox): boolean {
  if (!Number.isFinite(mm)) return false;
  const other = box[oppositePlane(key)];
  return key.endsWith('Min') ? mm < other : mm > other;
}

/** Result of an entry: the plane value in mm, or the spec's error text to show under the input. */
export type ClipEntryResult = { ok: true; mm: number } | { ok: false; error: string };

/**
 * Evaluates an entry for plane `key` against the model's frames (mm) and the current box (mm).
 * Errors (exact texts of viewer.md §5): the syntax error of the section coordinate for input that does not
 * match the pattern; 'Coordinate could not be calculated from the given input: "{input}"' for empty input or
 * a frame that the reference system cannot give (input upper-cased as shown); 'Coordinate cannot be set!
 * \nCheck that the min value is not greater than max.' when the plane would reach or pass its opposite.
 */
export function evaluateClipEntry(
  key: ClipPlaneKey,
  input: string,
  box: ClipBox,
  frames: FrameTables,
): ClipEntryResult {
  const text = input.toUpperCase().trim();
  const syntax = validateFrameExpression(text);
  if (syntax) return { ok: false, error: syntax };
  const r = evaluateFrameExpression(text, frames);
  if (!r.ok) return { ok: false, error: r.error };
  if (!clipPlaneAllowed(key, r.coordinate, box)) return { ok: false, error: COORDINATE_NOT_SET_ERROR };
  return { ok: true, mm: r.coordinate };
}

/**
 * The text plus / minus evaluate: the last accepted entry when it still gives the plane's value (so '#10'
 * steps to '#11', one frame), else the displayed metres ('12.345' steps to '13.345').
 */
export function stepClipText(lastEntry: string | null, displayed: string, step: 1 | -1): string {
  return stepFrameExpression(lastEntry ?? displayed, step);
}

/** Frame tables with no planes (plain metre entries still evaluate). */
export const NO_FRAMES: FrameTables = { x: [], y: [], z: [] };
