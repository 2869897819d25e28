/**
 * Rows of the properties panel (viewer.md §2 "Properties panel", §3 "Units", §5 "Property merging"):
 * 'description | value unit' with values formatted by formatPropertyValue, and the merge of several
 * selected objects (summable numbers summed, equal values kept, otherwise '** VARIES **').
 */
import { PROPERTY_SET_OF_TYPE, type ObjectPropertiesConfig } from '../../api/contract';
import { formatPropertyValue } from '../../engine/model/properties';
import { VARIES, ValueMerge } from './propertyMerge';

/** One property as the properties call returns it. */
export interface PropertyItem {
  name: string;
  description: string;
  unit: string;
  isSummable: boolean;
  value: number | string;
}

/** One displayed row. */
export interface PropertyRow {
  code: string;
  description: string;
  text: string;
  unit: string;
}

export { VARIES };

/** Formats properties into rows in the given order. */
export function toPropertyRows(items: readonly PropertyItem[]): PropertyRow[] {
  return items.map((p) => {
    const f = formatPropertyValue(p.name, p.value);
    return { code: p.name, description: p.description || p.name, text: f.text, unit: f.unit };
  });
}

/**
 * Merges the property lists of several objects (viewer.md §5) with the rule of ui/logic/propertyMerge.ts:
 * for each property code in first-seen order, summable numbers are summed; equal values are kept; different
 * values become VARIES. A property missing from some objects counts as different unless summable.
 * (The panel merges by index in its worker; this list form serves callers holding per-object lists.)
 */
export function mergeProperties(lists: readonly (readonly PropertyItem[])[]): PropertyItem[] {
  if (lists.length === 0) return [];
  if (lists.length === 1) return [...lists[0]];
  const byCode = new Map<string, { first: PropertyItem; merge: ValueMerge }>();
  for (const list of lists) {
    for (const p of list) {
      let m = byCode.get(p.name);
      if (!m) byCode.set(p.name, (m = { first: p, merge: new ValueMerge(p.isSummable) }));
      m.merge.add(p.value);
    }
  }
  return [...byCode.values()].map(({ first, merge }) => ({ ...first, value: merge.result(lists.length) ?? VARIES }));
}

/**
 * The properties an object type's configured quantities name (viewer.md §7 "Object properties config"), in
 * the configured order with the configured headers; a quantity the object lacks is left out. Without a
 * config, for a type without a list (or with an empty one) or a mixed selection (`type` null) the
 * properties stay as they are.
 */
export function configuredProperties(
  items: readonly PropertyItem[],
  type: string | null,
  config: ObjectPropertiesConfig | null,
): PropertyItem[] {
  const set = type && config ? PROPERTY_SET_OF_TYPE[type] : undefined;
  const quantities = set && config ? config[set] : [];
  if (quantities.length === 0) return [...items];
  const byName = new Map(items.map((p) => [p.name, p]));
  return quantities.flatMap((q) => {
    const p = byName.get(q.name);
    return p ? [{ ...p, description: q.description || p.description }] : [];
  });
}
