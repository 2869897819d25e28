/**
 * The model tree of viewer.md §2 "Model tree panel" as flat, index-based data so that 500k objects stay
 * fast. Tree nodes (not objects) are numbered in pre-order, so the subtree of node t is the contiguous
 * range [t, t + size(t)): expanding, collapsing, counting and hiding touch only that range.
 *
 * Top-level folders, in this order and only when they have content:
 * - 'Structures ({model name})': objects without a parent (panels, MAIN OBJECT) and their parts — always shown;
 * - 'Compartments ({model name})': COMPARTMENT / COMPARTMENT ARRANGEMENT roots and their children;
 * - 'CAD components': CAD COMPONENT roots;
 * - 'Blocks ({system})': per block system (the model's design views, engine/ocx/blockSystems.ts) one folder
 *   per block, sorted by name, with the block's parts and their children (engine/model/blocks.ts);
 * - 'Custom-model-tree': the project's custom trees (tag folders, viewer.md §2, §3 "Tag") with the objects
 *   that carry each tag (and their parts), when any custom tree exists;
 * - '{axis}-sections': one folder per axis with the sections of that axis, sorted by name.
 * An object can appear several times (under its structure and under its block in each system); visibility is
 * per object, so every occurrence shows the same check state. With a block filter (viewer.md §2 filter menu,
 * 'Inside {block}') every folder holds only that block's objects and their ancestors.
 */
import type { BlockSystem } from '../../engine/model/types';
import { blockIndexOf, blockSystemsFromRows, parentIndex, rootGroupOf } from '../../engine/model/blocks';

/** The part of a model object row the tree needs (engine/model/types.ts ModelObject). */
export interface TreeObject {
  index: number;
  id: string;
  name: string;
  type: string;
  parent: number;
  block?: string | null;
}

/** A ship section shown under '{axis}-sections' (viewer.md §3 "Ship section"). */
export interface TreeSection {
  name: string;
  axis: 'X' | 'Y' | 'Z';
}

/** A custom tree folder (a tag): its sub-folders and the objects (indices) carrying it, in display order. */
export interface TreeTagFolder {
  id: number;
  name: string;
  folders: readonly TreeTagFolder[];
  objects: readonly number[];
}

/** A block filter: the block `block` of the block system named `system`. */
export interface BlockFilter {
  system: string;
  block: string;
}

/** Options of the tree: the block systems, the sections, the custom trees and the block filter. */
export interface ModelTreeOptions {
  /** The model's block systems; absent: one system from the objects' `block`, named `blockSystem`. */
  blockSystems?: readonly BlockSystem[];
  /** Name of the system derived from the objects' `block` (default: the model name). */
  blockSystem?: string;
  /** Only this block's objects (and their ancestors) in every folder; null or absent: no filter. */
  filter?: BlockFilter | null;
  sections?: readonly TreeSection[];
  /** The custom trees under 'Custom-model-tree' (the root tag's children); none: no such folder. */
  customTrees?: readonly TreeTagFolder[];
}

/** Name of the custom trees' top-level folder (viewer.md §2: the custom tree root tag). */
export const CUSTOM_TREE_FOLDER = 'Custom-model-tree';

/** Kind of a tree node: 'tag' is a custom tree folder. */
export type TreeNodeKind = 'folder' | 'object' | 'section' | 'tag';

/** Check state of a tree node: all its objects shown, all hidden, or some of each. */
export type CheckState = 'on' | 'off' | 'mixed';

