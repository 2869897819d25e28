/**
 * The properties panel's merge (viewer.md §5 "Property merging for multiple selections") over every selected
 * object, checked on a real model: NAPA-TR03_TC12 is one deck panel of ten plates whose own weight and area
 * (the MAIN OBJECT's W 8.666507 t and AREA 95.07817 m²) are the sums of its plates' (hand-checked:
 * 2.344154 + 1.32577 + 1.200235 + 1.371384 + 0.642254 + 0.008352 + 0.024351 + 0.66563 + 0.492645 + 0.591732),
 * and eleven seams of 39.74966 m in all. Also: '** VARIES **', the type filter, the common block, the
 * comparison column's '=' and 'N/A', and the display units of viewer.md §3.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DISPLAY_UNITS, formatPropertyValue, PROPERTY_CATALOGUE } from '../../engine/model/properties';
import { importOcxFile } from '../../engine/node/ocx/importFile';
import {
  EQUAL,
  MISSING,
  PropertyMerger,
  VARIES,
  earlierValuesOf,
  mergeColumns,
  summarizeSelection,
  type MergedProperty,
  type PropertyColumn,
} from '../../ui/logic/propertyMerge';
import { mergeProperties, type PropertyItem } from '../../ui/logic/propertyRows';

const merger = new PropertyMerger();
let types: string[] = [];
let columns: Record<string, PropertyColumn> = {};
const byType = (t: string) => types.flatMap((x, i) => (x === t ? [i] : []));
const value = (props: MergedProperty[], code: string) => props.find((p) => p.code === code)?.value;

beforeAll(async () => {
  const m = await importOcxFile('../shared/models/ocx/NAPA-TR03_TC12.3docx');
  types = m.objects.map((o) => o.type);
  columns = Object.fromEntries(
    PROPERTY_CATALOGUE.map((d) => [d.name, m.properties.map((rec) => rec?.[d.name] ?? null)]),
  );
  merger.setModel(
    types,
    m.objects.map((o) => o.block),
    columns,
  );
});

describe('merging a selection by index (NAPA-TR03_TC12)', () => {
  it('sums the ten plates’ weight and area to the panel’s own figures; equal values kept, others VARIES', () => {
    const plates = byType('PLATE');
    expect(plates).toHaveLength(10);
    const r = merger.merge({ indices: plates, type: null });
    expect(r.total).toBe(10);
    expect(r.merged).toBe(10);
    expect(value(r.properties, 'W')).toBeCloseTo(8.666507, 9);
    expect(value(r.properties, 'AREA')).toBeCloseTo(95.07817, 9);
    expect(formatPropertyValue('W', value(r.properties, 'W')!)).toEqual({ text: '8.667', unit: 't' });
    expect(value(r.properties, 'STYPE')).toBe('DECK: Weather deck');
    expect(value(r.properties, 'RHO')).toBe(7.85);
    expect(value(r.properties, 'MAT')).toBe(VARIES); // A36 and E36
    expect(value(r.properties, 'PLTH')).toBe(VARIES);
    expect(value(r.properties, 'NAME')).toBe(VARIES);
    // catalogue order, as the single-object call lists them
    const order = PROPERTY_CATALOGUE.map((d) => d.name).filter((c) => r.properties.some((p) => p.code === c));
    expect(r.properties.map((p) => p.code)).toEqual(order);
  });

  it('a mixed selection: types counted, the filter merges one type, a property some objects lack VARIES', () => {
    const sel = [...byType('PLATE'), ...byType('SEAM')];
    const all = merger.merge({ indices: sel, type: null });
    expect(all.summary.types).toEqual([
      { type: 'SEAM', count: 11 },
      { type: 'PLATE', count: 10 },
    ]);
    expect(value(all.properties, 'W')).toBeCloseTo(8.666507, 9); // seams have no weight: the plates' sum
    expect(value(all.properties, 'STYPE')).toBe('DECK: Weather deck'); // every one of the 21 has it
    expect(value(all.properties, 'RHO')).toBe(VARIES); // the seams lack it
    const seams = merger.merge({ indices: sel, type: 'SEAM' });
    expect(seams.total).toBe(21);
    expect(seams.merged).toBe(11);
    expect(value(seams.properties, 'L')).toBeCloseTo(39.74966, 9);
    expect(value(seams.properties, 'W')).toBeUndefined();
  });

  it('one object keeps its own values', () => {
    const [first] = byType('PLATE');
    const r = merger.merge({ indices: [first], type: null });
    expect(value(r.properties, 'PLTH')).toBe(0.012);
    expect(value(r.properties, 'NAME')).toBe('P:P1/PANEL');
  });

  it('agrees with the per-object merge of the lists the properties call returns', () => {
    const sel = [...byType('PLATE'), ...byType('SEAM'), ...byType('HOLE')];
    const lists = sel.map((i) =>
      PROPERTY_CATALOGUE.flatMap((d): PropertyItem[] => {
        const v = columns[d.name][i];
        return v === null
          ? []
          : [{ name: d.name, description: d.description, unit: d.unit, isSummable: d.isSummable, value: v }];
      }),
    );
    const fromLists = new Map(mergeProperties(lists).map((p) => [p.name, p.value]));
    const byIndex = mergeColumns(new Map(Object.entries(columns)), sel);
    expect(new Map(byIndex.map((p) => [p.code, p.value]))).toEqual(fromLists);
  });
});

describe('the common block', () => {
  it("names the block only when every selected object is in it ('Inside {block}')", () => {
    const blocks = ['B10', 'B10', 'B20', null];
    const t = ['PLATE', 'PLATE', 'PLATE', 'PLATE'];
    expect(summarizeSelection(t, blocks, [0, 1]).block).toBe('B10');
    expect(summarizeSelection(t, blocks, [0, 2]).block).toBeNull();
    expect(summarizeSelection(t, blocks, [0, 3]).block).toBeNull();
    expect(summarizeSelection(t, blocks, [3]).block).toBeNull();
  });
});

describe('the comparison column', () => {
  // plates 1, 2, 3 of the model: 1 was 10 mm and 2.0 t before, 2 is new, 3 is unchanged
  let earlierMerger: PropertyMerger;
  beforeAll(() => {
    earlierMerger = new PropertyMerger();
    earlierMerger.setModel(
      types,
      types.map(() => null),
      columns,
    );
    earlierMerger.setEarlier(
      earlierValuesOf({
        steelObjectsAdded: [{ stId: 'nplcid41', guid: null, name: 'P:P2/PANEL', type: 'PLATE', index: 2 }],
        steelObjectsChanged: [
          {
            stId: 'nplcid40',
            guid: null,
            name: 'P:P1/PANEL',
            type: 'PLATE',
            from: 1,
            to: 2,
            index: 1,
            fromIndex: 1,
            matchedBy: 'guid',
            changedProperties: [
              { name: 'thickness', code: 'PLTH', from: 0.01, to: 0.012, unit: 'm' },
              { name: 'weight', code: 'W', from: 2, to: 2.344154, unit: 't' },
              { name: 'cg', code: '', from: [7, 2, 0], to: [7.5109, 2.48933, 0], unit: 'm' },
            ],
            geometryChanged: false,
          },
        ],
      }),
    );
  });
  const column = (indices: number[]) => {
    const r = earlierMerger.merge({ indices, type: null });
    return new Map(r.properties.map((p, k) => [p.code, r.earlier![k]]));
  };

  it("'=' where nothing changed, the earlier value where something did (cg as XCG/YCG/ZCG)", () => {
    const c = column([1, 3]);
    expect(c.get('MAT')).toBe(EQUAL);
    expect(c.get('PLTH')).toBe(0.01); // now 12 and 10 mm (VARIES), before 10 and 10
    expect(c.get('W')).toBeCloseTo(2 + 1.200235, 9);
    expect(c.get('XCG')).toBe(VARIES); // 7 and 3.05553 before
    expect(c.get('ZCG')).toBe(EQUAL); // 0 before and after
    expect([...column([3]).values()].every((v) => v === EQUAL)).toBe(true);
  });

  it("an added part has no earlier values: 'N/A'; merged with others the earlier sum leaves it out", () => {
    expect([...column([2]).values()].every((v) => v === MISSING)).toBe(true);
    const c = column([2, 3]);
    expect(c.get('W')).toBeCloseTo(1.200235, 9);
    expect(c.get('MAT')).toBe(VARIES); // plate 2 had none
  });

  it('no comparison: no column', () => {
    expect(merger.merge({ indices: [1], type: null }).earlier).toBeNull();
  });
});

describe('display units (viewer.md §3 "Units")', () => {
  it('each unit with its factor and decimals', () => {
    const shown = Object.fromEntries(Object.entries(DISPLAY_UNITS).map(([k, u]) => [k, [u.factor, u.decimals]]));
    expect(shown).toEqual({
      t: [1, 3],
      m: [1, 3],
      mm: [1000, 1],
      m2: [1, 3],
      cm2: [1e4, 3],
      m3: [1, 3],
      cm3: [1e6, 3],
      cm4: [1e8, 3],
      // stored in N/mm² already (engine/ocx/catalogue.ts converts the OCX Pa)
      'N/mm2': [1, 3],
      't/m3': [1, 3],
      deg: [57.29578, 1],
    });
    expect(formatPropertyValue('PLTH', 0.0125)).toEqual({ text: '12.5', unit: 'mm' });
    expect(formatPropertyValue('SAREA', 0.00245)).toEqual({ text: '24.500', unit: 'cm2' });
    expect(formatPropertyValue('WS', 0.000321)).toEqual({ text: '321.000', unit: 'cm3' });
    expect(formatPropertyValue('IXA', 0.0000123)).toEqual({ text: '1230.000', unit: 'cm4' });
    expect(formatPropertyValue('E', 206000)).toEqual({ text: '206000.000', unit: 'N/mm2' });
    expect(formatPropertyValue('RHO', 7.85)).toEqual({ text: '7.850', unit: 't/m3' });
    expect(formatPropertyValue('W', VARIES)).toEqual({ text: VARIES, unit: '' });
  });
});
