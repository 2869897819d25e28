/**
 * `npm run ocx:compare` (scripts/ocxCompare.ts): the same test case from two design systems gives the
 * same ship — counts by type, totals, overall CoG and the matched parts that differ by more than 1 %.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { importOcxFile } from '../../../engine/node/ocx/importFile';
import {
  type ComparedPart,
  comparePair,
  matchParts,
  modelFigures,
  type ModelFigures,
} from '../../../scripts/ocxCompare';

const DIR = path.resolve(__dirname, '../../../../shared/models/ocx');
const figures = new Map<string, ModelFigures>();

beforeAll(async () => {
  for (const f of ['NAPA-TR03_TC11.3docx', 'AVEVA-TR03_TC11.3docx', 'PROSTEP-TR03_TC11.3docx'])
    figures.set(f, modelFigures(f, await importOcxFile(path.join(DIR, f))));
}, 60_000);

const part = (id: string, name: string, type: string, w: number, x: number): ComparedPart => ({
  id,
  name,
  type,
  weightKg: w,
  areaM2: 0,
  cogMm: [x, 0, 0],
});

describe('ocx:compare', () => {
  it('matches by unique name first, then by the nearest CoG of the same type within reach', () => {
    const a = [
      part('a1', 'P1', 'PLATE', 100, 0),
      part('a2', '', 'PLATE', 50, 1000),
      part('a3', '', 'STIFFENER', 5, 2000),
    ];
    const b = [
      part('b9', '', 'PLATE', 51, 1040),
      part('b1', 'P1', 'PLATE', 100, 5000),
      part('b3', '', 'PLATE', 5, 2000),
    ];
    const { pairs, onlyA, onlyB } = matchParts(a, b);
    expect(pairs.map(([p, q]) => `${p.id}-${q.id}`)).toEqual(['a1-b1', 'a2-b9']);
    expect(onlyA.map((p) => p.id)).toEqual(['a3']); // b3 is a plate: types never mix
    expect(onlyB.map((p) => p.id)).toEqual(['b3']);
  });

  it('finds no difference between a model and itself', () => {
    const m = figures.get('NAPA-TR03_TC11.3docx')!;
    const lines = comparePair(m, m);
    expect(lines).toContain(`matched     ${m.parts.length} parts, 0 differ by more than 1% in weight`);
    expect(lines.some((l) => l.startsWith('only in'))).toBe(false);
  });

  it('prints counts, totals and CoG for TC11 by NAPA and AVEVA: the same box within 0.3 %', () => {
    const a = figures.get('NAPA-TR03_TC11.3docx')!,
      b = figures.get('AVEVA-TR03_TC11.3docx')!;
    const lines = comparePair(a, b);
    expect(lines[0]).toBe('== NAPA-TR03_TC11.3docx vs AVEVA-TR03_TC11.3docx');
    expect(lines[1]).toMatch(/^counts {6}PLATE=4\/4 STIFFENER=38\/36 /);
    expect(Math.abs(a.weightKg / b.weightKg - 1)).toBeLessThan(0.003);
    expect(a.plateAreaM2).toBeCloseTo(b.plateAreaM2, 6);
    expect(lines).toContain('matched     40 parts, 0 differ by more than 1% in weight');
    expect(lines[lines.length - 1]).toMatch(/^only in NAPA-TR03_TC11\.3docx: STIFFENER \w+, STIFFENER \w+$/);
  });

  it('lists PROSTEP’s smaller transverse bulkhead plates as differing parts', () => {
    const lines = comparePair(figures.get('AVEVA-TR03_TC11.3docx')!, figures.get('PROSTEP-TR03_TC11.3docx')!);
    const diff = lines.filter((l) => /^ {2}PLATE /.test(l));
    expect(diff).toHaveLength(2);
    for (const l of diff) expect(l).toMatch(/785\.0 \/ 745\.8 kg \(5\.0%\)/);
  });
});