const byName = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Index-based tree over an object table. Structure immutable after construction; visibility is mutable. */
export class ModelTree {
  readonly objects: readonly TreeObject[];
  /** Number of tree nodes. */
  readonly size: number;
  /** Top-level tree nodes (the folders), in display order. */
  readonly roots: readonly number[];
  /** Tree node → object index, -1 for folders and sections. */
  private readonly objOf: Int32Array;
  private readonly parentOf: Int32Array;
  private readonly depthOf: Int32Array;
  /** Number of tree nodes in the subtree (the node included). */
  private readonly subtreeSize: Int32Array;
  /** Number of object nodes in the subtree. */
  private readonly objectCount: Int32Array;
  /** Number of hidden object nodes in the subtree. */
  private readonly hiddenCount: Int32Array;
  private readonly labels = new Map<number, string>();
  private readonly sectionOf = new Map<number, TreeSection>();
  private readonly tagOf = new Map<number, number>();
  /** Object → its occurrences inside custom trees and the block systems after the first (several each). */
  private readonly customNodes = new Map<number, number[]>();
  /**
   * Under a block filter: 2 for the block's objects, 1 for their other ancestors (shown for the structure,
   * but neither counted, nor hidden or shown through the tree: the engine would take their descendants
   * outside the block along); null without a filter.
   */
  private readonly filterMark: Uint8Array | null;
  /** Block systems shown under 'Blocks ({system})', in order. */
  readonly blockSystems: readonly BlockSystem[];
  /** The block filter the tree was built with, or null. */
  readonly filter: BlockFilter | null;
  /** Object → its tree nodes (primary occurrence, and the one under the first block system or -1). */
  private readonly primaryNode: Int32Array;
  private readonly blockNode: Int32Array;
  private readonly hiddenObj: Uint8Array;
  private hiddenTotal = 0;
  private searchText: string[] | null = null;

