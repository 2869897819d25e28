/**
 * UnitsML resolution (OCX_GUIDE §3): factor to SI of every Unit from RootUnits (prefix × base)^power,
 * else UnitSymbol/@type, else the English UnitName; @dimensionURL is ignored. A dimension check per
 * quantity fixes areas written in a length unit (AVEVA E3D) and reports it as a warning.
 */
import { child, children, num, numsInto, type XNode } from './xmlTree';

/** UnitsML prefixes (unitsmlSchema_lite-0.9.18 enumeration). */
const PREFIX: Record<string, number> = {
  '': 1,
  Y: 1e24,
  Z: 1e21,
  E: 1e18,
  P: 1e15,
  T: 1e12,
  G: 1e9,
  M: 1e6,
  k: 1e3,
  h: 100,
  da: 10,
  d: 0.1,
  c: 1e-2,
  m: 1e-3,
  mu: 1e-6,
  u: 1e-6,
  n: 1e-9,
  p: 1e-12,
  f: 1e-15,
  a: 1e-18,
  z: 1e-21,
  y: 1e-24,
  Ki: 1024,
  Mi: 1024 ** 2,
  Gi: 1024 ** 3,
  Ti: 1024 ** 4,
  Ei: 1024 ** 6,
  Zi: 1024 ** 7,
  Yi: 1024 ** 8,
};
/** Scratch of pointMm: a point's coordinates as read (the returned point is a new tuple). */
const XYZ = new Float64Array(3);

const deg = Math.PI / 180;
const LB = 0.45359237,
  LBF = LB * 9.80665;
/**
 * UnitsML root units used by structural data: factor to SI and the power of length each carries (mass,
 * force and pressure units carry none, so that densities and stresses are never taken for lengths).
 */
