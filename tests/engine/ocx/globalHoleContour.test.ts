/**
 * Catalogue hole contours written in global 3D coordinates (as 3DEXPERIENCE writes them, with an
 * identity Transformation) are cut where they lie, and a contour in the hole's local frame is still
 * placed by its Transformation: the reading that lies on the cut plate's plane wins.
 */
import { describe, expect, it } from 'vitest';
import { fidelityOf, hole2d, importText, ocxDoc, panel, plate, polygon } from './plateFixture';

/** A 2 × 2 m plate in the plane x = 5 m (y −4…−2, z 0…2). */
const SQUARE = [
  [5, -4, 0],
  [5, -2, 0],
  [5, -2, 2],
  [5, -4, 2],
];
const GRID = '<ocx:GridRef localRef="X5"/>';
const FRAMES =
  '<ocx:CoordinateSystem id="cs"><ocx:XRefPlanes><ocx:RefPlane id="X5" name="X5"><ocx:ReferenceLocation numericvalue="5" unit="Um"/></ocx:RefPlane></ocx:XRefPlanes></ocx:CoordinateSystem>';

/** A Hole2D whose Contour is the 1 × 1 m square at the plate's centre, in global coordinates. */
const GLOBAL_HOLE = `<ocx:HoleShapeCatalogue><ocx:Hole2D id="H1" name="global"><ocx:Contour>${polygon([
  [5, -3.5, 0.5],
  [5, -2.5, 0.5],
  [5, -2.5, 1.5],
  [5, -3.5, 1.5],
])}</ocx:Contour></ocx:Hole2D></ocx:HoleShapeCatalogue>`;

/** A Hole2D whose Contour is a 1 × 1 m square about the local origin in the local plane z = 0. */
const LOCAL_HOLE = `<ocx:HoleShapeCatalogue><ocx:Hole2D id="H1" name="local"><ocx:Contour>${polygon([
  [-0.5, -0.5, 0],
  [0.5, -0.5, 0],
  [0.5, 0.5, 0],
  [-0.5, 0.5, 0],
])}</ocx:Contour></ocx:Hole2D></ocx:HoleShapeCatalogue>`;

async function importWith(holeCatalogue: string, placement: string) {
  const body =
    FRAMES + panel('P', GRID, plate({ id: 'p1', contour: polygon(SQUARE), area: 3, cog: [5, -3, 1] }), placement);
  return importText(ocxDoc(body, holeCatalogue));
}

describe('hole contours in global coordinates', () => {
  it('a global contour with an identity Transformation cuts 1 m² out of the plate', async () => {
    const f = fidelityOf(await importWith(GLOBAL_HOLE, hole2d('H1', [0, 0, 0])), 'p1');
    expect(f.computed.areaM2).toBeCloseTo(3, 4);
    expect(f.cogDevMm).toBeLessThan(10);
  });

  it('a global contour with a non-identity Transformation is still cut where it lies (it lies on the plate)', async () => {
    const f = fidelityOf(await importWith(GLOBAL_HOLE, hole2d('H1', [0, 1, 2], [0, 1, 0], [0, 0, 1])), 'p1');
    expect(f.computed.areaM2).toBeCloseTo(3, 4);
  });

  it('a local contour is placed by its Transformation in the plate plane', async () => {
    const f = fidelityOf(await importWith(LOCAL_HOLE, hole2d('H1', [5, -3, 1], [0, 1, 0], [0, 0, 1])), 'p1');
    expect(f.computed.areaM2).toBeCloseTo(3, 4);
    const off = fidelityOf(await importWith(LOCAL_HOLE, hole2d('H1', [5, -3.5, 1.5], [0, 1, 0], [0, 0, 1])), 'p1');
    expect(off.computed.areaM2).toBeCloseTo(3, 4);
    expect(off.computed.cogMm?.[1]).toBeGreaterThan(-3000); // the hole sits in the (y < −3, z > 1) quarter
  });
});
