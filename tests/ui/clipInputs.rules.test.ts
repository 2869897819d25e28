/**
 * Clipping inputs (viewer.md §5 "Clipping coordinate input", §9 "Clipping"): display /1000 with 3
 * decimals, entries ×1000 and in the frame syntax, the two exact error texts, stepping by one frame.
 */
import { describe, expect, it } from 'vitest';
import type { ClipBox } from '../../engine/EngineApi';
import type { FrameTables } from '../../engine/model/types';
import {
  CLIP_KEYS,
  CLIP_LABELS,
  clipPlaneAllowed,
  evaluateClipEntry,
  formatClipValue,
  oppositePlane,
  stepClipText,
} from '../../ui/logic/clipInputs';

// Frames every 700 mm from frame 0 at x = -1400 mm (frame n at -1400 + 700 n).
const frames: FrameTables = {
  x: Array.from({ length: 41 }, (_, n) => ({ id: `F${n}`, name: `FR${n}`, coordinate: -1400 + 700 * n, number: n })),
  y: [
    { id: 'L0', name: 'LO0', coordinate: 0, number: 0 },
    { id: 'L1', name: 'LO1', coordinate: 800, number: 1 },
  ],
  z: [],
};
const box: ClipBox = { xMin: -2000, xMax: 30000, yMin: -5000, yMax: 5000, zMin: -100, zMax: 12000 };

describe('clipping inputs', () => {
  it('lists the six inputs Xmin…Zmax and pairs each with its opposite', () => {
    expect(CLIP_KEYS.map((k) => CLIP_LABELS[k])).toEqual(['Xmin', 'Xmax', 'Ymin', 'Ymax', 'Zmin', 'Zmax']);
    expect(CLIP_KEYS.map(oppositePlane)).toEqual(['xMax', 'xMin', 'yMax', 'yMin', 'zMax', 'zMin']);
  });

  it('displays the stored mm / 1000 rounded to 3 decimals', () => {
    expect(formatClipValue(12345.6)).toBe('12.346');
    expect(formatClipValue(-100)).toBe('-0.100');
    expect(formatClipValue(-0.0001)).toBe('0.000');
    expect(formatClipValue(200000)).toBe('200.000');
  });

  it('multiplies metre entries by 1000 and evaluates frame prefixes', () => {
    expect(evaluateClipEntry('xMax', '12.6', box, frames)).toEqual({ ok: true, mm: 12600 });
    expect(evaluateClipEntry('xMin', '#1', box, frames)).toEqual({ ok: true, mm: -700 });
    expect(evaluateClipEntry('xMax', '#10+0.1', box, frames)).toEqual({ ok: true, mm: 5600 + 100 });
    expect(evaluateClipEntry('yMax', '#l1', box, frames)).toEqual({ ok: true, mm: 800 });
  });

  it('shows the exact texts of viewer.md §5', () => {
    expect(evaluateClipEntry('xMin', 'ABC', box, frames)).toEqual({
      ok: false,
      error: 'Invalid input!\nFrame number or absolute coordinate expected.\nExamples: #10 or 12.6 or #10+0.1',
    });
    expect(evaluateClipEntry('zMin', '#v3', box, frames)).toEqual({
      ok: false,
      error: 'Coordinate could not be calculated from the given input: "#V3"',
    });
    expect(evaluateClipEntry('xMin', '', box, frames)).toEqual({
      ok: false,
      error: 'Coordinate could not be calculated from the given input: ""',
    });
    expect(evaluateClipEntry('xMin', '31', box, frames)).toEqual({
      ok: false,
      error: 'Coordinate cannot be set!\nCheck that the min value is not greater than max.',
    });
    expect(evaluateClipEntry('zMax', '-0.1', box, frames)).toEqual({
      ok: false,
      error: 'Coordinate cannot be set!\nCheck that the min value is not greater than max.',
    });
  });

  it('accepts a move only while a min stays below its max', () => {
    expect(clipPlaneAllowed('xMin', 29999, box)).toBe(true);
    expect(clipPlaneAllowed('xMin', 30000, box)).toBe(false);
    expect(clipPlaneAllowed('xMax', -2000, box)).toBe(false);
    expect(clipPlaneAllowed('xMax', Number.NaN, box)).toBe(false);
  });

  it('plus/minus step the last frame entry by one frame, else the metres by 1', () => {
    expect(stepClipText('#10', '5.600', 1)).toBe('#11');
    expect(stepClipText('#10+0.1', '5.700', -1)).toBe('#9+0.1');
    expect(stepClipText(null, '12.345', 1)).toBe('13.345');
    expect(stepClipText(null, '-0.100', -1)).toBe('-1.1');
    const next = stepClipText('#10', '5.600', 1);
    expect(evaluateClipEntry('xMax', next, box, frames)).toEqual({ ok: true, mm: 6300 });
  });
});
