/**
 * Agreement of the importer's own quantities with the design system's figures: for
 * every structural part that carries PhysicalProperties (DryWeight, CenterOfGravity) or a NetArea, the
 * deviation of the weight, area and centre of gravity computed from the geometry. Pure functions shared
 * by buildModel (which records a PartFidelity per part), `npm run ocx:check` (scripts/ocxCheck.ts) and
 * the corpus test. Units: weight kg, area m², volume m³, centre of gravity mm.
 */
import type { ImportResult, PartFidelity } from '../model/types';
import { hypot3 } from '../geometry/curves';

/** Part elements compared with the vendor's figures (OCX StructurePart kinds). */
export const COMPARED_ELEMENTS = new Set(['Plate', 'Bracket', 'Stiffener', 'EdgeReinforcement', 'Pillar']);

/** Fidelity targets: relative deviation (%) for weight and area, distance (mm) for the CoG. */
export const FIDELITY_TARGETS = { weightPct: 1, areaPct: 1, cogMm: 10, share: 99 } as const;

/** Relative deviation (%) of computed c from vendor v, when both are finite and v is not 0. */
function rel(v?: number, c?: number): number | undefined {
  return v !== undefined && c !== undefined && Number.isFinite(v) && Number.isFinite(c) && v !== 0
    ? (Math.abs(c - v) / Math.abs(v)) * 100
    : undefined;
}

/**
 * Builds the comparison record of one part: deviations only where both sides are known and finite
 * (a vendor value of 0 gives no relative deviation).
 */
export function comparePart(
  base: { object: number; id: string; element: string; line: number },
  vendor: PartFidelity['vendor'],
  computed: PartFidelity['computed'],
): PartFidelity {
  const out: PartFidelity = {
    object: base.object,
    id: base.id,
    element: base.element,
    line: base.line,
    vendor,
    computed,
  };
  const w = rel(vendor.weightKg, computed.weightKg);
  if (w !== undefined) out.weightDevPct = w;
  const a = rel(vendor.areaM2, computed.areaM2);
  if (a !== undefined) out.areaDevPct = a;
  if (vendor.cogMm && computed.cogMm && allFinite(vendor.cogMm) && allFinite(computed.cogMm))
    out.cogDevMm = hypot3(
      vendor.cogMm[0] - computed.cogMm[0],
      vendor.cogMm[1] - computed.cogMm[1],
      vendor.cogMm[2] - computed.cogMm[2],
    );
  return out;
}

function allFinite(a: ArrayLike<number>): boolean {
  for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i])) return false;
  return true;
}

/** Summary of one file (the ocx:check summary line). Shares are percentages, null when nothing was compared. */
export interface FidelitySummary {
  /** Structural parts in the file (Plate, Bracket, Stiffener, EdgeReinforcement, Pillar). */
  parts: number;
  /** Parts with at least one deviation computed. */
  compared: number;
  weightWithin: number | null;
  areaWithin: number | null;
  cogWithin: number | null;
  /** Import warnings other than parts whose geometry failed. */
  warnings: number;
  /** Parts whose geometry could not be built (plus 1 when the file was refused). */
  errors: number;
  /** Quantities outside the target that the expected-deviation table explains (counted as within). */
  explained: number;
}

/** Part ids excused from a target, keyed `${id}|W`, `${id}|AREA` or `${id}|COG` (expected deviations). */
export type FidelityExclusions = ReadonlySet<string>;

/**
 * Summarises a file's fidelity records against FIDELITY_TARGETS. Records in `excluded` count as within
 * the target (they are documented deviations); pass an empty set for the raw figures.
 */
export function summarizeFidelity(result: ImportResult, excluded: FidelityExclusions = new Set()): FidelitySummary {
  const recs = result.fidelity ?? [];
  let explained = 0;
  const share = (key: 'W' | 'AREA' | 'COG', dev: (r: PartFidelity) => number | undefined, limit: number) => {
    let n = 0,
      ok = 0;
    for (const r of recs) {
      const d = dev(r);
      if (d === undefined) continue;
      n++;
      if (d <= limit) ok++;
      else if (excluded.has(`${r.id}|${key}`)) {
        ok++;
        explained++;
      }
    }
    return n ? (100 * ok) / n : null;
  };
  const errors = result.warnings.filter((w) => w.code === 'geometry-failed').length;
  const weightWithin = share('W', (r) => r.weightDevPct, FIDELITY_TARGETS.weightPct);
  const areaWithin = share('AREA', (r) => r.areaDevPct, FIDELITY_TARGETS.areaPct);
  const cogWithin = share('COG', (r) => r.cogDevMm, FIDELITY_TARGETS.cogMm);
  return {
    parts: result.objects.filter((o) => COMPARED_ELEMENTS.has(o.element)).length,
    compared: recs.filter((r) => r.weightDevPct !== undefined || r.areaDevPct !== undefined || r.cogDevMm !== undefined)
      .length,
    weightWithin,
    areaWithin,
    cogWithin,
    warnings: result.warnings.length - errors,
    errors,
    explained,
  };
}

