/**
 * Issue 3 item 3: on every sample of ../shared/models/ocx at least 99 % of the compared parts agree with
 * the design system's own figures (weight and area within 1 %, centre of gravity within 10 mm). Parts
 * outside are listed in EXPECTED_DEVIATIONS with the reason; the test also checks that each listed
 * part really deviates (so the table cannot hide a fixed or a new problem).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { importOcxFile } from '../../../engine/ocx/importFile';
import { comparePart, FIDELITY_TARGETS, fidelityTable, meetsTargets, summarizeFidelity, summaryLine } from '../../../engine/ocx/fidelity';
import type { ImportResult } from '../../../engine/model/types';
import { checkFile } from '../../../scripts/ocxCheck';

const DIR = path.resolve(__dirname, '../../../../shared/models/ocx');
const FILES = readdirSync(DIR).filter((f) => f.endsWith('.3docx')).sort();

const M4_SHELL = 'documented error of the file: NAPA writes z = 4148.7 mm (the curved shell plate\'s own CoG height) for every ring stiffener of the M4 shell; rings of different profiles at different frames cannot share one height';
/** "file|part id|W|AREA|COG" → reason. */
const EXPECTED_DEVIATIONS: Record<string, string> = {
  'NAPA-OCX_M1.3docx|nplcid12|W': 'documented error of the file: the plate is 0.2 m thick, DryWeight is for a ~10 mm plate (OCX_GUIDE §2.16, ×20)',
  'NAPA-TR03_TC12.3docx|nplcid41|AREA': 'hole 600X800R150 straddles the seam corner at (5, 5) m; the cut is exact, NAPA NetArea of P2 subtracts 0.26 m² more',
  'NAPA-TR03_TC12.3docx|nplcid41|W': 'follows the TC12 P2 area deviation above (W = area × t × ρ)',
  'NAPA-TR03_TC12.3docx|nplcid41|COG': 'follows the TC12 P2 area deviation above (the extra 0.26 m² NAPA removes shifts its CoG by 22 mm)',
  'NAPA-TR03_TC13.3docx|nplcid38|COG': 'limitation: 160 m² plate on an extruded shell, 11.5 mm CoG difference (0.1 % of its 9 × 18 m extent) from the projected-and-lifted triangulation',
  'NAPA-OCX_M3.3docx|nplcid19|COG': 'limitation: twisted L-bar whose web turns 35° along the trace through three inclinations; the web direction is interpolated linearly between them, NAPA\'s own rule for the twist is not documented',
  ...Object.fromEntries(['nplcid658', 'nplcid659', 'nplcid660', 'nplcid661', 'nplcid662', 'nplcid663', 'nplcid664', 'nplcid665'].flatMap((id) => [
    [`NAPA-OCX_M4.3docx|${id}|COG`, M4_SHELL],
    [`NAPA-OCX_M4_v300rc3.3docx|${id}|COG`, M4_SHELL],
  ])),
};

const results = new Map<string, ImportResult>();
beforeAll(async () => {
  for (const f of FILES) results.set(f, await importOcxFile(path.join(DIR, f)));
}, 120_000);

const excludedOf = (file: string) =>
  new Set(Object.keys(EXPECTED_DEVIATIONS).filter((k) => k.startsWith(`${file}|`)).map((k) => k.slice(file.length + 1)));

describe('vendor agreement (ocx:check)', () => {
  it.each(FILES)('%s meets the targets with the expected-deviation table', (f) => {
    const r = results.get(f)!;
    const s = summarizeFidelity(r, excludedOf(f));
    expect(s.compared, 'parts with vendor figures are compared').toBeGreaterThan(0);
    expect(s.errors).toBe(0);
    for (const v of [s.weightWithin, s.areaWithin, s.cogWithin]) if (v !== null) expect(v).toBeGreaterThanOrEqual(FIDELITY_TARGETS.share);
    expect(meetsTargets(s)).toBe(true);
  });

  it.each(FILES)('%s: every listed deviation is real, every other part is within target', (f) => {
    const r = results.get(f)!;
    const ex = excludedOf(f);
    for (const p of r.fidelity ?? []) {
      const checks: [string, number | undefined, number][] = [
        ['W', p.weightDevPct, FIDELITY_TARGETS.weightPct], ['AREA', p.areaDevPct, FIDELITY_TARGETS.areaPct], ['COG', p.cogDevMm, FIDELITY_TARGETS.cogMm],
      ];
      for (const [q, dev, lim] of checks) {
        if (dev === undefined) continue;
        if (ex.has(`${p.id}|${q}`)) expect(dev, `${f} ${p.id} ${q} is listed as a deviation`).toBeGreaterThan(lim);
        else expect(dev, `${f} ${p.id} ${q}`).toBeLessThanOrEqual(lim);
      }
    }
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
    const p = comparePart({ object: 0, id: 'a', element: 'Plate', line: 1 }, { weightKg: 100, areaM2: 2, cogMm: [0, 0, 0] }, { weightKg: 102, cogMm: [3, 4, 0] });
    expect(p.weightDevPct).toBeCloseTo(2, 10);
    expect(p.areaDevPct).toBeUndefined();
    expect(p.cogDevMm).toBeCloseTo(5, 10);
  });

  it('prints the summary line of issue 3 item 3 and a table row per quantity', async () => {
    const r = results.get('NAPA-TR03_TC11.3docx')!;
    const line = summaryLine('NAPA-TR03_TC11.3docx', summarizeFidelity(r));
    expect(line).toMatch(/^NAPA-TR03_TC11\.3docx: parts=42 compared=42 weight_within_1pct=[\d.]+% area_within_1pct=[\d.]+% cog_within_10mm=[\d.]+% warnings=\d+ errors=0$/);
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
