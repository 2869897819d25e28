/**
 * Per-object geometry out of a SectionIndex (decoded `.sc` chunks or importer meshes), for the
 * surface-object kernel (viewer.md §7 "Geometry" surface-objects). Also the geometric
 * tolerance the `.sc` quantisation calls for: positions are 16-bit over each chunk's box, so a vertex
 * may sit half a quantum off its true place. World millimetres throughout.
 */
import { QUANT_MAX } from '../package/format';
import type { SectionIndex } from '../section/SectionIndex';
import type { PartGeometry } from './planarFace';

/** Object index → its ranges in the index (built once per SectionIndex). */
const rangesByObject = new WeakMap<SectionIndex, Map<number, number[]>>();

function rangesOf(index: SectionIndex, object: number): number[] {
  let m = rangesByObject.get(index);
  if (!m) {
    m = new Map();
    index.ranges.forEach((r, i) => {
      const l = m!.get(r.object);
      if (l) l.push(i);
      else m!.set(r.object, [i]);
    });
    rangesByObject.set(index, m);
  }
  return m.get(object) ?? [];
}

/**
 * The triangles (9 values each) and edge segments (6 each) of object `object`, mm, plus a tolerance
 * (mm) of at least `minTolerance` and 1.5 quanta of the coarsest chunk it lies in. An object without
 * geometry gives empty arrays.
 */
export function objectGeometry(
  index: SectionIndex,
  object: number,
  minTolerance = 0.5,
): PartGeometry & { tolerance: number } {
  const tris: number[] = [],
    edges: number[] = [];
  let tolerance = minTolerance;
  for (const ri of rangesOf(index, object)) {
    const r = index.ranges[ri];
    const b = index.batches[r.batch];
    const bb = b.bounds;
    tolerance = Math.max(tolerance, (1.5 * Math.max(bb[3] - bb[0], bb[4] - bb[1], bb[5] - bb[2])) / QUANT_MAX);
    const p = b.positions,
      ix = b.indices;
    for (let i = r.indexStart; i < r.indexStart + r.indexCount; i++) {
      const v = ix[i] * 3;
      tris.push(p[v], p[v + 1], p[v + 2]);
    }
    if (b.edges) for (let i = r.edgeStart * 6; i < (r.edgeStart + r.edgeCount) * 6; i++) edges.push(b.edges[i]);
  }
  return { triangles: tris, edges, tolerance };
}