  /**
   * @param modelName shown in 'Structures ({model name})' and 'Compartments ({model name})'
   * @param objects object rows; `index` must equal the row position (0..n-1). A parent outside 0..n-1 or
   *   equal to the row itself makes the row a root.
   * @param options block systems, sections, custom trees and the block filter
   * @throws Error when an object's index does not match its position.
   */
  constructor(modelName: string, objects: readonly TreeObject[], options: ModelTreeOptions = {}) {
    this.objects = objects;
    const n = objects.length;
    const parentObj = (o: TreeObject) => parentIndex(objects, o.index);
    // CSR children per object; slot 0 holds the roots.
    const counts = new Int32Array(n + 2);
    for (let i = 0; i < n; i++) {
      if (objects[i].index !== i)
        throw new Error(`Object table row ${i} has index ${objects[i].index}; indices must be 0..n-1 in order`);
      counts[parentObj(objects[i]) + 2]++;
    }
    for (let i = 1; i < n + 2; i++) counts[i] += counts[i - 1];
    const fill = counts.slice(0, n + 1);
    const childList = new Int32Array(n);
    for (let i = 0; i < n; i++) childList[fill[parentObj(objects[i]) + 1]++] = i;
    const childrenOf = (o: number) => childList.subarray(counts[o + 1], counts[o + 2]);

    const systems = options.blockSystems ?? blockSystemsFromRows(objects, options.blockSystem ?? modelName);
    this.blockSystems = systems;
    this.filter = options.filter ?? null;
    const memberships = systems.map((s) => blockIndexOf(objects, s));
    // With a filter: 2 for the block's objects, 1 for their other ancestors, 0 for the rest.
    const shown = (() => {
      const f = this.filter;
      const k = f ? systems.findIndex((s) => s.name === f.system) : -1;
      const b = k >= 0 && f ? systems[k].blocks.findIndex((x) => x.name === f.block) : -1;
      if (!f) return null;
      const mark = new Uint8Array(n);
      if (b < 0) return mark;
      const m = memberships[k];
      for (let i = 0; i < n; i++) if (m[i] === b) mark[i] = 2;
      for (let i = 0; i < n; i++)
        if (mark[i] === 2)
          for (let t = parentObj(objects[i]); t >= 0 && !mark[t]; t = parentObj(objects[t])) mark[t] = 1;
      return mark;
    })();
    this.filterMark = shown;
    const visible = (o: number) => !shown || shown[o] > 0;

    const groups = { structures: [] as number[], compartments: [] as number[], cad: [] as number[] };
    for (const r of childrenOf(-1)) if (visible(r)) groups[rootGroupOf(objects[r].type)].push(r);
    const { structures, compartments, cad } = groups;
    // Per system, per block: the block's top objects (those whose parent is not in the same block).
    const blockTops = systems.map((s, k) => {
      const m = memberships[k];
      const tops: number[][] = s.blocks.map(() => []);
      for (let i = 0; i < n; i++) {
        const b = m[i];
        if (b < 0 || !visible(i)) continue;
        const p = parentObj(objects[i]);
        if (p >= 0 && m[p] === b) continue; // shown inside its parent's block subtree
        tops[b].push(i);
      }
      return tops;
    });
    const blockFolders = blockTops.reduce((sum, tops) => sum + 1 + tops.length, 0);
    const sections = [...(options.sections ?? [])];
    const custom = options.customTrees ?? [];
    // Nodes of the custom trees: each folder, and each tagged object with its parts.
    let customNodes = custom.length ? 1 : 0;
    const countFolder = (f: TreeTagFolder) => {
      customNodes++;
      for (const sub of f.folders) countFolder(sub);
      for (const o of f.objects) {
        if (!(o >= 0 && o < n)) continue;
        const todo = [o];
        while (todo.length) {
          customNodes++;
          for (const c of childrenOf(todo.pop()!)) todo.push(c);
        }
      }
    };
    for (const f of custom) countFolder(f);

    // Upper bound of nodes: each object once plus once per block system, folders, sections and custom trees.
    const cap = (1 + systems.length) * n + 6 + blockFolders + sections.length + customNodes;
    const objOf = new Int32Array(cap).fill(-1);
    const parentOf = new Int32Array(cap).fill(-1);
    const depthOf = new Int32Array(cap);
    this.primaryNode = new Int32Array(n).fill(-1);
    this.blockNode = new Int32Array(n).fill(-1);
    let next = 0;
    const roots: number[] = [];
    const folder = (label: string, parent: number): number => {
      const t = next++;
      parentOf[t] = parent;
      depthOf[t] = parent < 0 ? 0 : depthOf[parent] + 1;
      this.labels.set(t, label);
      if (parent < 0) roots.push(t);
      return t;
    };
    // Iterative pre-order walk of an object subtree; `keep` filters children (block membership).
    const stack: Array<[number, number]> = [];
    const addObjects = (
      tops: readonly number[],
      parent: number,
      occ: Int32Array | null,
      keep: (child: number) => boolean,
    ) => {
      for (let i = tops.length - 1; i >= 0; i--) stack.push([tops[i], parent]);
      while (stack.length) {
        const [o, p] = stack.pop()!;
        const t = next++;
        objOf[t] = o;
        parentOf[t] = p;
        depthOf[t] = depthOf[p] + 1;
        if (!occ) {
          const l = this.customNodes.get(o);
          if (l) l.push(t);
          else this.customNodes.set(o, [t]);
        } else if (occ[o] < 0) occ[o] = t;
        const ch = childrenOf(o);
        for (let i = ch.length - 1; i >= 0; i--) if (keep(ch[i])) stack.push([ch[i], t]);
      }
    };
    const all = visible;
    addObjects(structures, folder(`Structures (${modelName})`, -1), this.primaryNode, all);
    if (compartments.length) addObjects(compartments, folder(`Compartments (${modelName})`, -1), this.primaryNode, all);
    if (cad.length) addObjects(cad, folder('CAD components', -1), this.primaryNode, all);
    systems.forEach((system, k) => {
      const tops = blockTops[k];
      const order = system.blocks
        .map((_, i) => i)
        .filter((i) => tops[i].length > 0)
        .sort((a, b) => byName.compare(system.blocks[a].name, system.blocks[b].name));
      if (!order.length) return;
      const root = folder(`Blocks (${system.name})`, -1);
      const m = memberships[k];
      for (const b of order)
        addObjects(tops[b], folder(system.blocks[b].name, root), k === 0 ? this.blockNode : null, (c) => m[c] === b);
    });
    if (custom.length) {
      const addFolder = (f: TreeTagFolder, parent: number) => {
        const t = folder(f.name, parent);
        this.tagOf.set(t, f.id);
        for (const sub of f.folders) addFolder(sub, t);
        addObjects(
          f.objects.filter((o) => o >= 0 && o < n && visible(o)),
          t,
          null,
          all,
        );
      };
      const root = folder(CUSTOM_TREE_FOLDER, -1);
      for (const f of custom) addFolder(f, root);
    }
    for (const axis of ['X', 'Y', 'Z'] as const) {
      const list = sections.filter((s) => s.axis === axis).sort((a, b) => byName.compare(a.name, b.name));
      if (!list.length) continue;
      const root = folder(`${axis}-sections`, -1);
      for (const s of list) {
        const t = folder(s.name, root);
        this.sectionOf.set(t, s);
      }
    }

    this.size = next;
    this.roots = roots;
    this.objOf = objOf.subarray(0, next);
    this.parentOf = parentOf.subarray(0, next);
    this.depthOf = depthOf.subarray(0, next);
    this.subtreeSize = new Int32Array(next).fill(1);
    this.objectCount = new Int32Array(next);
    this.hiddenCount = new Int32Array(next);
    this.hiddenObj = new Uint8Array(n);
    // Parents precede children in pre-order, so one backward pass accumulates the subtree sums.
    for (let t = next - 1; t >= 0; t--) {
      if (this.objOf[t] >= 0 && this.counts(this.objOf[t])) this.objectCount[t]++;
      const p = this.parentOf[t];
      if (p >= 0) {
        this.subtreeSize[p] += this.subtreeSize[t];
        this.objectCount[p] += this.objectCount[t];
      }
    }
  }

