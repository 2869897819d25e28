/**
 * The expected-deviation table: parts of the shared samples whose vendor figure is provably wrong, each
 * with the independent arithmetic in its reason and the kind of proof that
 * tests/engine/ocx/expectedDeviations.proof.test.ts recomputes from the file's own figures and the
 * part's geometry. A shortcoming of the importer is never listed here (engine/ocx/openImporterGaps.ts
 * lists those). Used by `npm run ocx:check` (scripts/ocxCheck.ts), which counts the rows as explained and
 * prints them with their reasons, and by tests/engine/ocx/fidelity.corpus.test.ts, which checks that each
 * row still deviates (so the table can hide neither a fixed nor a new problem).
 */
import type { FidelityExclusions } from './fidelity';

/** Quantity of a fidelity record: weight, area or centre of gravity. */
export type DeviationQuantity = 'W' | 'AREA' | 'COG';

/**
 * How a row is proven, each recomputed by the proof test:
 * - 'weight-vs-own-figures': DryWeight ≠ NetArea × Thickness × Density of the same part (file values
 *   only) beyond 1 %;
 * - 'area-beyond-bounds': NetArea exceeds the area of the plate's bounding rectangle;
 * - 'cog-outside-part': the CoG lies more than 10 mm outside the part's bounding box (a centroid lies
 *   inside its solid's bounding box);
 * - 'cog-at-part-end': the CoG lies within 10 mm of a face of the bounding box along an axis on which
 *   the part extends more than 500 mm (a bar or plate of constant section has its centroid well inside);
 * - 'weight-vs-trace-length': DryWeight ≠ section area × the file's trace length × density beyond 5 %
 *   on a profile whose section centroid path cannot differ from its trace by more than 1 %;
 * - 'bulb-against-flange-direction': the CoG is the computed one mirrored across the web plane: the
 *   vendor put the bulb on the side opposite to the part's own FlangeDirection;
 * - 'shared-height': several parts at different places carry one identical CoG height copied from
 *   another part;
 * - 'cog-off-band-centroid': the plate's contour is two circles or two circular arcs in parallel planes
 *   on one axis (a band on a cylinder or cone), whose centroid has a closed form — along the axis
 *   h(r1 + 2r2) / (3(r1 + r2)) from the first plane (a frustum's lateral surface; h / 2 for a cylinder),
 *   across it on the axis for full circles and R sin α / α from the centre towards an arc's middle for
 *   arcs of half-angle α — and the CoG lies more than 10 mm + half the thickness from it;
 * - 'cog-off-trace-centroid': along an axis a perpendicular to the (constant) web direction W, the CoG
 *   differs from the trace's length-weighted centroid by more than the section can shift it, the length-
 *   weighted mean over the straight segments of (section width across the web) × |a · (T × W)|;
 * - 'cog-of-untwisted-bar': the CoG is the bar's as if its web kept the first Inclination all along
 *   (within 1 mm), while the part's own Inclinations turn the web, and the bar with its web turning
 *   linearly between them has its centroid more than 10 mm away.
 */
export type DeviationProof =
  | 'weight-vs-own-figures'
  | 'area-beyond-bounds'
  | 'cog-outside-part'
  | 'cog-at-part-end'
  | 'weight-vs-trace-length'
  | 'bulb-against-flange-direction'
  | 'shared-height'
  | 'cog-off-band-centroid'
  | 'cog-off-trace-centroid'
  | 'cog-of-untwisted-bar';

/** One expected deviation: a vendor figure that is wrong. */
export interface ExpectedDeviation {
  /** File base name, e.g. 'NAPA-OCX_M1.3docx'. */
  file: string;
  /** OCX @id of the part. */
  part: string;
  quantity: DeviationQuantity;
  /** Always 'file-error': the file's figure is wrong (importer shortcomings go to openImporterGaps.ts). */
  kind: 'file-error';
  proof: DeviationProof;
  /** Why, with the arithmetic. */
  reason: string;
}

const row = (
  file: string,
  part: string,
  quantity: DeviationQuantity,
  proof: DeviationProof,
  reason: string,
): ExpectedDeviation => ({ file, part, quantity, kind: 'file-error', proof, reason });

const M4_SHELL =
  'NAPA writes z = 4148.7 mm, the curved shell plate’s own CoG height, for every ring stiffener of the M4 shell; rings of different profiles at different frames (x = 995 … 8000 mm) cannot share one height';

