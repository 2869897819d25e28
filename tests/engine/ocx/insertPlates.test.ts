/**
 * An insert plate nested inside another plate of the same panel takes its area from the outer plate
 * (the outer plate's OuterContour need not exclude it); a doubler on the outer plate's face (a steel
 * layer that does not overlap) leaves the outer plate whole.
 */
import { describe, expect, it } from 'vitest';
import { fidelityOf, importText, ocxDoc, panel, plane3d, plate, polygon } from './plateFixture';

const rect = (x0: number, y0: number, x1: number, y1: number) =>
  polygon([
    [x0, y0, 0],
    [x1, y0, 0],
    [x1, y1, 0],
    [x0, y1, 0],
  ]);
const DECK = plane3d([0, 0, 0], [0, 0, 1]);

describe('insert plates', () => {
  it('a 1 × 1 m insert inside a 4 × 3 m plate leaves it 11 m² with its centroid moved away from the insert', async () => {
    const body = panel(
      'P',
      DECK,
      plate({ id: 'outer', contour: rect(0, 0, 4, 3), area: 11, cog: [(6 - 3.5) / 11, 1.5, 0] }) +
        plate({ id: 'insert', contour: rect(0.5, 1, 1.5, 2), thickness: 0.02, area: 1, cog: [1, 1.5, 0] }),
    );
    const r = await importText(ocxDoc(body));
    const outer = fidelityOf(r, 'outer');
    expect(outer.computed.areaM2).toBeCloseTo(11, 6);
    // (12 m² at x = 2 m less 1 m² at x = 1 m) / 11 m²
    expect(outer.computed.cogMm?.[0]).toBeCloseTo((24_000 - 1000) / 11, 0);
    expect(fidelityOf(r, 'insert').computed.areaM2).toBeCloseTo(1, 6);
  });

  it('plates side by side do not cut each other, and a doubler on the face does not cut the plate', async () => {
    const body = panel(
      'P',
      DECK,
      plate({ id: 'left', contour: rect(0, 0, 2, 3), area: 6, cog: [1, 1.5, 0] }) +
        plate({ id: 'right', contour: rect(2, 0, 4, 3), area: 6, cog: [3, 1.5, 0] }) +
        plate({
          id: 'doubler',
          contour: rect(0.5, 1, 1.5, 2),
          area: 1,
          cog: [1, 1.5, 0],
          extra: '<ocx:Offset numericvalue="0.01" unit="Um"/>',
        }),
    );
    const r = await importText(ocxDoc(body));
    expect(fidelityOf(r, 'left').computed.areaM2).toBeCloseTo(6, 6);
    expect(fidelityOf(r, 'right').computed.areaM2).toBeCloseTo(6, 6);
    expect(fidelityOf(r, 'doubler').computed.areaM2).toBeCloseTo(1, 6);
  });
});
