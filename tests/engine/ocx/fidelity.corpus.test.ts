/**
 * On every sample of ../shared/models/ocx at least 99 % of the compared parts agree with
 * the design system's own figures (weight and area within 1 %, centre of gravity within 10 mm). Parts
 * outside are listed in engine/ocx/expectedDeviations.ts (the table ocx:check applies) with the reason; the test also checks that each listed
 * part really deviates (so the table cannot hide a fixed or a new problem).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { importOcxFile } from '../../../engine/node/ocx/importFile';
import {
  comparePart,
  FIDELITY_TARGETS,
  fidelityTable,
  meetsTargets,
  summarizeFidelity,
  summaryLine,
} from '../../../engine/ocx/fidelity';
import type { ImportResult } from '../../../engine/model/types';
import { checkFile } from '../../../scripts/ocxCheck';
import { EXPECTED_DEVIATIONS, exclusionsOf } from '../../../engine/ocx/expectedDeviations';

const DIR = path.resolve(__dirname, '../../../../shared/models/ocx');
const FILES = readdirSync(DIR)
  .filter((f) => f.endsWith('.3docx'))
  .sort();

const results = new Map<string, ImportResult>();
beforeAll(async () => {
  for (const f of FILES) results.set(f, await importOcxFile(path.join(DIR, f)));
}, 120_000);

const excludedOf = exclusionsOf;

describe('vendor agreement (ocx:check)', () => {
  it.each(FILES)('%s meets the targets with the expected-deviation table', (f) => {
    const r = results.get(f)!;
    const s = summarizeFidelity(r, excludedOf(f));
    expect(s.compared, 'parts with vendor figures are compared').toBeGreaterThan(0);
    expect(s.errors).toBe(0);
    for (const v of [s.weightWithin, s.areaWithin, s.cogWithin])
      if (v !== null) expect(v).toBeGreaterThanOrEqual(FIDELITY_TARGETS.share);
    expect(meetsTargets(s)).toBe(true);
  });

  it.each(FILES)('%s: every listed deviation is real, every other part is within target', (f) => {
    const r = results.get(f)!;
    const ex = excludedOf(f);
    for (const p of r.fidelity ?? []) {
      const checks: [string, number | undefined, number][] = [
        ['W', p.weightDevPct, FIDELITY_TARGETS.weightPct],
        ['AREA', p.areaDevPct, FIDELITY_TARGETS.areaPct],
        ['COG', p.cogDevMm, FIDELITY_TARGETS.cogMm],
      ];
      for (const [q, dev, lim] of checks) {
        if (dev === undefined) continue;
        if (ex.has(`${p.id}|${q}`)) expect(dev, `${f} ${p.id} ${q} is listed as a deviation`).toBeGreaterThan(lim);
        else expect(dev, `${f} ${p.id} ${q}`).toBeLessThanOrEqual(lim);
      }
    }
  });

  it('the table names existing files, a reason and a kind for every row, without duplicates', () => {
    const keys = EXPECTED_DEVIATIONS.map((d) => `${d.file}|${d.part}|${d.quantity}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const d of EXPECTED_DEVIATIONS) {
      expect(FILES).toContain(d.file);
      expect(d.reason.length).toBeGreaterThan(20);
      expect(['limitation', 'file-error']).toContain(d.kind);
    }
  });

  it('ocx:check applies the table: explained rows are printed with reasons and the file passes', async () => {
    const checked = await checkFile(path.join(DIR, 'NAPA-TR03_TC12.3docx'), false);
    expect(checked.summary.explained).toBe(3);
    expect(meetsTargets(checked.summary)).toBe(true);
    const explained = checked.lines.filter((l) => / explained nplcid41 /.test(l));
    expect(explained).toHaveLength(3);
    expect(explained[0]).toMatch(/documented error of the file.*600X800R150/);
    expect(summarizeFidelity(results.get('NAPA-TR03_TC12.3docx')!).areaWithin).toBeLessThan(100);
  });

  it('every structural part with PhysicalProperties is compared', () => {
    const r = results.get('NAPA-OCX_M8.3docx')!;
    expect(r.fidelity!.length).toBe(236);
    const s = summarizeFidelity(r);
    expect(s.parts).toBe(236);
    expect(s.compared).toBe(236);
  });
});

describe('fidelity kernel', () => {
  it('computes relative and distance deviations only where both sides exist', () => {
    const p = comparePart(
      { object: 0, id: 'a', element: 'Plate', line: 1 },
      { weightKg: 100, areaM2: 2, cogMm: [0, 0, 0] },
      { weightKg: 102, cogMm: [3, 4, 0] },
    );
    expect(p.weightDevPct).toBeCloseTo(2, 10);
    expect(p.areaDevPct).toBeUndefined();
    expect(p.cogDevMm).toBeCloseTo(5, 10);
  });

  it('prints the summary line of ocx:check and a table row per quantity', async () => {
    const r = results.get('NAPA-TR03_TC11.3docx')!;
    const line = summaryLine('NAPA-TR03_TC11.3docx', summarizeFidelity(r));
    expect(line).toMatch(
      /^NAPA-TR03_TC11\.3docx: parts=42 compared=42 weight_within_1pct=[\d.]+% area_within_1pct=[\d.]+% cog_within_10mm=[\d.]+% warnings=\d+ errors=0$/,
    );
    const table = fidelityTable(r);
    expect(table[0]).toMatch(/^part\s+element\s+quantity\s+vendor\s+computed\s+deviation/);
    expect(table.length).toBe(1 + 42 * 2 + 4); // weight + cog per part, area for the 4 plates
    const checked = await checkFile(path.join(DIR, 'NAPA-TR03_TC11.3docx'));
    expect(checked.lines[checked.lines.length - 1]).toBe(line);
    expect(checked.lines.filter((l) => / parts=\d+ compared=/.test(l))).toHaveLength(1);
  });

  it('reports a refused file with errors=1', async () => {
    const checked = await checkFile(path.join(DIR, 'no-such-file.3docx'));
    expect(checked.summary.errors).toBe(1);
    expect(checked.lines[checked.lines.length - 1]).toMatch(/errors=1$/);
  });
});
