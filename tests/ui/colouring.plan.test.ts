/**
 * Colouring by quantities (application.md §4 "Coloring", §9 "Legend column order"): binning of numeric
 * and text quantities, colours that depend only on the value (stable across sessions, collisions
 * resolved the same way every time), and the legend, checked on a real model (NAPA-OCX_M8: plates and
 * brackets with thickness, material and material side) against counts taken from the import directly.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultObjectProperties } from '../../api/settings/objectPropertyDefaults';
import { importOcxFile } from '../../engine/node/ocx/importFile';
import type { ImportResult } from '../../engine/model/types';
import { binQuantity, MAX_DISTINCT_VALUES, niceStep } from '../../ui/logic/colourBins';
import { COLOUR_PALETTE, hashKey, stableColours } from '../../ui/logic/colourPalette';
import { NO_COLOURING, planColouring, sortLegend, type LegendEntry } from '../../ui/logic/colouringPlan';
import { colouringQuantities } from '../../ui/logic/colouringQuantities';
import { planRestore, snapshotView } from '../../ui/logic/commentsSnapshot';

const all = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('binning', () => {
  it('few distinct numbers: one bin per value as the panel shows it (PLTH m → mm, 1 decimal)', () => {
    const values = [0.012, 0.012, 0.01, null, 0.0120001, 0.015, 'x'.slice(1) || null];
    const q = binQuantity('PLTH', values, all(values.length));
    expect(q.bins.map((b) => b.label)).toEqual(['10.0 mm', '12.0 mm', '15.0 mm']);
    expect(q.bins.map((b) => b.key)).toEqual(['PLTH=10.0 mm', 'PLTH=12.0 mm', 'PLTH=15.0 mm']);
    expect([...q.binOf]).toEqual([1, 1, 0, -1, 1, 2, -1]);
  });

  it('many distinct numbers: nice, aligned ranges covering every value once', () => {
    // weights 0.013 .. 4.9 t, 400 distinct values
    const values = all(400).map((i) => 0.013 + i * 0.01222);
    const q = binQuantity('W', values, all(values.length));
    expect(q.bins.length).toBeGreaterThan(MAX_DISTINCT_VALUES / 3);
    expect(q.bins.length).toBeLessThanOrEqual(9);
    expect(q.bins[0].label).toBe('0–1 t');
    expect(q.bins.at(-1)!.label).toBe('4–5 t');
    // every value lies in its bin's range
    q.binOf.forEach((b, k) => {
      const [lo, hi] = q.bins[b].label.replace(' t', '').split('–').map(Number);
      expect(values[k]).toBeGreaterThanOrEqual(lo);
      expect(values[k]).toBeLessThan(hi);
    });
    // the same data in another order gives the same ranges
    const again = binQuantity('W', [...values].reverse(), all(values.length));
    expect(again.bins).toEqual(q.bins);
  });

  it('nice steps are 1, 2, 2.5 or 5 × 10^k', () => {
    expect(niceStep(10)).toBe(2);
    expect(niceStep(4.887)).toBe(1);
    expect(niceStep(18)).toBe(2.5);
    expect(niceStep(0.3)).toBe(0.05);
    expect(niceStep(0)).toBe(1);
  });

  it('text quantities by trimmed value; members restrict what is binned', () => {
    const values = ['AH36', ' DH36 ', 'AH36', '', null, 'A'];
    const q = binQuantity('MAT', values, [0, 1, 2, 3, 4]);
    expect(q.bins.map((b) => b.label)).toEqual(['AH36', 'DH36']);
    expect([...q.binOf]).toEqual([0, 1, 0, -1, -1]);
  });
});

describe('stable colours', () => {
  it('a key gets the palette colour its hash names, whatever else is coloured', () => {
    const keys = ['PLTH=12.0 mm', 'MAT=AH36', 'PROFILE=HP 200x10'];
    const a = stableColours(keys);
    for (const k of keys) expect(a.get(k)).toEqual(COLOUR_PALETTE[hashKey(k) % COLOUR_PALETTE.length]);
    const b = stableColours(['PLTH=12.0 mm']);
    expect(b.get('PLTH=12.0 mm')).toEqual(a.get('PLTH=12.0 mm'));
  });

  it('collisions are resolved deterministically and give distinct colours', () => {
    // find two keys that hash to the same slot
    const n = COLOUR_PALETTE.length;
    const first = 'PLTH=1.0 mm';
    let other = '';
    for (let i = 2; !other; i++) if (hashKey(`PLTH=${i}.0 mm`) % n === hashKey(first) % n) other = `PLTH=${i}.0 mm`;
    const x = stableColours([first, other]);
    const y = stableColours([other, first]);
    expect(x).toEqual(y);
    expect(x.get(first)).not.toEqual(x.get(other));
    // more keys than the palette: all still get a colour, the palette's ones are all used
    const many = all(40).map((i) => `W=${i}`);
    const c = stableColours(many);
    expect(c.size).toBe(40);
    const used = new Set([...c.values()].map((v) => v.join(',')));
    for (const p of COLOUR_PALETTE) expect(used.has(p.join(','))).toBe(true);
  });
});

describe('legend', () => {
  it('columns by count descending, equal counts by label', () => {
    const e = (label: string, count: number): LegendEntry => ({
      key: label,
      label,
      quantities: 'Thickness',
      color: [0, 0, 0],
      count,
    });
    const sorted = sortLegend([e('8.0 mm', 3), e('12.0 mm', 10), e('10.0 mm', 3), e('20.0 mm', 1)]);
    expect(sorted.map((x) => x.label)).toEqual(['12.0 mm', '8.0 mm', '10.0 mm', '20.0 mm']);
  });

  it('no quantity chosen: nothing coloured', () => {
    const p = planColouring(NO_COLOURING, ['PLATE', 'PLATE'], { PLTH: [0.01, 0.02] });
    expect(p.nodeIds.length).toBe(0);
    expect(p.legend).toEqual([]);
  });
});

describe('on a real model (NAPA-OCX_M8)', () => {
  let model: ImportResult;
  const column = (code: string) => model.properties.map((p) => p[code] ?? null);
  beforeAll(async () => {
    model = await importOcxFile(path.resolve(__dirname, '../../../shared/models/ocx/NAPA-OCX_M8.3docx'));
  });

  it('plates and brackets by thickness: legend counts equal the parts per shown thickness', () => {
    const types = model.objects.map((o) => o.type);
    const plan = planColouring({ ...NO_COLOURING, plates: ['PLTH'], brackets: ['PLTH'] }, types, {
      PLTH: column('PLTH'),
    });
    const expected = new Map<string, number>();
    model.objects.forEach((o, i) => {
      const t = model.properties[i].PLTH;
      if ((o.type === 'PLATE' || o.type === 'BRACKET') && typeof t === 'number') {
        const label = `${(t * 1000).toFixed(1)} mm`;
        expected.set(label, (expected.get(label) ?? 0) + 1);
      }
    });
    expect(expected.size).toBeGreaterThan(1);
    if (expected.size <= MAX_DISTINCT_VALUES)
      expect(new Map(plan.legend.map((e) => [e.label, e.count]))).toEqual(expected);
    const total = [...expected.values()].reduce((a, b) => a + b, 0);
    expect(plan.legend.reduce((a, e) => a + e.count, 0)).toBe(total);
    expect(plan.nodeIds.length).toBe(total);
    for (let i = 1; i < plan.legend.length; i++)
      expect(plan.legend[i - 1].count).toBeGreaterThanOrEqual(plan.legend[i].count);
    // every coloured node has its column's colour
    const byLabel = new Map(plan.legend.map((e) => [e.label, e.color]));
    plan.nodeIds.forEach((node, k) => {
      const label = `${((model.properties[node].PLTH as number) * 1000).toFixed(1)} mm`;
      expect([...plan.rgb.subarray(k * 3, k * 3 + 3)]).toEqual(byLabel.get(label));
    });
  });

  it('two quantities: one column per combination, counts add up', () => {
    const types = model.objects.map((o) => o.type);
    const plan = planColouring({ ...NO_COLOURING, plates: ['MAT', 'MSIDE'] }, types, {
      MAT: column('MAT'),
      MSIDE: column('MSIDE'),
    });
    const combos = new Map<string, number>();
    model.objects.forEach((o, i) => {
      const { MAT, MSIDE } = model.properties[i];
      if (o.type === 'PLATE' && typeof MAT === 'string' && typeof MSIDE === 'string') {
        const k = `${MAT.trim()} · ${MSIDE}`;
        combos.set(k, (combos.get(k) ?? 0) + 1);
      }
    });
    expect(new Map(plan.legend.map((e) => [e.label, e.count]))).toEqual(combos);
    expect(plan.legend[0].quantities).toBe('Material · Material side');
  });
});

describe('saved view', () => {
  it('a snapshot carries the colouring and its restore plan gives it back; none when nothing is coloured', () => {
    const coloring = {
      compartments: ['PURP'],
      plates: ['PLTH'],
      stiffeners: [],
      brackets: [],
      thicknessSide: 'ALL' as const,
    };
    const base = {
      view: { longitude: 0, latitude: 0, distance: 1000, target: { x: 0, y: 0, z: 0 }, width: 1000, height: 800 },
      walking: false,
      ids: ['a', 'b'],
      isHidden: () => false,
      hiddenCount: 0,
      selectedNodes: [],
      clip: null,
    };
    const view = snapshotView({ ...base, coloring });
    expect(view.coloring).toEqual(coloring);
    expect(planRestore(view, ['a', 'b']).coloring).toEqual(coloring);
    const plain = snapshotView(base);
    expect(plain.coloring).toBeUndefined();
    expect(planRestore(plain, ['a', 'b']).coloring).toBeNull();
  });
});

describe('at 100k parts', () => {
  it('plates by weight and stiffeners by profile: ranges and values cover every part once', () => {
    const n = 100_000;
    const types = all(n).map((i) => (i % 3 === 0 ? 'STIFFENER' : 'PLATE'));
    const W = all(n).map((i) => (i % 3 === 0 ? null : ((i * 7919) % 5000) / 1000 + 0.01));
    const PROFILE = all(n).map((i) => (i % 3 === 0 ? `HP ${160 + (Math.floor(i / 3) % 9) * 20}x10` : null));
    const plan = planColouring({ ...NO_COLOURING, plates: ['W'], stiffeners: ['PROFILE'] }, types, { W, PROFILE });
    expect(plan.nodeIds.length).toBe(n);
    expect(plan.withoutValue).toBe(0);
    expect(plan.legend.reduce((a, e) => a + e.count, 0)).toBe(n);
    const profiles = plan.legend.filter((e) => e.key.startsWith('PROFILE='));
    expect(profiles).toHaveLength(9);
    const weights = plan.legend.filter((e) => e.key.startsWith('W='));
    expect(weights.length).toBeGreaterThan(3);
    expect(weights.length).toBeLessThanOrEqual(9);
    expect(weights.every((e) => / t$/.test(e.label) && e.label.includes('–'))).toBe(true);
  });
});

describe('offered quantities', () => {
  it("follow the object-properties configuration's lists, without identity codes; the catalogue's before it is read", () => {
    const config = defaultObjectProperties();
    config.plateQuantities.push({ name: 'PLTH', description: 'Again' }, { name: '', description: 'empty row' });
    config.bracketQuantities[2] = { name: 'PLTH', description: 'Plate thickness' };
    const q = colouringQuantities(config);
    expect(q.plates.map((x) => x.code)).toEqual(
      config.plateQuantities.map((x) => x.name).filter((c, i, a) => c && c !== 'NAME' && a.indexOf(c) === i),
    );
    expect(q.plates.some((x) => x.code === 'NAME')).toBe(false);
    expect(q.brackets.find((x) => x.code === 'PLTH')?.description).toBe('Plate thickness');
    expect(q.compartments.map((x) => x.code)).toContain('PURP');
    const fallback = colouringQuantities(null);
    expect(fallback.plates[0]).toEqual({ code: 'PLTH', description: 'Thickness' });
    expect(fallback.stiffeners.map((x) => x.code)).toContain('PROFILE');
  });
});
