/**
 * Look-ups over a revision's object table shared by the instance calls (viewer.md §7): objects by display
 * name, by name-or-OCX-id as the calls' bodies send them, and the children of each object. Built once per
 * parsed revision (kept as long as the RevisionCache keeps the revision's data).
 */
import type { ModelObject } from '../../engine/model/types';

interface ObjectTable {
  objects: readonly ModelObject[];
  byId: ReadonlyMap<string, number>;
}

const nameIndex = new WeakMap<object, Map<string, number[]>>();
const childIndex = new WeakMap<object, number[][]>();

/** Object indices by display name (names are not unique: every object of the name). */
export function objectsByName(data: ObjectTable): Map<string, number[]> {
  let m = nameIndex.get(data);
  if (!m) {
    m = new Map();
    for (const o of data.objects) {
      const l = m.get(o.name);
      if (l) l.push(o.index);
      else m.set(o.name, [o.index]);
    }
    nameIndex.set(data, m);
  }
  return m;
}

/** The objects a body entry names: every object of that display name, else the object of that OCX id, else none. */
export function resolveName(data: ObjectTable, name: string): number[] {
  const hits = objectsByName(data).get(name);
  if (hits) return hits;
  const i = data.byId.get(name);
  return i === undefined ? [] : [i];
}

/** The direct children of every object (by `parent`), indexed by object index. */
export function childrenOf(data: ObjectTable): number[][] {
  let c = childIndex.get(data);
  if (!c) {
    c = data.objects.map(() => []);
    for (const o of data.objects) if (o.parent >= 0 && o.parent < c.length) c[o.parent].push(o.index);
    childIndex.set(data, c);
  }
  return c;
}

/** `root` and every object below it (depth first; a cycle in bad data is visited once). */
export function subtree(data: ObjectTable, root: number): number[] {
  const kids = childrenOf(data);
  const out: number[] = [];
  const seen = new Set<number>();
  const stack = [root];
  while (stack.length) {
    const i = stack.pop()!;
    if (seen.has(i)) continue;
    seen.add(i);
    out.push(i);
    for (const k of kids[i] ?? []) stack.push(k);
  }
  return out;
}