  /** Kind of tree node `t`. */
  kind(t: number): TreeNodeKind {
    return this.objOf[t] >= 0 ? 'object' : this.sectionOf.has(t) ? 'section' : this.tagOf.has(t) ? 'tag' : 'folder';
  }

  /** The tag id of a custom tree folder node, or null. */
  tagId(t: number): number | null {
    return this.tagOf.get(t) ?? null;
  }

  /** The tree node of the custom tree folder of tag `id`, or -1. */
  nodeOfTag(id: number): number {
    for (const [t, tag] of this.tagOf) if (tag === id) return t;
    return -1;
  }

  /** Object index of tree node `t`, or -1 for folders and sections. */
  objectOf(t: number): number {
    return this.objOf[t] ?? -1;
  }

  /** The section of a section node, or null. */
  section(t: number): TreeSection | null {
    return this.sectionOf.get(t) ?? null;
  }

  /** Parent tree node, -1 for a top-level folder. */
  parent(t: number): number {
    return this.parentOf[t];
  }

  /** Depth of `t` (top-level folders 0). */
  depth(t: number): number {
    return this.depthOf[t];
  }

  /** Number of nodes in the subtree of `t` (itself included): the subtree is [t, t + subtreeSizeOf(t)). */
  subtreeSizeOf(t: number): number {
    return this.subtreeSize[t];
  }

  /** True when `t` has children. */
  hasChildren(t: number): boolean {
    return this.subtreeSize[t] > 1;
  }

  /** Child tree nodes of `t`, in order (visits only the children, skipping their subtrees). */
  children(t: number): number[] {
    const out: number[] = [];
    const end = t + this.subtreeSize[t];
    for (let c = t + 1; c < end; c += this.subtreeSize[c]) out.push(c);
    return out;
  }

  /** Number of objects in the subtree of `t` (O(1)). */
  objectCountOf(t: number): number {
    return this.objectCount[t];
  }

  /** Display label: the folder or section name, or the object's name. */
  label(t: number): string {
    const o = this.objOf[t];
    return o >= 0 ? this.objects[o].name : (this.labels.get(t) ?? String(t));
  }

  /** The tree node of object `o` under its structure (or compartment / CAD) root; -1 when unknown. */
  nodeOfObject(o: number): number {
    return this.primaryNode[o] ?? -1;
  }

