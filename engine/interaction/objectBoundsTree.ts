/**
 * A bounding-volume hierarchy over the objects' world boxes (mm), so a box selection (viewer.md §4
 * "Selection", ./boxSelect.ts) decides whole subtrees that lie fully inside or outside its rectangle without
 * visiting their objects. Pure typed arrays, no three.js. The build is resumable: the engine runs it in idle
 * slices after loading (scene/ModelLoader.ts), so neither a frame nor the first box gesture pays for it.
 */
import { selectNth } from '../geometry/selectNth';

/** Objects per leaf at most. */
export const BOUNDS_TREE_LEAF = 8;

/**
 * The hierarchy. Node `i` covers the objects `order[start[i] .. start[i] + count[i])` (every subtree is one
 * contiguous run of `order`) inside the box `boxes[i*6 .. i*6+6)` (min xyz, max xyz; mm). `child[i]` is the
 * first of its two children (the second is `child[i] + 1`), or -1 for a leaf. Node 0 is the root.
 */
export interface ObjectBoundsTree {
  order: Int32Array;
  boxes: Float64Array;
  start: Int32Array;
  count: Int32Array;
  child: Int32Array;
  nodeCount: number;
}

/**
 * Builds the hierarchy over objects 0..objectCount-1 of `bounds` (6 values per object, mm; objects whose
 * min > max have no geometry and are left out) in one go. See ObjectBoundsTreeBuild.
 */
export function buildObjectBoundsTree(bounds: Float64Array, objectCount: number): ObjectBoundsTree {
  return new ObjectBoundsTreeBuild(bounds, objectCount).run(Infinity, () => 0) as ObjectBoundsTree;
}

/**
 * A build in progress: splits at the median box centre of the longest axis (quickselect, O(n log n) in
 * all); leaves hold at most BOUNDS_TREE_LEAF objects. `run` works for a time budget and can be called again
 * until it returns the tree. The bounds must not change meanwhile (the owner starts a new build then).
 */
export class ObjectBoundsTreeBuild {
  private readonly tree: ObjectBoundsTree;
  /** Pending nodes as (node, lo, hi) triples. */
  private readonly stack: number[];
  private nodes = 1;

  /** @throws Error when objectCount exceeds the bounds array (6 values per object). */
  constructor(
    private readonly bounds: Float64Array,
    objectCount: number,
  ) {
    if (!(Number.isInteger(objectCount) && objectCount >= 0 && objectCount * 6 <= bounds.length))
      throw new Error(`Object bounds tree: ${objectCount} objects but ${bounds.length / 6} boxes`);
    let n = 0;
    for (let id = 0; id < objectCount; id++) if (bounds[id * 6] <= bounds[id * 6 + 3]) n++;
    const order = new Int32Array(n);
    for (let id = 0, k = 0; id < objectCount; id++) if (bounds[id * 6] <= bounds[id * 6 + 3]) order[k++] = id;
    // A median-split tree of n objects has fewer than 2·⌈n / (LEAF/2)⌉ + 1 nodes.
    const cap = 2 * Math.ceil(n / (BOUNDS_TREE_LEAF / 2)) + 1;
    this.tree = {
      order,
      boxes: new Float64Array(cap * 6),
      start: new Int32Array(cap),
      count: new Int32Array(cap),
      child: new Int32Array(cap).fill(-1),
      nodeCount: 0,
    };
    this.stack = [0, 0, n];
  }

  /** True once the tree is complete. */
  get done(): boolean {
    return this.stack.length === 0;
  }

  /**
   * Builds nodes until the tree is complete (returns it) or `budgetMs` (measured with `now`, ms) has passed
   * (returns null; call again to go on).
   */
  run(budgetMs: number, now: () => number): ObjectBoundsTree | null {
    const t0 = now();
    const { order, boxes, start, count, child } = this.tree;
    const b = this.bounds;
    const stack = this.stack;
    let work = 0;
    while (stack.length > 0) {
      // A node costs time in proportion to its objects (the root all of them): the clock is read after
      // every few thousand objects' worth of nodes, so a slice overruns its budget by one node at most.
      if (work >= 4096) {
        work = 0;
        if (now() - t0 > budgetMs) return null;
      }
      const hi = stack.pop() as number,
        lo = stack.pop() as number,
        node = stack.pop() as number;
      work += hi - lo + 16;
      start[node] = lo;
      count[node] = hi - lo;
      let x0 = Infinity,
        y0 = Infinity,
        z0 = Infinity,
        x1 = -Infinity,
        y1 = -Infinity,
        z1 = -Infinity;
      let cx0 = Infinity,
        cy0 = Infinity,
        cz0 = Infinity,
        cx1 = -Infinity,
        cy1 = -Infinity,
        cz1 = -Infinity;
      for (let k = lo; k < hi; k++) {
        const o = order[k] * 6;
        const ax = b[o],
          ay = b[o + 1],
          az = b[o + 2],
          bx = b[o + 3],
          by = b[o + 4],
          bz = b[o + 5];
        if (ax < x0) x0 = ax;
        if (ay < y0) y0 = ay;
        if (az < z0) z0 = az;
        if (bx > x1) x1 = bx;
        if (by > y1) y1 = by;
        if (bz > z1) z1 = bz;
        const cx = ax + bx,
          cy = ay + by,
          cz = az + bz;
        if (cx < cx0) cx0 = cx;
        if (cx > cx1) cx1 = cx;
        if (cy < cy0) cy0 = cy;
        if (cy > cy1) cy1 = cy;
        if (cz < cz0) cz0 = cz;
        if (cz > cz1) cz1 = cz;
      }
      const o6 = node * 6;
      boxes[o6] = x0;
      boxes[o6 + 1] = y0;
      boxes[o6 + 2] = z0;
      boxes[o6 + 3] = x1;
      boxes[o6 + 4] = y1;
      boxes[o6 + 5] = z1;
      if (hi - lo <= BOUNDS_TREE_LEAF) continue;
      const ex = cx1 - cx0,
        ey = cy1 - cy0,
        ez = cz1 - cz0;
      const axis = ex >= ey && ex >= ez ? 0 : ey >= ez ? 1 : 2;
      const mid = (lo + hi) >> 1;
      selectNth(order, lo, hi, mid, b, 6, axis, axis + 3);
      const left = this.nodes;
      this.nodes += 2;
      child[node] = left;
      stack.push(left, lo, mid, left + 1, mid, hi);
    }
    this.tree.nodeCount = this.nodes;
    return this.tree;
  }
}
