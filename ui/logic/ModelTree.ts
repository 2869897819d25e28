/**
 * The model tree of viewer.md §2 "Model tree panel" as flat, index-based data so that 100k nodes stay fast:
 * a synthetic root 'Structures ({model name})' whose children are the objects without a parent (panels,
 * MAIN OBJECT), then their parts, by the object table's parent indices. Node ids are object-table indices
 * (the engine's node ids); the root is ROOT_NODE (-1).
 */

/** The node id of the synthetic root. */
export const ROOT_NODE = -1;

/** The part of a model object row the tree needs (engine/model/types.ts ModelObject). */
export interface TreeObject {
  index: number;
  id: string;
  name: string;
  type: string;
  parent: number;
}

/** One visible row of the flattened tree. */
export interface TreeRow {
  node: number;
  depth: number;
  hasChildren: boolean;
  expanded: boolean;
}

/** Index-based tree over an object table. Immutable after construction. */
export class ModelTree {
  readonly rootLabel: string;
  readonly objects: readonly TreeObject[];
  /** CSR children: the children of node i are childList[childStart[i+1] .. childStart[i+2]); slot 0 is the root. */
  private readonly childStart: Int32Array;
  private readonly childList: Int32Array;

  /**
   * @param modelName shown in the root label 'Structures ({model name})'
   * @param objects object rows; `index` must equal the row position (0..n-1). A parent outside 0..n-1 or
   *   equal to the row itself makes the row a child of the root.
   * @throws Error when an object's index does not match its position.
   */
  constructor(modelName: string, objects: readonly TreeObject[]) {
    this.rootLabel = `Structures (${modelName})`;
    this.objects = objects;
    const n = objects.length;
    const slot = (o: TreeObject): number => {
      const p = o.parent;
      return p >= 0 && p < n && p !== o.index ? p + 1 : 0;
    };
    const counts = new Int32Array(n + 2);
    for (let i = 0; i < n; i++) {
      const o = objects[i];
      if (o.index !== i) throw new Error(`Object table row ${i} has index ${o.index}; indices must be 0..n-1 in order`);
      counts[slot(o) + 1]++;
    }
    for (let i = 1; i < n + 2; i++) counts[i] += counts[i - 1];
    this.childStart = counts;
    const fill = counts.slice(0, n + 1);
    this.childList = new Int32Array(n);
    for (let i = 0; i < n; i++) this.childList[fill[slot(objects[i])]++] = i;
  }

  /** Child node ids of `node` (ROOT_NODE for the root's children). */
  children(node: number): Int32Array {
    const s = node + 1;
    return this.childList.subarray(this.childStart[s], this.childStart[s + 1]);
  }

  /** Display label of a node. */
  label(node: number): string {
    return node === ROOT_NODE ? this.rootLabel : this.objects[node]?.name ?? String(node);
  }

  /** `node` and all its descendants, pre-order (for the root: every object, without the root itself). */
  descendants(node: number): number[] {
    const out: number[] = [];
    const stack: number[] = [node];
    while (stack.length) {
      const cur = stack.pop()!;
      if (cur !== ROOT_NODE) out.push(cur);
      const ch = this.children(cur);
      for (let i = ch.length - 1; i >= 0; i--) stack.push(ch[i]);
    }
    return out;
  }

  /** The visible rows: the root, then children of every expanded node, depth-first in table order. */
  flatten(expanded: ReadonlySet<number>): TreeRow[] {
    const rows: TreeRow[] = [];
    const stack: Array<[number, number]> = [[ROOT_NODE, 0]];
    while (stack.length) {
      const [node, depth] = stack.pop()!;
      const ch = this.children(node);
      const isOpen = expanded.has(node);
      rows.push({ node, depth, hasChildren: ch.length > 0, expanded: isOpen });
      if (isOpen) for (let i = ch.length - 1; i >= 0; i--) stack.push([ch[i], depth + 1]);
    }
    return rows;
  }

  /** Chain of ancestors of `node` from the root down (excluding the node), for expanding to it. */
  ancestors(node: number): number[] {
    const chain: number[] = [];
    let cur = this.objects[node]?.parent ?? -1;
    const n = this.objects.length;
    while (cur >= 0 && cur < n && chain.length <= n) {
      chain.push(cur);
      const next = this.objects[cur].parent;
      if (next === cur) break;
      cur = next;
    }
    chain.push(ROOT_NODE);
    return chain.reverse();
  }

  /** Objects whose name or id contains `query` (trimmed, case-insensitive); [] for an empty query. */
  search(query: string): number[] {
    const q = query.trim().toLowerCase();
    if (!q) return [];
    const out: number[] = [];
    for (const o of this.objects) {
      if (o.name.toLowerCase().includes(q) || o.id.toLowerCase().includes(q)) out.push(o.index);
    }
    return out;
  }

  /** Checkbox state of a node given the hidden set: 'on' (all shown), 'off' (all hidden) or 'mixed'. */
  checkState(node: number, hidden: ReadonlySet<number>): 'on' | 'off' | 'mixed' {
    if (hidden.size === 0) return 'on';
    const ids = this.descendants(node);
    let h = 0;
    for (const i of ids) if (hidden.has(i)) h++;
    if (h === 0) return 'on';
    return h === ids.length ? 'off' : 'mixed';
  }
}

/** Text of the search summary of viewer.md §2: 'No results found' or 'Search result: N object(s)'. */
export function searchSummary(count: number): string {
  return count === 0 ? 'No results found' : `Search result: ${count} object(s)`;
}
