/**
 * Material side of a plate or bracket (property MSIDE, viewer.md §3 "Material side directions": IN, OUT,
 * MID, AFT, FORE, SB, PS, BOT, TOP, UNDEFINED). OCX gives the side implicitly: the steel lies between
 * Offset and Offset + thickness along the reference surface's normal (OCX_GUIDE §5.2). The rule:
 *
 * 1. No thickness or no usable normal → UNDEFINED.
 * 2. Steel on both sides of the surface (Offset < 0 < Offset + thickness, each side ≥ 1 % of the
 *    thickness) → MID.
 * 3. Otherwise the side direction d is the normal n (steel on the + side, Offset ≥ 0) or −n. Hull shell
 *    plates (structure type containing SHELL or HULL) whose d is mostly transverse or vertical give IN
 *    when d points into the hull (toward the centre plane y = 0 for a transverse d, upward for a
 *    vertical d) and OUT otherwise.
 * 4. Otherwise the dominant axis of d in the ship's coordinate system (x forward, y to port, z up):
 *    +x FORE, −x AFT, +y PS, −y SB, +z TOP, −z BOT.
 */
import type { Vec3 } from '../geometry/curves';
import { hypot3 } from '../geometry/curves';

/** The spec's material side codes. */
export type MaterialSide = 'IN' | 'OUT' | 'MID' | 'AFT' | 'FORE' | 'SB' | 'PS' | 'BOT' | 'TOP' | 'UNDEFINED';

/**
 * Material side of a sheet part (rule in the file comment).
 * @param normal unit normal of the reference surface as oriented by the part (any length; zero → UNDEFINED).
 * @param offsetMm Offset of the first face along the normal (mm). @param thicknessMm thickness (mm).
 * @param centroidMm the sheet's centroid (mm), for IN/OUT. @param structureType the part's STYPE, if any.
 */
export function materialSide(
  normal: Vec3,
  offsetMm: number,
  thicknessMm: number | undefined,
  centroidMm: Vec3,
  structureType?: string,
): MaterialSide {
  const m = materialDirection(normal, offsetMm, thicknessMm);
  if (!m) return 'UNDEFINED';
  if (m.mid) return 'MID';
  const d = m.direction;
  const ax = Math.abs(d[0]),
    ay = Math.abs(d[1]),
    az = Math.abs(d[2]);
  if (structureType && /SHELL|HULL/i.test(structureType) && Math.max(ay, az) >= ax) {
    if (ay >= az) {
      if (Math.abs(centroidMm[1]) > 1) return d[1] * centroidMm[1] < 0 ? 'IN' : 'OUT';
    } else return d[2] > 0 ? 'IN' : 'OUT';
  }
  if (ax >= ay && ax >= az) return d[0] > 0 ? 'FORE' : 'AFT';
  if (ay >= az) return d[1] > 0 ? 'PS' : 'SB';
  return d[2] > 0 ? 'TOP' : 'BOT';
}

/**
 * The direction from a sheet part's reference surface into its steel (rule 2–3 of the file comment): the unit
 * normal n when the steel lies on its + side, −n on its − side; `mid` when the steel straddles the surface
 * (then `direction` is n). Null without a thickness or a usable normal. Feeds MSIDE and the bracket
 * material direction of viewer.md §7 (POST .../steel/bracket-material-directions).
 * @param normal the reference surface's normal as the part orients it (any length). Offsets in mm.
 */
export function materialDirection(
  normal: ArrayLike<number>,
  offsetMm: number,
  thicknessMm: number | undefined,
): { direction: Vec3; mid: boolean } | null {
  const L = hypot3(normal[0], normal[1], normal[2]);
  if (!thicknessMm || !(thicknessMm > 0) || !(L > 0) || !Number.isFinite(L)) return null;
  const o1 = offsetMm,
    o2 = offsetMm + thicknessMm,
    eps = 0.01 * thicknessMm;
  const mid = o1 < -eps && o2 > eps;
  const s = !mid && o2 <= eps ? -1 : 1;
  return { direction: [(s * normal[0]) / L, (s * normal[1]) / L, (s * normal[2]) / L], mid };
}