const pct = (v: number | null) => (v === null ? 'n/a' : `${Number(v.toFixed(1))}%`);

/**
 * The summary line of ocx:check:
 * `FILE: parts=N compared=M weight_within_1pct=P% area_within_1pct=Q% cog_within_10mm=R% warnings=W errors=E`.
 */
export function summaryLine(file: string, s: FidelitySummary): string {
  return `${file}: parts=${s.parts} compared=${s.compared} weight_within_1pct=${pct(s.weightWithin)} area_within_1pct=${pct(s.areaWithin)} cog_within_10mm=${pct(s.cogWithin)} warnings=${s.warnings} errors=${s.errors}`;
}

/** The summary of a file that could not be imported at all. */
export function refusedSummary(): FidelitySummary {
  return {
    parts: 0,
    compared: 0,
    weightWithin: null,
    areaWithin: null,
    cogWithin: null,
    warnings: 0,
    errors: 1,
    explained: 0,
  };
}

/** True when every share of the summary meets FIDELITY_TARGETS.share (n/a counts as met). */
export function meetsTargets(s: FidelitySummary): boolean {
  return (
    [s.weightWithin, s.areaWithin, s.cogWithin].every((v) => v === null || v >= FIDELITY_TARGETS.share) &&
    s.errors === 0
  );
}

const fmt = (v: number | undefined, digits: number) =>
  v === undefined || !Number.isFinite(v) ? '-' : v.toFixed(digits);
const fmtPt = (p?: [number, number, number]) => (p ? p.map((v) => v.toFixed(1)).join(' ') : '-');

/**
 * The per-part table of a file: one row per compared quantity (part, quantity, vendor value, computed
 * value, deviation), rows outside the target marked with '!', or with 'explained' when `excluded`
 * (the expected-deviation table) lists them.
 */
export function fidelityTable(result: ImportResult, excluded: FidelityExclusions = new Set()): string[] {
  const mark = (r: PartFidelity, q: 'W' | 'AREA' | 'COG', out: boolean) =>
    !out ? '' : excluded.has(`${r.id}|${q}`) ? 'explained' : '!';
  const rows: string[][] = [['part', 'element', 'quantity', 'vendor', 'computed', 'deviation', '']];
  for (const r of result.fidelity ?? []) {
    if (r.weightDevPct !== undefined)
      rows.push([
        r.id,
        r.element,
        'weight kg',
        fmt(r.vendor.weightKg, 3),
        fmt(r.computed.weightKg, 3),
        `${r.weightDevPct.toFixed(2)}%`,
        mark(r, 'W', r.weightDevPct > FIDELITY_TARGETS.weightPct),
      ]);
    if (r.areaDevPct !== undefined)
      rows.push([
        r.id,
        r.element,
        'area m2',
        fmt(r.vendor.areaM2, 4),
        fmt(r.computed.areaM2, 4),
        `${r.areaDevPct.toFixed(2)}%`,
        mark(r, 'AREA', r.areaDevPct > FIDELITY_TARGETS.areaPct),
      ]);
    if (r.cogDevMm !== undefined)
      rows.push([
        r.id,
        r.element,
        'cog mm',
        fmtPt(r.vendor.cogMm),
        fmtPt(r.computed.cogMm),
        `${r.cogDevMm.toFixed(1)} mm`,
        mark(r, 'COG', r.cogDevMm > FIDELITY_TARGETS.cogMm),
      ]);
  }
  const widths = rows[0].map((_, k) => Math.max(...rows.map((r) => r[k].length)));
  return rows.map((r) =>
    r
      .map((c, k) => c.padEnd(widths[k]))
      .join('  ')
      .trimEnd(),
  );
}
