/**
 * The coordinate syntax of viewer.md §5 "Validation rules" (Section coordinate, Clipping coordinate input):
 * empty, or a repeated pattern of optional sign, optional prefix (#, #L, #V or #W) and a number; the
 * input is upper-cased. Examples: `#10`, `12.6`, `#10+0.1`, `-#L3`.
 *
 * Every term after the first starts with a sign or a prefix (so '1..2' is not read as 1 + 0.2).
 * Meaning (the terms are summed):
 * - `#n`  frame n of the frame system (X), see frameSystem.ts (fractional n interpolates);
 * - `#Ln` longitudinal n (Y); `#Vn` and `#Wn` vertical n (Z);
 * - a plain number is a length in metres (the API's unit, viewer.md §3 "Model units"): `12.6` = 12 600 mm.
 * The evaluated coordinate is returned in millimetres (the engine's unit); the API divides by 1000.
 */
import type { FrameTables } from '../model/types';
import { type FrameAxisKey, coordinateOfNumber, frameAxis } from './frameSystem';

/** Error text of viewer.md §5 for input that does not match the syntax (exact). */
export const FRAME_SYNTAX_ERROR =
  'Invalid input!\nFrame number or absolute coordinate expected.\nExamples: #10 or 12.6 or #10+0.1';

/** viewer.md §5: the clipping input parsed but no coordinate could be computed (exact, `{input}` filled in). */
export const coordinateNotCalculatedError = (input: string): string =>
  `Coordinate could not be calculated from the given input: "${input}"`;

/** viewer.md §5: a clipping limit that would pass its opposite (exact). */
export const COORDINATE_NOT_SET_ERROR = 'Coordinate cannot be set!\nCheck that the min value is not greater than max.';

/** Prefix of a term: '' plain metres, '#' frame (X), '#L' longitudinal (Y), '#V' / '#W' vertical (Z). */
export type FramePrefix = '' | '#' | '#L' | '#V' | '#W';

/** One term of a coordinate expression. */
export interface FrameTerm {
  /** +1 or -1. */
  sign: 1 | -1;
  prefix: FramePrefix;
  /** The number as written (frame number, or metres for a plain term). */
  value: number;
}

/** Result of parsing: the upper-cased text and its terms ([] for empty input), or the spec's error. */
export type FrameParseResult =
  | { ok: true; text: string; terms: FrameTerm[] }
  | { ok: false; text: string; error: string };

const TERM = /\s*([+-]?)\s*(#L|#V|#W|#)?\s*(\d+(?:\.\d*)?|\.\d+)\s*/y;

/**
 * Parses `input` (upper-cased first, surrounding blanks ignored). Empty input is valid with no terms.
 * Never throws; an invalid input gives `{ ok: false, error: FRAME_SYNTAX_ERROR }`.
 */
export function parseFrameExpression(input: string): FrameParseResult {
  const text = input.toUpperCase();
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, text, terms: [] };
  const terms: FrameTerm[] = [];
  TERM.lastIndex = 0;
  let at = 0;
  while (at < trimmed.length) {
    TERM.lastIndex = at;
    const m = TERM.exec(trimmed);
    if (!m || m.index !== at || m[0].length === 0) return { ok: false, text, error: FRAME_SYNTAX_ERROR };
    // A bare number cannot follow another term ('1..2', '12 6'): it would be read as two numbers.
    if (terms.length > 0 && !m[1] && !m[2]) return { ok: false, text, error: FRAME_SYNTAX_ERROR };
    terms.push({ sign: m[1] === '-' ? -1 : 1, prefix: (m[2] ?? '') as FramePrefix, value: Number(m[3]) });
    at += m[0].length;
  }
  return { ok: true, text, terms };
}

/**
 * The spec's validation for the section dialog and the clipping inputs: null when valid (including
 * empty), else the exact error text of viewer.md §5.
 */
export function validateFrameExpression(input: string): string | null {
  const r = parseFrameExpression(input);
  return r.ok ? null : r.error;
}

/** viewer.md §2/§5: the dialog's Create is enabled only when the input is non-empty and error-free. */
export function canCreateSection(input: string): boolean {
  return input.trim() !== '' && validateFrameExpression(input) === null;
}

/** Reference system a prefix refers to (null for a plain metre term). */
export function prefixAxis(prefix: FramePrefix): FrameAxisKey | null {
  if (prefix === '#') return 'x';
  if (prefix === '#L') return 'y';
  if (prefix === '#V' || prefix === '#W') return 'z';
  return null;
}

/** True when an expression contains a frame/longitudinal/vertical term (plus/minus then step one number). */
export function hasFramePrefix(terms: readonly FrameTerm[]): boolean {
  return terms.some((t) => t.prefix !== '');
}

/** Result of evaluating an expression: millimetres, or an error text. */
export type FrameEvalResult = { ok: true; coordinate: number; terms: FrameTerm[] } | { ok: false; error: string };

/**
 * Parses and evaluates `input` against the model's reference planes (mm). Empty input evaluates to
 * nothing (error: coordinateNotCalculatedError). A frame term whose system has fewer than two
 * numbered planes (and no plane with exactly that number) cannot be calculated.
 * @returns `{ ok: true, coordinate }` in mm, or `{ ok: false, error }` with FRAME_SYNTAX_ERROR or
 *   coordinateNotCalculatedError(input).
 */
export function evaluateFrameExpression(input: string, frames: FrameTables): FrameEvalResult {
  const p = parseFrameExpression(input);
  if (!p.ok) return { ok: false, error: p.error };
  if (p.terms.length === 0) return { ok: false, error: coordinateNotCalculatedError(input) };
  let sum = 0;
  for (const t of p.terms) {
    const axis = prefixAxis(t.prefix);
    let mm: number | null;
    if (axis === null) mm = t.value * 1000;
    else mm = coordinateOfNumber(frameAxis(frames, axis), t.value);
    if (mm === null || !Number.isFinite(mm)) return { ok: false, error: coordinateNotCalculatedError(input) };
    sum += t.sign * mm;
  }
  return { ok: true, coordinate: sum, terms: p.terms };
}

/**
 * The plus/minus buttons of the clipping inputs (viewer.md §5): with a frame prefix the last prefixed
 * term's number changes by `step` (one frame); otherwise the value (metres) changes by `step`. Returns
 * the new text, upper-cased; an invalid or empty input is returned unchanged.
 */
export function stepFrameExpression(input: string, step: 1 | -1): string {
  const p = parseFrameExpression(input);
  if (!p.ok || p.terms.length === 0) return input;
  const terms = p.terms.map((t) => ({ ...t }));
  let idx = -1;
  for (let i = terms.length - 1; i >= 0; i--)
    if (terms[i].prefix !== '') {
      idx = i;
      break;
    }
  if (idx < 0) {
    const total = terms.reduce((s, t) => s + t.sign * t.value, 0) + step;
    return formatNumber(total);
  }
  const t = terms[idx];
  const signed = t.sign * t.value + step;
  t.sign = signed < 0 ? -1 : 1;
  t.value = Math.abs(signed);
  return terms.map((x, i) => `${x.sign < 0 ? '-' : i > 0 ? '+' : ''}${x.prefix}${formatNumber(x.value)}`).join('');
}

/** A number without float noise (up to 6 decimals, trailing zeros removed). */
function formatNumber(n: number): string {
  return String(Number(n.toFixed(6)));
}
