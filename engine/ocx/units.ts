/**
 * UnitsML resolution (OCX_GUIDE §3): factor to SI of every Unit from RootUnits (prefix × base)^power,
 * else UnitSymbol/@type, else the English UnitName; @dimensionURL is ignored. A dimension check per
 * quantity fixes areas written in a length unit (AVEVA E3D) and reports it as a warning.
 */
import { child, children, num, numList, type XNode } from './xmlTree';

const PREFIX: Record<string, number> = { '': 1, m: 1e-3, c: 1e-2, d: 0.1, k: 1e3, M: 1e6, G: 1e9, u: 1e-6 };
const BASE: Record<string, number> = {
  meter: 1, metre: 1, gram: 1e-3, newton: 1, pascal: 1, radian: 1, arc_degree: Math.PI / 180, degree: Math.PI / 180,
  knot: 0.514444, metric_ton: 1000, second: 1, kelvin: 1,
};
const SYMBOLS: Record<string, [number, number]> = {
  mm: [1e-3, 1], cm: [1e-2, 1], m: [1, 1], km: [1e3, 1], mm2: [1e-6, 2], cm2: [1e-4, 2], m2: [1, 2], m3: [1, 3], cm3: [1e-6, 3],
  mm3: [1e-9, 3], cm4: [1e-8, 4], kg: [1, 0], t: [1000, 0], g: [1e-3, 0], 'kg/m3': [1, 0], 't/m3': [1000, 0], 'N/mm2': [1e6, 0],
  MPa: [1e6, 0], Pa: [1, 0], 'N/m2': [1, 0], GPa: [1e9, 0], deg: [Math.PI / 180, 0], rad: [1, 0], kn: [0.514444, 0], kN: [1e3, 0], N: [1, 0],
};
const NAMES: Record<string, [number, number]> = {
  meter: [1, 1], metre: [1, 1], metres: [1, 1], millimeter: [1e-3, 1], millimetre: [1e-3, 1], millimetres: [1e-3, 1],
  'square meter': [1, 2], 'square metre': [1, 2], kilogram: [1, 0], kilograms: [1, 0], kg: [1, 0], radian: [1, 0], radians: [1, 0],
  degree: [Math.PI / 180, 0], degrees: [Math.PI / 180, 0], knot: [0.514444, 0], knots: [0.514444, 0], nondimensional: [1, 0],
  megapascal: [1e6, 0], 'cubic meter': [1, 3], dimensionless: [1, 0], ton: [1000, 0], tonne: [1000, 0],
};

/** A resolved unit: factor to SI and the power of length it carries (undefined when unknown). */
export interface ResolvedUnit {
  factor: number;
  lengthPower: number | undefined;
}

/** What a quantity measures, for the dimension check. */
export type Quantity = 'length' | 'area' | 'mass' | 'density' | 'pressure' | 'angle' | 'other';

const EXPECTED_LENGTH_POWER: Partial<Record<Quantity, number>> = { length: 1, area: 2 };

/** Resolves unit ids (xml:id of UnitsML Unit) to SI factors; records problems as messages. */
export class UnitTable {
  private readonly resolved = new Map<string, ResolvedUnit>();
  /** Problems found (unknown unit ids, area in a length unit), each once. */
  readonly problems = new Map<string, string>();

  constructor(units: Map<string, XNode>) {
    for (const [id, u] of units) {
      const r = resolveUnit(u);
      if (r) this.resolved.set(id, r);
      else this.problems.set(`unit:${id}`, `Unit "${id}" cannot be resolved (no known root units, symbol or name); assumed SI`);
    }
  }

  /** The resolved unit for an id, or undefined. */
  get(id: string): ResolvedUnit | undefined {
    return this.resolved.get(id);
  }

  /**
   * Factor to SI for a value of `q` written with unit `id` (missing or unknown ids count as SI and are
   * reported). An area written in a length unit gets the squared factor (OCX_GUIDE §3).
   */
  factor(id: string | undefined, q: Quantity): number {
    if (!id) return 1;
    const r = this.resolved.get(id);
    if (!r) {
      if (!this.problems.has(`unit:${id}`)) this.problems.set(`unit:${id}`, `Unit "${id}" is not defined in UnitsML; assumed SI`);
      return 1;
    }
    if (q === 'area' && r.lengthPower === EXPECTED_LENGTH_POWER.length) {
      this.problems.set(`area:${id}`, `Areas are written with the length unit "${id}"; the squared factor is used`);
      return r.factor * r.factor;
    }
    return r.factor;
  }

  /** A quantity element's value (numericvalue × factor) in SI, or undefined when absent/not finite. */
  value(node: XNode | undefined, q: Quantity): number | undefined {
    if (!node) return undefined;
    const v = num(node.a.numericvalue);
    if (v === undefined || !Number.isFinite(v)) return undefined;
    return v * this.factor(node.a.unit, q);
  }

  /** A point element's coordinates converted to millimetres, or undefined. */
  pointMm(node: XNode | undefined): [number, number, number] | undefined {
    if (!node) return undefined;
    let src = node;
    if (src.a.coordinates === undefined) {
      const inner = child(src, 'Point3D');
      if (!inner) return undefined;
      src = inner;
    }
    const c = numList(src.a.coordinates);
    if (c.length < 3) return undefined;
    const f = this.factor(src.a.unit, 'length') * 1000;
    return [c[0] * f, c[1] * f, c[2] * f];
  }
}

/** Resolves one UnitsML Unit node (OCX_GUIDE §3 steps 1–3), or undefined. */
export function resolveUnit(u: XNode): ResolvedUnit | undefined {
  const roots = children(child(u, 'RootUnits'), 'EnumeratedRootUnit');
  if (roots.length) {
    let f = 1, lp = 0, ok = true;
    for (const r of roots) {
      const base = BASE[r.a.unit ?? ''];
      const pre = PREFIX[r.a.prefix ?? ''];
      const pw = num(r.a.powerNumerator) ?? 1;
      if (base === undefined || pre === undefined) {
        ok = false;
        break;
      }
      f *= Math.pow(pre * base, pw);
      if (r.a.unit === 'meter' || r.a.unit === 'metre') lp += pw;
    }
    if (ok) {
      const isDensity = roots.some((r) => r.a.unit === 'gram') && lp !== 0;
      const isPressure = roots.some((r) => r.a.unit === 'newton' || r.a.unit === 'pascal');
      return { factor: f, lengthPower: isDensity || isPressure ? 0 : lp };
    }
  }
  const sym = child(u, 'UnitSymbol')?.a.type?.trim();
  if (sym && SYMBOLS[sym]) return { factor: SYMBOLS[sym][0], lengthPower: SYMBOLS[sym][1] };
  const names = children(u, 'UnitName');
  const en = names.find((n) => /^en/i.test(n.a.lang ?? '')) ?? names[0];
  const name = en?.t?.trim().toLowerCase();
  if (name && NAMES[name]) return { factor: NAMES[name][0], lengthPower: NAMES[name][1] };
  return undefined;
}
