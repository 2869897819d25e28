/**
 * A bounding-volume hierarchy over the objects' world boxes (mm), built once per set of bounds, so a query
 * (box selection, viewer.md §4 "Selection") decides whole subtrees that lie fully inside or outside its
 * region without visiting their objects. Pure typed arrays, no three.js.
 */

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
 * Builds the hierarchy over objects 0..objectCount-1 of `bounds` (6 values per object; objects whose
 * min > max have no geometry and are left out). Splits at the median centroid of the longest axis
 * (O(n log n)); leaves hold at most BOUNDS_TREE_LEAF objects.
 */
export function buildObjectBoundsTree(bounds: Float64Array, objectCount: number): ObjectBoundsTree {
  const ids: number[] = [];
  for (let id = 0; id < objectCount; id++) if (bounds[id * 6] <= bounds[id * 6 + 3]) ids.push(id);
  const order = Int32Array.from(ids);
  const n = order.length;
  // A median-split tree of n objects has fewer than 2·⌈n / (LEAF/2)⌉ + 1 nodes.
  const cap = 2 * Math.ceil(n / (BOUNDS_TREE_LEAF / 2)) + 1;
  const boxes = new Float64Array(cap * 6);
  const start = new Int32Array(cap);
  const count = new Int32Array(cap);
  const child = new Int32Array(cap).fill(-1);
  let nodes = 1;
  const stack: number[] = [0, 0, n];
  while (stack.length > 0) {
    const hi = stack.pop() as number,
      lo = stack.pop() as number,
      node = stack.pop() as number;
    start[node] = lo;
    count[node] = hi - lo;
    let x0 = Infinity,
      y0 = Infinity,
      z0 = Infinity,
      x1 = -Infinity,
      y1 = -Infinity,
      z1 = -Infinity;
    const c0 = [Infinity, Infinity, Infinity],
      c1 = [-Infinity, -Infinity, -Infinity];
    for (let k = lo; k < hi; k++) {
      const o = order[k] * 6;
      if (bounds[o] < x0) x0 = bounds[o];
      if (bounds[o + 1] < y0) y0 = bounds[o + 1];
      if (bounds[o + 2] < z0) z0 = bounds[o + 2];
      if (bounds[o + 3] > x1) x1 = bounds[o + 3];
      if (bounds[o + 4] > y1) y1 = bounds[o + 4];
      if (bounds[o + 5] > z1) z1 = bounds[o + 5];
      for (let a = 0; a < 3; a++) {
        const c = bounds[o + a] + bounds[o + a + 3];
        if (c < c0[a]) c0[a] = c;
        if (c > c1[a]) c1[a] = c;
      }
    }
    boxes.set([x0, y0, z0, x1, y1, z1], node * 6);
    if (hi - lo <= BOUNDS_TREE_LEAF) continue;
    const ext = [c1[0] - c0[0], c1[1] - c0[1], c1[2] - c0[2]];
    const axis = ext[0] >= ext[1] && ext[0] >= ext[2] ? 0 : ext[1] >= ext[2] ? 1 : 2;
    const mid = (lo + hi) >> 1;
    selectNth(order, lo, hi - 1, mid, bounds, axis);
    const left = nodes;
    nodes += 2;
    child[node] = left;
    stack.push(left, lo, mid, left + 1, mid, hi);
  }
  return { order, boxes, start, count, child, nodeCount: nodes };
}

/** Reorders `order[lo..hi]` so that `order[nth]` has its sorted place by box centre on `axis` (quickselect). */
function selectNth(order: Int32Array, lo: number, hi: number, nth: number, b: Float64Array, axis: number): void {
  const key = (k: number) => b[order[k] * 6 + axis] + b[order[k] * 6 + axis + 3];
  while (hi > lo) {
    const pivot = key((lo + hi) >> 1);
    let i = lo,
      j = hi;
    while (i <= j) {
      while (key(i) < pivot) i++;
      while (key(j) > pivot) j--;
      if (i <= j) {
        const t = order[i];
        order[i] = order[j];
        order[j] = t;
        i++;
        j--;
      }
    }
    if (nth <= j) hi = j;
    else if (nth >= i) lo = i;
    else return;
  }
}
