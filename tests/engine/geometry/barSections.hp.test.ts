/**
 * Bulb flat (HP) sections reproduce the standard EN 10067 section areas for all sizes
 * (weights of HP stiffeners then agree with the writers' tables), and their centroids — not used to
 * build the shape — agree with the standard's figures, which checks the outline itself.
 */
import { describe, expect, it } from 'vitest';
import { sectionPolygon } from '../../../engine/geometry/barSections';

/** EN 10067: name, h, t, c (bulb width beyond the web), area (cm²), centroid above the web's toe (cm). */
const HP: [string, number, number, number, number, number][] = [
  ['HP140x9', 140, 9, 19, 15.2, 8.09],
  ['HP160x9', 160, 9, 22, 17.8, 9.37],
  ['HP180x10', 180, 10, 25, 22.46, 10.6],
  ['HP200x10', 200, 10, 28, 25.66, 11.97],
  ['HP220x12', 220, 12, 31, 33.4, 13.05],
  ['HP240x11', 240, 11, 34, 34.89, 14.59],
  ['HP260x11', 260, 11, 37, 38.71, 16.01],
  ['HP280x12', 280, 12, 40, 45.48, 17.24],
  ['HP300x12', 300, 12, 43, 49.79, 18.67],
  ['HP320x13', 320, 13, 46, 57.45, 19.9],
  ['HP340x14', 340, 14, 49, 65.61, 21.13],
  ['HP370x15', 370, 15, 53.5, 77.07, 23.07],
  ['HP400x14', 400, 14, 58, 81.48, 25.51],
  ['HP430x17', 430, 17, 62.5, 102.79, 26.96],
];

function centroidV(ring: number[]): number {
  let a = 0,
    cy = 0;
  const n = ring.length / 2;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const cr = ring[2 * j] * ring[2 * i + 1] - ring[2 * i] * ring[2 * j + 1];
    a += cr;
    cy += (ring[2 * j + 1] + ring[2 * i + 1]) * cr;
  }
  return cy / (3 * a);
}

describe('BulbFlat against EN 10067', () => {
  it.each(HP)(
    '%s: area within 1 % with FlangeWidth = t + c and without FlangeWidth; centroid within 1 %',
    (_n, h, t, c, A, v) => {
      for (const d of [
        { height: h, webThickness: t, flangeWidth: t + c },
        { height: h, webThickness: t },
      ]) {
        const s = sectionPolygon('BulbFlat', d);
        expect(Math.abs(s.area / 100 / A - 1)).toBeLessThanOrEqual(0.01);
        expect(Math.abs(centroidV(s.outer) / 10 / v - 1)).toBeLessThanOrEqual(0.01);
      }
    },
  );

  it('a web thickness between the tabulated ones changes the area by the web only', () => {
    const a = sectionPolygon('BulbFlat', { height: 260, webThickness: 11, flangeWidth: 48 }).area;
    const b = sectionPolygon('BulbFlat', { height: 260, webThickness: 11.5, flangeWidth: 48.5 }).area;
    expect(b - a).toBeCloseTo(260 * 0.5, 0);
  });

  it("NAPA Steel's HP figures (DryWeight / ρ) are met with the widths NAPA writes", () => {
    expect(sectionPolygon('BulbFlat', { height: 200, webThickness: 10, flangeWidth: 37.9 }).area / 100).toBeCloseTo(
      25.62,
      0,
    );
    expect(
      Math.abs(sectionPolygon('BulbFlat', { height: 220, webThickness: 12, flangeWidth: 42.84 }).area / 3336 - 1),
    ).toBeLessThan(0.01);
  });

  it('an off-standard bulb (height between sizes) gets a plausible area from the fitted bulb', () => {
    const a = sectionPolygon('BulbFlat', { height: 250, webThickness: 11 }).area / 100;
    const lo = sectionPolygon('BulbFlat', { height: 240, webThickness: 11 }).area / 100;
    const hi = sectionPolygon('BulbFlat', { height: 260, webThickness: 11 }).area / 100;
    expect(a).toBeGreaterThan(lo);
    expect(a).toBeLessThan(hi);
  });
});
