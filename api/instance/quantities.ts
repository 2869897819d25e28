/**
 * The quantities calls of viewer.md §7 (POST .../steel/quantities, POST .../ship-model/quantities): for each
 * named object the values of the asked quantities, in the catalogue units of engine/model/properties.ts
 * (m, m², m³, t; thickness in m).
 *
 * Quantity names (`qnts`, comma-separated): a property catalogue code (W, AREA, PLTH, XCG, ... — the
 * configured ones of GET /api/viewer/settings/object-properties are such codes), case-insensitive, or one of
 * the named quantities material (MAT), thickness (PLTH), profile (PROFILE), bracket (BRACKET), opening
 * (OPENING), materialSide (MSIDE). After a '/' come qualifier letters (application.md §3 "Object properties
 * config"; 'W/PS' and 'W/P/S' are the same):
 * - none: the object's own value;
 * - M, P, S, B, O, F: the value over the object and every object below it (its plates, stiffeners, ...)
 *   of the kinds named: M main objects, P plates and collar plates, S stiffeners and pillars, B brackets,
 *   O openings, holes, cut-outs and notches, F flanges only (edge reinforcements: face bars);
 * - T: total: every plate, stiffener, pillar, bracket and compartment of the object, with any kinds named
 *   (the object itself when it has none: a compartment, a part) — a main object's own figures, which the file
 *   may give as the sum of its parts, are not added to its parts', so nothing is counted twice;
 * - H: ignoring holes: AREA, VOLM and W of the plates and brackets counted include the holes cut from them
 *   (a hole's area × the plate's thickness × its density).
 * Over several objects, summable quantities (W, L, AREA, VOLM, WLDL) are summed; XCG/YCG/ZCG become the
 * weight-weighted centre of gravity; XMIN.. the smallest, XMAX.. the largest; other values are kept when
 * equal and '** VARIES **' otherwise (viewer.md §5 "Property merging"); null when no object has a value.
 *
 * Limits (steel only): a box; an object counts only when its centre of gravity (XCG/YCG/ZCG, else the centre
 * of its bounds) lies inside, so that adjacent boxes share out the parts without counting one twice.
 */
import { PROPERTY_BY_NAME } from '../../engine/model/properties';
import type { ObjectType, PropertyValue } from '../../engine/model/types';
import { Errors } from '../errors';
import type { RevisionData } from '../projects/RevisionCache';
import { MAX_QUANTITY_NAMES } from '../contract/models';
import { childrenOf, resolveName, subtree } from './objectIndex';

/** The named quantities of viewer.md §7 and their catalogue codes (keys lower case). */
export const NAMED_QUANTITIES: Readonly<Record<string, string>> = {
  material: 'MAT',
  thickness: 'PLTH',
  profile: 'PROFILE',
  bracket: 'BRACKET',
  opening: 'OPENING',
  materialside: 'MSIDE',
};

/** The merged value of differing values (viewer.md §5). */
export const VARIES = '** VARIES **';

/** Object types each kind letter counts. */
const KIND_TYPES: Readonly<Record<string, readonly ObjectType[]>> = {
  M: ['MAIN OBJECT', 'MAIN OBJECT SECTION'],
  P: ['PLATE', 'COLLAR PLATE'],
  S: ['STIFFENER', 'PILLAR'],
  B: ['BRACKET'],
  O: ['OPENING', 'HOLE', 'CUTOUT', 'NOTCH'],
};
const LETTERS = 'MPSBOFTH';
const COMPARTMENT_TYPES: readonly string[] = ['COMPARTMENT', 'COMPARTMENT ARRANGEMENT'];
const HOLE_TYPES: readonly string[] = ['HOLE', 'OPENING', 'CUTOUT'];

/** One parsed entry of `qnts`. */
export interface QuantityRequest {
  /** The entry as written: the key of the answer. */
  key: string;
  /** Catalogue code. */
  code: string;
  /** Qualifier letters (upper case, each once). */
  qualifiers: string;
}

/** A box in metres [xMin, xMax, yMin, yMax, zMin, zMax]; open bounds are ±Infinity. */
export type LimitsBox = [number, number, number, number, number, number];

/**
 * Parses `qnts`. @throws ApiError 400 naming an unknown quantity or qualifier, an empty list or more than
 * MAX_QUANTITY_NAMES entries; `allowed` restricts the qualifier letters (ship model: T only).
 */
