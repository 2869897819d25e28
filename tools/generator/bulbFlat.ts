/**
 * Section area and centroid of the generator's HP bulb flats (EN 10067) in closed form, computed here
 * and not taken from the importer's section outline (engine/geometry/barSections.ts), so that the
 * DryWeight and CenterOfGravity the generator writes are an independent reference for what Keelson
 * computes on import.
 *
 * The section is the nominal EN 10067 outline: the web [0, tw] × [0, H]; beyond it the bulb of width c,
 * whose lower flank rises at the bulb angle α = 30° from (tw, H − hb) to (tw + c, H − r), with the top
 * outer corner rounded by a true circular arc of radius r (hb = c·tan α + r). The area is the tabulated
 * EN 10067 section area; r follows from it by the quadratic below. u runs from the back of the web
 * towards the bulb, v from the toe of the web (the trace) towards the bulb; all lengths in mm.
 */

/** EN 10067 figures of one bulb flat height: bulb width beyond the web c (mm) and bulb area beyond the web (mm²). */
interface HpRow {
  c: number;
  bulbArea: number;
}

/**
 * The EN 10067 heights the generator uses (height in mm → row). The bulb area is the tabulated section
 * area less H·tw (HP200x10: 25.66 cm², HP260x11: 38.71 cm²).
 */
const EN10067: Record<number, HpRow> = {
  200: { c: 28, bulbArea: 566 },
  260: { c: 37, bulbArea: 1011 },
};

const BULB_ANGLE = Math.PI / 6;
/** Distance of the centroid of a corner spandrel (r × r square less its quarter disc) from the corner's two edges, in r. */
const SPANDREL_CENTROID = (10 - 3 * Math.PI) / (3 * (4 - Math.PI));

/** Area (mm²), centroid height above the trace v (mm) and centroid offset towards the bulb u (mm), plus the flange width (mm). */
export interface BulbFlatProperties {
  area: number;
  v: number;
  u: number;
  flangeWidth: number;
  /** Radius of the rounded top outer corner, mm. */
  radius: number;
}

/**
 * Closed-form section properties of an EN 10067 bulb flat of height `H` and web thickness `tw` (mm).
 * @throws Error for a height the table above does not hold.
 */
export function bulbFlatProperties(H: number, tw: number): BulbFlatProperties {
  const row = EN10067[H];
  if (!row) throw new Error(`No EN 10067 bulb flat of height ${H} mm in the generator's table`);
  const { c, bulbArea } = row;
  const tan = Math.tan(BULB_ANGLE);
  const k = 1 - Math.PI / 4; // spandrel area ÷ r²
  // bulb area beyond the web = trapezoid c·(c·tanα + 2r)/2 − spandrel k·r²: solve k r² − c r + (A − c² tanα / 2) = 0
  const d = bulbArea - (c * c * tan) / 2;
  const r = (c - Math.sqrt(c * c - 4 * k * d)) / (2 * k);
  const hb = c * tan + r;
  const b = tw + c;
  // pieces as [area, u, v]: web, rectangle above the flank, triangle under it, minus the corner spandrel
  const pieces: [number, number, number][] = [
    [H * tw, tw / 2, H / 2],
    [c * r, tw + c / 2, H - r / 2],
    [(c * c * tan) / 2, tw + c / 3, (H - hb + 2 * (H - r)) / 3],
    [-k * r * r, b - SPANDREL_CENTROID * r, H - SPANDREL_CENTROID * r],
  ];
  let area = 0,
    su = 0,
    sv = 0;
  for (const [a, u, v] of pieces) {
    area += a;
    su += a * u;
    sv += a * v;
  }
  return { area, u: su / area, v: sv / area, flangeWidth: b, radius: r };
}
