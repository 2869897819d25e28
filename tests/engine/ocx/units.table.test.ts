/**
 * Every unit code the UnitsML lite schema allows for structural data converts to SI
 * correctly, whether the Unit gives RootUnits, only a UnitSymbol, only a UnitName, or is missing from
 * UnitsML (read from its conventional id, with a warning). Table-driven.
 */
import { describe, expect, it } from 'vitest';
import { resolveUnit, unitFromId, UnitTable, type Quantity } from '../../../engine/ocx/units';
import type { XNode } from '../../../engine/ocx/xmlTree';

const node = (n: string, a: Record<string, string> = {}, c: XNode[] = [], t?: string): XNode => ({
  n,
  a,
  c,
  t,
  line: 1,
});
const rootsUnit = (roots: [string, string?, string?][]) =>
  node('Unit', {}, [
    node(
      'RootUnits',
      {},
      roots.map(([unit, prefix, power]) =>
        node('EnumeratedRootUnit', {
          unit,
          ...(prefix ? { prefix } : {}),
          ...(power ? { powerNumerator: power } : {}),
        }),
      ),
    ),
  ]);
const symbolUnit = (type: string) => node('Unit', {}, [node('UnitSymbol', { type })]);
const nameUnit = (name: string) =>
  node('Unit', {}, [
    node('UnitName', { lang: 'de' }, [], 'Meter'),
    node('UnitName', { lang: 'en-us' }, [], `\n    ${name}\n  `),
  ]);

const deg = Math.PI / 180;
/** [description, unit node, factor to SI, length power]. */
const ROOTS: [string, XNode, number, number][] = [
  ['m', rootsUnit([['meter']]), 1, 1],
  ['mm', rootsUnit([['meter', 'm']]), 1e-3, 1],
  ['cm', rootsUnit([['meter', 'c']]), 1e-2, 1],
  ['km', rootsUnit([['meter', 'k']]), 1e3, 1],
  ['in', rootsUnit([['inch']]), 0.0254, 1],
  ['ft', rootsUnit([['foot']]), 0.3048, 1],
  ['m2', rootsUnit([['meter', undefined, '2']]), 1, 2],
  ['mm2', rootsUnit([['meter', 'm', '2']]), 1e-6, 2],
  ['cm4', rootsUnit([['meter', 'c', '4']]), 1e-8, 4],
  ['m3', rootsUnit([['meter', undefined, '3']]), 1, 3],
  ['l', rootsUnit([['liter']]), 1e-3, 3],
  ['kg', rootsUnit([['gram', 'k']]), 1, 0],
  ['t', rootsUnit([['metric_ton']]), 1000, 0],
  ['lb', rootsUnit([['pound']]), 0.45359237, 0],
  [
    'kg/m3',
    rootsUnit([
      ['gram', 'k'],
      ['meter', undefined, '-3'],
    ]),
    1,
    0,
  ],
  ['t/m3', rootsUnit([['metric_ton'], ['meter', undefined, '-3']]), 1000, 0],
  ['N/mm2', rootsUnit([['newton'], ['meter', 'm', '-2']]), 1e6, 0],
  ['N/m2', rootsUnit([['newton'], ['meter', undefined, '-2']]), 1, 0],
  ['MPa', rootsUnit([['pascal', 'M']]), 1e6, 0],
  ['kN', rootsUnit([['newton', 'k']]), 1e3, 0],
  ['bar', rootsUnit([['bar']]), 1e5, 0],
  ['rad', rootsUnit([['radian']]), 1, 0],
  ['deg', rootsUnit([['arc_degree']]), deg, 0],
  ['gon', rootsUnit([['gon']]), Math.PI / 200, 0],
  ['kn', rootsUnit([['knot']]), 1852 / 3600, 0],
  ['m/s', rootsUnit([['meter'], ['second', undefined, '-1']]), 1, 0],
];
const SYMBOLS: [string, number, number][] = [
  ['mm', 1e-3, 1],
  ['cm', 1e-2, 1],
  ['m', 1, 1],
  ['km', 1e3, 1],
  ['in', 0.0254, 1],
  ['ft', 0.3048, 1],
  ['mm2', 1e-6, 2],
  ['m2', 1, 2],
  ['m3', 1, 3],
  ['kg', 1, 0],
  ['t', 1000, 0],
  ['kg/m3', 1, 0],
  ['t/m3', 1000, 0],
  ['N/mm2', 1e6, 0],
  ['MPa', 1e6, 0],
  ['Pa', 1, 0],
  ['N/m2', 1, 0],
  ['kN/m2', 1e3, 0],
  ['GPa', 1e9, 0],
  ['deg', deg, 0],
  ['rad', 1, 0],
  ['kn', 1852 / 3600, 0],
];
const NAMES: [string, number, number][] = [
  ['millimetre', 1e-3, 1],
  ['meter', 1, 1],
  ['square meter', 1, 2],
  ['cubic metre', 1, 3],
  ['kilogram', 1, 0],
  ['tonne', 1000, 0],
  ['kilogram per cubic meter', 1, 0],
  ['newton per square millimeter', 1e6, 0],
  ['megapascal', 1e6, 0],
  ['degrees', deg, 0],
  ['radian', 1, 0],
  ['knots', 1852 / 3600, 0],
];
/** Conventional unit ids of the writers (OCX_GUIDE §3), read only when UnitsML lacks them. */
const IDS: [string, number][] = [
  ['Um', 1],
  ['Umm', 1e-3],
  ['Ucm', 1e-2],
  ['Ukm', 1e3],
  ['Uin', 0.0254],
  ['Uft', 0.3048],
  ['Um2', 1],
  ['Umm2', 1e-6],
  ['Um3', 1],
  ['UKg', 1],
  ['Ukg', 1],
  ['Ut', 1000],
  ['UKgOverm3', 1],
  ['Ukg_m3', 1],
  ['Udeg', deg],
  ['URad', 1],
  ['UPa', 1],
  ['UMPa', 1e6],
  ['UN_m2', 1],
  ['UN_mm2', 1e6],
  ['UNOvermm2', 1e6],
  ['uMeter', 1],
  ['u_kg', 1],
];

