/**
 * The writer's centre-of-gravity convention of a file (OCX_GUIDE §5.2.6, §5.3.3): design systems write a
 * plate's CoG either on its moulded surface or at the steel's centroid, and a profile's either from the
 * trace line or from the plate face it stands on. The importer computes both for every part; this
 * module picks, per kind of part, the convention the file's own figures follow — the data decide when
 * parts tell the two apart (a thick plate, a profile on an offset plate), the header's writer
 * (vendorHabits.ts) when none does — and compares every part under that one convention.
 */
import { hypot3 } from '../geometry/curves';
import type { CogConventions, PartFidelity } from '../model/types';
import { FIDELITY_TARGETS } from './fidelity';
import type { CogConvention, VendorHabits } from './vendorHabits';

const PLATE_ELEMENTS = new Set(['Plate', 'Bracket']);

function dist(a: readonly number[], b: readonly number[]): number {
  return hypot3(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

/** Votes a convention needs before the data overrule the writer's default (one odd part must not). */
export const MIN_VOTES = 3;

/**
 * The convention a set of records follows: each record whose vendor CoG lies within the target of one
 * convention's CoG and outside the other's votes for it; a majority of at least MIN_VOTES decides, else
 * (a tie, or too few parts that tell the two apart) the writer's default stays.
 */
export function conventionOf(
  records: readonly PartFidelity[],
  writerDefault: CogConvention,
): { convention: CogConvention; from: 'data' | 'writer' } {
  let solid = 0,
    moulded = 0;
  const lim = FIDELITY_TARGETS.cogMm;
  for (const r of records) {
    const v = r.vendor.cogMm,
      s = r.computed.cogMm,
      m = r.computed.cogMouldedMm;
    if (!v || !s || !m) continue;
    const ds = dist(v, s),
      dm = dist(v, m);
    if (!Number.isFinite(ds) || !Number.isFinite(dm)) continue;
    if (ds <= lim && dm > lim) solid++;
    else if (dm <= lim && ds > lim) moulded++;
  }
  return decide(solid, moulded, 'solid', 'moulded', writerDefault);
}

function decide<T extends string>(
  votesA: number,
  votesB: number,
  a: T,
  b: T,
  writerDefault: T,
): { convention: T; from: 'data' | 'writer' } {
  if (votesA > votesB && votesA >= MIN_VOTES) return { convention: a, from: 'data' };
  if (votesB > votesA && votesB >= MIN_VOTES) return { convention: b, from: 'data' };
  return { convention: writerDefault, from: 'writer' };
}

/**
 * The weight convention of a file's profiles: each record whose vendor weight lies within the target of
 * one computed weight (along the centroid path, or along the trace) and outside the other's votes for
 * it; the majority decides, a tie leaves the writer's default. Straight profiles do not vote.
 */
export function weightConventionOf(
  records: readonly PartFidelity[],
  writerDefault: VendorHabits['profileWeight'],
): { convention: VendorHabits['profileWeight']; from: 'data' | 'writer' } {
  let path = 0,
    trace = 0;
  const within = (v: number, c: number) => (Math.abs(c - v) / Math.abs(v)) * 100 <= FIDELITY_TARGETS.weightPct;
  for (const r of records) {
    const v = r.vendor.weightKg,
      c = r.computed.weightKg,
      t = r.computed.weightTraceKg;
    if (v === undefined || c === undefined || t === undefined || !(Math.abs(v) > 0)) continue;
    if (within(v, c) && !within(v, t)) path++;
    else if (within(v, t) && !within(v, c)) trace++;
  }
  return decide(path, trace, 'centroid-path', 'trace', writerDefault);
}

/**
 * The area convention of a file's plates (VendorHabits.plateArea): each record whose vendor NetArea (or,
 * without one, DryWeight) lies within the target of one computed figure — the sheet on its reference
 * surface, or the solid's volume / thickness — and outside the other's votes for it; flat plates, where
 * the two agree, do not vote. A majority of at least MIN_VOTES decides, else the writer's default stays.
 */
export function areaConventionOf(
  records: readonly PartFidelity[],
  writerDefault: CogConvention,
): { convention: CogConvention; from: 'data' | 'writer' } {
  let moulded = 0,
    solid = 0;
  const within = (v: number, c: number, pct: number) => (Math.abs(c - v) / Math.abs(v)) * 100 <= pct;
  for (const r of records) {
    const a = r.computed.areaM2,
      s = r.computed.areaSolidM2;
    if (a === undefined || s === undefined || !(a > 0)) continue;
    const f = s / a;
    const va = r.vendor.areaM2,
      vw = r.vendor.weightKg,
      w = r.computed.weightKg;
    let m: boolean, o: boolean;
    if (va !== undefined && Math.abs(va) > 0) {
      m = within(va, a, FIDELITY_TARGETS.areaPct);
      o = within(va, s, FIDELITY_TARGETS.areaPct);
    } else if (vw !== undefined && w !== undefined && Math.abs(vw) > 0) {
      m = within(vw, w, FIDELITY_TARGETS.weightPct);
      o = within(vw, w * f, FIDELITY_TARGETS.weightPct);
    } else continue;
    if (m && !o) moulded++;
    else if (o && !m) solid++;
  }
  return decide(solid, moulded, 'solid', 'moulded', writerDefault);
}

/**
 * Rewrites the compared area and weight of plates under the 'solid' area convention: area = the solid's
 * volume / thickness, weight scaled with it (the writer's weight is its area × thickness × ρ). Mutates.
 */
function applySolidArea(plates: PartFidelity[]): void {
  const rel = (v: number | undefined, c: number) =>
    v !== undefined && Math.abs(v) > 0 ? (Math.abs(c - v) / Math.abs(v)) * 100 : undefined;
  for (const r of plates) {
    const a = r.computed.areaM2,
      s = r.computed.areaSolidM2;
    if (a === undefined || s === undefined || !(a > 0)) continue;
    const f = s / a;
    r.computed.areaM2 = s;
    if (r.computed.weightKg !== undefined) r.computed.weightKg *= f;
    if (r.areaDevPct !== undefined) r.areaDevPct = rel(r.vendor.areaM2, s);
    if (r.weightDevPct !== undefined && r.computed.weightKg !== undefined)
      r.weightDevPct = rel(r.vendor.weightKg, r.computed.weightKg);
  }
}

/**
 * Chooses the file's conventions for plates (Plate, Bracket) and profiles (the other compared parts)
 * and rewrites every record's compared CoG (computed.cogMm) and cogDevMm under them. Mutates `records`.
 */
export function applyCogConventions(records: PartFidelity[], habits: VendorHabits): CogConventions {
  const plates = records.filter((r) => PLATE_ELEMENTS.has(r.element));
  const profiles = records.filter((r) => !PLATE_ELEMENTS.has(r.element));
  const p = conventionOf(plates, habits.plateCog);
  const q = conventionOf(profiles, habits.profileCog);
  const apply = (rs: PartFidelity[], c: CogConvention) => {
    for (const r of rs) {
      if (c === 'moulded' && r.computed.cogMouldedMm) r.computed.cogMm = r.computed.cogMouldedMm;
      const v = r.vendor.cogMm,
        s = r.computed.cogMm;
      if (v && s && r.cogDevMm !== undefined) r.cogDevMm = dist(v, s);
    }
  };
  apply(plates, p.convention);
  apply(profiles, q.convention);
  const a = areaConventionOf(plates, habits.plateArea);
  if (a.convention === 'solid') applySolidArea(plates);
  const w = weightConventionOf(profiles, habits.profileWeight);
  if (w.convention === 'trace')
    for (const r of profiles) {
      const v = r.vendor.weightKg,
        t = r.computed.weightTraceKg;
      if (t === undefined) continue;
      r.computed.weightKg = t;
      if (v !== undefined && r.weightDevPct !== undefined) r.weightDevPct = (Math.abs(t - v) / Math.abs(v)) * 100;
    }
  return {
    writer: habits.writer,
    plates: p.convention,
    platesFrom: p.from,
    profiles: q.convention,
    profilesFrom: q.from,
    profileWeights: w.convention,
    profileWeightsFrom: w.from,
    plateAreas: a.convention,
    plateAreasFrom: a.from,
  };
}

/** One line naming a file's conventions, as ocx:check prints it. */
export function conventionsLine(file: string, c: CogConventions | undefined): string {
  if (!c) return `${file}: conventions: n/a`;
  return `${file}: conventions of writer ${c.writer}: plate cog ${c.plates} (from ${c.platesFrom}), profile cog ${c.profiles} (from ${c.profilesFrom}), profile weight ${c.profileWeights} (from ${c.profileWeightsFrom}), plate area ${c.plateAreas} (from ${c.plateAreasFrom})`;
}
