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

/**
 * selectNth for a hierarchy build whose data moves with its order: `cent` (3 per position: a centroid)
 * and `boxes` (6 per position: a box) are indexed by position in `order`, not by element, and every swap
 * of `order[i]`, `order[j]` swaps their rows too. The key is `cent[i·3 + axis]` counted twice, so the
 * comparisons, swaps and resulting order are selectNth's with (keys, 3, axis, axis) on the original rows;
 * the rows end in the new order, so a pass over a node's positions reads memory in sequence.
 */
export function selectNthCarried(
  order: Int32Array,
  start: number,
  end: number,
  nth: number,
  cent: Float64Array,
  boxes: Float64Array,
  axis: number,
): void {
  let lo = start,
    hi = end - 1;
  while (hi > lo) {
    const pm = ((lo + hi) >> 1) * 3 + axis;
    const pivot = cent[pm] + cent[pm];
    let i = lo,
      j = hi;
    while (i <= j) {
      while (cent[i * 3 + axis] + cent[i * 3 + axis] < pivot) i++;
      while (cent[j * 3 + axis] + cent[j * 3 + axis] > pivot) j--;
      if (i <= j) {
        const t = order[i];
        order[i] = order[j];
        order[j] = t;
        for (let k = 0; k < 3; k++) {
          const c = cent[i * 3 + k];
          cent[i * 3 + k] = cent[j * 3 + k];
          cent[j * 3 + k] = c;
        }
        for (let k = 0; k < 6; k++) {
          const b = boxes[i * 6 + k];
          boxes[i * 6 + k] = boxes[j * 6 + k];
          boxes[j * 6 + k] = b;
        }
        i++;
        j--;
      }
    }
    if (nth <= j) hi = j;
    else if (nth >= i) lo = i;
    else return;
  }
}

/**
 * The value a numeric sort of `a` (Float64Array.prototype.sort: ascending, NaN last) puts at index
 * `nth`, found by quickselect in O(n) on average; `a` is reordered in place (not sorted). The order
 * statistics of surface sampling (a median, a 90th percentile) without sorting every array.
 * @returns NaN when nth is at or past the NaNs; undefined when nth is outside [0, a.length).
 */
export function nthValue(a: Float64Array, nth: number): number | undefined {
  if (!(nth >= 0 && nth < a.length)) return undefined;
  // NaNs to the end, as the sort puts them
  let end = a.length;
  for (let i = 0; i < end; )
    if (Number.isNaN(a[i])) {
      end--;
      a[i] = a[end];
      a[end] = NaN;
    } else i++;
  if (nth >= end) return NaN;
  let lo = 0,
    hi = end - 1;
  while (hi > lo) {
    const pivot = a[(lo + hi) >> 1];
    let i = lo,
      j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    }
    if (nth <= j) hi = j;
    else if (nth >= i) lo = i;
    else break;
  }
  return a[nth];
}