describe('UnitsML resolution', () => {
  it.each(ROOTS)('RootUnits %s', (_, u, f, lp) => {
    const r = resolveUnit(u)!;
    expect(r.factor / f).toBeCloseTo(1, 12);
    expect(r.lengthPower).toBe(lp);
  });
  it.each(SYMBOLS)('UnitSymbol %s', (s, f, lp) => {
    const r = resolveUnit(symbolUnit(s))!;
    expect(r.factor / f).toBeCloseTo(1, 12);
    expect(r.lengthPower).toBe(lp);
  });
  it.each(NAMES)('English UnitName %s (trimmed, other languages ignored)', (s, f, lp) => {
    const r = resolveUnit(nameUnit(s))!;
    expect(r.factor / f).toBeCloseTo(1, 12);
    expect(r.lengthPower).toBe(lp);
  });
  it.each(IDS)('undefined unit id %s is read from the id', (id, f) => {
    expect(unitFromId(id)!.factor / f).toBeCloseTo(1, 12);
  });
  it('an unknown unit resolves to nothing rather than a guess', () => {
    expect(resolveUnit(node('Unit', {}, [node('UnitSymbol', { type: 'furlong/fortnight' })]))).toBeUndefined();
    expect(unitFromId('u17')).toBeUndefined();
  });
});

describe('UnitTable conversions', () => {
  const units = new Map<string, XNode>([
    ['u2', symbolUnit('mm')],
    ['Um2', rootsUnit([['meter', undefined, '2']])],
    ['UKg', rootsUnit([['gram', 'k']])],
    ['Ut', rootsUnit([['metric_ton']])],
  ]);
  const q = (v: string, unit: string) => node('Q', { numericvalue: v, unit });
  it.each([
    ['20000000', 'u2', 'area', 20], // AVEVA E3D: area in a length unit → squared factor
    ['14.4', 'Um2', 'area', 14.4],
    ['1.5', 'Ut', 'mass', 1500],
    ['10', 'u2', 'length', 0.01],
    ['7', 'Umm', 'length', 0.007], // undefined in UnitsML: read from the id
  ] as [string, string, Quantity, number][])('%s %s as %s = %f SI', (v, unit, quantity, si) => {
    const t = new UnitTable(units);
    expect(t.value(q(v, unit), quantity)! / si).toBeCloseTo(1, 12);
  });
  it('reports the squared-area fix and the id fallback as problems', () => {
    const t = new UnitTable(units);
    t.value(q('1', 'u2'), 'area');
    t.value(q('1', 'Umm'), 'length');
    expect([...t.problems.values()].join('\n')).toMatch(/length unit "u2".*squared/);
    expect([...t.problems.values()].join('\n')).toMatch(/"Umm" is not defined in UnitsML; read from its id/);
  });
  it('points are converted to millimetres with their own unit', () => {
    const t = new UnitTable(units);
    expect(t.pointMm(node('P', { coordinates: '1 2 3', unit: 'Um' }))).toEqual([1000, 2000, 3000]);
    expect(t.pointMm(node('P', { coordinates: '1 2 3', unit: 'u2' }))).toEqual([1, 2, 3]);
    expect(t.pointMm(node('P', { coordinates: '0.0254 0 0', unit: 'Uin' }))![0]).toBeCloseTo(0.64516, 9);
  });
});
