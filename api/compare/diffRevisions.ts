/**
 * The semantic diff of two revisions of a project (application.md §4 "Revision comparison"; viewer.md §3
 * "Steel comparison record"): plates, stiffeners and brackets paired by OCX GUID, the rest by name and type,
 * each pair's properties compared with a tolerance and its geometry through partShapes.ts. Pure: the
 * caller loads the revisions (api/compare/computeComparison.ts).
 *
 * Pairing: (1) a GUID found exactly once in each revision pairs the two parts when their types agree; a GUID
 * found more than once in a revision is an ambiguous match. (2) Parts left over — no GUID, or a GUID found in
 * one revision only (a writer that regenerates GUIDs on every export, as the NAPA v300rc3 files do) — pair by
 * name and type when exactly one part of that name and type is left on each side; more than one on a side
 * (and at least one on the other) is an ambiguous match, reported and not guessed. (3) What is left is added
 * or removed.
 */
import {
  COMPARED_PROPERTIES,
  COMPARED_TYPES,
  type AddedPart,
  type AmbiguousMatch,
  type ChangedProperty,
  type CompareTypeCounts,
  type ComparedPropertyName,
  type ComparedType,
  type CompareValue,
  type RemovedPart,
  type ShipMass,
  type SteelComparisonRecord,
} from '../contract/compare';
import type { ModelObject, PropertyRecord } from '../../engine/model/types';
import { GEOMETRY_TOLERANCE_MM, type PartShapes, shapeChanged } from './partShapes';

/** One revision as the diff reads it: its number, object table, property store and (optional) shapes. */
export interface RevisionSnapshot {
  number: number;
  objects: readonly ModelObject[];
  /** Parallel to objects; values in the catalogue units (m, t, m²). */
  properties: readonly PropertyRecord[];
  /** Shape figures from the revision's .sc; null compares geometry by the exact bounds alone. */
  shapes: PartShapes | null;
}

/** Thickness tolerance, m (0.01 mm: plate thicknesses differ by at least 0.5 mm in practice). */
export const THICKNESS_TOLERANCE_M = 1e-5;
/** Length, centre of gravity and bounding-box tolerance, m (0.5 mm). */
export const LENGTH_TOLERANCE_M = 5e-4;
/** Weight and area tolerance, relative to the larger value (0.1 %). */
export const RELATIVE_TOLERANCE = 0.001;

/** The tolerances as the response states them. */
export const COMPARE_TOLERANCES = {
  thicknessM: THICKNESS_TOLERANCE_M,
  lengthM: LENGTH_TOLERANCE_M,
  relative: RELATIVE_TOLERANCE,
  geometryM: GEOMETRY_TOLERANCE_MM / 1000,
} as const;

/** What diffRevisions finds. */
export interface RevisionDiff {
  steelObjectsAdded: AddedPart[];
  steelObjectsRemoved: RemovedPart[];
  steelObjectsChanged: SteelComparisonRecord[];
  ambiguous: AmbiguousMatch[];
  summary: { perType: CompareTypeCounts[]; before: ShipMass; after: ShipMass };
}

type Kind = 'text' | 'thickness' | 'length' | 'relative' | 'point' | 'box';

/** How each compared property is read, compared and labelled. */
const PROPERTY_SPECS: Record<ComparedPropertyName, { code: string; unit: string; kind: Kind; keys: string[] }> = {
  structureType: { code: 'STYPE', unit: '', kind: 'text', keys: ['STYPE'] },
  thickness: { code: 'PLTH', unit: 'm', kind: 'thickness', keys: ['PLTH'] },
  material: { code: 'MAT', unit: '', kind: 'text', keys: ['MAT'] },
  profile: { code: 'PROFILE', unit: '', kind: 'text', keys: ['PROFILE'] },
  weight: { code: 'W', unit: 't', kind: 'relative', keys: ['W'] },
  area: { code: 'AREA', unit: 'm2', kind: 'relative', keys: ['AREA'] },
  length: { code: 'L', unit: 'm', kind: 'length', keys: ['L'] },
  cg: { code: '', unit: 'm', kind: 'point', keys: ['XCG', 'YCG', 'ZCG'] },
  boundingBox: { code: '', unit: 'm', kind: 'box', keys: ['XMIN', 'YMIN', 'ZMIN', 'XMAX', 'YMAX', 'ZMAX'] },
};

/** Rounds to 1e-6 of the unit (µm, g, mm²), so float noise of the converter does not reach the answer. */
const r6 = (x: number) => Math.round(x * 1e6) / 1e6;

