/**
 * 2D section of a model at an axis plane (viewer.md §3 "Section results", §4 "Section
 * drawing", §9 "Drawing"). One kernel for the worker (interactive view) and the server
 * (GET .../steel/section, .../ship-model/section, .../cad-components/section).
 *
 * Per object touched by the plane (found through the SectionIndex BVH, within the connection-point
 * tolerance 0.001 m = 1 mm of viewer.md §9) the relation is decided from its extent `lo..hi` along the axis:
 * - ends on the plane from one side → 'connectingNegative' / 'connectingPositive' (drawn as its end
 *   outline, sliced just inside the object and projected onto the plane);
 * - thin along the axis (plates: at most 1.5 × thickness + 1 mm; other parts: at most a quarter of
 *   their in-plane extent) → 'inSection' (its outline, sliced at its mid-plane, projected);
 * - otherwise 'intersected' (sliced at the plane).
 * Segments are chained per object (slice.ts); with the WebAssembly kernel the slicing and chaining of
 * every object is one kernel call (GeometryKernel.section), with the same polylines. A curve keeps only
 * the points that bend it: points within POLYLINE_TOLERANCE_MM.collinear of the line between their
 * neighbours (where the plane crossed a triangle edge inside a flat face) are dropped. Intersected plates
 * get length, thickness and the label of viewer.md §9; pillars a centreline. All lengths mm.
 */
import type { FrameTables, ModelObject, ObjectType, PropertyRecord } from '../model/types';
import type { KernelStore } from '../wasm/GeometryKernel';
import { BLOCK_TRIANGLES, type SectionIndex, type SectionRange } from './SectionIndex';
import {
  type SegmentBuffer,
  chainSegments,
  closedLengthAndArea,
  polylineLength,
  segmentBuffer,
  sliceEdges,
  sliceTrianglesInto,
} from './slice';
import {
  KIND_CAD,
  KIND_COMPARTMENT,
  type SectionObjectTable,
  mainObjectIndex,
  sectionObjectTable,
  sortedMainIds,
  steelClassOfKind,
} from './objectTable';
import { purposeColor } from './purposeColors';
import { sectionGrid } from './sectionGrid';
import {
  type CadComponentSection,
  type CompartmentSection,
  type RelationGroups,
  type SectionAxis,
  type SectionPolyline,
  type SectionRelation,
  type SectionResult,
  type SteelClass,
  POLYLINE_TOLERANCE_MM,
  type SteelSection,
  type SteelSectionCurve,
  SECTION_RELATIONS,
  STEEL_CLASSES,
  axisIndex,
  plateLabel,
} from './types';

/** The model a section is cut from: object table (+ properties for thickness and purpose), geometry index, frames for the grid. */
export interface SectionModel {
  objects: readonly ModelObject[];
  properties?: readonly PropertyRecord[];
  frames?: FrameTables;
  index: SectionIndex;
}

/** Which parts to compute (all by default). */
export interface SectionOptions {
  steel?: boolean;
  compartments?: boolean;
  cadComponents?: boolean;
  grid?: boolean;
  /** Connection tolerance, mm (default 1 = viewer.md §9 connection-point tolerance 0.001 m). */
  tolerance?: number;
  /** Scan every triangle instead of using the index (BVH and triangle blocks): the bench's fair linear reference. */
  linear?: boolean;
  /**
   * Which slicing and chaining kernel: 'wasm' (default) uses the WebAssembly kernel when the index was
   * built with one and falls back to TypeScript otherwise; 'typescript' forces the reference (parity
   * tests, bench). Both give identical results.
   */
  kernel?: 'wasm' | 'typescript';
}

/** Empty relation groups. */
export function emptyGroups(): RelationGroups {
  return { inSection: [], intersected: [], connectingNegative: [], connectingPositive: [] };
}

/** An empty steel section at the plane. */
export function emptySteelSection(axis: SectionAxis, coordinate: number): SteelSection {
  const s = { axis, coordinate, mainObjectsInSection: [] as string[] } as unknown as SteelSection;
  for (const c of STEEL_CLASSES) s[c] = emptyGroups();
  return s;
}

