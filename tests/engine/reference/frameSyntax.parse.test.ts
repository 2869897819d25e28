/** Reference system kernels (viewer.md §5 syntax and error texts, §9 frame scale). */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  FRAME_SYNTAX_ERROR,
  canCreateSection,
  coordinateNotCalculatedError,
  evaluateFrameExpression,
  parseFrameExpression,
  stepFrameExpression,
  validateFrameExpression,
} from '../../../engine/reference/frameSyntax';
import {
  coordinateOfNumber,
  frameAxis,
  frameCoordinates,
  nearestPlane,
  numberAtCoordinate,
} from '../../../engine/reference/frameSystem';
import { frameScaleTicks } from '../../../engine/reference/frameScale';
import type { FrameTables, RefPlane } from '../../../engine/model/types';
import { importOcxFile } from '../../../engine/node/ocx/importFile';

const plane = (n: number | null, c: number, prefix = 'FR'): RefPlane => ({
  id: `${prefix}${n}`,
  name: `${prefix}${n}`,
  coordinate: c,
  number: n,
});
// Frames 0..10 every 700 mm, then 10..20 every 800 mm (a spacing change at frame 10).
const FRAMES: FrameTables = {
  x: [
    ...Array.from({ length: 11 }, (_, i) => plane(i, i * 700)),
    ...Array.from({ length: 10 }, (_, i) => plane(11 + i, 7000 + (i + 1) * 800)),
  ],
  y: [
    plane(0, 0, 'L'),
    plane(1, 1000, 'L'),
    plane(3, 3000, 'L'),
    { id: 'CL', name: 'CL', coordinate: 5000, number: null },
  ],
  z: [plane(0, 0, 'V'), plane(2, 2000, 'V')],
};

describe('syntax (viewer.md §5)', () => {
  it.each(['', '#10', '12.6', '#10+0.1', '-#L3', '#v2', '#w2-1.5', ' #10 + .5 ', '3.', '#L1#V2'])('accepts %j', (s) => {
    expect(validateFrameExpression(s)).toBeNull();
  });
  it.each(['abc', '#', '#X3', '1..2', '--3', '#10+', '+', '12,5', '#L', '1e3', '12 6'])(
    'rejects %j with the exact text',
    (s) => {
      expect(validateFrameExpression(s)).toBe(
        'Invalid input!\nFrame number or absolute coordinate expected.\nExamples: #10 or 12.6 or #10+0.1',
      );
      expect(FRAME_SYNTAX_ERROR).toBe(
        'Invalid input!\nFrame number or absolute coordinate expected.\nExamples: #10 or 12.6 or #10+0.1',
      );
    },
  );
  it('upper-cases and splits into terms', () => {
    const r = parseFrameExpression('-#l3+0.25');
    expect(r.ok && r.text).toBe('-#L3+0.25');
    expect(r.ok && r.terms).toEqual([
      { sign: -1, prefix: '#L', value: 3 },
      { sign: 1, prefix: '', value: 0.25 },
    ]);
  });
  it('enables Create only for non-empty valid input', () => {
    expect(canCreateSection('')).toBe(false);
    expect(canCreateSection('  ')).toBe(false);
    expect(canCreateSection('#1x')).toBe(false);
    expect(canCreateSection('#10')).toBe(true);
  });
});

