/**
 * A plate whose reference surface is a SurfaceCollection of several faces and whose contour runs over
 * more than one of them: each face is bounded by its own part of the contour (and its edges), so a plate
 * bent over a knuckle between two faces gets the area and centroid of both parts.
 */
import { describe, expect, it } from 'vitest';
import { fidelityOf, importText, ocxDoc, panel, plate, polygon } from './plateFixture';

/** A bilinear NURBS patch through four corners (m): p00, p01 (v direction), p10 (u direction), p11. */
function patch(id: string, p00: number[], p01: number[], p10: number[], p11: number[]): string {
  const cp = [p00, p01, p10, p11].map((p) => `<ocx:ControlPoint coordinates="${p.join(' ')}" unit="Um" weight="1"/>`);
  return `<ocx:NURBSSurface id="${id}"><ocx:U_NURBSproperties degree="1" numCtrlPts="2" numKnots="4" isRational="false"/><ocx:UknotVector value="0 0 1 1"/><ocx:V_NURBSproperties degree="1" numCtrlPts="2" numKnots="4" isRational="false"/><ocx:VknotVector value="0 0 1 1"/><ocx:ControlPtList>${cp.join('')}</ocx:ControlPtList></ocx:NURBSSurface>`;
}

describe('plates over several faces of a surface collection', () => {
  it('a plate bent over a 90° knuckle: 1 m² on the floor face plus 0.5 m² on the wall face', async () => {
    const collection = `<ocx:ReferenceSurfaces><ocx:SurfaceCollection id="sc">${patch('floor', [0, 0, 0], [0, 1, 0], [2, 0, 0], [2, 1, 0])}${patch('wall', [2, 0, 0], [2, 1, 0], [2, 0, 1], [2, 1, 1])}</ocx:SurfaceCollection></ocx:ReferenceSurfaces>`;
    const contour = polygon([
      [1, 0, 0],
      [2, 0, 0],
      [2, 0, 0.5],
      [2, 1, 0.5],
      [2, 1, 0],
      [1, 1, 0],
    ]);
    // sheet centroid: (1 m² at (1.5, 0.5, 0) + 0.5 m² at (2, 0.5, 0.25)) / 1.5 m²
    const cog = [(1.5 + 1) / 1.5, 0.5, 0.125 / 1.5];
    const body =
      collection +
      panel('K', '<ocx:SurfaceRef localRef="sc"/>', plate({ id: 'bent', contour, thickness: 0.002, area: 1.5, cog }));
    const f = fidelityOf(await importText(ocxDoc(body)), 'bent');
    expect(f.computed.areaM2).toBeCloseTo(1.5, 3);
    expect(f.cogDevMm).toBeLessThan(10);
  });
});
