/**
 * Tables computed from a revision's object table and property store (viewer.md §7 "Tables"): weight and centre
 * of gravity per block, structure type and material; the plate list; the stiffener list and its profiles; the
 * compartments. Values stay in the property store's units (m, t, m², m³; engine/model/properties.ts), which
 * are the API's; each column names its display unit.
 */
import { MassSum } from '../../engine/model/massSum';
import type { ObjectType, PropertyRecord } from '../../engine/model/types';
import type { Table, TableCell, TableColumn, TableRow } from '../contract/tables';
import type { RevisionData } from '../projects/RevisionCache';

/**
 * Parts whose weights add up to the steel weight: the leaves of the structure. Panels (main objects) and
 * blocks are left out because their weights are the sums of these parts.
 */
export const WEIGHED_TYPES: ReadonlySet<ObjectType> = new Set([
  'PLATE',
  'STIFFENER',
  'BRACKET',
  'PILLAR',
  'COLLAR PLATE',
]);

/** Label of a group whose parts have no value for the grouping property (no block, no material, ...). */
export const NO_VALUE = '(none)';

/** Natural order of group labels and profiles ('B2' before 'B10'); one collator, not one per comparison. */
const natural = new Intl.Collator('en', { numeric: true }).compare;

const col = (name: string, header: string, unit = ''): TableColumn => ({ name, header, unit });

const num = (p: PropertyRecord | undefined, code: string): number | null => {
  const x = p?.[code];
  return typeof x === 'number' && Number.isFinite(x) ? x : null;
};
const text = (p: PropertyRecord | undefined, code: string): string | null => {
  const x = p?.[code];
  return typeof x === 'string' && x.trim() ? x.trim() : null;
};

/** Columns of a weight table after the group's own column. */
const MASS_COLUMNS = [
  col('parts', 'Parts'),
  col('weight', 'Weight', 't'),
  col('xcg', 'CoG X', 'm'),
  col('ycg', 'CoG Y', 'm'),
  col('zcg', 'CoG Z', 'm'),
];

/**
 * Weight (sum of W, t) and centre of gravity (weight-weighted mean of XCG/YCG/ZCG over the parts that have
 * one, m; null when none does) of the weighed parts, grouped by `key`; rows sorted by group label.
 */
export function weightTable(
  data: RevisionData,
  name: string,
  keyHeader: string,
  key: (index: number) => string | null,
): Table {
  interface Acc {
    objects: number[];
    mass: MassSum;
  }
  const groups = new Map<string, Acc>();
  data.objects.forEach((o, i) => {
    if (!WEIGHED_TYPES.has(o.type)) return;
    const p = data.properties[i];
    const label = key(i) ?? NO_VALUE;
    let g = groups.get(label);
    if (!g) groups.set(label, (g = { objects: [], mass: new MassSum() }));
    g.objects.push(i);
    const w = num(p, 'W');
    if (w !== null) g.mass.add(w, num(p, 'XCG'), num(p, 'YCG'), num(p, 'ZCG'));
  });
  const rows: TableRow[] = [...groups.entries()]
    .sort(([a], [b]) => natural(a, b))
    .map(([label, g]) => {
      const cog = g.mass.cog();
      return {
        cells: {
          group: label,
          parts: g.objects.length,
          weight: g.mass.weight,
          xcg: cog?.x ?? null,
          ycg: cog?.y ?? null,
          zcg: cog?.z ?? null,
        },
        objects: g.objects,
      };
    });
  return { name, type: 'Weights', columns: [col('group', keyHeader), ...MASS_COLUMNS], rows };
}

/** One row per object of `types`, in object-table order, with the given columns read by `cells`. */
function partList(
  data: RevisionData,
  name: string,
  types: ReadonlySet<ObjectType>,
  columns: TableColumn[],
  cells: (p: PropertyRecord | undefined, i: number) => Record<string, TableCell>,
  type = 'Part lists',
): Table {
  const rows: TableRow[] = [];
  data.objects.forEach((o, i) => {
    if (types.has(o.type)) rows.push({ cells: cells(data.properties[i], i), objects: [i] });
  });
  return { name, type, columns, rows };
}

