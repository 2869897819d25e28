/**
 * The arrangement trees of viewer.md §7 (GET /steel/arrangement, GET /ship-model/arrangement): the
 * structures or the compartments of the model tree (ui/logic/ModelTree.ts 'Structures ({model})',
 * 'Compartments ({model})') as nested nodes, optionally restricted to a set of objects (those meeting the
 * limits box, those of a block); an object kept keeps its ancestors so the tree stays a tree.
 */
import { parentIndex, type RootGroup, rootGroupOf } from '../../engine/model/blocks';
import type { Box3Tuple, ModelObject } from '../../engine/model/types';
import type { ArrangementNode, ArrangementResponse } from '../contract/blocks';

/** True when the box (mm) meets the limits (m): boxes touching count. Objects without geometry never meet. */
export function meetsLimits(bounds: Box3Tuple | null, limitsM: Box3Tuple): boolean {
  if (!bounds) return false;
  for (let a = 0; a < 3; a++) if (bounds[a] / 1000 > limitsM[a + 3] || bounds[a + 3] / 1000 < limitsM[a]) return false;
  return true;
}

/**
 * The arrangement of one root group.
 * @param folder the tree folder name the answer carries ('Structures (SHIP)')
 * @param keep objects asked for (null: all); their ancestors are added
 */
export function arrangementOf(
  objects: readonly ModelObject[],
  group: RootGroup,
  folder: string,
  keep: ((i: number) => boolean) | null,
): ArrangementResponse {
  const n = objects.length;
  let shown: Uint8Array | null = null;
  if (keep) {
    shown = new Uint8Array(n);
    for (let i = 0; i < n; i++)
      if (keep(i)) for (let t = i; t >= 0 && !shown[t]; t = parentIndex(objects, t)) shown[t] = 1;
  }
  // Children lists in table order; nodes built iteratively (trees may be deep and wide).
  const nodes: (ArrangementNode | undefined)[] = new Array(n);
  const tops: ArrangementNode[] = [];
  const rootOf = new Int32Array(n).fill(-2);
  const root = (i: number): number => {
    const chain: number[] = [];
    let t = i;
    while (rootOf[t] === -2 && chain.length <= n) {
      chain.push(t);
      const p = parentIndex(objects, t);
      if (p < 0) break;
      t = p;
    }
    const r = rootOf[t] === -2 ? t : rootOf[t];
    for (const c of chain) rootOf[c] = r;
    return r;
  };
  let count = 0;
  for (let i = 0; i < n; i++) {
    if (shown && !shown[i]) continue;
    if (rootGroupOf(objects[root(i)].type) !== group) continue;
    const o = objects[i];
    nodes[i] = { index: i, id: o.id, name: o.name, type: o.type, children: [] };
    count++;
  }
  for (let i = 0; i < n; i++) {
    const node = nodes[i];
    if (!node) continue;
    const p = parentIndex(objects, i);
    const parent = p >= 0 ? nodes[p] : undefined;
    (parent ? parent.children : tops).push(node);
  }
  return { name: folder, objectCount: count, nodes: tops };
}
