/**
 * Plates on closed NURBS surfaces and on small radii, each against the figures worked out by hand: a
 * pipe written as a periodic NURBS surface (nCtrl control points round it and nCtrl + p + 2 knots that
 * repeat with the period, CADMATIC's form) carrying a band that winds round its v direction; the
 * steel centroid of such a closed band (on the axis, whatever the thickness); and the writer's plate-area
 * convention (the sheet on the reference surface or the solid's volume / thickness) chosen from the
 * figures.
 */
import { describe, expect, it } from 'vitest';
import type { PartFidelity } from '../../../engine/model/types';
import { applyCogConventions, areaConventionOf } from '../../../engine/ocx/cogConventions';
import { habitsOf } from '../../../engine/ocx/vendorHabits';
import { arc, fidelityOf, importText, line, ocxDoc, panel, plate } from './plateFixture';

/** A circle x = const about (y0, z0), radius r, as two half arcs (m). */
const ring = (x: number, y0: number, z0: number, r: number) =>
  arc([x, y0 - r, z0], [x, y0, z0 - r], [x, y0 + r, z0]) + arc([x, y0 + r, z0], [x, y0, z0 + r], [x, y0 - r, z0]);

/**
 * A pipe of radius 1 m about the line y = 6, z = 1 from x = x0 to x1 as one NURBSSurface: u along x
 * (degree 1), v round the pipe as a periodic cubic with n control points and the n + 5 knots −3 … n + 1
 * (no control point repeated). The uniform cubic's points at the knots are (P[i−1] + 4P[i] + P[i+1]) / 6,
 * so the control points sit on radius 6 / (4 + 2 cos(2π/n)) to put the pipe through radius 1.
 */
function periodicPipe(id: string, x0: number, x1: number, n = 16): string {
  const rc = 6 / (4 + 2 * Math.cos((2 * Math.PI) / n));
  const pts: string[] = [];
  for (const x of [x0, x1])
    for (let j = 0; j < n; j++) {
      const a = (2 * Math.PI * j) / n;
      pts.push(
        `<ocx:ControlPoint coordinates="${x} ${6 + rc * Math.cos(a)} ${1 + rc * Math.sin(a)}" unit="Um" weight="1"/>`,
      );
    }
  const knots = Array.from({ length: n + 5 }, (_, i) => i - 3).join(' ');
  return `<ocx:ReferenceSurfaces><ocx:SurfaceCollection id="${id}"><ocx:NURBSSurface id="${id}p">
<ocx:U_NURBSproperties degree="1" numCtrlPts="2" numKnots="4" isRational="false"/><ocx:UknotVector value="0 0 1 1"/>
<ocx:V_NURBSproperties degree="3" numCtrlPts="${n}" numKnots="${n + 5}" isRational="false"/><ocx:VknotVector value="${knots}"/>
<ocx:ControlPtList>${pts.join('')}</ocx:ControlPtList></ocx:NURBSSurface></ocx:SurfaceCollection></ocx:ReferenceSurfaces>`;
}

describe('a band round a pipe written as a periodic NURBS surface', () => {
  it('covers the whole pipe: 2π·1·0.5 m², the steel centroid on the axis even 40 mm thick', async () => {
    const t = 0.04;
    const body =
      periodicPipe('pipe', 19.5, 21) +
      panel(
        'P',
        '<ocx:SurfaceRef localRef="pipe"/>',
        plate({ id: 'band', contour: ring(20, 6, 1, 1) + ring(20.5, 6, 1, 1), thickness: t }),
      );
    const r = await importText(ocxDoc(body));
    expect(r.warnings.map((w) => w.code)).not.toContain('bad-surface');
    const i = r.objects.findIndex((o) => o.id === 'band');
    // the sheet on the pipe (the uniform cubic departs from the circle by < 0.1 %)
    expect(Number(r.properties[i].AREA_GEOM)).toBeCloseTo(Math.PI, 2);
    const f = fidelityOf(r, 'band');
    // a closed ring: its steel lies symmetrically about the axis, so the solid's centroid is on it
    const [x, y, z] = f.computed.cogMm!;
    expect(Math.hypot(x - 20250, y - 6000, z - 1000)).toBeLessThan(1);
    // the steel between radius 1 and 1 ± t: its volume / t is the area at mid-thickness, 2π(1 ± t/2)·0.5
    const mid = f.computed.areaSolidM2! / Math.PI;
    expect(Math.min(Math.abs(mid - (1 + t / 2)), Math.abs(mid - (1 - t / 2)))).toBeLessThan(0.002);
  });
});