/** The plate list: name, block, structure type, thickness (m, shown in mm), material, area (m²), weight (t). */
export function plateTable(data: RevisionData, name: string): Table {
  return partList(
    data,
    name,
    new Set<ObjectType>(['PLATE']),
    [
      col('name', 'Name'),
      col('block', 'Block'),
      col('structureType', 'Structure type'),
      col('thickness', 'Thickness', 'mm'),
      col('material', 'Material'),
      col('area', 'Area', 'm2'),
      col('weight', 'Weight', 't'),
    ],
    (p, i) => ({
      name: data.objects[i].name,
      block: data.objects[i].block,
      structureType: text(p, 'STYPE'),
      thickness: num(p, 'PLTH'),
      material: text(p, 'MAT'),
      area: num(p, 'AREA'),
      weight: num(p, 'W'),
    }),
  );
}

/** The stiffener list by profile: profile, name, block, material, length (m), weight (t); sorted by profile. */
export function stiffenerTable(data: RevisionData, name: string): Table {
  const t = partList(
    data,
    name,
    new Set<ObjectType>(['STIFFENER']),
    [
      col('profile', 'Profile'),
      col('name', 'Name'),
      col('block', 'Block'),
      col('material', 'Material'),
      col('length', 'Length', 'm'),
      col('weight', 'Weight', 't'),
    ],
    (p, i) => ({
      profile: text(p, 'PROFILE'),
      name: data.objects[i].name,
      block: data.objects[i].block,
      material: text(p, 'MAT'),
      length: num(p, 'L'),
      weight: num(p, 'W'),
    }),
  );
  const key = (r: TableRow) => String(r.cells.profile ?? NO_VALUE);
  t.rows.sort((a, b) => natural(key(a), key(b)) || a.objects[0] - b.objects[0]);
  return t;
}

/** Stiffeners summed per profile: count, total length (m), total weight (t). */
export function profileTable(data: RevisionData, name: string): Table {
  const groups = new Map<string, { objects: number[]; length: number; weight: number }>();
  data.objects.forEach((o, i) => {
    if (o.type !== 'STIFFENER') return;
    const p = data.properties[i];
    const label = text(p, 'PROFILE') ?? NO_VALUE;
    let g = groups.get(label);
    if (!g) groups.set(label, (g = { objects: [], length: 0, weight: 0 }));
    g.objects.push(i);
    g.length += num(p, 'L') ?? 0;
    g.weight += num(p, 'W') ?? 0;
  });
  const rows = [...groups.entries()]
    .sort(([a], [b]) => natural(a, b))
    .map(([profile, g]) => ({
      cells: { profile, count: g.objects.length, length: g.length, weight: g.weight },
      objects: g.objects,
    }));
  return {
    name,
    type: 'Part lists',
    columns: [
      col('profile', 'Profile'),
      col('count', 'Count'),
      col('length', 'Length', 'm'),
      col('weight', 'Weight', 't'),
    ],
    rows,
  };
}

/** The compartments: name, purpose, volume (m³) and centre of gravity (m). */
export function compartmentTable(data: RevisionData, name: string): Table {
  return partList(
    data,
    name,
    new Set<ObjectType>(['COMPARTMENT']),
    [
      col('name', 'Name'),
      col('purpose', 'Purpose'),
      col('volume', 'Volume', 'm3'),
      col('xcg', 'CoG X', 'm'),
      col('ycg', 'CoG Y', 'm'),
      col('zcg', 'CoG Z', 'm'),
    ],
    (p, i) => ({
      name: data.objects[i].name,
      purpose: text(p, 'PURP'),
      volume: num(p, 'VOLM'),
      xcg: num(p, 'XCG'),
      ycg: num(p, 'YCG'),
      zcg: num(p, 'ZCG'),
    }),
    'Compartments',
  );
}

/** True when the revision holds at least one object of `type`. */
export const hasType = (data: RevisionData, type: ObjectType): boolean => data.objects.some((o) => o.type === type);

/** Property text of object `i` for grouping (STYPE, MAT, ...), or null. */
export const propertyText = (data: RevisionData, i: number, code: string): string | null =>
  text(data.properties[i], code);