describe('evaluation against frame tables (mm)', () => {
  it('gives frame coordinates, metres for plain numbers, and sums terms', () => {
    const ev = (s: string) => {
      const r = evaluateFrameExpression(s, FRAMES);
      return r.ok ? r.coordinate : r.error;
    };
    expect(ev('#10')).toBe(7000);
    expect(ev('12.6')).toBe(12600);
    expect(ev('#10+0.1')).toBeCloseTo(7100, 9);
    expect(ev('#12')).toBe(8600);
    expect(ev('#10.5')).toBeCloseTo(7400, 9); // between 7000 (#10) and 7800 (#11)
    expect(ev('#-2')).toBe(
      'Invalid input!\nFrame number or absolute coordinate expected.\nExamples: #10 or 12.6 or #10+0.1',
    );
    expect(ev('-#2')).toBe(-1400);
    expect(ev('#25')).toBeCloseTo(15000 + 5 * 800, 9); // extrapolated with the last spacing
    expect(ev('-#L3')).toBe(-3000);
    expect(ev('#L2')).toBe(2000); // interpolated between L1 and L3
    expect(ev('#V1')).toBe(1000);
    expect(ev('#W2')).toBe(2000);
    expect(ev('')).toBe(coordinateNotCalculatedError(''));
  });
  it('cannot calculate a frame term without numbered planes', () => {
    const r = evaluateFrameExpression('#3', { x: [], y: [], z: [] });
    expect(r).toEqual({ ok: false, error: 'Coordinate could not be calculated from the given input: "#3"' });
  });
  it('looks frame numbers up from coordinates and back', () => {
    const fa = frameAxis(FRAMES, 'x');
    expect(numberAtCoordinate(fa, 7400)).toBeCloseTo(10.5, 9);
    expect(numberAtCoordinate(fa, -700)).toBeCloseTo(-1, 9);
    for (const n of [0, 3.3, 10, 14.25, 22])
      expect(numberAtCoordinate(fa, coordinateOfNumber(fa, n)!)).toBeCloseTo(n, 9);
    expect(nearestPlane(fa, 7390)!.name).toBe('FR10');
    expect(nearestPlane(frameAxis(FRAMES, 'y'), 4900)!.name).toBe('CL');
    expect(frameCoordinates(fa, 9.5, 12)).toEqual([
      { number: 10, coordinate: 7000 },
      { number: 11, coordinate: 7800 },
      { number: 12, coordinate: 8600 },
    ]);
    expect(() => frameCoordinates(fa, 0, 1e6)).toThrow(/Frame range too large/);
  });
  it('steps by one frame with a prefix, by 1 m without', () => {
    expect(stepFrameExpression('#10', 1)).toBe('#11');
    expect(stepFrameExpression('#10+0.1', -1)).toBe('#9+0.1');
    expect(stepFrameExpression('-#l3', 1)).toBe('-#L2');
    expect(stepFrameExpression('12.6', 1)).toBe('13.6');
    expect(stepFrameExpression('bad', 1)).toBe('bad');
  });
});

describe('frame scale (viewer.md §9)', () => {
  it('labels every 10, medium ticks every 5, pads the range by 1 % of the largest extent', () => {
    const fa = frameAxis(FRAMES, 'x');
    // Model 0..14000 mm long (largest extent) → padding 140 mm: frames from -0.2 to 18.175 → 0..18.
    const ticks = frameScaleTicks(fa, [0, -2000, 0, 14000, 2000, 3000]);
    expect(ticks.map((t) => t.number)).toEqual(Array.from({ length: 19 }, (_, i) => i));
    expect(ticks.filter((t) => t.kind === 'major').map((t) => t.label)).toEqual(['#0', '#10']);
    expect(ticks.filter((t) => t.kind === 'medium').map((t) => t.number)).toEqual([5, 15]);
    // Padding matters: a model ending at 13950 reaches frame 18 (13400) but frame 19 (14200) only with padding ≥ 250.
    expect(frameScaleTicks(fa, [0, 0, 0, 13950, 0, 0]).at(-1)!.number).toBe(18);
    expect(frameScaleTicks(fa, [0, 0, 0, 14100, 0, 0]).at(-1)!.number).toBe(19); // 14100 + 141 ≥ 14200
  });
});

describe('on a real sample (NAPA-OCX_M8)', () => {
  let frames: FrameTables;
  beforeAll(async () => {
    frames = (await importOcxFile(path.resolve(__dirname, '../../../../shared/models/ocx/NAPA-OCX_M8.3docx'))).frames;
  });
  it('evaluates the sample frame names (X0.6 is frame 0.6 at 600 mm)', () => {
    const x = frames.x.find((p) => p.name === 'X0.6')!;
    expect(x.coordinate).toBe(600);
    const r = evaluateFrameExpression('#0.6+0.1', frames);
    expect(r.ok && r.coordinate).toBeCloseTo(700, 6);
    const l = evaluateFrameExpression('-#L3', frames);
    expect(l.ok && l.coordinate).toBe(-frames.y.find((p) => p.number === 3)!.coordinate);
  });
});
