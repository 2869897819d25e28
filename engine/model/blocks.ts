/**
 * Block membership over an object table (viewer.md §2 "Model tree panel" block filter, §3 "Block",
 * §7 steel/blocks and steel/arrangement): which block of a block system each object belongs to, and the
 * grouping of the model's top-level objects into the tree's structures, compartments and CAD components.
 * Shared by the model tree (ui/logic/ModelTree.ts) and the server's block and arrangement calls.
 */
import type { BlockSystem } from './types';

/** The object-table fields membership needs (ModelObject, and the UI's tree rows). */
interface Row {
  index: number;
  parent: number;
  block?: string | null;
}

/** Where a top-level object of the object table is shown: 'Structures', 'Compartments' or 'CAD components'. */
export type RootGroup = 'structures' | 'compartments' | 'cad';

const COMPARTMENT_TYPES = new Set(['COMPARTMENT', 'COMPARTMENT ARRANGEMENT']);
const CAD_TYPES = new Set(['CAD COMPONENT', 'CAD COMPONENT SECTION']);

/** The group of a top-level object by its type (viewer.md §3 model object types). */
export function rootGroupOf(type: string): RootGroup {
  return COMPARTMENT_TYPES.has(type) ? 'compartments' : CAD_TYPES.has(type) ? 'cad' : 'structures';
}

/** The parent of row `i` when it is a valid other row, else -1. */
export function parentIndex(objects: readonly Row[], i: number): number {
  const p = objects[i].parent;
  return p >= 0 && p < objects.length && p !== i ? p : -1;
}

/**
 * Per object, the position in `system.blocks` of the block it belongs to, -1 for none: a block's own parts,
 * and their descendants that no block of the system claims (a plate's holes go with the plate). O(n).
 */
export function blockIndexOf(objects: readonly Row[], system: BlockSystem): Int32Array {
  const n = objects.length;
  const own = new Int32Array(n).fill(-1);
  system.blocks.forEach((b, k) => {
    for (const i of b.objects) if (i >= 0 && i < n && own[i] < 0) own[i] = k;
  });
  // -2: not resolved yet. Each object is resolved once, walking up to the first resolved ancestor.
  const out = new Int32Array(n).fill(-2);
  const chain: number[] = [];
  for (let i = 0; i < n; i++) {
    let t = i;
    while (t >= 0 && out[t] === -2 && own[t] < 0 && chain.length <= n) {
      chain.push(t);
      t = parentIndex(objects, t);
    }
    const k = t < 0 ? -1 : out[t] !== -2 ? out[t] : own[t];
    if (t >= 0) out[t] = k;
    for (const c of chain) out[c] = k;
    chain.length = 0;
  }
  return out;
}

/** The objects of block `k` of a membership from blockIndexOf, ascending. */
export function objectsOfBlock(membership: Int32Array, k: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < membership.length; i++) if (membership[i] === k) out.push(i);
  return out;
}

/**
 * One block system from the objects' own `block` names, for object tables written before block systems
 * were kept (named `name`, blocks sorted by name); none when no object has a block.
 */
export function blockSystemsFromRows(objects: readonly Row[], name: string): BlockSystem[] {
  const blocks = new Map<string, number[]>();
  for (const o of objects) {
    if (!o.block) continue;
    let list = blocks.get(o.block);
    if (!list) blocks.set(o.block, (list = []));
    list.push(o.index);
  }
  if (!blocks.size) return [];
  const byName = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  return [
    {
      name,
      blocks: [...blocks.keys()].sort(byName.compare).map((b) => ({ name: b, objects: blocks.get(b)! })),
    },
  ];
}
