/**
 * Rules of the revision comparison in the viewer (application.md §4 "Revision comparison", §8 messages,
 * §9 "Comparison" constants; viewer.md §2 properties panel comparison column): which earlier revisions can
 * be chosen, when a comparison may start, what the engine paints, and how a changed property reads
 * ("12.0 → 14.0 mm"). Pure functions; the store (ui/stores/comparison.ts) calls them.
 */
import type { ChangedProperty, CompareResponse, CompareValue, SteelComparisonRecord } from '../../api/contract';
import type { PaintGroup, PaintStyle } from '../../engine/EngineApi';
import { formatPropertyValue } from '../../engine/model/properties';

/** Colour of parts only in the later revision (§9): light blue. */
export const ADDED_RGB: [number, number, number] = [0, 204, 255];
/** Colour of changed parts (§9): green. */
export const CHANGED_RGB: [number, number, number] = [0, 255, 0];
/** Opacity of every other object while comparing (§9). */
export const UNCHANGED_OPACITY = 0.3;

/** Texts of application.md §8 "Comparison". */
export const NOT_AVAILABLE_TEXT = 'Model comparison not available';
export const FETCH_FAILED_TEXT = 'Could not fetch comparison data';
export const MODEL_DATA_NOT_FOUND_TEXT = 'Model data not found';
export const SCENE_MODEL_NOT_FOUND_TEXT = 'Scene model not found';

/** One item of the earlier-revision selector. */
export interface RevisionChoice {
  revision: number;
  /** At or above the current revision (§4: such items are disabled). */
  disabled: boolean;
}

/** The selector's items: every revision of the project, newest first (§9 "Revision list order"). */
export function revisionChoices(revisions: readonly number[], current: number | null): RevisionChoice[] {
  return [...new Set(revisions)]
    .sort((a, b) => b - a)
    .map((revision) => ({ revision, disabled: current === null || revision >= current }));
}

/** The revision preselected for `current`: the newest one below it, or null when there is none. */
export function defaultFromRevision(revisions: readonly number[], current: number | null): number | null {
  return revisionChoices(revisions, current).find((c) => !c.disabled)?.revision ?? null;
}

/** What availability depends on (§4). */
export interface ComparisonConditions {
  fromRevision: number | null;
  currentRevision: number | null;
  busy: boolean;
  /** The object table of the open revision is loaded. */
  modelLoaded: boolean;
}

/**
 * §4: available only when an earlier revision is chosen, the current revision is above the first one, it
 * is not busy and model data is loaded. Keelson numbers revisions from 1, so "the current revision is above
 * 0" of the spec (numbered from 0) reads: there is a revision before it, and the chosen one is below it.
 */
export function comparisonAvailable(c: ComparisonConditions): boolean {
  return (
    c.fromRevision !== null &&
    c.currentRevision !== null &&
    c.currentRevision > 1 &&
    c.fromRevision < c.currentRevision &&
    !c.busy &&
    c.modelLoaded
  );
}

/** Cache key of a comparison: the project and the revision pair. */
export function comparisonKey(projectName: string, fromRevision: number, toRevision: number): string {
  return `${projectName}\u0000${fromRevision}\u0000${toRevision}`;
}

/**
 * What the engine paints while comparing (§4 "Starting"): added parts light blue, changed parts green,
 * both opaque; every other object keeps its colour at opacity 0.3. Indices outside the open revision's
 * object table (`objectCount`) are left out.
 */
export function comparisonPaint(
  data: Pick<CompareResponse, 'steelObjectsAdded' | 'steelObjectsChanged'>,
  objectCount: number,
): { groups: PaintGroup[]; rest: PaintStyle } {
  const ids = (list: readonly { index: number }[]) =>
    Uint32Array.from(list.filter((p) => p.index >= 0 && p.index < objectCount).map((p) => p.index));
  return {
    groups: [
      { nodeIds: ids(data.steelObjectsAdded), rgb: ADDED_RGB, opacity: 1 },
      { nodeIds: ids(data.steelObjectsChanged), rgb: CHANGED_RGB, opacity: 1 },
    ],
    rest: { rgb: null, opacity: UNCHANGED_OPACITY },
  };
}

/** The appearance that stopping restores (§4 "Stopping restores the original appearance"). */
export const RESTORE_PAINT: { groups: PaintGroup[]; rest: PaintStyle } = {
  groups: [],
  rest: { rgb: null, opacity: null },
};

/** How a part of the open revision fares in the comparison. */
export type PartChange = { kind: 'added' } | { kind: 'changed'; record: SteelComparisonRecord } | { kind: 'unchanged' };

/** Lookup of a part's change by its object-table index in the open (later) revision. */
export function changesByIndex(
  data: Pick<CompareResponse, 'steelObjectsAdded' | 'steelObjectsChanged'>,
): Map<number, PartChange> {
  const m = new Map<number, PartChange>();
  for (const p of data.steelObjectsAdded) m.set(p.index, { kind: 'added' });
  for (const r of data.steelObjectsChanged) m.set(r.index, { kind: 'changed', record: r });
  return m;
}

const M_TO_MM = 1000;

/**
 * One compared value as displayed: numbers through the property catalogue's display unit when the change
 * names a code (thickness 0.012 m → '12.0 mm'); points and boxes (m) as millimetre coordinates; '—' when the
 * revision has no value.
 */
export function formatCompareValue(change: Pick<ChangedProperty, 'code' | 'unit'>, value: CompareValue): string {
  if (value === null) return '—';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return `(${value.map((x) => Math.round(x * M_TO_MM)).join(', ')}) mm`;
  if (change.code) {
    const f = formatPropertyValue(change.code, value);
    return f.unit ? `${f.text} ${f.unit}` : f.text;
  }
  return change.unit ? `${value.toFixed(3)} ${change.unit}` : value.toFixed(3);
}

/**
 * A change as one text, old value first: "12.0 → 14.0 mm", "AH36 → DH36". A shared unit is written once
 * at the end; differing ones stay with each value.
 */
export function changeText(change: Pick<ChangedProperty, 'code' | 'unit' | 'from' | 'to'>): string {
  const a = formatCompareValue(change, change.from);
  const b = formatCompareValue(change, change.to);
  const unit = (s: string) => /^[-\d.]+ (\S+)$/.exec(s)?.[1] ?? null;
  const ua = unit(a);
  if (ua && ua === unit(b)) return `${a.slice(0, -ua.length - 1)} → ${b}`;
  return `${a} → ${b}`;
}

/** Display name of a compared property (viewer.md §3 names, spelt out). */
export const COMPARED_PROPERTY_LABELS: Readonly<Record<ChangedProperty['name'], string>> = {
  structureType: 'Structure type',
  thickness: 'Thickness',
  material: 'Material',
  profile: 'Profile',
  weight: 'Weight',
  area: 'Area',
  length: 'Length',
  cg: 'Centre of gravity',
  boundingBox: 'Bounding box',
};
