/**
 * The visible rows of a ModelTree (viewer.md §2 "Model tree panel", virtualised list): which nodes are
 * expanded and the flattened list of rows the virtualiser draws. Rows are kept in pre-order, so they are
 * sorted by tree node id: finding a node's row is a binary search, expanding inserts only the newly visible
 * part of that node's subtree and collapsing removes only it. `visited` counts the tree nodes each operation
 * looked at (tests assert on it instead of timing).
 */
import type { ModelTree } from './ModelTree';

export class TreeRows {
  /** Visible tree nodes in display order (ascending node ids). */
  private rows: number[];
  private readonly expanded: Uint8Array;
  /** Tree nodes examined by the last operation. */
  visited = 0;
  /** Increments on every change, for React to re-render. */
  version = 0;

  /** Starts with the top-level folders visible and `expand` (e.g. the first root) expanded. */
  constructor(
    readonly tree: ModelTree,
    expand: readonly number[] = tree.roots.slice(0, 1),
  ) {
    this.expanded = new Uint8Array(tree.size);
    this.rows = [...tree.roots];
    for (const t of expand) this.expand(t);
  }

  /** Number of visible rows. */
  get length(): number {
    return this.rows.length;
  }

  /** Tree node of row `i`. */
  nodeAt(i: number): number {
    return this.rows[i];
  }

  /** True when `t` is expanded. */
  isExpanded(t: number): boolean {
    return this.expanded[t] === 1;
  }

  /** Row index of tree node `t`, or -1 when it is not visible. O(log rows). */
  indexOf(t: number): number {
    let lo = 0;
    let hi = this.rows.length - 1;
    this.visited = 0;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      this.visited++;
      const v = this.rows[mid];
      if (v === t) return mid;
      if (v < t) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** First row index whose node is >= t. */
  private lowerBound(t: number): number {
    let lo = 0;
    let hi = this.rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.rows[mid] < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The rows below `t` that become visible when `t` is open: walks its subtree, skipping closed nodes. */
  private visibleBelow(t: number): number[] {
    const out: number[] = [];
    const tree = this.tree;
    const end = t + tree.subtreeSizeOf(t);
    for (let c = t + 1; c < end; ) {
      this.visited++;
      out.push(c);
      c += this.expanded[c] ? 1 : tree.subtreeSizeOf(c);
    }
    return out;
  }

  /** Expands `t` (no-op when already expanded or a leaf); its rows appear only if `t` itself is visible. */
  expand(t: number): void {
    this.visited = 0;
    if (this.expanded[t] || !this.tree.hasChildren(t)) return;
    this.expanded[t] = 1;
    const at = this.indexOf(t);
    if (at < 0) return;
    const added = this.visibleBelow(t);
    this.splice(at + 1, 0, added);
    this.version++;
  }

  /** Collapses `t`: removes the rows of its subtree. */
  collapse(t: number): void {
    this.visited = 0;
    if (!this.expanded[t]) return;
    this.expanded[t] = 0;
    const at = this.indexOf(t);
    if (at < 0) return;
    const end = this.lowerBound(t + this.tree.subtreeSizeOf(t));
    this.visited += end - at - 1;
    this.splice(at + 1, end - at - 1, []);
    this.version++;
  }

  /** Expands or collapses `t`. */
  toggle(t: number): void {
    if (this.expanded[t]) this.collapse(t);
    else this.expand(t);
  }

  /** Expands every ancestor of `t` so that it becomes visible; returns its row index. */
  reveal(t: number): number {
    let visited = 0;
    for (const a of this.tree.ancestors(t)) {
      this.expand(a);
      visited += this.visited;
    }
    const i = this.indexOf(t);
    this.visited += visited;
    return i;
  }

  /**
   * Keys ('/label/label...') of the expanded folder nodes (not objects), to carry the open folders over to a
   * rebuilt tree (sections or custom trees changed). Visits the folders only.
   */
  expandedFolderKeys(): string[] {
    const out: string[] = [];
    const walk = (t: number, path: string) => {
      if (!this.expanded[t]) return;
      const key = `${path}/${this.tree.label(t)}`;
      out.push(key);
      for (const c of this.tree.children(t)) if (this.tree.kind(c) !== 'object') walk(c, key);
    };
    for (const r of this.tree.roots) walk(r, '');
    return out;
  }

  /** The folder nodes of `tree` whose keys (see expandedFolderKeys) are in `keys`. */
  static foldersWithKeys(tree: ModelTree, keys: ReadonlySet<string>): number[] {
    const out: number[] = [];
    const walk = (t: number, path: string) => {
      const key = `${path}/${tree.label(t)}`;
      if (!keys.has(key)) return;
      out.push(t);
      for (const c of tree.children(t)) if (tree.kind(c) !== 'object') walk(c, key);
    };
    for (const r of tree.roots) walk(r, '');
    return out;
  }

  // Array.prototype.splice with a spread argument overflows the stack for 100k+ items; copy instead.
  private splice(at: number, remove: number, insert: number[]): void {
    if (insert.length < 10_000 && remove < 10_000) {
      this.rows.splice(at, remove, ...insert);
      return;
    }
    const head = this.rows.slice(0, at);
    const tail = this.rows.slice(at + remove);
    this.rows = head.concat(insert, tail);
  }
}
