/**
 * How tagging names a part across revisions (viewer.md §7 "Tagging"): by its GUID, or 'id:' + its OCX id
 * when the file gives none. A geometry name sent by a client is an OCX id or a display name of the
 * revision's objects (the id wins when both match; a display name may match several parts).
 */
import type { ModelObject } from '../../engine/model/types';

/** The stable key of a part: its GUID (upper case, no braces) or 'id:' + its OCX id. */
export const geometryKey = (o: Pick<ModelObject, 'id' | 'guid'>): string => o.guid ?? `id:${o.id}`;

/** Lookups over one revision's object table. */
export interface GeometryIndex {
  /** Objects of a geometry name (by OCX id first, else by display name); [] when unknown. */
  resolve(name: string): ModelObject[];
  /** The object of a stable key, or undefined when the revision lacks the part. */
  byKey(key: string): ModelObject | undefined;
}

const cache = new WeakMap<readonly ModelObject[], GeometryIndex>();

/** The index of an object table, built once per parsed revision (the table is immutable). */
export function geometryIndex(objects: readonly ModelObject[]): GeometryIndex {
  const hit = cache.get(objects);
  if (hit) return hit;
  const byId = new Map<string, ModelObject>();
  const byName = new Map<string, ModelObject[]>();
  const byKey = new Map<string, ModelObject>();
  for (const o of objects) {
    byId.set(o.id, o);
    const l = byName.get(o.name);
    if (l) l.push(o);
    else byName.set(o.name, [o]);
    if (!byKey.has(geometryKey(o))) byKey.set(geometryKey(o), o);
  }
  const index: GeometryIndex = {
    resolve: (name) => {
      const o = byId.get(name);
      return o ? [o] : (byName.get(name) ?? []);
    },
    byKey: (key) => byKey.get(key),
  };
  cache.set(objects, index);
  return index;
}