const BASE: Record<string, [number, number]> = {
  meter: [1, 1],
  metre: [1, 1],
  inch: [0.0254, 1],
  foot: [0.3048, 1],
  yard: [0.9144, 1],
  mile: [1609.344, 1],
  nautical_mile: [1852, 1],
  us_survey_foot: [1200 / 3937, 1],
  us_survey_inch: [100 / 3937, 1],
  angstrom: [1e-10, 1],
  are: [100, 2],
  hectare: [1e4, 2],
  liter: [1e-3, 3],
  gram: [1e-3, 0],
  metric_ton: [1000, 0],
  pound: [LB, 0],
  long_ton: [1016.0469088, 0],
  short_ton: [907.18474, 0],
  ounce: [LB / 16, 0],
  slug: [14.59390294, 0],
  newton: [1, 0],
  pascal: [1, 0],
  bar: [1e5, 0],
  kilogram_force: [9.80665, 0],
  pound_force: [LBF, 0],
  kip: [1000 * LBF, 0],
  ton_force: [2240 * LBF, 0],
  standard_atmosphere: [101325, 0],
  technical_atmosphere: [98066.5, 0],
  torr: [101325 / 760, 0],
  dyne: [1e-5, 0],
  joule: [1, 0],
  watt: [1, 0],
  horsepower: [745.69987158227, 0],
  metric_horsepower: [735.49875, 0],
  radian: [1, 0],
  arc_degree: [deg, 0],
  degree: [deg, 0],
  arc_minute: [deg / 60, 0],
  arc_second: [deg / 3600, 0],
  gon: [Math.PI / 200, 0],
  steradian: [1, 0],
  second: [1, 0],
  minute: [60, 0],
  hour: [3600, 0],
  day: [86400, 0],
  knot: [1852 / 3600, 0],
  hertz: [1, 0],
  kelvin: [1, 0],
  degree_Celsius: [1, 0],
  mole: [1, 0],
  ampere: [1, 0],
};
/** Unit symbols (UnitSymbol/@type) → [factor to SI, length power]. */
const SYMBOLS: Record<string, [number, number]> = {
  mm: [1e-3, 1],
  cm: [1e-2, 1],
  dm: [0.1, 1],
  m: [1, 1],
  km: [1e3, 1],
  in: [0.0254, 1],
  ft: [0.3048, 1],
  yd: [0.9144, 1],
  nmi: [1852, 1],
  mm2: [1e-6, 2],
  cm2: [1e-4, 2],
  dm2: [1e-2, 2],
  m2: [1, 2],
  in2: [0.0254 ** 2, 2],
  ft2: [0.3048 ** 2, 2],
  mm3: [1e-9, 3],
  cm3: [1e-6, 3],
  dm3: [1e-3, 3],
  m3: [1, 3],
  l: [1e-3, 3],
  L: [1e-3, 3],
  in3: [0.0254 ** 3, 3],
  ft3: [0.3048 ** 3, 3],
  mm4: [1e-12, 4],
  cm4: [1e-8, 4],
  m4: [1, 4],
  cm6: [1e-12, 6],
  g: [1e-3, 0],
  kg: [1, 0],
  t: [1000, 0],
  lb: [LB, 0],
  LT: [1016.0469088, 0],
  'kg/m3': [1, 0],
  't/m3': [1000, 0],
  'g/cm3': [1000, 0],
  'kg/dm3': [1000, 0],
  'kg/l': [1000, 0],
  'lb/ft3': [LB / 0.3048 ** 3, 0],
  'kg/m': [1, 0],
  'kg/m2': [1, 0],
  N: [1, 0],
  kN: [1e3, 0],
  MN: [1e6, 0],
  Pa: [1, 0],
  kPa: [1e3, 0],
  MPa: [1e6, 0],
  GPa: [1e9, 0],
  bar: [1e5, 0],
  'N/m2': [1, 0],
  'N/mm2': [1e6, 0],
  'kN/m2': [1e3, 0],
  'kN/mm2': [1e9, 0],
  'MN/m2': [1e6, 0],
  psi: [LBF / 0.0254 ** 2, 0],
  ksi: [(1000 * LBF) / 0.0254 ** 2, 0],
  deg: [deg, 0],
  '°': [deg, 0],
  rad: [1, 0],
  mrad: [1e-3, 0],
  grad: [Math.PI / 200, 0],
  gon: [Math.PI / 200, 0],
  kn: [1852 / 3600, 0],
  kt: [1852 / 3600, 0],
  'm/s': [1, 0],
  s: [1, 0],
  h: [3600, 0],
  '1/K': [1, 0],
  K: [1, 0],
  '': [1, 0],
};
/** English unit names (UnitName, xml:lang en*) → [factor to SI, length power]. */
const NAMES: Record<string, [number, number]> = {
  meter: [1, 1],
  metre: [1, 1],
  meters: [1, 1],
  metres: [1, 1],
  millimeter: [1e-3, 1],
  millimetre: [1e-3, 1],
  millimeters: [1e-3, 1],
  millimetres: [1e-3, 1],
  centimeter: [1e-2, 1],
  centimetre: [1e-2, 1],
  kilometer: [1e3, 1],
  kilometre: [1e3, 1],
  inch: [0.0254, 1],
  inches: [0.0254, 1],
  foot: [0.3048, 1],
  feet: [0.3048, 1],
  'square meter': [1, 2],
  'square metre': [1, 2],
  'square meters': [1, 2],
  'square metres': [1, 2],
  'square millimeter': [1e-6, 2],
  'square millimetre': [1e-6, 2],
  'square centimeter': [1e-4, 2],
  'cubic meter': [1, 3],
  'cubic metre': [1, 3],
  'cubic meters': [1, 3],
  'cubic metres': [1, 3],
  kilogram: [1, 0],
  kilograms: [1, 0],
  kg: [1, 0],
  gram: [1e-3, 0],
  ton: [1000, 0],
  tonne: [1000, 0],
  tonnes: [1000, 0],
  'metric ton': [1000, 0],
  pound: [LB, 0],
  'kilogram per cubic meter': [1, 0],
  'kilogram per cubic metre': [1, 0],
  'kilograms per cubic metre': [1, 0],
  'ton per cubic meter': [1000, 0],
  'tonne per cubic metre': [1000, 0],
  newton: [1, 0],
  kilonewton: [1e3, 0],
  pascal: [1, 0],
  kilopascal: [1e3, 0],
  megapascal: [1e6, 0],
  gigapascal: [1e9, 0],
  'newton per square meter': [1, 0],
  'newton per square metre': [1, 0],
  'newton per square millimeter': [1e6, 0],
  'newton per square millimetre': [1e6, 0],
  radian: [1, 0],
  radians: [1, 0],
  degree: [deg, 0],
  degrees: [deg, 0],
  knot: [1852 / 3600, 0],
  knots: [1852 / 3600, 0],
  nondimensional: [1, 0],
  dimensionless: [1, 0],
};

/** A resolved unit: factor to SI and the power of length it carries (undefined when unknown). */
export interface ResolvedUnit {
  factor: number;
  lengthPower: number | undefined;
}

