/**
 * The 'mm-t' unit habit of a dialect (dialects.ts): AVEVA-style opaque unit ids (u1..u9, OCX_GUIDE §3:
 * ids carry no meaning, UnitsML does) with lengths in millimetres, areas in mm², masses in tonnes,
 * densities in t/m³, angles in degrees. Values are converted from the canonical units (Um, Umm, Um2,
 * Um3, URad, UKg, UKgOverm3, UNOvermm2, UKnots, UDimless) with 12 significant digits.
 */
import { type El, attr, elems, local } from './dialectTree';

/** Canonical unit id → [dialect id, factor from the canonical unit to the dialect's]. */
const MAP: Record<string, [string, number]> = {
  Um: ['u1', 1000],
  Umm: ['u1', 1],
  Um2: ['u2', 1e6],
  Um3: ['u3', 1],
  URad: ['u4', 180 / Math.PI],
  UKg: ['u5', 1e-3],
  UKgOverm3: ['u6', 1e-3],
  UNOvermm2: ['u7', 1],
  UKnots: ['u8', 1],
  UDimless: ['u9', 1],
};

/** The dialect's UnitsML units: id, name, symbol, root units [unit, power, prefix?] (none: symbol only), dimension. */
const UNITS: [string, string, string, [string, number, string?][], string][] = [
  ['u1', 'millimetre', 'mm', [['meter', 1, 'm']], 'D_L'],
  ['u2', 'square millimetre', 'mm2', [['meter', 2, 'm']], 'D_L2'],
  ['u3', 'cubic metre', 'm3', [['meter', 3]], 'D_L3'],
  ['u4', 'degree', 'deg', [], 'D_None'],
  ['u5', 'tonne', 't', [['gram', 1, 'M']], 'D_Kg'],
  [
    'u6',
    'tonne per cubic metre',
    't/m3',
    [
      ['gram', 1, 'M'],
      ['meter', -3],
    ],
    'D_Kg.M-3',
  ],
  ['u7', 'megapascal', 'MPa', [['pascal', 1, 'M']], 'D_N.MM-2'],
  ['u8', 'knot', 'kn', [['knot', 1]], 'D_L.T-1'],
  ['u9', 'nondimensional', '', [], 'D_None'],
];

const fmt = (v: number) => {
  const r = Number(v.toPrecision(12));
  return Object.is(r, -0) ? '0' : String(r);
};

/** Converts every numericvalue / coordinates below e (and e itself) to the dialect's units and ids. */
export function convertUnits(e: El): void {
  const u = attr(e, 'unit');
  if (u !== undefined && MAP[u] && !e.name.startsWith('unitsml:')) {
    const [id, f] = MAP[u];
    e.attrs = e.attrs.map(([k, v]) => {
      if (k === 'unit') return [k, id];
      if (k === 'numericvalue') return [k, fmt(Number(v) * f)];
      if (k === 'coordinates')
        return [
          k,
          v
            .trim()
            .split(/\s+/)
            .map((x) => fmt(Number(x) * f))
            .join(' '),
        ];
      return [k, v];
    });
  }
  for (const k of elems(e)) convertUnits(k);
}

/** The UnitsML element with the dialect's UnitSet (the canonical DimensionSet is kept). */
export function unitsMl(canonical: El): El {
  const set: El = {
    name: 'unitsml:UnitSet',
    attrs: [],
    kids: UNITS.map(([id, name, symbol, roots, dim]) => ({
      name: 'unitsml:Unit',
      attrs: [
        ['xml:id', id],
        ['dimensionURL', dim],
      ] as [string, string][],
      kids: [
        { name: 'unitsml:UnitName', attrs: [['xml:lang', 'en-GB']] as [string, string][], kids: [name] },
        { name: 'unitsml:UnitSymbol', attrs: [['type', symbol]] as [string, string][], kids: [] },
        ...(roots.length
          ? [
              {
                name: 'unitsml:RootUnits',
                attrs: [],
                kids: roots.map(([unit, p, pre]) => ({
                  name: 'unitsml:EnumeratedRootUnit',
                  attrs: [['unit', unit], ['powerNumerator', String(p)], ...(pre ? [['prefix', pre]] : [])] as [
                    string,
                    string,
                  ][],
                  kids: [],
                })),
              },
            ]
          : []),
      ],
    })),
  };
  return {
    ...canonical,
    kids: canonical.kids.map((k) => (typeof k !== 'string' && local(k.name) === 'UnitSet' ? set : k)),
  };
}
