/**
 * The merge of a selection's properties (viewer.md §5 "Property merging for multiple selections"), by
 * object-table index over the revision's property columns (GET .../model/property-columns, values in
 * catalogue units: m, t, m², m³), so that every selected object counts, 100,000 of them too:
 * summable numeric quantities are summed, equal values kept, otherwise '** VARIES **'. The comparison
 * column (viewer.md §2 "Properties panel") merges the same selection's values in the earlier revision and
 * shows '=' where they equal the current ones and 'N/A' where the earlier revision has none.
 * Pure: runs in the properties worker (ui/workers/propertyMerge.worker.ts), the unit tests and the bench.
 */
import type { CompareResponse, CompareValue } from '../../api/contract';
import { PROPERTY_BY_NAME, PROPERTY_CATALOGUE } from '../../engine/model/properties';

/** The marker for differing values (viewer.md §5). */
export const VARIES = '** VARIES **';
/** The comparison column's marker for a value equal to the current one (viewer.md §5). */
export const EQUAL = '=';
/** The marker for a value that is missing (viewer.md §5). */
export const MISSING = 'N/A';

/** A property value in catalogue units. */
export type PropertyValue = number | string;
/** One property column parallel to the object table: the value of each object, null where it has none. */
export type PropertyColumn = readonly (PropertyValue | null)[];

/**
 * Accumulates one property over several objects (viewer.md §5): `add` each object's value (null when it
 * has none), then `result(count)` for `count` merged objects. Summable numbers are summed over the objects
 * that have them; otherwise a value is kept only when every object has it and all are equal.
 */
export class ValueMerge {
  private present = 0;
  private sum = 0;
  private first: PropertyValue | null = null;
  private equal = true;
  private numeric = true;

  constructor(private readonly summable: boolean) {}

  /** Adds one object's value (null: the object has none). */
  add(value: PropertyValue | null): void {
    if (value === null) return;
    if (this.present === 0) this.first = value;
    else if (this.equal && value !== this.first) this.equal = false;
    if (typeof value === 'number') this.sum += value;
    else this.numeric = false;
    this.present++;
  }

  /** How many objects had a value. */
  get count(): number {
    return this.present;
  }

  /** The merged value over `total` objects, or null when none had one. */
  result(total: number): PropertyValue | null {
    if (this.present === 0) return null;
    if (this.summable && this.numeric) return this.sum;
    return this.equal && this.present === total ? this.first : VARIES;
  }
}

const summable = (code: string): boolean => PROPERTY_BY_NAME.get(code)?.isSummable ?? false;

/** One merged property: catalogue code, merged value (a number, a text or VARIES) and how many objects had it. */
export interface MergedProperty {
  code: string;
  value: PropertyValue;
  count: number;
}

/**
 * Merges the columns over the objects `indices` (object-table indices). Codes come in catalogue order,
 * codes outside the catalogue after them in the columns' order; a code no selected object has is left out.
 * `read` gives an object's value when it is not simply the column's (the earlier revision's). O(codes × selected).
 */
export function mergeColumns(
  columns: ReadonlyMap<string, PropertyColumn>,
  indices: ArrayLike<number>,
  read?: (code: string, index: number, column: PropertyColumn) => PropertyValue | null,
): MergedProperty[] {
  const out: MergedProperty[] = [];
  for (const code of orderedCodes(columns.keys())) {
    const column = columns.get(code)!;
    const m = new ValueMerge(summable(code));
    if (read) for (let k = 0; k < indices.length; k++) m.add(read(code, indices[k], column));
    else for (let k = 0; k < indices.length; k++) m.add(column[indices[k]] ?? null);
    const value = m.result(indices.length);
    if (value !== null) out.push({ code, value, count: m.count });
  }
  return out;
}

const CATALOGUE_ORDER = new Map(PROPERTY_CATALOGUE.map((d, i) => [d.name, i]));