export function parseQuantities(qnts: string, allowed = LETTERS): QuantityRequest[] {
  const keys = [...new Set(qnts.split(',').map((s) => s.trim()))].filter(Boolean);
  if (keys.length === 0) throw Errors.badRequest("Invalid field 'qnts': name at least one quantity");
  if (keys.length > MAX_QUANTITY_NAMES)
    throw Errors.badRequest(`Invalid field 'qnts': at most ${MAX_QUANTITY_NAMES} quantities`);
  return keys.map((key) => {
    const slash = key.indexOf('/');
    const name = (slash < 0 ? key : key.slice(0, slash)).trim();
    const code = NAMED_QUANTITIES[name.toLowerCase()] ?? name.toUpperCase();
    if (!PROPERTY_BY_NAME.has(code)) throw Errors.badRequest(`Invalid field 'qnts': unknown quantity '${name}'`);
    const letters =
      slash < 0
        ? ''
        : key
            .slice(slash + 1)
            .replace(/[/\s]/g, '')
            .toUpperCase();
    for (const l of letters)
      if (!allowed.includes(l)) throw Errors.badRequest(`Invalid field 'qnts': unknown qualifier '${l}' in '${key}'`);
    return { key, code, qualifiers: [...new Set(letters)].join('') };
  });
}

/**
 * Parses `limits` 'xMin,xMax,yMin,yMax,zMin,zMax' (m; a blank bound is open). @throws ApiError 400 when it
 * is not six numbers or blanks, or a min exceeds its max.
 */
export function parseLimits(text: string | undefined): LimitsBox | null {
  if (text === undefined || text.trim() === '') return null;
  const parts = text.split(',').map((s) => s.trim());
  const bad = () =>
    Errors.badRequest("Invalid field 'limits': expected 'xMin,xMax,yMin,yMax,zMin,zMax' in metres (blank = open)");
  if (parts.length !== 6) throw bad();
  const box = parts.map((p, k) => (p === '' ? (k % 2 ? Infinity : -Infinity) : Number(p))) as LimitsBox;
  if (box.some(Number.isNaN)) throw bad();
  for (let a = 0; a < 3; a++) if (box[2 * a] > box[2 * a + 1]) throw bad();
  return box;
}

const num = (v: PropertyValue | undefined): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined;

/** An object's centre of gravity in m: XCG/YCG/ZCG, else the centre of its bounds; null without either. */
function cogOf(data: RevisionData, i: number): [number, number, number] | null {
  const p = data.properties[i] ?? {};
  const x = num(p.XCG),
    y = num(p.YCG),
    z = num(p.ZCG);
  if (x !== undefined && y !== undefined && z !== undefined) return [x, y, z];
  const b = data.objects[i]?.bounds;
  return b ? [(b[0] + b[3]) / 2000, (b[1] + b[4]) / 2000, (b[2] + b[5]) / 2000] : null;
}

function inside(c: [number, number, number] | null, box: LimitsBox): boolean {
  return !!c && c.every((v, a) => v >= box[2 * a] && v <= box[2 * a + 1]);
}

/** The objects a request counts for the object `root` (rules in the file comment). */
function counted(data: RevisionData, root: number, qualifiers: string, limits: LimitsBox | null): number[] {
  const kinds = [...qualifiers].filter((l) => 'MPSBOF'.includes(l));
  let set: number[];
  if (kinds.length || qualifiers.includes('T')) {
    const types = new Set((kinds.length ? kinds : ['P', 'S', 'B']).flatMap((l) => KIND_TYPES[l] ?? []));
    if (qualifiers.includes('T')) {
      for (const l of 'PSB') for (const t of KIND_TYPES[l]) types.add(t);
      types.add('COMPARTMENT'); // the compartments of an arrangement (ship model)
    }
    set = subtree(data, root).filter((i) => {
      const o = data.objects[i];
      return types.has(o.type) || (kinds.includes('F') && o.element === 'EdgeReinforcement');
    });
    // an object without such parts (a compartment, a single plate asked for T) counts itself
    if (set.length === 0 && qualifiers.includes('T')) set = [root];
  } else set = [root];
  return limits ? set.filter((i) => inside(cogOf(data, i), limits)) : set;
}

/**
 * Area (m²) of the holes cut from plate or bracket `i`: holes below it, and holes of its panel whose centre
 * lies within its bounds (grown by its thickness), since a panel's holes cut every plate they touch.
 */