/**
 * Cuts the model with the plane `axis` = `coordinate` (mm).
 * @throws Error 'Section coordinate must be a finite number of mm' for NaN/Infinity.
 */
export function computeSection(
  model: SectionModel,
  axis: SectionAxis,
  coordinate: number,
  options: SectionOptions = {},
): SectionResult {
  if (!Number.isFinite(coordinate))
    throw new Error(`Section coordinate must be a finite number of mm, got ${coordinate}`);
  const k = axisIndex(axis);
  const tol = options.tolerance ?? 1;
  const want = {
    steel: options.steel ?? true,
    compartments: options.compartments ?? true,
    cad: options.cadComponents ?? true,
    grid: options.grid ?? true,
  };
  const { index, objects } = model;
  const hits = options.linear
    ? index.rangesLinear(k, coordinate - tol, coordinate + tol)
    : index.rangesInSlab(k, coordinate - tol, coordinate + tol);
  const table = sectionObjectTable(objects);
  const { labels } = table;
  const jobs = planObjects(model, table, hits, k, coordinate, tol, want);
  const store = options.kernel === 'typescript' ? null : index.store;
  const fromKernel = store ? kernelCurves(store, index, jobs, k, coordinate, options.linear === true) : null;
  const span = index.rangeSpan;
  const { rangesOf } = jobs;

  const steel = emptySteelSection(axis, coordinate);
  const compartments: CompartmentSection[] = [];
  const cadComponents: CadComponentSection[] = [];
  const mains = new Set<number>();
  const touched: number[] = [];
  const segs = fromKernel ? null : segmentBuffer(4096);
  for (let j = 0; j < jobs.count; j++) {
    const o = jobs.object[j],
      first = jobs.first[j],
      count = jobs.rangeCount[j],
      kind = jobs.kind[j],
      sliceAt = jobs.sliceAt[j];
    // Edge ranges (seams, feature lines) are cut here in both kernels: points where they cross the plane,
    // pieces lying in it (the curves of an object that has no triangles).
    let inPlane: number[] | null = null,
      pts: number[] | null = null,
      triangles = false;
    for (let q = first; q < first + count; q++) {
      const r = rangesOf[q];
      if (span[r * 5 + 4] > 0) {
        triangles = true;
        continue;
      }
      const rg = index.ranges[r];
      const b = index.batches[rg.batch];
      if (b.edges && rg.edgeCount > 0)
        sliceEdges(b.edges, rg.edgeStart, rg.edgeCount, k, coordinate, tol, (inPlane ??= []), (pts ??= []));
    }
    let curves: SectionPolyline[];
    if (fromKernel)
      curves = fromKernel.segments[j] > 0 ? fromKernel.curves[j] : inPlane?.length ? chainSection(inPlane) : [];
    else {
      segs!.length = 0;
      for (let q = first; q < first + count; q++) {
        const rg = index.ranges[rangesOf[q]];
        const b = index.batches[rg.batch];
        if (rg.indexCount > 0 && options.linear)
          sliceTrianglesInto(b.positions, b.indices, rg.indexStart, rg.indexCount, k, sliceAt, segs!, coordinate);
        else if (rg.indexCount > 0) sliceBlocks(index, rg, k, sliceAt, segs!, coordinate);
      }
      curves = chainSection(segs!.length ? segs!.data.subarray(0, segs!.length) : (inPlane ?? []));
    }
    if (pts)
      for (let i = 0; i + 2 < pts.length; i += 3)
        curves.push({ points: Float64Array.of(pts[i], pts[i + 1], pts[i + 2]), closed: false });
    if (curves.length === 0) continue;
    touched.push(o);
    // The object's id, name and type from the table (objectTable.ts `labels`), not its record.
    const id = labels[3 * o],
      name = labels[3 * o + 1];
    if (kind === KIND_COMPARTMENT) {
      const props = model.properties?.[o];
      compartments.push({
        compartmentName: name,
        stid: id,
        curves,
        purposeColor: purposeColor(typeof props?.PURP === 'string' ? props.PURP : undefined),
      });
      continue;
    }
    if (kind === KIND_CAD) {
      cadComponents.push({ componentName: name, stid: id, curves });
      continue;
    }
    const cls = steelClassOfKind(kind)!;
    const rel: SectionRelation = !triangles
      ? inPlane?.length
        ? 'inSection'
        : 'intersected'
      : SECTION_RELATIONS[jobs.relation[j]];
    const type = labels[3 * o + 2] as ObjectType;
    let curve: SteelSectionCurve;
    if (cls === 'plates' && rel !== 'inSection') {
      // A plate's dimensions in the same literal (not assigned after it): one object, no property store grown.
      const t = jobs.thickness[j];
      plateDimensions(curves, k, t === t ? t : undefined, DIMENSIONS);
      const length = DIMENSIONS[0],
        thickness = DIMENSIONS[1];
      curve = {
        stid: id,
        object: o,
        name,
        type,
        relation: rel,
        curves,
        length,
        thickness,
        label: plateLabel(length, thickness),
      };
    } else curve = { stid: id, object: o, name, type, relation: rel, curves };
    if (cls === 'pillars')
      curve.centerline = pillarCenterline(curves, Array.from(jobs.ext.subarray(j * 6, j * 6 + 6)), k, coordinate, rel);
    steel[cls][rel].push(curve);
    const main = mainObjectIndex(objects, table, o);
    if (main >= 0) mains.add(main);
  }
  steel.mainObjectsInSection = sortedMainIds(table, mains);
  const grid =
    want.grid && model.frames ? sectionGrid(model.frames, axis, coordinate, gridExtent(index, hits, touched, k)) : [];
  return { axis, coordinate, steel, compartments, cadComponents, grid };
}