/** Codes in catalogue order, unknown codes after them in the given order. */
export function orderedCodes(codes: Iterable<string>): string[] {
  const all = [...codes];
  const rank = (c: string) => CATALOGUE_ORDER.get(c) ?? PROPERTY_CATALOGUE.length + all.indexOf(c);
  return all.sort((a, b) => rank(a) - rank(b));
}

/**
 * The comparison column's text for one property (viewer.md §2, §5): EQUAL when no merged object's value
 * differs from its earlier one, MISSING when the earlier revision has no value, else the earlier merged value.
 */
export function comparedValue(earlier: PropertyValue | null, differs: boolean): PropertyValue {
  if (!differs) return EQUAL;
  return earlier ?? MISSING;
}

/**
 * What the comparison knows of the earlier revision, by object-table index of the open one: parts added
 * since (no earlier values) and, per changed part, the earlier value of each changed catalogue code. Parts
 * the comparison does not list keep their current values.
 */
export interface EarlierValues {
  added: ReadonlySet<number>;
  changed: ReadonlyMap<number, ReadonlyMap<string, PropertyValue | null>>;
}

/** The value of `code` of object `index` in the earlier revision. */
export function earlierValue(
  earlier: EarlierValues,
  code: string,
  index: number,
  column: PropertyColumn,
): PropertyValue | null {
  if (earlier.added.has(index)) return null;
  const changed = earlier.changed.get(index);
  if (changed?.has(code)) return changed.get(code) ?? null;
  return column[index] ?? null;
}

/** A selection's object types with their counts (most first, then by name) and the block they all share. */
export interface SelectionSummary {
  types: { type: string; count: number }[];
  /** The block (object-table field `block`) every selected object is in, or null. */
  block: string | null;
}

/** Counts the types of the objects `indices` and finds their common block. */
export function summarizeSelection(
  types: readonly string[],
  blocks: readonly (string | null)[],
  indices: ArrayLike<number>,
): SelectionSummary {
  const counts = new Map<string, number>();
  let block: string | null | undefined;
  for (let k = 0; k < indices.length; k++) {
    const i = indices[k];
    const t = types[i] ?? '';
    counts.set(t, (counts.get(t) ?? 0) + 1);
    const b = blocks[i] ?? null;
    block = block === undefined ? b : block === b ? block : null;
  }
  return {
    types: [...counts]
      .map(([type, count]) => ({ type, count }))
      .sort((a, b) => b.count - a.count || a.type.localeCompare(b.type)),
    block: block ?? null,
  };
}

/** What the comparison knows of the earlier revision, in a form a worker message carries. */
export interface EarlierValuesMessage {
  added: number[];
  /** [object-table index, [[catalogue code, earlier value], ...]] per changed part. */
  changed: [number, [string, PropertyValue | null][]][];
}

/** A merge request: the selected objects and the object type to keep (null: every type). */
export interface MergeRequest {
  indices: ArrayLike<number>;
  type: string | null;
}

/** A merge result for the properties panel. */
export interface MergeResult {
  /** Selected objects. */
  total: number;
  /** Objects merged (those of the filtered type). */
  merged: number;
  summary: SelectionSummary;
  properties: MergedProperty[];
  /** The comparison column parallel to `properties` (comparedValue), or null when not comparing. */
  earlier: PropertyValue[] | null;
}

/**
 * Holds one revision's object types, blocks and property columns and the comparison's earlier values, and
 * merges selections over them (the state of the properties worker).
 */
export class PropertyMerger {
  private types: readonly string[] = [];
  private blocks: readonly (string | null)[] = [];
  private columns: ReadonlyMap<string, PropertyColumn> = new Map();
  private earlier: EarlierValues | null = null;