const PROSTEP_TC10 = 'PROSTEP-TR03_TC10.3docx';
const PROSTEP_PLATES = [
  'plate_25176',
  'plate_25187',
  'plate_25198',
  'plate_25209',
  'plate_25220',
  'plate_25231',
  'plate_25242',
  'plate_25253',
  'plate_25264',
  'plate_25275',
  'plate_25286',
  'plate_25297',
  'plate_25308',
  'plate_25319',
  'plate_25330',
  'plate_25348',
  'plate_25360',
  'plate_25370',
  'plate_25379',
  'plate_25389',
  'plate_25413',
  'plate_25437',
];
const PROSTEP_AREA =
  'NetArea 4 000 000 (or 3 141 592.65) in the file’s own unit u_metres2, declared as m², for plates whose contours span at most 2 m × 2 m = 4 m²: the value is in mm² (4 m² = 4 000 000 mm²)';
const PROSTEP_WEIGHT =
  'DryWeight 1 318 800 kg where the file’s own NetArea × Thickness × Density gives 4 000 000 m² × 0.042 m × 7850 kg/m³ = 1.3188e9 kg and the contour 4 m² × 0.042 m × 7850 kg/m³ = 1318.8 kg: neither its own figures nor its geometry give it';
const PROSTEP_ORIGIN =
  'CoG (0, 0, 1000) mm for a plate lying at x ≥ 5000 mm: the point is outside the plate’s own bounding box by more than 5 m (a placeholder)';
const PROSTEP_TRACE_START =
  'CoG at the trace’s start point (y = 2000 mm, z = 1000 mm), shifted 100 mm (or 5100 mm) in x, for a stiffener running 2 m from y = 2000 to 4000 mm: a bar of constant section has its centroid near mid-length (y ≈ 3000 mm), not at its end';

const AVEVA_TC11 = 'AVEVA-TR03_TC11.3docx';
const AVEVA_MIRRORED = [
  'ID77',
  'ID80',
  'ID83',
  'ID86',
  'ID89',
  'ID92',
  'ID129',
  'ID132',
  'ID135',
  'ID189',
  'ID192',
  'ID195',
  'ID198',
  'ID201',
  'ID232',
  'ID235',
];
const AVEVA_BULB =
  'HP200x10 bulb on the wrong side: the CoG lies 8.68 mm (the bulb section’s centroid offset from the back of the web: 2565.4 mm² section, first moment 22 270 mm³) against the stiffener’s own FlangeDirection, i.e. the computed CoG mirrored across the web plane (17.4 mm apart); AVEVA places these bulbs on web × tangent whatever FlangeDirection says, and NAPA, AITAC and PROSTEP place the same stiffeners of TC11 on the FlangeDirection side';

