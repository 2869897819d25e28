/**
 * A subset of an import result (the conversion options of application.md §2 "Settings tab" (1): a model
 * without its structure, its compartments or its holes): the kept objects in their order, re-indexed
 * densely, each parent the nearest kept ancestor (-1 when none), with their properties, meshes, fidelity
 * records and warnings, and the block systems holding only kept parts (empty blocks and systems dropped);
 * the model bounds recomputed from the kept objects.
 */
import { emptyBox, growBox, type ImportResult, type ModelObject } from './types';

/** Options of keepObjects. */
export interface KeepOptions {
  /** Drop the block arrangement: every kept object's `block` becomes null and the block systems go. */
  dropBlocks?: boolean;
}

/**
 * The result restricted to the objects `keep` accepts. Does not change `result`'s arrays (objects and
 * meshes that stay are shallow copies with new indices).
 */
export function keepObjects(
  result: ImportResult,
  keep: (o: ModelObject) => boolean,
  options: KeepOptions = {},
): ImportResult {
  const n = result.objects.length;
  const newIndex = new Int32Array(n).fill(-1);
  let next = 0;
  for (let i = 0; i < n; i++) if (keep(result.objects[i])) newIndex[i] = next++;
  if (next === n && !options.dropBlocks) return result;
  /** The nearest kept ancestor of object i (new index), or -1. */
  const keptAncestor = (i: number): number => {
    let p = result.objects[i].parent;
    while (p >= 0 && newIndex[p] < 0) p = result.objects[p].parent;
    return p >= 0 ? newIndex[p] : -1;
  };
  const objects: ModelObject[] = [];
  const properties: ImportResult['properties'] = [];
  const keptIds = new Set<string>();
  for (let i = 0; i < n; i++) {
    if (newIndex[i] < 0) continue;
    const o = result.objects[i];
    objects.push({
      ...o,
      index: newIndex[i],
      parent: keptAncestor(i),
      block: options.dropBlocks ? null : o.block,
    });
    properties.push(result.properties[i]);
    keptIds.add(o.id);
  }
  const meshes = result.meshes
    .filter((m) => newIndex[m.object] >= 0)
    .map((m) => ({ ...m, object: newIndex[m.object] }));
  const fidelity = result.fidelity
    ?.filter((f) => newIndex[f.object] >= 0)
    .map((f) => ({ ...f, object: newIndex[f.object] }));
  const warnings = result.warnings.filter((w) => w.part === undefined || keptIds.has(w.part));
  const bounds = emptyBox();
  for (const o of objects) if (o.bounds) growBox(bounds, o.bounds);
  const blockSystems = options.dropBlocks
    ? []
    : (result.blockSystems ?? [])
        .map((s) => ({
          name: s.name,
          blocks: s.blocks
            .map((b) => ({ name: b.name, objects: b.objects.filter((i) => newIndex[i] >= 0).map((i) => newIndex[i]) }))
            .filter((b) => b.objects.length > 0),
        }))
        .filter((s) => s.blocks.length > 0);
  const { blockSystems: _dropped, ...rest } = result;
  return {
    ...rest,
    info: { ...result.info, bounds },
    objects,
    properties,
    meshes,
    warnings,
    ...(fidelity ? { fidelity } : {}),
    ...(blockSystems.length ? { blockSystems } : {}),
  };
}
