/**
 * Plane-independent facts about a model's objects that every section cut asks for (viewer.md §3
 * "Section results"): which result group an object belongs to (a steel class, compartments, CAD
 * components, or none) and its main object. Kept in typed arrays per object table, so a cut reads one
 * byte per touched object instead of the object's type string, and walks an object's parents to its
 * main object at most once per model instead of once per cut (at 500k parts each of those reads is a
 * cache miss into a large array of objects).
 *
 * The tables belong to one `objects` array and are rebuilt when its length changes; the object table of
 * a loaded revision is not edited in place (SectionManager and the section routes keep one array per
 * model), which is what the cache relies on.
 */
import type { ModelObject } from '../model/types';
import { STEEL_CLASSES, type SteelClass } from './types';

/** The result group of an object type: a steel class, or none. */
const CLASS_OF: Partial<Record<string, SteelClass>> = {
  PLATE: 'plates',
  'COLLAR PLATE': 'plates',
  SEAM: 'seams',
  STIFFENER: 'stiffeners',
  PILLAR: 'pillars',
  OPENING: 'openings',
  BRACKET: 'brackets',
  HOLE: 'holes',
  CUTOUT: 'cutouts',
  NOTCH: 'notches',
};

/** Object kind codes: 0 = not part of any section result, 1 + i = STEEL_CLASSES[i], then these two. */
export const KIND_NONE = 0;
export const KIND_COMPARTMENT = STEEL_CLASSES.length + 1;
export const KIND_CAD = STEEL_CLASSES.length + 2;

/** The steel class of kind code `kind` (1 … STEEL_CLASSES.length), else undefined. */
export function steelClassOfKind(kind: number): SteelClass | undefined {
  return kind >= 1 && kind <= STEEL_CLASSES.length ? STEEL_CLASSES[kind - 1] : undefined;
}

/** Per-object tables of one object array (see the file comment). */
export interface SectionObjectTable {
  /** Per object: its kind code (KIND_NONE, 1 + steel class index, KIND_COMPARTMENT, KIND_CAD). */
  kind: Uint8Array;
  /** Per object: its main object's index, -1 for none, -2 not looked up yet (see `mainObjectIndex`). */
  main: Int32Array;
  /** The ids of all objects of type MAIN OBJECT, sorted as `Array.prototype.sort` sorts strings (duplicates kept). */
  mainIds: string[];
  /** Per object of type MAIN OBJECT: the position of its id in `mainIds`; -1 for other objects. */
  mainRank: Int32Array;
  /**
   * Per object, 3 entries: its id, name and type (the object's own strings; '' for a missing object), the
   * fields a section result names its curves by. A cut reads them here, next to each other, rather than in
   * the object records, which at 500k parts lie spread over the heap (each first read a cache and TLB miss).
   */
  labels: string[];
}

const tables = new WeakMap<readonly ModelObject[], SectionObjectTable>();

/** The tables of `objects` (built on first use, O(n); the main objects are filled lazily). */
export function sectionObjectTable(objects: readonly ModelObject[]): SectionObjectTable {
  const had = tables.get(objects);
  if (had && had.kind.length === objects.length) return had;
  const n = objects.length;
  const kind = new Uint8Array(n);
  const labels = new Array<string>(3 * n).fill('');
  const mains: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = objects[i]?.type;
    if (t === undefined) continue;
    if (t === 'MAIN OBJECT') mains.push(i);
    labels[3 * i] = objects[i].id;
    labels[3 * i + 1] = objects[i].name;
    labels[3 * i + 2] = t;
    const cls = CLASS_OF[t];
    kind[i] = cls
      ? STEEL_CLASSES.indexOf(cls) + 1
      : t === 'COMPARTMENT'
        ? KIND_COMPARTMENT
        : t === 'CAD COMPONENT'
          ? KIND_CAD
          : KIND_NONE;
  }
  const mainIds = mains.map((i) => objects[i].id).sort();
  const mainRank = new Int32Array(n).fill(-1);
  // Equal ids share the first position (they give one entry of the result).
  const at = new Map<string, number>();
  mainIds.forEach((id, r) => {
    if (!at.has(id)) at.set(id, r);
  });
  for (const i of mains) mainRank[i] = at.get(objects[i].id)!;
  const table = { kind, main: new Int32Array(n).fill(-2), mainIds, mainRank, labels };
  tables.set(objects, table);
  return table;
}

/**
 * The sorted, distinct ids of the main objects `mains` (object indices of type MAIN OBJECT): the same as
 * `[...new Set(ids)].sort()`, read from the table's sorted ids instead of comparing strings per cut.
 */
export function sortedMainIds(table: SectionObjectTable, mains: Iterable<number>): string[] {
  const ranks = new Int32Array([...new Set(Array.from(mains, (m) => table.mainRank[m]))]).sort();
  return Array.from(ranks, (r) => table.mainIds[r]);
}

/**
 * The index of the nearest ancestor of object `o` (or `o` itself) of type MAIN OBJECT, -1 when there is
 * none within 64 steps, remembered in `table.main`.
 */
export function mainObjectIndex(objects: readonly ModelObject[], table: SectionObjectTable, o: number): number {
  const known = table.main[o];
  if (known !== -2) return known;
  let i = o,
    guard = 0,
    found = -1;
  while (i >= 0 && guard++ < 64) {
    const obj = objects[i];
    if (!obj) break;
    if (obj.type === 'MAIN OBJECT') {
      found = i;
      break;
    }
    i = obj.parent;
  }
  table.main[o] = found;
  return found;
}