  /**
   * Object indices in the subtree of `t`, pre-order (an object once per subtree); under a block filter only
   * the block's objects (not the ancestors shown for the structure).
   */
  objectsIn(t: number): number[] {
    const out: number[] = [];
    const end = t + this.subtreeSize[t];
    for (let c = t; c < end; c++) if (this.objOf[c] >= 0 && this.counts(this.objOf[c])) out.push(this.objOf[c]);
    // Custom folders may hold an object twice (tagged itself and as a part of a tagged panel).
    return this.customNodes.size > 0 ? [...new Set(out)] : out;
  }

  /** False for the ancestors a block filter shows only for the structure (see filterMark). */
  private counts(o: number): boolean {
    return !this.filterMark || this.filterMark[o] === 2;
  }

  /** Ancestors of tree node `t` from its top-level folder down (excluding `t`). */
  ancestors(t: number): number[] {
    const chain: number[] = [];
    for (let p = this.parentOf[t]; p >= 0; p = this.parentOf[p]) chain.push(p);
    return chain.reverse();
  }

  /**
   * Objects whose name or id contains `query` (trimmed, case-insensitive), by object index, only those in the
   * tree when it is filtered to a block; [] for an empty query.
   */
  search(query: string): number[] {
    const q = query.trim().toLowerCase();
    if (!q) return [];
    // Lower-cased once, on the first search, so later searches are one pass of `includes`.
    const text = (this.searchText ??= this.objects.map((o) => `${o.name}\u0000${o.id}`.toLowerCase()));
    const out: number[] = [];
    // With a block filter only the objects in the tree are found.
    const inTree = (i: number) => !this.filter || this.primaryNode[i] >= 0 || this.customNodes.has(i);
    for (let i = 0; i < text.length; i++) if (text[i].includes(q) && inTree(i)) out.push(i);
    return out;
  }

  /** Check state of tree node `t` in O(1): sections and empty folders are 'on'. */
  checkState(t: number): CheckState {
    const h = this.hiddenCount[t];
    if (h === 0) return 'on';
    return h === this.objectCount[t] ? 'off' : 'mixed';
  }

  /** True when object `o` is hidden. */
  isHidden(o: number): boolean {
    return this.hiddenObj[o] === 1;
  }

  /** Number of hidden objects. */
  get hiddenObjects(): number {
    return this.hiddenTotal;
  }

  /**
   * Records objects as hidden or shown (the mirror of the engine's visibility). Updates the counts of the
   * ancestors of each changed object's occurrences only. Unknown indices are ignored.
   * @returns the number of tree nodes whose counts were touched (for tests of the index-based cost)
   */
  setHidden(objectIds: Iterable<number>, hidden: boolean): number {
    let touched = 0;
    const d = hidden ? 1 : -1;
    for (const o of objectIds) {
      if (!(o >= 0 && o < this.hiddenObj.length) || (this.hiddenObj[o] === 1) === hidden) continue;
      this.hiddenObj[o] = hidden ? 1 : 0;
      this.hiddenTotal += d;
      if (!this.counts(o)) continue;
      touched += this.countUp(this.primaryNode[o], d) + this.countUp(this.blockNode[o], d);
      const extra = this.customNodes.get(o);
      if (extra) for (const start of extra) touched += this.countUp(start, d);
    }
    return touched;
  }

  /** Adds `d` to the hidden count of `start` and its ancestors; @returns the nodes touched. */
  private countUp(start: number, d: number): number {
    let touched = 0;
    for (let t = start; t >= 0; t = this.parentOf[t]) {
      this.hiddenCount[t] += d;
      touched++;
    }
    return touched;
  }

  /** Shows every object in the mirror (a new model or a reset). */
  clearHidden(): void {
    this.hiddenObj.fill(0);
    this.hiddenCount.fill(0);
    this.hiddenTotal = 0;
  }
}

/** Text of the search summary of viewer.md §2: 'No results found' or 'Search result: N object(s)'. */
export function searchSummary(count: number): string {
  return count === 0 ? 'No results found' : `Search result: ${count} object(s)`;
}