  /** Sets the revision's object table fields and property columns (all parallel to the object table). */
  setModel(
    types: readonly string[],
    blocks: readonly (string | null)[],
    columns: Record<string, PropertyColumn>,
  ): void {
    this.types = types;
    this.blocks = blocks;
    // a column that is null for every object names a property the model lacks: merging it is wasted work
    this.columns = new Map(Object.entries(columns).filter(([, col]) => col.some((v) => v !== null)));
  }

  /** Sets (or with null clears) the comparison's earlier values. */
  setEarlier(message: EarlierValuesMessage | null): void {
    this.earlier = message && {
      added: new Set(message.added),
      changed: new Map(message.changed.map(([i, props]) => [i, new Map(props)])),
    };
  }

  /** Merges the selection, restricted to `type` when given. */
  merge({ indices, type }: MergeRequest): MergeResult {
    const summary = summarizeSelection(this.types, this.blocks, indices);
    const kept = type === null ? indices : filterByType(this.types, indices, type);
    const properties = mergeColumns(this.columns, kept);
    let earlier: PropertyValue[] | null = null;
    if (this.earlier) {
      const e = this.earlier;
      const before = new Map(
        mergeColumns(this.columns, kept, (code, i, col) => earlierValue(e, code, i, col)).map((p) => [p.code, p.value]),
      );
      const differing = differingCodes(e, this.columns, kept);
      earlier = properties.map((p) => comparedValue(before.get(p.code) ?? null, differing.has(p.code)));
    }
    return { total: indices.length, merged: kept.length, summary, properties, earlier };
  }
}

/** The objects of `indices` whose type is `type`. */
export function filterByType(types: readonly string[], indices: ArrayLike<number>, type: string): Int32Array {
  const out = new Int32Array(indices.length);
  let n = 0;
  for (let k = 0; k < indices.length; k++) if (types[indices[k]] === type) out[n++] = indices[k];
  return out.subarray(0, n);
}

/** The codes for which some object of `indices` has an earlier value other than its current one. */
export function differingCodes(
  earlier: EarlierValues,
  columns: ReadonlyMap<string, PropertyColumn>,
  indices: ArrayLike<number>,
): Set<string> {
  const out = new Set<string>();
  for (let k = 0; k < indices.length; k++) {
    const i = indices[k];
    if (earlier.added.has(i)) {
      for (const [code, col] of columns) if ((col[i] ?? null) !== null) out.add(code);
      continue;
    }
    const changed = earlier.changed.get(i);
    if (!changed) continue;
    for (const [code, value] of changed) if ((columns.get(code)?.[i] ?? null) !== value) out.add(code);
  }
  return out;
}

/** Catalogue codes of a compared point (cg) and box (boundingBox), in the order of their values. */
const POINT_CODES = ['XCG', 'YCG', 'ZCG'];
const BOX_CODES = ['XMIN', 'YMIN', 'ZMIN', 'XMAX', 'YMAX', 'ZMAX'];

/**
 * The earlier values a comparison gives (application.md §4 "Revision comparison"): added parts, and per
 * changed part each changed property under its catalogue code (cg as XCG/YCG/ZCG, boundingBox as
 * XMIN..ZMAX, m).
 */
export function earlierValuesOf(
  data: Pick<CompareResponse, 'steelObjectsAdded' | 'steelObjectsChanged'>,
): EarlierValuesMessage {
  const scalar = (v: CompareValue): PropertyValue | null => (Array.isArray(v) ? null : v);
  return {
    added: data.steelObjectsAdded.map((p) => p.index),
    changed: data.steelObjectsChanged.map((r) => [
      r.index,
      r.changedProperties.flatMap((p): [string, PropertyValue | null][] => {
        const list = p.name === 'cg' ? POINT_CODES : p.name === 'boundingBox' ? BOX_CODES : null;
        if (!list) return p.code ? [[p.code, scalar(p.from)]] : [];
        const from = Array.isArray(p.from) ? p.from : [];
        return list.map((code, k) => [code, from[k] ?? null]);
      }),
    ]),
  };
}
