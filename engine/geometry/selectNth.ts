/**
 * Partially orders `order[start..end)` so that `order[nth]` holds the element a full sort by key would put
 * there, smaller keys before it and larger after (Hoare quickselect, O(n) on average): the median split of a
 * bounding-volume hierarchy's build without sorting every node. The key of element `o` is
 * `keys[o·stride + a] + keys[o·stride + b]` — a box's min + max on one axis (twice its centre; stride 6,
 * b = a + 3), or a centroid coordinate counted twice (stride 3, b = a), which orders the same.
 */
export function selectNth(
  order: Int32Array,
  start: number,
  end: number,
  nth: number,
  keys: Float64Array,
  stride: number,
  a: number,
  b: number,
): void {
  let lo = start,
    hi = end - 1;
  while (hi > lo) {
    const pm = order[(lo + hi) >> 1] * stride;
    const pivot = keys[pm + a] + keys[pm + b];
    let i = lo,
      j = hi;
    while (i <= j) {
      while (keys[order[i] * stride + a] + keys[order[i] * stride + b] < pivot) i++;
      while (keys[order[j] * stride + a] + keys[order[j] * stride + b] > pivot) j--;
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