function holeAreaOf(data: RevisionData, i: number): number {
  const kids = childrenOf(data);
  const o = data.objects[i];
  const own = (kids[i] ?? []).filter((h) => HOLE_TYPES.includes(data.objects[h].type));
  const grow = (num(data.properties[i]?.PLTH) ?? 0) * 1000 + 1;
  const b = o.bounds;
  const fromPanel =
    o.parent >= 0 && b
      ? (kids[o.parent] ?? []).filter((h) => {
          const hb = data.objects[h].bounds;
          if (!HOLE_TYPES.includes(data.objects[h].type) || !hb) return false;
          return [0, 1, 2].every((a) => {
            const c = (hb[a] + hb[a + 3]) / 2;
            return c >= b[a] - grow && c <= b[a + 3] + grow;
          });
        })
      : [];
  return [...own, ...fromPanel].reduce((s, h) => s + (num(data.properties[h]?.AREA) ?? 0), 0);
}

/** The value of `code` of object `i`, with its holes added back when `gross` (H). */
function partValue(data: RevisionData, i: number, code: string, gross: boolean): PropertyValue | undefined {
  const p = data.properties[i] ?? {};
  const v = p[code];
  if (!gross || !['AREA', 'VOLM', 'W'].includes(code) || typeof v !== 'number') return v;
  const t = data.objects[i].type;
  if (t !== 'PLATE' && t !== 'BRACKET' && t !== 'COLLAR PLATE') return v;
  const a = holeAreaOf(data, i);
  if (a === 0) return v;
  const th = num(p.PLTH) ?? 0;
  if (code === 'AREA') return v + a;
  if (code === 'VOLM') return v + a * th;
  return v + a * th * (num(p.RHO) ?? 0);
}

/** Merges the values of `code` over `set` (rules in the file comment). */
function merge(data: RevisionData, set: number[], code: string, gross: boolean): PropertyValue | null {
  const def = PROPERTY_BY_NAME.get(code);
  const values = set.map((i) => ({ i, v: partValue(data, i, code, gross) })).filter((x) => x.v !== undefined);
  if (values.length === 0) return null;
  if (values.length === 1) return values[0].v as PropertyValue;
  if (def?.isSummable) {
    const nums = values.map((x) => num(x.v)).filter((x) => x !== undefined);
    return nums.length ? nums.reduce((a, b) => a + b, 0) : null;
  }
  if (code === 'XCG' || code === 'YCG' || code === 'ZCG') {
    let w = 0,
      m = 0;
    for (const { i, v } of values) {
      const wi = num(data.properties[i]?.W);
      if (wi === undefined || typeof v !== 'number') continue;
      w += wi;
      m += wi * v;
    }
    if (w > 0) return m / w;
  }
  // a loop, not Math.min(...): an arrangement may hold more parts than a call may have arguments
  if (/^[XYZ]MIN$/.test(code)) return values.reduce((m, x) => Math.min(m, num(x.v) ?? Infinity), Infinity);
  if (/^[XYZ]MAX$/.test(code)) return values.reduce((m, x) => Math.max(m, num(x.v) ?? -Infinity), -Infinity);
  const first = values[0].v;
  return values.every((x) => x.v === first) ? (first as PropertyValue) : VARIES;
}

/**
 * The answer of a quantities call: per body entry (in order) its quantities keyed as written. A name that
 * matches several objects counts them all (merged as above); an unknown name, or one outside the call's
 * scope (steel: anything but compartments; ship model: compartments), answers nulls.
 */
export function quantitiesOf(
  data: RevisionData,
  names: readonly string[],
  requests: readonly QuantityRequest[],
  scope: 'steel' | 'ship',
  limits: LimitsBox | null = null,
): { id: string; quantities: Record<string, PropertyValue | null> }[] {
  return names.map((id) => {
    const roots = resolveName(data, id).filter(
      (i) => COMPARTMENT_TYPES.includes(data.objects[i].type) === (scope === 'ship'),
    );
    const quantities: Record<string, PropertyValue | null> = {};
    // quantities with the same kinds share one set ('W/T,XCG/T,YCG/T')
    const sets = new Map<string, number[]>();
    for (const r of requests) {
      const kinds = r.qualifiers.replace('H', '');
      let set = sets.get(kinds);
      if (!set) {
        set = [...new Set(roots.flatMap((root) => counted(data, root, kinds, limits)))];
        sets.set(kinds, set);
      }
      quantities[r.key] = merge(data, set, r.code, r.qualifiers.includes('H'));
    }
    return { id, quantities };
  });
}