function readValue(name: ComparedPropertyName, obj: ModelObject, props: PropertyRecord): CompareValue {
  const spec = PROPERTY_SPECS[name];
  if (spec.kind === 'text') {
    const x = props[spec.keys[0]];
    return x === undefined || x === null ? null : String(x).trim();
  }
  if (spec.kind === 'point' || spec.kind === 'box') {
    const xs = spec.keys.map((k) => props[k]);
    if (xs.every((x) => typeof x === 'number' && Number.isFinite(x))) return (xs as number[]).map(r6);
    // Parts without bound properties still have their world bounds (mm) in the object table.
    if (spec.kind === 'box' && obj.bounds && obj.bounds.every(Number.isFinite))
      return obj.bounds.map((x) => r6(x / 1000));
    return null;
  }
  const x = props[spec.keys[0]];
  return typeof x === 'number' && Number.isFinite(x) ? r6(x) : null;
}

function sameValue(kind: Kind, a: CompareValue, b: CompareValue): boolean {
  if (a === null || b === null) return a === b;
  if (kind === 'text') return a === b;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    return a.every((x, k) => Math.abs(x - b[k]) <= LENGTH_TOLERANCE_M);
  }
  if (typeof a !== 'number' || typeof b !== 'number') return a === b;
  const d = Math.abs(a - b);
  if (kind === 'thickness') return d <= THICKNESS_TOLERANCE_M;
  if (kind === 'length') return d <= LENGTH_TOLERANCE_M;
  return d <= RELATIVE_TOLERANCE * Math.max(Math.abs(a), Math.abs(b)) + 1e-9;
}

/** The changed properties of a pair, in the spec's order for the type. */
export function changedProperties(
  type: ComparedType,
  objA: ModelObject,
  propsA: PropertyRecord,
  objB: ModelObject,
  propsB: PropertyRecord,
): ChangedProperty[] {
  const out: ChangedProperty[] = [];
  for (const name of COMPARED_PROPERTIES[type]) {
    const spec = PROPERTY_SPECS[name];
    const from = readValue(name, objA, propsA);
    const to = readValue(name, objB, propsB);
    if (!sameValue(spec.kind, from, to)) out.push({ name, code: spec.code, from, to, unit: spec.unit });
  }
  return out;
}

const isCompared = (t: string): t is ComparedType => (COMPARED_TYPES as readonly string[]).includes(t);

function groupBy(indices: Iterable<number>, key: (i: number) => string | null): Map<string, number[]> {
  const m = new Map<string, number[]>();
  for (const i of indices) {
    const k = key(i);
    if (k === null) continue;
    const list = m.get(k);
    if (list) list.push(i);
    else m.set(k, [i]);
  }
  return m;
}

function massOf(rev: RevisionSnapshot): ShipMass {
  let w = 0,
    wc = 0,
    mx = 0,
    my = 0,
    mz = 0;
  rev.objects.forEach((o, i) => {
    if (!isCompared(o.type)) return;
    const p = rev.properties[i] ?? {};
    const weight = p.W;
    if (typeof weight !== 'number' || !Number.isFinite(weight)) return;
    w += weight;
    const { XCG: x, YCG: y, ZCG: z } = p;
    if (typeof x === 'number' && typeof y === 'number' && typeof z === 'number') {
      wc += weight;
      mx += weight * x;
      my += weight * y;
      mz += weight * z;
    }
  });
  return { revision: rev.number, weight: r6(w), cg: wc > 0 ? [r6(mx / wc), r6(my / wc), r6(mz / wc)] : null };
}

/**
 * Compares revision `a` (earlier) with `b` (later). Only plates, stiffeners and brackets take part (the types
 * of the steel comparison record). A pair is listed as changed when a property differs beyond its tolerance
 * or its geometry changed (partShapes.ts shapeChanged). Output lists follow the later (added, changed) or
 * earlier (removed) revision's object order.
 */
