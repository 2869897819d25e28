/**
 * The expected-deviation table: every part of the shared samples whose computed
 * weight, area or centre of gravity lies outside FIDELITY_TARGETS, with the reason. A row is either a
 * documented limitation of the importer or a documented error of the file. Used by `npm run ocx:check`
 * (scripts/ocxCheck.ts), which counts the rows as explained and prints them with their reasons, and by
 * tests/engine/ocx/fidelity.corpus.test.ts, which checks that each row still deviates (so the table
 * can hide neither a fixed nor a new problem).
 */
import type { FidelityExclusions } from './fidelity';

/** Quantity of a fidelity record: weight, area or centre of gravity. */
export type DeviationQuantity = 'W' | 'AREA' | 'COG';

/** One expected deviation. */
export interface ExpectedDeviation {
  /** File base name, e.g. 'NAPA-OCX_M1.3docx'. */
  file: string;
  /** OCX @id of the part. */
  part: string;
  quantity: DeviationQuantity;
  /** 'limitation': the importer's own; 'file-error': the file's figure is wrong. */
  kind: 'limitation' | 'file-error';
  reason: string;
}

const M4_SHELL =
  "NAPA writes z = 4148.7 mm (the curved shell plate's own CoG height) for every ring stiffener of the M4 shell; rings of different profiles at different frames cannot share one height";
const TC12_P2 =
  'hole 600X800R150 straddles the seam corner at (5, 5) m; the cut is exact, NAPA NetArea of P2 subtracts 0.26 m² more';

/** The table. */
export const EXPECTED_DEVIATIONS: readonly ExpectedDeviation[] = [
  {
    file: 'NAPA-OCX_M1.3docx',
    part: 'nplcid12',
    quantity: 'W',
    kind: 'file-error',
    reason: 'the plate is 0.2 m thick, DryWeight is for a ~10 mm plate (OCX_GUIDE §2.16, ×20)',
  },
  { file: 'NAPA-TR03_TC12.3docx', part: 'nplcid41', quantity: 'AREA', kind: 'file-error', reason: TC12_P2 },
  {
    file: 'NAPA-TR03_TC12.3docx',
    part: 'nplcid41',
    quantity: 'W',
    kind: 'file-error',
    reason: `follows the P2 area deviation (W = area × t × ρ): ${TC12_P2}`,
  },
  {
    file: 'NAPA-TR03_TC12.3docx',
    part: 'nplcid41',
    quantity: 'COG',
    kind: 'file-error',
    reason: 'follows the P2 area deviation (the extra 0.26 m² NAPA removes shifts its CoG by 22 mm)',
  },
  {
    file: 'NAPA-TR03_TC13.3docx',
    part: 'nplcid38',
    quantity: 'COG',
    kind: 'limitation',
    reason:
      '160 m² plate on an extruded shell, 11.5 mm CoG difference (0.1 % of its 9 × 18 m extent) from the projected-and-lifted triangulation',
  },
  {
    file: 'NAPA-OCX_M3.3docx',
    part: 'nplcid19',
    quantity: 'COG',
    kind: 'limitation',
    reason:
      "twisted L-bar whose web turns 35° along a 10 m straight trace through three inclinations; the web angle is interpolated by arc length about the tangent (41 mm off), NAPA's own rule for the twist is not documented",
  },
  ...['NAPA-OCX_M4.3docx', 'NAPA-OCX_M4_v300rc3.3docx'].flatMap((file) =>
    ['nplcid658', 'nplcid659', 'nplcid660', 'nplcid661', 'nplcid662', 'nplcid663', 'nplcid664', 'nplcid665'].map(
      (part): ExpectedDeviation => ({ file, part, quantity: 'COG', kind: 'file-error', reason: M4_SHELL }),
    ),
  ),
];

/** The rows of one file (by base name). */
export function expectedDeviationsOf(file: string): ExpectedDeviation[] {
  return EXPECTED_DEVIATIONS.filter((d) => d.file === file);
}

/** The exclusion keys (`${part}|${quantity}`) of one file, for summarizeFidelity. */
export function exclusionsOf(file: string): FidelityExclusions {
  return new Set(expectedDeviationsOf(file).map((d) => `${d.part}|${d.quantity}`));
}
