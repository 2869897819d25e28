/**
 * Curved plates meshed in their surface's parameter space: a band around a cylinder (two circular edges
 * that project onto each other), zones of a sphere, and a hole placed above a curved plate projected
 * along its own frame normal — each against the area and centroid worked out by hand.
 */
import { describe, expect, it } from 'vitest';
import { arc, fidelityOf, importText, line, ocxDoc, panel, plate } from './plateFixture';

const m = (v: number) => `numericvalue="${v}" unit="Um"`;
const surfaces = (inner: string) => `<ocx:ReferenceSurfaces>${inner}</ocx:ReferenceSurfaces>`;
const REF = (id: string) => `<ocx:SurfaceRef localRef="${id}"/>`;

/** A circle x = const about the axis (y0, z0), radius r, as two half arcs (m). */
const ring = (x: number, y0: number, z0: number, r: number) =>
  arc([x, y0 - r, z0], [x, y0, z0 - r], [x, y0 + r, z0]) + arc([x, y0 + r, z0], [x, y0, z0 + r], [x, y0 - r, z0]);

/** A circle z = const about the z axis through the origin, radius r (m). */
const latitude = (z: number, r: number) =>
  arc([r, 0, z], [0, r, z], [-r, 0, z]) + arc([-r, 0, z], [0, -r, z], [r, 0, z]);

describe('plates meshed in the parameter space of their surface', () => {
  it('a band 0.5 m wide around a cylinder of radius 1 m: 2π·1·0.5 m², centroid on the axis', async () => {
    const cyl = `<ocx:Cylinder3D id="c1"><ocx:Origin coordinates="19 6 1" unit="Um"/><ocx:Axis direction="1 0 0"/><ocx:Radius ${m(1)}/><ocx:Height ${m(2)}/></ocx:Cylinder3D>`;
    const area = Math.PI;
    const body =
      surfaces(cyl) +
      panel(
        'P',
        REF('c1'),
        plate({ id: 'band', contour: ring(20, 6, 1, 1) + ring(20.5, 6, 1, 1), area, cog: [20.25, 6, 1] }),
      );
    const f = fidelityOf(await importText(ocxDoc(body)), 'band');
    expect(f.computed.areaM2).toBeGreaterThan(area * 0.995);
    expect(f.computed.areaM2).toBeLessThan(area * 1.005);
    expect(f.cogDevMm).toBeLessThan(10);
  });

  it('a zone of a sphere between two latitudes, and a cap bounded by one latitude', async () => {
    const sph = `<ocx:Sphere3D id="s1"><ocx:Origin coordinates="0 0 0" unit="Um"/><ocx:Radius ${m(1)}/></ocx:Sphere3D>`;
    // zone between z = 0 and z = 0.5 of the unit sphere: 2πRh = π m², centroid at z = 0.25 m
    const r05 = Math.sqrt(1 - 0.25);
    const zone = plate({ id: 'zone', contour: latitude(0, 1) + latitude(0.5, r05), area: Math.PI, cog: [0, 0, 0.25] });
    // cap above z = 0.5: 2πR(1 − 0.5) = π m², centroid at z = 0.75 m
    const cap = plate({ id: 'cap', contour: latitude(0.5, r05), area: Math.PI, cog: [0, 0, 0.75] });
    const r = await importText(ocxDoc(surfaces(sph) + panel('Z', REF('s1'), zone) + panel('C', REF('s1'), cap)));
    for (const id of ['zone', 'cap']) {
      const f = fidelityOf(r, id);
      expect(f.areaDevPct, id).toBeLessThan(1);
      expect(f.cogDevMm, id).toBeLessThan(10);
    }
  });

  it('a quarter sphere bounded by a half equator and a meridian half circle: πR²', async () => {
    const sph = `<ocx:Sphere3D id="s2"><ocx:Origin coordinates="0 0 0" unit="Um"/><ocx:Radius ${m(2)}/></ocx:Sphere3D>`;
    const s = Math.SQRT1_2 * 2;
    const contour =
      arc([2, 0, 0], [s, s, 0], [0, 2, 0]) +
      arc([0, 2, 0], [0, s, s], [0, 0, 2]) +
      arc([0, 0, 2], [s, 0, s], [2, 0, 0]);
    // one octant of a sphere of radius 2 m: 4π·4/8 = 2π m², centroid at R/2 along each axis
    const r = await importText(
      ocxDoc(
        surfaces(sph) + panel('Q', REF('s2'), plate({ id: 'octant', contour, area: 2 * Math.PI, cog: [1, 1, 1] })),
      ),
    );
    const f = fidelityOf(r, 'octant');
    expect(f.areaDevPct).toBeLessThan(1);
    expect(f.cogDevMm).toBeLessThan(10);
  });

  it('a hole placed 0.5 m above a curved plate is projected along its frame normal and cut', async () => {
    // the top of a cylinder of radius 2 m along x: the patch |y| ≤ 1 m, x 0…2 m
    const R = 2,
      yM = 1,
      zE = Math.sqrt(R * R - yM * yM);
    const cyl = `<ocx:Cylinder3D id="c2"><ocx:Origin coordinates="0 0 0" unit="Um"/><ocx:Axis direction="1 0 0"/><ocx:Radius ${m(R)}/><ocx:Height ${m(2)}/></ocx:Cylinder3D>`;
    const contour =
      arc([0, -yM, zE], [0, 0, R], [0, yM, zE]) +
      line([0, yM, zE], [2, yM, zE]) +
      arc([2, yM, zE], [2, 0, R], [2, -yM, zE]) +
      line([2, -yM, zE], [0, -yM, zE]);
    const patch = 2 * R * 2 * Math.asin(yM / R);
    // the disc of radius 0.3 m about (1, 0) projected along z onto z = √(R² − y²): ∫∫ R / √(R² − y²)
    const a = 0.3;
    let hole = 0;
    const n = 2000;
    for (let i = 0; i < n; i++) {
      const y = -a + ((i + 0.5) * 2 * a) / n;
      hole += ((2 * Math.sqrt(a * a - y * y) * R) / Math.sqrt(R * R - y * y)) * ((2 * a) / n);
    }
    const catalogue = `<ocx:HoleShapeCatalogue><ocx:Hole2D id="H"><ocx:ParametricCircle><ocx:Diameter ${m(2 * a)}/></ocx:ParametricCircle></ocx:Hole2D></ocx:HoleShapeCatalogue>`;
    const cut = `<ocx:Hole2DContour id="hc"><ocx:HoleRef localRef="H"/><ocx:Transformation><ocx:Origin coordinates="1 0 2.5" unit="Um"/><ocx:PrimaryAxis direction="1 0 0"/><ocx:SecondaryAxis direction="0 1 0"/></ocx:Transformation></ocx:Hole2DContour>`;
    const body =
      surfaces(cyl) + panel('S', REF('c2'), plate({ id: 'shell', contour, area: patch - hole, cog: [1, 0, 1.9] }), cut);
    const f = fidelityOf(await importText(ocxDoc(body, catalogue)), 'shell');
    expect(f.areaDevPct).toBeLessThan(0.5);
    expect(f.computed.areaM2).toBeLessThan(patch - 0.9 * hole);
  });
});