/** A section's chaining: slice.ts `chainSegments` with the section tolerances, collinear points dropped. */
function chainSection(segments: ArrayLike<number>): SectionPolyline[] {
  const t = POLYLINE_TOLERANCE_MM;
  return chainSegments(segments, t.closed, t.zeroLength, t.collinear);
}

/**
 * The objects a plane touches that the section wants, in object order, as parallel tables (one entry per
 * object, `count` of them): object index; its ranges `rangesOf[first .. first+rangeCount)` (in hit order);
 * kind code (objectTable.ts); union extent of its ranges (6 per object, mm); relation to the plane (index
 * into SECTION_RELATIONS); the plane its triangles are sliced at (mm; see the file comment); the plate
 * thickness property (mm, NaN when unknown or not a plate or bracket).
 */
interface ObjectJobs {
  count: number;
  rangesOf: Int32Array;
  object: Int32Array;
  first: Int32Array;
  rangeCount: Int32Array;
  kind: Uint8Array;
  ext: Float64Array;
  relation: Uint8Array;
  sliceAt: Float64Array;
  thickness: Float64Array;
}

/** ObjectJobs with the sort keys of `planObjects`, reused across sections (grown, never shrunk). */
let jobScratch: (ObjectJobs & { keys: Float64Array }) | null = null;

/**
 * Job tables with room for `n` jobs (and `n` ranges), `count` 0. One set is reused by every section: a cut
 * is synchronous and its tables do not outlive it, so it allocates none (at 500k parts a Y cut's tables are
 * ~0.5 MB of array buffers, which otherwise add to the collector's external-memory pressure each cut).
 */
function jobTables(n: number): ObjectJobs & { keys: Float64Array } {
  if (!jobScratch || jobScratch.object.length < n) {
    const m = Math.max(n, 2 * (jobScratch?.object.length ?? 0), 256);
    jobScratch = {
      count: 0,
      keys: new Float64Array(m),
      rangesOf: new Int32Array(m),
      object: new Int32Array(m),
      first: new Int32Array(m),
      rangeCount: new Int32Array(m),
      kind: new Uint8Array(m),
      ext: new Float64Array(m * 6),
      relation: new Uint8Array(m),
      sliceAt: new Float64Array(m),
      thickness: new Float64Array(m),
    };
  }
  jobScratch.count = 0;
  return jobScratch;
}

