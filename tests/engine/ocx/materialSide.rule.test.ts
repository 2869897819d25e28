/**
 * MSIDE (viewer.md §3 material side directions IN, OUT, MID, AFT, FORE, SB, PS, BOT, TOP, UNDEFINED):
 * the rule of engine/ocx/materialSide.ts, and every imported plate of the samples gets one of the codes.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { materialSide } from '../../../engine/ocx/materialSide';
import { importOcxFile } from '../../../engine/node/ocx/importFile';

const CODES = ['IN', 'OUT', 'MID', 'AFT', 'FORE', 'SB', 'PS', 'BOT', 'TOP', 'UNDEFINED'];
const DIR = path.resolve(__dirname, '../../../../shared/models/ocx');

describe('materialSide', () => {
  it('maps the side the thickness goes to onto the dominant ship axis', () => {
    expect(materialSide([0, 0, 1], 0, 10, [0, 0, 0])).toBe('TOP');
    expect(materialSide([0, 0, 1], -10, 10, [0, 0, 0])).toBe('BOT');
    expect(materialSide([1, 0.2, 0], 0, 12, [0, 0, 0])).toBe('FORE');
    expect(materialSide([1, 0.2, 0], -12, 12, [0, 0, 0])).toBe('AFT');
    expect(materialSide([0, -2, 0.5], 0, 8, [0, 0, 0])).toBe('SB');
    expect(materialSide([0, -2, 0.5], -8, 8, [0, 0, 0])).toBe('PS');
  });
  it('MID when the steel lies on both sides; UNDEFINED without thickness or normal', () => {
    expect(materialSide([0, 0, 1], -5, 10, [0, 0, 0])).toBe('MID');
    expect(materialSide([0, 0, 1], 0, 0, [0, 0, 0])).toBe('UNDEFINED');
    expect(materialSide([0, 0, 0], 0, 10, [0, 0, 0])).toBe('UNDEFINED');
  });
  it('hull shell plates: IN toward the centre plane or upward, OUT away', () => {
    expect(materialSide([0, 1, 0], 0, 10, [0, -5000, 0], 'SHELL')).toBe('IN'); // starboard shell, steel toward the centre plane
    expect(materialSide([0, 1, 0], 0, 10, [0, 5000, 0], 'Side shell')).toBe('OUT');
    expect(materialSide([0, 0, 1], 0, 10, [0, 3000, 0], 'BOTTOM SHELL')).toBe('IN');
    expect(materialSide([0, 0, 1], -10, 10, [0, 3000, 0], 'HULL')).toBe('OUT');
    expect(materialSide([0, 0, 1], 0, 10, [0, 3000, 0], 'DECK')).toBe('TOP');
  });
  it.each(['NAPA-OCX_M8.3docx', 'NAPA-TR03_TC10.3docx', 'NAPA-OCX_M4.3docx'])(
    '%s: every plate and bracket has a spec code',
    async (f) => {
      const r = await importOcxFile(path.join(DIR, f));
      const sides = r.properties.filter((p) => p.OTYPE === 'PLATE' || p.OTYPE === 'BRACKET').map((p) => p.MSIDE);
      expect(sides.length).toBeGreaterThan(0);
      for (const s of sides) expect(CODES).toContain(s);
      expect(sides.some((s) => s !== 'UNDEFINED')).toBe(true);
    },
  );
});
