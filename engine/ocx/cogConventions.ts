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

/**
 * The convention a set of records follows: each record whose vendor CoG lies within the target of one
 * convention's CoG and outside the other's votes for it; the majority decides, a tie (or no vote) leaves
 * the writer's default.
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
  if (solid === moulded) return { convention: writerDefault, from: 'writer' };
  return { convention: solid > moulded ? 'solid' : 'moulded', from: 'data' };
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
  return {
    writer: habits.writer,
    plates: p.convention,
    platesFrom: p.from,
    profiles: q.convention,
    profilesFrom: q.from,
  };
}

/** One line naming a file's conventions, as ocx:check prints it. */
export function conventionsLine(file: string, c: CogConventions | undefined): string {
  if (!c) return `${file}: cog convention: n/a`;
  return `${file}: cog convention (writer ${c.writer}): plates ${c.plates} (from ${c.platesFrom}), profiles ${c.profiles} (from ${c.profilesFrom})`;
}