const RELATION_CODE: Record<SectionRelation, number> = {
  inSection: SECTION_RELATIONS.indexOf('inSection'),
  intersected: SECTION_RELATIONS.indexOf('intersected'),
  connectingNegative: SECTION_RELATIONS.indexOf('connectingNegative'),
  connectingPositive: SECTION_RELATIONS.indexOf('connectingPositive'),
};

/**
 * The objects of the hit ranges that the section wants, in object order, each with its ranges (a run of
 * `rangesOf`: the hits sorted by object), extent, relation to the plane and slicing plane.
 */
function planObjects(
  model: SectionModel,
  table: SectionObjectTable,
  hits: number[],
  k: 0 | 1 | 2,
  coordinate: number,
  tol: number,
  want: { steel: boolean; compartments: boolean; cad: boolean },
): ObjectJobs {
  const { index, objects } = model;
  const ro = index.rangeObject;
  const kinds = table.kind;
  // Stable sort by object as one numeric sort of object·n + hit position (exact: below 2^53), so an
  // object's ranges stay in hit order.
  const n = hits.length;
  // At most one job per hit; `count` says how many were made.
  const jobs = jobTables(n);
  const keys = jobs.keys.subarray(0, n);
  for (let i = 0; i < n; i++) keys[i] = ro[hits[i]] * n + i;
  keys.sort();
  const rangesOf = jobs.rangesOf;
  for (let i = 0; i < n; i++) rangesOf[i] = hits[keys[i] % n];
  const bounds = index.rangeBounds,
    ext = jobs.ext;
  const u = k === 0 ? 1 : 0,
    v = k === 2 ? 1 : 2;
  let j = 0;
  for (let i = 0; i < n; ) {
    const o = ro[rangesOf[i]];
    let e = i + 1;
    while (e < n && ro[rangesOf[e]] === o) e++;
    const first = i,
      count = e - i;
    i = e;
    if (o >= objects.length) continue;
    const kind = kinds[o];
    const steelObj = kind >= 1 && kind < KIND_COMPARTMENT;
    if (
      kind === 0 ||
      (steelObj && !want.steel) ||
      (kind === KIND_COMPARTMENT && !want.compartments) ||
      (kind === KIND_CAD && !want.cad)
    )
      continue;
    // Union extent of the object's ranges.
    const x = j * 6;
    ext[x] = ext[x + 1] = ext[x + 2] = Infinity;
    ext[x + 3] = ext[x + 4] = ext[x + 5] = -Infinity;
    for (let q = first; q < first + count; q++) {
      const b = rangesOf[q] * 6;
      for (let a = 0; a < 3; a++) {
        ext[x + a] = Math.min(ext[x + a], bounds[b + a]);
        ext[x + a + 3] = Math.max(ext[x + a + 3], bounds[b + a + 3]);
      }
    }
    const cls = steelClassOfKind(kind);
    let thickness = Number.NaN;
    if (cls === 'plates' || cls === 'brackets') {
      const props = model.properties?.[o];
      if (typeof props?.PLTH === 'number' && props.PLTH > 0) thickness = props.PLTH * 1000;
    }
    const lo = ext[x + k],
      hi = ext[x + k + 3];
    const relation = relationOf(
      lo,
      hi,
      Math.max(ext[x + u + 3] - ext[x + u], ext[x + v + 3] - ext[x + v]),
      coordinate,
      tol,
      cls,
      thickness === thickness ? thickness : undefined,
    );
    jobs.object[j] = o;
    jobs.first[j] = first;
    jobs.rangeCount[j] = count;
    jobs.kind[j] = kind;
    jobs.relation[j] = RELATION_CODE[relation];
    jobs.thickness[j] = thickness;
    jobs.sliceAt[j] =
      relation === 'intersected'
        ? coordinate
        : relation === 'inSection'
          ? (lo + hi) / 2
          : relation === 'connectingNegative'
            ? hi - Math.min(tol / 2, (hi - lo) / 2)
            : lo + Math.min(tol / 2, (hi - lo) / 2);
    j++;
  }
  jobs.count = j;
  return jobs;
}