export function diffRevisions(a: RevisionSnapshot, b: RevisionSnapshot): RevisionDiff {
  const partsOf = (r: RevisionSnapshot) => r.objects.filter((o) => isCompared(o.type)).map((o) => o.index);
  const pa = partsOf(a),
    pb = partsOf(b);
  const pairs: { i: number; j: number; by: 'guid' | 'name' }[] = [];
  const ambiguous: AmbiguousMatch[] = [];
  const settledA = new Set<number>(),
    settledB = new Set<number>();
  const cand = (r: RevisionSnapshot, list: number[]) => list.map((k) => ({ stId: r.objects[k].id, index: k }));

  // (1) GUID.
  const guidA = groupBy(pa, (i) => a.objects[i].guid);
  const guidB = groupBy(pb, (j) => b.objects[j].guid);
  for (const [guid, la] of guidA) {
    const lb = guidB.get(guid);
    if (!lb) continue;
    if (la.length === 1 && lb.length === 1) {
      // A type change under one GUID is a removal and an addition (left unsettled: the names' keys differ).
      if (a.objects[la[0]].type !== b.objects[lb[0]].type) continue;
      pairs.push({ i: la[0], j: lb[0], by: 'guid' });
    } else {
      ambiguous.push({
        key: 'guid',
        value: guid,
        type: b.objects[lb[0]].type as ComparedType,
        fromCandidates: cand(a, la),
        toCandidates: cand(b, lb),
      });
    }
    for (const i of la) settledA.add(i);
    for (const j of lb) settledB.add(j);
  }
  // (2) Name and type for what is left.
  const nameKey = (o: ModelObject) => `${o.type}\u0000${o.name}`;
  const restA = groupBy(
    pa.filter((i) => !settledA.has(i)),
    (i) => nameKey(a.objects[i]),
  );
  const restB = groupBy(
    pb.filter((j) => !settledB.has(j)),
    (j) => nameKey(b.objects[j]),
  );
  for (const [key, la] of restA) {
    const lb = restB.get(key);
    if (!lb) continue;
    if (la.length === 1 && lb.length === 1) pairs.push({ i: la[0], j: lb[0], by: 'name' });
    else {
      const o = a.objects[la[0]];
      ambiguous.push({
        key: 'name',
        value: o.name,
        type: o.type as ComparedType,
        fromCandidates: cand(a, la),
        toCandidates: cand(b, lb),
      });
    }
    for (const i of la) settledA.add(i);
    for (const j of lb) settledB.add(j);
  }

  // (3) Added, removed, changed.
  const counts = new Map<ComparedType, CompareTypeCounts>(
    COMPARED_TYPES.map((type) => [type, { type, added: 0, removed: 0, changed: 0, unchanged: 0, ambiguous: 0 }]),
  );
  const count = (t: string) => counts.get(t as ComparedType)!;
  const steelObjectsAdded: AddedPart[] = [];
  for (const j of pb) {
    if (settledB.has(j)) continue;
    const o = b.objects[j];
    steelObjectsAdded.push({ stId: o.id, guid: o.guid, name: o.name, type: o.type as ComparedType, index: j });
    count(o.type).added++;
  }
  const steelObjectsRemoved: RemovedPart[] = [];
  for (const i of pa) {
    if (settledA.has(i)) continue;
    const o = a.objects[i];
    steelObjectsRemoved.push({ stId: o.id, guid: o.guid, name: o.name, type: o.type as ComparedType, fromIndex: i });
    count(o.type).removed++;
  }
  for (const m of ambiguous) count(m.type).ambiguous += m.toCandidates.length;

  const steelObjectsChanged: SteelComparisonRecord[] = [];
  pairs.sort((x, y) => x.j - y.j);
  for (const { i, j, by } of pairs) {
    const oa = a.objects[i],
      ob = b.objects[j];
    const type = ob.type as ComparedType;
    const props = changedProperties(type, oa, a.properties[i] ?? {}, ob, b.properties[j] ?? {});
    const geometryChanged =
      a.shapes && b.shapes
        ? shapeChanged(oa.bounds, ob.bounds, a.shapes, i, b.shapes, j)
        : !sameBounds(oa.bounds, ob.bounds);
    if (props.length === 0 && !geometryChanged) {
      count(type).unchanged++;
      continue;
    }
    count(type).changed++;
    steelObjectsChanged.push({
      stId: ob.id,
      guid: ob.guid,
      name: ob.name,
      type,
      from: a.number,
      to: b.number,
      index: j,
      fromIndex: i,
      matchedBy: by,
      changedProperties: props,
      geometryChanged,
    });
  }
  return {
    steelObjectsAdded,
    steelObjectsRemoved,
    steelObjectsChanged,
    ambiguous,
    summary: { perType: [...counts.values()], before: massOf(a), after: massOf(b) },
  };
}

function sameBounds(x: readonly number[] | null, y: readonly number[] | null): boolean {
  if (!x || !y) return x === y;
  return x.every((v, k) => Math.abs(v - y[k]) <= GEOMETRY_TOLERANCE_MM);
}