/** What a quantity measures, for the dimension check. */
export type Quantity = 'length' | 'area' | 'volume' | 'mass' | 'density' | 'pressure' | 'angle' | 'other';

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
      else
        this.problems.set(
          `unit:${id}`,
          `Unit "${id}" cannot be resolved (no known root units, symbol or name); assumed SI`,
        );
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
      const guess = unitFromId(id);
      if (guess) {
        this.resolved.set(id, guess);
        this.problems.set(
          `unit:${id}`,
          `Unit "${id}" is not defined in UnitsML; read from its id (factor ${guess.factor} to SI)`,
        );
        return this.factor(id, q);
      }
      if (!this.problems.has(`unit:${id}`))
        this.problems.set(`unit:${id}`, `Unit "${id}" is not defined in UnitsML; assumed SI`);
      return 1;
    }
    if (q === 'area' && r.lengthPower === EXPECTED_LENGTH_POWER.length) {
      this.problems.set(`area:${id}`, `Areas are written with the length unit "${id}"; the squared factor is used`);
      return r.factor * r.factor;
    }
    if (q === 'volume' && r.lengthPower === EXPECTED_LENGTH_POWER.length) {
      this.problems.set(`volume:${id}`, `Volumes are written with the length unit "${id}"; the cubed factor is used`);
      return r.factor ** 3;
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

  /**
   * A point element's coordinates converted to millimetres, or undefined: the `coordinates` attribute
   * (3.x), a Point3D child holding it (3.0rc3), or X, Y and Z child quantities each with its own unit
   * (OCX 2.8.x).
   */
  pointMm(node: XNode | undefined): [number, number, number] | undefined {
    if (!node) return undefined;
    let src = node;
    if (src.a.coordinates === undefined) {
      const inner = child(src, 'Point3D');
      if (!inner) return this.xyzMm(src);
      src = inner;
    }
    // the first three numbers only (no list of every number per point)
    if (numsInto(src.a.coordinates, XYZ, 3) < 3) return undefined;
    const f = this.factor(src.a.unit, 'length') * 1000;
    return [XYZ[0] * f, XYZ[1] * f, XYZ[2] * f];
  }

  /** OCX 2.8.x points: X, Y and Z child quantities (mm), or undefined when one is missing or invalid. */
  private xyzMm(node: XNode): [number, number, number] | undefined {
    const out: number[] = [];
    for (const k of ['X', 'Y', 'Z']) {
      const v = this.value(child(node, k), 'length');
      if (v === undefined) return undefined;
      out.push(v * 1000);
    }
    return out as [number, number, number];
  }
}

/** Resolves one UnitsML Unit node (OCX_GUIDE §3 steps 1–3), or undefined. */
export function resolveUnit(u: XNode): ResolvedUnit | undefined {
  const roots = children(child(u, 'RootUnits'), 'EnumeratedRootUnit');
  if (roots.length) {
    let f = 1,
      lp = 0,
      ok = true,
      pureLength = true;
    for (const r of roots) {
      const base = BASE[r.a.unit ?? ''];
      const pre = PREFIX[r.a.prefix ?? ''];
      const pw = (num(r.a.powerNumerator) ?? 1) / (num(r.a.powerDenominator) ?? 1);
      if (base === undefined || pre === undefined || !Number.isFinite(pw)) {
        ok = false;
        break;
      }
      f *= (pre * base[0]) ** pw;
      if (base[1] === 0) pureLength = false;
      lp += base[1] * pw;
    }
    // a mass, force, pressure or angle in the product makes it no length (density, stress)
    if (ok && Number.isFinite(f)) return { factor: f, lengthPower: pureLength ? lp : 0 };
  }
  const sym = child(u, 'UnitSymbol')?.a.type?.trim();
  if (sym && SYMBOLS[sym]) return { factor: SYMBOLS[sym][0], lengthPower: SYMBOLS[sym][1] };
  const names = children(u, 'UnitName');
  const en = names.find((n) => /^en/i.test(n.a.lang ?? '')) ?? names[0];
  const name = en?.t?.trim().toLowerCase();
  if (name && NAMES[name]) return { factor: NAMES[name][0], lengthPower: NAMES[name][1] };
  return undefined;
}

/**
 * Last resort for a unit id that UnitsML does not define: the conventional ids of the writers (Um, Umm,
 * UKg, UKgOverm3, UNOvermm2, Ukg_m3, u_milliMetres, uMeter, ...) read as a symbol. The caller reports
 * it: the OCX schema gives ids no meaning (OCX_GUIDE §3).
 */
export function unitFromId(id: string): ResolvedUnit | undefined {
  const body = id.replace(/^(u_|U_|u|U)(?=[A-Za-z])/, '');
  const words: Record<string, string> = {
    millimetres: 'mm',
    millimeters: 'mm',
    metres: 'm',
    meters: 'm',
    meter: 'm',
    metre: 'm',
    metres2: 'm2',
    kg_m3: 'kg/m3',
    degrees: 'deg',
    radians: 'rad',
    knots: 'kn',
  };
  const candidates = [body, body.replace(/Over/g, '/').replace(/_/g, '/'), words[body.toLowerCase()] ?? ''];
  for (const c of candidates) {
    if (!c) continue;
    const hit =
      SYMBOLS[c] ??
      SYMBOLS[c.toLowerCase()] ??
      Object.entries(SYMBOLS).find(([k]) => k.toLowerCase() === c.toLowerCase())?.[1];
    if (hit) return { factor: hit[0], lengthPower: hit[1] };
  }
  return undefined;
}