/** Every job's triangle ranges sliced and chained by the WebAssembly kernel in one call (see GeometryKernel.section). */
function kernelCurves(
  store: KernelStore,
  index: SectionIndex,
  jobs: ObjectJobs,
  k: 0 | 1 | 2,
  project: number,
  linear: boolean,
): { curves: SectionPolyline[][]; segments: Uint32Array } {
  let nRanges = 0;
  for (let j = 0; j < jobs.count; j++) nRanges += jobs.rangeCount[j];
  const { obj, rng } = store.kernel.sectionJobs(jobs.count, nRanges);
  const span = index.rangeSpan,
    rangesOf = jobs.rangesOf;
  let w = 0;
  for (let j = 0; j < jobs.count; j++) {
    const first = jobs.first[j],
      count = jobs.rangeCount[j];
    obj[j * 3] = jobs.sliceAt[j];
    obj[j * 3 + 1] = w;
    obj[j * 3 + 2] = count;
    // The range table rows are already in the kernel's layout.
    for (let q = first; q < first + count; q++, w++) {
      const r = rangesOf[q] * 5;
      for (let i = 0; i < 5; i++) rng[w * 5 + i] = span[r + i];
    }
  }
  return store.kernel.section(store, jobs.count, k, project, 3 * BLOCK_TRIANGLES, linear);
}

/**
 * Slices the triangle blocks of a range whose extent along `k` straddles `sliceAt` (a triangle crosses
 * only when it has a vertex below the plane and one at or above it, slice.ts), appending segments.
 */
function sliceBlocks(
  index: SectionIndex,
  rg: SectionRange,
  k: 0 | 1 | 2,
  sliceAt: number,
  segs: SegmentBuffer,
  project: number,
): void {
  const b = index.batches[rg.batch],
    bb = index.blockBounds;
  const end = rg.indexStart + rg.indexCount;
  for (let i = 0; i < rg.blockCount; i++) {
    const o = (rg.blockStart + i) * 6;
    if (!(bb[o + k] < sliceAt && bb[o + k + 3] >= sliceAt)) continue;
    const t0 = rg.indexStart + i * 3 * BLOCK_TRIANGLES;
    sliceTrianglesInto(
      b.positions,
      b.indices,
      t0,
      Math.min(end, t0 + 3 * BLOCK_TRIANGLES) - t0,
      k,
      sliceAt,
      segs,
      project,
    );
  }
}

/**
 * The relation of an object with extent `ext` (mm) to the plane `k` = `c` (see the file comment).
 * Exported for tests.
 */
export function classifyRelation(
  ext: ArrayLike<number>,
  k: number,
  c: number,
  tol: number,
  cls: SteelClass | undefined,
  thicknessMm?: number,
): SectionRelation {
  // The larger extent across the plane.
  const u = k === 0 ? 1 : 0,
    v = k === 2 ? 1 : 2;
  return relationOf(ext[k], ext[k + 3], Math.max(ext[u + 3] - ext[u], ext[v + 3] - ext[v]), c, tol, cls, thicknessMm);
}

/** classifyRelation from the extent `lo..hi` along the axis and the larger extent `inPlane` across it (mm). */
function relationOf(
  lo: number,
  hi: number,
  inPlane: number,
  c: number,
  tol: number,
  cls: SteelClass | undefined,
  thicknessMm: number | undefined,
): SectionRelation {
  const along = hi - lo;
  const thin =
    cls === 'plates' || cls === 'brackets'
      ? along <= (thicknessMm !== undefined ? 1.5 * thicknessMm + 1 : Math.max(2, 0.02 * inPlane))
      : along <= 0.25 * inPlane;
  if (thin) return 'inSection';
  if (Math.abs(hi - c) <= tol && lo < c - tol) return 'connectingNegative';
  if (Math.abs(lo - c) <= tol && hi > c + tol) return 'connectingPositive';
  return 'intersected';
}

