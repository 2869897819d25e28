/**
 * The model tree's block filter (viewer.md §2 "Model tree panel": filter menu 'No filter' or a block grouped
 * by block system; 'Inside {block}'): choosing a block rebuilds the tree with only that block's objects
 * (ui/logic/ModelTree.ts `filter`) and hides every other object in 3D through the engine's visibility call;
 * 'No filter' shows again exactly the objects the filter hid (objects the user hid before stay hidden).
 * The tree's visibility mirror follows (the filter's hidden objects are not in the filtered tree anyway).
 * The active filter is the tree's own (`viewerStore.tree.filter`), so a new model starts unfiltered.
 */
import { blockIndexOf, parentIndex } from '../../engine/model/blocks';
import { getEngine, markHidden, setTreeOptions, viewerStore } from './viewer';

/** The objects the active filter hid, and the object table they index (a new model drops them). */
let hidden: { objects: unknown; ids: number[] } | null = null;

/** Shows again what the active filter hid (only when it belongs to the open model). */
function restore(): void {
  if (hidden && hidden.objects === viewerStore.objects && hidden.ids.length) {
    // The mirror first, so a filter applied right after sees these objects as shown.
    markHidden(hidden.ids, false);
    void getEngine()?.api.setVisibility(hidden.ids, true);
  }
  hidden = null;
}

/**
 * Shows only block `block` of block system `system`: in the tree and in 3D. Replaces an active filter.
 * The engine hides a node with its descendants, so the block's ancestors (its parts' panels, which carry
 * no geometry of their own) stay shown and everything else the user had not hidden is hidden. Unknown
 * names filter to nothing (an empty tree) rather than fail: the menu offers only known blocks.
 */
export function applyBlockFilter(system: string, block: string): void {
  const tree = viewerStore.tree;
  if (!tree) return;
  restore();
  const objects = tree.objects;
  const k = tree.blockSystems.findIndex((s) => s.name === system);
  const b = k >= 0 ? tree.blockSystems[k].blocks.findIndex((x) => x.name === block) : -1;
  const keep = new Uint8Array(objects.length);
  if (b >= 0) {
    const membership = blockIndexOf(objects, tree.blockSystems[k]);
    for (let i = 0; i < objects.length; i++)
      if (membership[i] === b) for (let t = i; t >= 0 && !keep[t]; t = parentIndex(objects, t)) keep[t] = 1;
  }
  const ids: number[] = [];
  for (let i = 0; i < objects.length; i++) if (!keep[i] && !tree.isHidden(i)) ids.push(i);
  hidden = { objects: viewerStore.objects, ids };
  if (ids.length) {
    markHidden(ids, true);
    void getEngine()?.api.setVisibility(ids, false);
  }
  setTreeOptions({ filter: { system, block } });
}

/** 'No filter': the whole tree again, and the objects the filter hid shown. */
export function clearBlockFilter(): void {
  restore();
  setTreeOptions({ filter: null });
}