/** The table. */
export const EXPECTED_DEVIATIONS: readonly ExpectedDeviation[] = [
  row(
    'NAPA-OCX_M1.3docx',
    'nplcid12',
    'W',
    'weight-vs-own-figures',
    'DryWeight 7850 kg, but NetArea 100 m² × Thickness 0.2 m × Density 7850 kg/m³ = 157 000 kg (×20): the weight is that of a 10 mm plate (OCX_GUIDE §2.16)',
  ),
  ...['NAPA-OCX_M4.3docx', 'NAPA-OCX_M4_v300rc3.3docx'].flatMap((file) =>
    ['nplcid658', 'nplcid659', 'nplcid660', 'nplcid661', 'nplcid662', 'nplcid663', 'nplcid664', 'nplcid665'].map(
      (part) => row(file, part, 'COG', 'shared-height', M4_SHELL),
    ),
  ),
  ...AVEVA_MIRRORED.map((part) => row(AVEVA_TC11, part, 'COG', 'bulb-against-flange-direction', AVEVA_BULB)),
  row(
    'CADMATIC-TR03_TC10.3docx',
    '_10stiffener12',
    'W',
    'weight-vs-trace-length',
    'DryWeight 40.285 kg = 2.000 m × 25.65 cm² × 7850 kg/m³, the trace’s y-extent; the trace is 1 m + √(1² + 0.5²) m = 2.118 m long (42.65 kg), and the HP200x10 centroid path of this kinked trace differs from it by under 5 mm',
  ),
  row(
    'CADMATIC-TR03_TC10.3docx',
    '_10stiffener12',
    'COG',
    'cog-off-trace-centroid',
    'CoG y = 3000 mm, the middle of the trace’s y-extent (the same slip as its weight): the trace runs 1 m along y from y = 2000 and then 1.118 m to (y, z) = (4000, 1500), so its length-weighted centroid is y = (1 × 2500 + 1.118 × 3500) / 2.118 = 3027.9 mm; the web points along −x, so the HP200x10 section (38 mm wide across the web) shifts y only on the inclined segment, by at most 38 × 0.447 × 1.118 / 2.118 = 9.0 mm — y = 3000 is 27.9 mm off (Keelson 3029.8, NAPA’s export of the same stiffener 3027.9)',
  ),
  ...PROSTEP_PLATES.flatMap((part) => [
    row(PROSTEP_TC10, part, 'AREA', 'area-beyond-bounds', PROSTEP_AREA),
    row(PROSTEP_TC10, part, 'W', 'weight-vs-own-figures', PROSTEP_WEIGHT),
  ]),
  ...['plate_25330', 'plate_25348', 'plate_25360', 'plate_25370', 'plate_25389', 'plate_25413', 'plate_25437'].map(
    (part) => row(PROSTEP_TC10, part, 'COG', 'cog-outside-part', PROSTEP_ORIGIN),
  ),
  row(
    PROSTEP_TC10,
    'plate_25760',
    'COG',
    'cog-outside-part',
    'CoG (30250, 6000, 1250) mm, a copy of plate_25425’s, for a plate spanning x = 35000 … 35500 mm: 4.75 m outside its own bounding box',
  ),
  row(
    PROSTEP_TC10,
    'plate_25379',
    'COG',
    'cog-off-band-centroid',
    'CoG x = 20000 mm, the plane of the aft circle, for the band between two circles of radius 1000 mm at x = 20000 and 20500 mm: a cylinder band’s centroid lies midway on its axis, (20250, 6000, 1000) mm — 250 mm off',
  ),
  row(
    PROSTEP_TC10,
    'plate_25399',
    'COG',
    'cog-off-band-centroid',
    'CoG x = 25250 mm, the middle of the x-extent, for the band between circles of radius r1 = 1000 mm (x = 25000) and r2 = 500 mm (x = 25500): a cone frustum’s lateral surface has its centroid h(r1 + 2r2) / (3(r1 + r2)) = 500 × 2000 / 4500 = 222.2 mm from the first plane, x = 25222.2 mm — 27.8 mm off (the 10 mm plate moves it by at most 5 mm)',
  ),
  row(
    PROSTEP_TC10,
    'plate_25425',
    'COG',
    'cog-off-band-centroid',
    'CoG z = 1250 mm, the middle of the z-extent, for the band under the circular arc through (y, z) = (5000, 1000), (6000, 1500), (7000, 1000) mm between x = 30000 and 30500: centre z = 250 mm, R = 1250 mm, half-angle α = asin(1000 / 1250) = 0.9273 rad, and an arc’s centroid lies R sin α / α = 1078.4 mm from its centre, z = 1328.4 mm — 78 mm off',
  ),
  row(PROSTEP_TC10, 'stiff_25335', 'COG', 'cog-outside-part', PROSTEP_TRACE_START),
  ...['stiff_25350', 'stiff_25402', 'stiff_25763'].map((part) =>
    row(PROSTEP_TC10, part, 'COG', 'cog-at-part-end', PROSTEP_TRACE_START),
  ),
  row(
    'NAPA-OCX_M3.3docx',
    'nplcid19',
    'COG',
    'cog-of-untwisted-bar',
    'CoG (134.42, 2989.14, 5000) mm: the L 200×10×100×12 section (3080 mm², centroid 132.96 mm along the web and 22.53 mm along the flange: 134.86 mm from the trace at 9.62° from the web) placed with the first Inclination’s web (5°) along the whole 10 m trace x = 0, y = 3000 — 134.86 mm at −4.62° is (134.42, −10.86) — while the part’s own Inclinations turn the web to −12.5° at 5 m and −30° at 10 m; with the web turning evenly the centroid lies 134.86 × sin 17.5° / 0.3054 = 132.78 mm at −22.12°, (123.0, 2950.0) mm — 40.8 mm away',
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
