/**
 * A one-axis interval tree over the section index's ranges (viewer.md §4 "Section drawing"): the ranges
 * ordered by the centre of their extent along one axis, cut into leaves of LEAF_RANGES, with an implicit
 * binary tree of [lowest min, highest max] along that axis above the leaves. A plane normal to that axis
 * visits only the nodes whose interval reaches it. The section index's 3D BVH splits mostly along the
 * ship's length, so a longitudinal (Y) or horizontal (Z) plane crosses most of its upper nodes; one tree
 * per axis gives each plane the ordering the X path already had. All values world millimetres.
 */

/** Ranges per leaf. */
const LEAF_RANGES = 8;

/** The tree for one axis; built once, queried without allocating beyond the caller's output. */
export class AxisIntervalTree {
  /** Range numbers in tree order. */
  private readonly order: Int32Array;
  /** Per position in `order`: the range's min and max along the axis (mm). */
  private readonly lo: Float64Array;
  private readonly hi: Float64Array;
  /** Implicit tree (root 1, children 2n and 2n+1, leaf i at `leaves + i`): min and max along the axis (mm). */
  private readonly nodeLo: Float64Array;
  private readonly nodeHi: Float64Array;
  /** Leaf slots (a power of two; the unused ones are empty intervals). */
  private readonly leaves: number;
  private readonly stack: Int32Array;
  /** The last query's ranges (`query` returns how many of them are valid). */
  readonly hits: Int32Array;

  /**
   * @param bounds per range 6 values (min xyz, max xyz, mm), as SectionIndex.rangeBounds
   * @param axis 0, 1, 2 for X, Y, Z
   */
  constructor(bounds: Float64Array, axis: 0 | 1 | 2) {
    const n = bounds.length / 6;
    // Order by centre through one native numeric sort: a quantised centre times n plus the range number
    // (exact below 2^53); the order only has to be spatially coherent, not exactly sorted.
    let min = Infinity,
      max = -Infinity;
    for (let r = 0; r < n; r++) {
      const c = (bounds[r * 6 + axis] + bounds[r * 6 + axis + 3]) / 2;
      if (c < min) min = c;
      if (c > max) max = c;
    }
    const steps = Math.max(1, Math.floor(2 ** 53 / Math.max(1, n)) - 1);
    const scale = max > min ? steps / (max - min) : 0;
    const keys = new Float64Array(n);
    for (let r = 0; r < n; r++) {
      const c = (bounds[r * 6 + axis] + bounds[r * 6 + axis + 3]) / 2;
      // Non-finite centres (never in practice: such ranges are not indexed) go first.
      const q = Number.isFinite(c) ? Math.min(steps, Math.max(0, Math.floor((c - min) * scale))) : 0;
      keys[r] = q * n + r;
    }
    keys.sort();
    this.order = new Int32Array(n);
    this.lo = new Float64Array(n);
    this.hi = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const r = keys[i] % n;
      this.order[i] = r;
      this.lo[i] = bounds[r * 6 + axis];
      this.hi[i] = bounds[r * 6 + axis + 3];
    }
    const used = Math.ceil(n / LEAF_RANGES);
    let leaves = 1;
    while (leaves < used) leaves *= 2;
    this.leaves = leaves;
    this.nodeLo = new Float64Array(2 * leaves).fill(Infinity);
    this.nodeHi = new Float64Array(2 * leaves).fill(-Infinity);
    for (let l = 0; l < used; l++) {
      let a = Infinity,
        b = -Infinity;
      // Same comparisons as the 3D BVH's node bounds (a NaN bound widens nothing).
      for (let i = l * LEAF_RANGES, e = Math.min(n, i + LEAF_RANGES); i < e; i++) {
        if (this.lo[i] < a) a = this.lo[i];
        if (this.hi[i] > b) b = this.hi[i];
      }
      this.nodeLo[leaves + l] = a;
      this.nodeHi[leaves + l] = b;
    }
    for (let v = leaves - 1; v >= 1; v--) {
      this.nodeLo[v] = Math.min(this.nodeLo[2 * v], this.nodeLo[2 * v + 1]);
      this.nodeHi[v] = Math.max(this.nodeHi[2 * v], this.nodeHi[2 * v + 1]);
    }
    this.stack = new Int32Array(2 * Math.log2(leaves) + 2);
    this.hits = new Int32Array(n);
  }

  /**
   * The ranges whose extent along the axis reaches [lo, hi] (min ≤ hi and max ≥ lo), written to
   * `hits[0 .. count)` in tree order (not the 3D BVH's). @returns count
   */
  query(lo: number, hi: number): number {
    const out = this.hits;
    let w = 0;
    const st = this.stack,
      nl = this.nodeLo,
      nh = this.nodeHi,
      leaves = this.leaves,
      order = this.order,
      rl = this.lo,
      rh = this.hi,
      n = order.length;
    let sp = 0;
    st[sp++] = 1;
    while (sp > 0) {
      const v = st[--sp];
      if (nl[v] > hi || nh[v] < lo) continue;
      if (v >= leaves) {
        for (let i = (v - leaves) * LEAF_RANGES, e = Math.min(n, i + LEAF_RANGES); i < e; i++)
          if (rl[i] <= hi && rh[i] >= lo) out[w++] = order[i];
      } else {
        st[sp++] = 2 * v + 1;
        st[sp++] = 2 * v;
      }
    }
    return w;
  }
}