/** Scratch of plateDimensions: a closed loop's perimeter and area; its result, length and thickness. */
const PERIMETER_AREA = new Float64Array(2),
  DIMENSIONS = new Float64Array(2);

/**
 * Length and thickness (mm) of a cut plate: with a thickened plate each closed loop is a thin strip
 * of perimeter P and area A = L·t, so t solves t² − (P/2)·t + A = 0 (smaller root) unless the
 * thickness property is known; L = P/2 − t per loop. Open curves (unthickened sheets) count their length.
 * Writes the length to out[0] and the thickness to out[1] (no object per plate).
 */
function plateDimensions(
  curves: SectionPolyline[],
  k: 0 | 1 | 2,
  thicknessMm: number | undefined,
  out: Float64Array,
): void {
  let length = 0,
    tSum = 0,
    tW = 0;
  for (let i = 0; i < curves.length; i++) {
    const c = curves[i];
    if (c.points.length < 6) continue;
    if (!c.closed) {
      length += polylineLength(c.points, false);
      continue;
    }
    closedLengthAndArea(c.points, k, PERIMETER_AREA);
    const P = PERIMETER_AREA[0],
      A = PERIMETER_AREA[1];
    const disc = Math.max(0, (P * P) / 4 - 4 * A);
    const tg = (P / 2 - Math.sqrt(disc)) / 2;
    const t = thicknessMm ?? tg;
    length += Math.max(0, P / 2 - t);
    tSum += tg * P;
    tW += P;
  }
  out[0] = length;
  out[1] = thicknessMm ?? (tW > 0 ? tSum / tW : 0);
}

/** Pillar centreline: the centroid of the cut (one point) when cut across, else the long axis of its extent in the plane. */
function pillarCenterline(
  curves: SectionPolyline[],
  ext: number[],
  k: number,
  c: number,
  rel: SectionRelation,
): number[] {
  if (rel !== 'inSection') {
    let best = curves[0];
    for (const cv of curves) if (cv.points.length > best.points.length) best = cv;
    const p = [0, 0, 0];
    const n = best.points.length / 3;
    for (let i = 0; i < best.points.length; i++) p[i % 3] += best.points[i] / n;
    p[k] = c;
    return p;
  }
  const others = [0, 1, 2].filter((i) => i !== k);
  const long = ext[others[0] + 3] - ext[others[0]] >= ext[others[1] + 3] - ext[others[1]] ? others[0] : others[1];
  const mid = [0, 1, 2].map((i) => (ext[i] + ext[i + 3]) / 2);
  mid[k] = c;
  const a = [...mid],
    b = [...mid];
  a[long] = ext[long];
  b[long] = ext[long + 3];
  return [...a, ...b];
}

/** In-plane extent for the grid: the cut objects' bounds, else the model's, padded by 5 %. */
function gridExtent(
  index: SectionIndex,
  hits: number[],
  touched: number[],
  k: number,
): [number, number, number, number, number, number] {
  const set = new Set(touched);
  const e = set.size ? [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity] : [...index.bounds()];
  for (const r of set.size ? hits : []) {
    const rg = index.ranges[r];
    if (!set.has(rg.object)) continue;
    for (let i = 0; i < 3; i++) {
      e[i] = Math.min(e[i], rg.bounds[i]);
      e[i + 3] = Math.max(e[i + 3], rg.bounds[i + 3]);
    }
  }
  if (!(e[0] <= e[3])) return [0, 0, 0, 0, 0, 0];
  for (let i = 0; i < 3; i++) {
    if (i === k) continue;
    const pad = (e[i + 3] - e[i]) * 0.05;
    e[i] -= pad;
    e[i + 3] += pad;
  }
  return e as [number, number, number, number, number, number];
}
