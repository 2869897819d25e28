/**
 * Pure lookups from picked geometry to model objects (viewer.md §4 "Selection"): triangle → object index
 * inside a chunk (binary search over the chunk's object ranges), node → owning MAIN OBJECT, and the
 * node hierarchy (children, subtrees) built from the object table's parent array.
 */
import type { ObjectType } from '../model/types';

/** Sorted triangle ranges of one chunk: triangle `triStarts[i]` up to the next start belongs to `objects[i]`. */
export interface TriangleObjectLookup {
  triStarts: Uint32Array;
  triEnds: Uint32Array;
  objects: Uint32Array;
}

/**
 * Builds the lookup from a chunk's object ranges (5 values per object:
 * [objectIndex, vertexStart, vertexCount, indexStart, indexCount], index counts in indices, i.e. 3 per
 * triangle; SceneChunk.objects of engine/package/types.ts).
 * @throws Error when the table length is not a multiple of 5 or a range is not whole triangles.
 */
export function buildTriangleLookup(objectRanges: Uint32Array): TriangleObjectLookup {
  if (objectRanges.length % 5 !== 0) {
    throw new Error(`Chunk object table has ${objectRanges.length} values, not a multiple of 5`);
  }
  const n = objectRanges.length / 5;
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => objectRanges[a * 5 + 3] - objectRanges[b * 5 + 3]);
  const triStarts = new Uint32Array(n),
    triEnds = new Uint32Array(n),
    objects = new Uint32Array(n);
  order.forEach((src, i) => {
    const start = objectRanges[src * 5 + 3],
      count = objectRanges[src * 5 + 4];
    if (start % 3 !== 0 || count % 3 !== 0) {
      throw new Error(`Chunk object ${objectRanges[src * 5]} index range ${start}+${count} is not whole triangles`);
    }
    triStarts[i] = start / 3;
    triEnds[i] = (start + count) / 3;
    objects[i] = objectRanges[src * 5];
  });
  return { triStarts, triEnds, objects };
}

/** Object index owning triangle `tri` of the chunk, or -1 when no range covers it (binary search, O(log n)). */
export function objectAtTriangle(lookup: TriangleObjectLookup, tri: number): number {
  const { triStarts, triEnds, objects } = lookup;
  let lo = 0,
    hi = triStarts.length - 1,
    found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (triStarts[mid] <= tri) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found >= 0 && tri < triEnds[found] ? objects[found] : -1;
}

/**
 * Maps a node to its owning MAIN OBJECT by walking `parents` (Main Objects mode, viewer.md §2/§4).
 * Returns the node itself when it is a MAIN OBJECT or no ancestor is one. Guards against parent cycles.
 */
export function owningMainObject(nodeId: number, parents: ArrayLike<number>, types: ArrayLike<ObjectType>): number {
  let n = nodeId;
  for (let guard = 0; n >= 0 && n < parents.length && guard <= parents.length; guard++) {
    if (types[n] === 'MAIN OBJECT') return n;
    n = parents[n];
  }
  return nodeId;
}

/** Children of every node in compressed form: children of `i` are `list[offsets[i] .. offsets[i+1])`. */
export interface NodeChildren {
  offsets: Uint32Array;
  list: Uint32Array;
}

/**
 * Builds the children lists from a parent array (-1 for roots).
 * @throws Error naming the node when a parent index is out of range.
 */
export function buildChildren(parents: ArrayLike<number>): NodeChildren {
  const n = parents.length;
  const counts = new Uint32Array(n + 1);
  for (let i = 0; i < n; i++) {
    const p = parents[i];
    if (p === -1) continue;
    if (!(p >= 0 && p < n) || p === i) throw new Error(`Object table: node ${i} has invalid parent ${p}`);
    counts[p + 1]++;
  }
  for (let i = 0; i < n; i++) counts[i + 1] += counts[i];
  const offsets = counts.slice();
  const fill = counts.slice(0, n);
  const list = new Uint32Array(offsets[n]);
  for (let i = 0; i < n; i++) {
    const p = parents[i];
    if (p >= 0) list[fill[p]++] = i;
  }
  return { offsets, list };
}

/** Marks of collectSubtrees, one byte per node, all zero between calls (kept: a pick must not allocate per node). */
let seenScratch = new Uint8Array(0);

/**
 * The given nodes and all their descendants, each once (in visiting order). Node ids outside 0..n-1 are
 * ignored; without a hierarchy (`children` null) the nodes themselves are returned. O(result): the marks
 * live in a shared scratch array that is cleared again from the result.
 */
export function collectSubtrees(nodeIds: Iterable<number>, children: NodeChildren | null, nodeCount: number): number[] {
  if (seenScratch.length < nodeCount) seenScratch = new Uint8Array(nodeCount);
  const seen = seenScratch;
  const out: number[] = [];
  const stack: number[] = [];
  try {
    for (const id of nodeIds) {
      if (!(Number.isInteger(id) && id >= 0 && id < nodeCount) || seen[id]) continue;
      stack.push(id);
      while (stack.length) {
        const n = stack.pop()!;
        if (seen[n]) continue;
        seen[n] = 1;
        out.push(n);
        if (children && n + 1 < children.offsets.length) {
          for (let k = children.offsets[n]; k < children.offsets[n + 1]; k++) stack.push(children.list[k]);
        }
      }
    }
  } finally {
    for (let k = 0; k < out.length; k++) seen[out[k]] = 0;
  }
  return out;
}