describe('a band with a slit: one contour loop running round the pipe and back', () => {
  it('is the whole band less the slit, one closed solid', async () => {
    // out along the bottom of the pipe at y = 6 − e, round the x = 20.5 ring, back at y = 6 + e and round
    // the x = 20 ring: a slit 1 mm wide, narrower than the gap the contour chaining closes
    const e = 0.0005;
    const round = (x: number, from: number, to: number) =>
      arc([x, from, 0], [x, 6 + Math.sign(from - 6), 1], [x, 6, 2]) +
      arc([x, 6, 2], [x, 6 + Math.sign(to - 6), 1], [x, to, 0]);
    const contour =
      line([20, 6 - e, 0], [20.5, 6 - e, 0]) +
      round(20.5, 6 - e, 6 + e) +
      line([20.5, 6 + e, 0], [20, 6 + e, 0]) +
      round(20, 6 + e, 6 - e);
    const body =
      periodicPipe('pipe2', 19.5, 21) +
      panel('S', '<ocx:SurfaceRef localRef="pipe2"/>', plate({ id: 'slit', contour }));
    const r = await importText(ocxDoc(body));
    const i = r.objects.findIndex((o) => o.id === 'slit');
    expect(Number(r.properties[i].AREA_GEOM)).toBeCloseTo(Math.PI - 2 * e * 0.5, 2);
    const [x, y, z] = fidelityOf(r, 'slit').computed.cogMm!;
    expect(Math.hypot(x - 20250, y - 6000, z - 1000)).toBeLessThan(2);
    expect(r.warnings.filter((w) => w.code === 'plate-method')).toEqual([]);
  });
});

describe('plate-area convention of the writer', () => {
  /** A plate record: vendor area, the sheet's area and the solid's volume / thickness (m²). */
  const rec = (vendor: number, sheet: number, solid: number): PartFidelity => ({
    object: 0,
    id: 'p',
    element: 'Plate',
    line: 1,
    vendor: { areaM2: vendor, weightKg: vendor * 0.01 * 7850 },
    computed: { areaM2: sheet, areaSolidM2: solid, weightKg: sheet * 0.01 * 7850 },
    areaDevPct: (Math.abs(sheet - vendor) / vendor) * 100,
    weightDevPct: (Math.abs(sheet - vendor) / vendor) * 100,
  });
  // a quarter sphere of radius 1 m, 20 mm outward: sheet π, solid π·1.01² (2 % apart)
  const sphere = (vendor: number) => rec(vendor, Math.PI, Math.PI * 1.01 ** 2);

  it('lets three curved plates overrule the writer; flat plates (the two agree) do not vote', () => {
    const solid = Math.PI * 1.01 ** 2;
    expect(areaConventionOf([sphere(solid), sphere(solid)], 'moulded')).toEqual({
      convention: 'moulded',
      from: 'writer',
    });
    expect(areaConventionOf([sphere(solid), sphere(solid), sphere(solid)], 'moulded')).toEqual({
      convention: 'solid',
      from: 'data',
    });
    expect(areaConventionOf([sphere(Math.PI), sphere(Math.PI), sphere(Math.PI)], 'solid')).toEqual({
      convention: 'moulded',
      from: 'data',
    });
    const flat = rec(2, 2, 2);
    expect(areaConventionOf([flat, flat, flat, flat], 'solid')).toEqual({ convention: 'solid', from: 'writer' });
  });

  it('compares area and weight with the solid’s under the solid convention (CADMATIC by its header)', () => {
    const solid = Math.PI * 1.01 ** 2;
    const rs = [sphere(solid), rec(2, 2, 2)];
    expect(rs[0].areaDevPct).toBeGreaterThan(1);
    const c = applyCogConventions(rs, habitsOf({ originating_system: 'NLL2444-07', organization: 'CADMATIC' }));
    expect(c).toMatchObject({ writer: 'CADMATIC', plateAreas: 'solid', plateAreasFrom: 'writer' });
    expect(rs[0].areaDevPct).toBeCloseTo(0, 9);
    expect(rs[0].weightDevPct).toBeCloseTo(0, 9);
    expect(rs[1].areaDevPct).toBeCloseTo(0, 9);
    // NAPA's NetArea is the sheet's
    const napa = [sphere(Math.PI)];
    expect(applyCogConventions(napa, habitsOf({ originating_system: 'NAPA' })).plateAreas).toBe('moulded');
    expect(napa[0].areaDevPct).toBeCloseTo(0, 9);
  });
});
