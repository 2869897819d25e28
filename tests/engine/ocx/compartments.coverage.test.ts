/**
 * (geometry coverage), on hand-written OCX snippets: Arrangement / Compartment /
 * PhysicalSpace → COMPARTMENT objects (closed outward volume, purpose, tightness, VOLM, CoG), custom
 * properties, the curve kinds CircumCircle3D / Ellipse3D / PolyLine3D, the surfaces Cylinder3D / Cone3D /
 * Sphere3D / ExtrudedSurface / SurfaceCollection, the bar sections UBar / ZBar / LBarOW / LBarOF and
 * every HoleShapeCatalogue kind; and the compartments of the ship generator's output.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importOcx } from '../../../engine/ocx/index';
import { importOcxFile } from '../../../engine/node/ocx/importFile';
import { curvePolyline } from '../../../engine/ocx/curveRead';
import { surfaceMesh, type SurfaceContext } from '../../../engine/ocx/surfaces';
import { sectionOf } from '../../../engine/ocx/catalogue';
import { holeShape2d } from '../../../engine/ocx/holes';
import { UnitTable } from '../../../engine/ocx/units';
import { meshArea } from '../../../engine/geometry/meshMeasure';
import { signedArea2d } from '../../../engine/geometry/region2d';
import type { XNode } from '../../../engine/ocx/xmlTree';

const NS = 'https://3docx.org/fileadmin//ocx_schema//V310//OCX_Schema.xsd';
const UNITS = `<unitsml:UnitsML xmlns:unitsml="urn:oasis:names:tc:unitsml:schema:xsd:UnitsMLSchema_lite-0.9.18"><unitsml:UnitSet>
<unitsml:Unit xml:id="Um"><unitsml:UnitName>meter</unitsml:UnitName><unitsml:UnitSymbol>m</unitsml:UnitSymbol><unitsml:RootUnits><unitsml:EnumeratedRootUnit unit="meter"/></unitsml:RootUnits></unitsml:Unit>
<unitsml:Unit xml:id="Um3"><unitsml:UnitName>cubic meter</unitsml:UnitName><unitsml:UnitSymbol>m3</unitsml:UnitSymbol><unitsml:RootUnits><unitsml:EnumeratedRootUnit unit="meter" powerNumerator="3"/></unitsml:RootUnits></unitsml:Unit>
</unitsml:UnitSet></unitsml:UnitsML>`;

/** A 3.1 document around a Vessel body (the catalogue after the Vessel, as the schema orders it). */
const doc = (body: string) =>
  `<?xml version="1.0" encoding="utf-8"?>\n<ocx:ocxXML xmlns:ocx="${NS}" schemaVersion="3.1.0"><ocx:Header name="T" originating_system="hand" time_stamp="2024-01-01T00:00:00"/>
<ocx:Vessel id="v1" name="T">${body}</ocx:Vessel><ocx:ClassCatalogue id="cc"/>${UNITS}</ocx:ocxXML>`;

async function* chunks(text: string): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += 500) yield text.slice(i, i + 500);
}

/** A planar face of a box through its corner points (m), the Plane3D normal given (any sign). */
function face(id: string, pts: number[][], normal: number[]): string {
  const lines = pts.map((p, i) => {
    const q = pts[(i + 1) % pts.length];
    return `<ocx:Line3D id="${id}l${i}"><ocx:StartPoint coordinates="${p.join(' ')}" unit="Um"/><ocx:EndPoint coordinates="${q.join(' ')}" unit="Um"/></ocx:Line3D>`;
  });
  return `<ocx:CompartmentFace id="${id}"><ocx:UnboundedGeometry><ocx:Plane3D id="${id}p"><ocx:Origin coordinates="${pts[0].join(' ')}" unit="Um"/><ocx:Normal direction="${normal.join(' ')}"/></ocx:Plane3D></ocx:UnboundedGeometry><ocx:FaceBoundaryCurve><ocx:CompositeCurve3D id="${id}c">${lines.join('')}</ocx:CompositeCurve3D></ocx:FaceBoundaryCurve></ocx:CompartmentFace>`;
}

/** A box compartment [x0,x1]×[y0,y1]×[z0,z1] m whose face normals alternate in and out. */
function boxCompartment(id: string, [x0, x1, y0, y1, z0, z1]: number[], extra = ''): string {
  const f = [
    face(
      `${id}f1`,
      [
        [x0, y0, z0],
        [x1, y0, z0],
        [x1, y1, z0],
        [x0, y1, z0],
      ],
      [0, 0, 1],
    ),
    face(
      `${id}f2`,
      [
        [x0, y0, z1],
        [x1, y0, z1],
        [x1, y1, z1],
        [x0, y1, z1],
      ],
      [0, 0, 1],
    ),
    face(
      `${id}f3`,
      [
        [x0, y0, z0],
        [x1, y0, z0],
        [x1, y0, z1],
        [x0, y0, z1],
      ],
      [0, -1, 0],
    ),
    face(
      `${id}f4`,
      [
        [x0, y1, z0],
        [x1, y1, z0],
        [x1, y1, z1],
        [x0, y1, z1],
      ],
      [0, -1, 0],
    ),
    face(
      `${id}f5`,
      [
        [x0, y0, z0],
        [x0, y1, z0],
        [x0, y1, z1],
        [x0, y0, z1],
      ],
      [1, 0, 0],
    ),
    face(
      `${id}f6`,
      [
        [x1, y0, z0],
        [x1, y1, z0],
        [x1, y1, z1],
        [x1, y0, z1],
      ],
      [-1, 0, 0],
    ),
  ];
  return `<ocx:Compartment id="${id}" name="TANK ${id}" ocx:compartmentPurpose="ballast_tank"><ocx:CustomProperties><ocx:CustomProperty id="${id}cp1" name="tightness" value="WaterTight"/><ocx:CustomProperty id="${id}cp2" name="W" value="12"/><ocx:CustomProperty id="${id}cp3" name="frames" value="FR3-FR7"/></ocx:CustomProperties>${extra}${f.join('')}<ocx:LiquidCargo/></ocx:Compartment>`;
}

describe('compartments (Arrangement / Compartment / PhysicalSpace)', () => {
  const arrangement = `<ocx:Arrangement id="arr" name="Tanks">${boxCompartment('c1', [1, 3, -1.5, 1.5, 0, 4])}${boxCompartment('c2', [3, 4, 0, 1, 0, 1], '<ocx:CompartmentProperties><ocx:CenterOfGravity coordinates="3.5 0.5 0.5" unit="Um"/><ocx:Volume numericvalue="1.0" unit="Um3"/></ocx:CompartmentProperties>')}
    <ocx:PhysicalSpace id="ps1" name="VOID 1" ocx:compartmentPurpose="void"><ocx:CompartmentProperties><ocx:CenterOfGravity coordinates="10 0 2" unit="Um"/><ocx:Volume numericvalue="33" unit="Um3"/></ocx:CompartmentProperties><ocx:Cell id="cell1"/><ocx:BulkCargo/></ocx:PhysicalSpace></ocx:Arrangement>`;

  it('become COMPARTMENT objects under a COMPARTMENT ARRANGEMENT with volume, CoG, purpose and tightness', async () => {
    const r = await importOcx(chunks(doc(arrangement)));
    const arr = r.objects.find((o) => o.id === 'arr')!;
    expect(arr.type).toBe('COMPARTMENT ARRANGEMENT');
    const c1 = r.objects.find((o) => o.id === 'c1')!;
    expect(c1).toMatchObject({ type: 'COMPARTMENT', element: 'Compartment', parent: arr.index, name: 'TANK c1' });
    const p = r.properties[c1.index];
    expect(p.VOLM_GEOM as number).toBeCloseTo(2 * 3 * 4, 6);
    expect(p.VOLM as number).toBeCloseTo(24, 6); // no file value: the computed one
    expect([p.XCG, p.YCG, p.ZCG].map(Number)).toEqual([
      expect.closeTo(2, 6),
      expect.closeTo(0, 6),
      expect.closeTo(2, 6),
    ]);
    expect(p.AREA_GEOM as number).toBeCloseTo(2 * (6 + 8 + 12), 6);
    expect(p).toMatchObject({
      OTYPE: 'COMPARTMENT',
      PURP: 'ballast_tank',
      TGH: 'WaterTight',
      frames: 'FR3-FR7',
      'CUSTOM W': '12',
    });
    expect(p.W).toBeUndefined(); // a vendor's custom "W" never overwrites the catalogue code
    // file values win for VOLM / CoG, computed ones stay as *_GEOM
    const p2 = r.properties[r.objects.find((o) => o.id === 'c2')!.index];
    expect(p2.VOLM).toBe(1);
    expect(p2.VOLM_GEOM as number).toBeCloseTo(1, 6);
    expect(p2.XCG).toBeCloseTo(3.5, 9);
    // PhysicalSpace: the file's figures, no geometry
    const ps = r.objects.find((o) => o.id === 'ps1')!;
    expect(ps.type).toBe('COMPARTMENT');
    expect(r.properties[ps.index]).toMatchObject({ PURP: 'void', VOLM: 33, XCG: 10 });
    expect(r.meshes.some((m) => m.object === ps.index)).toBe(false);
    expect(r.unsupportedElements).toBeUndefined();
  });

  it('the compartment mesh is closed with outward normals whatever the file normals', async () => {
    const r = await importOcx(chunks(doc(arrangement)));
    const c1 = r.objects.find((o) => o.id === 'c1')!;
    const m = r.meshes.find((x) => x.object === c1.index)!;
    const P = m.positions,
      I = m.indices;
    // signed volume of the closed surface (divergence theorem) equals +24 m³ only when every triangle faces out
    let v = 0;
    for (let t = 0; t < I.length; t += 3) {
      const [a, b, c] = [3 * I[t], 3 * I[t + 1], 3 * I[t + 2]];
      v +=
        (P[a] * (P[b + 1] * P[c + 2] - P[b + 2] * P[c + 1]) -
          P[a + 1] * (P[b] * P[c + 2] - P[b + 2] * P[c]) +
          P[a + 2] * (P[b] * P[c + 1] - P[b + 1] * P[c])) /
        6;
    }
    expect(v / 1e9).toBeCloseTo(24, 3);
    expect(meshArea(P, I).area / 1e6).toBeCloseTo(52, 3);
    expect(c1.bounds).toEqual([1000, -1500, 0, 3000, 1500, 4000]);
  });
});

describe('generated ship compartments', () => {
  it('the importer agrees with the generator on every compartment volume', async () => {
    const { writeShipOcx } = await import('../../../tools/generator/index');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'keelson-comp-'));
    try {
      const file = path.join(dir, 'ship.3docx');
      const stats = await writeShipOcx(file, { targetParts: 600, seed: 5, name: 'COMP' });
      const r = await importOcxFile(file);
      const comps = r.objects.filter((o) => o.type === 'COMPARTMENT');
      expect(stats.compartments).toBeGreaterThan(0);
      expect(comps.length).toBe(stats.compartments);
      for (const c of comps) {
        const p = r.properties[c.index];
        expect(p.PURP, c.id).toBeTruthy();
        expect([typeof p.VOLM, typeof p.VOLM_GEOM], c.id).toEqual(['number', 'number']);
        expect(Math.abs((p.VOLM_GEOM as number) - (p.VOLM as number)) / (p.VOLM as number), c.id).toBeLessThan(0.005);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

// ---- kernels on hand-built nodes ----
const el = (n: string, a: Record<string, string> = {}, ...c: XNode[]): XNode => ({ n, a, c, line: 1 });
const pt = (name: string, xyz: string) => el(name, { coordinates: xyz, unit: 'Um' });
const q = (name: string, v: number) => el(name, { numericvalue: String(v), unit: 'Um' });
const vec = (name: string, d: string) => el(name, { direction: d });
const ctx = (): SurfaceContext => ({
  units: new UnitTable(new Map()),
  chordMm: 1,
  angRad: (15 * Math.PI) / 180,
  warn: () => undefined,
  refPlanes: new Map(),
  surfaces: new Map(),
  meshCache: new Map(),
});
const polyLen = (p: number[]) => {
  let s = 0;
  for (let i = 3; i < p.length; i += 3) s += Math.hypot(p[i] - p[i - 3], p[i + 1] - p[i - 2], p[i + 2] - p[i - 1]);
  return s;
};

describe('curve kinds', () => {
  it('CircumCircle3D: the full circle through three points, closed, within the chordal tolerance', () => {
    const c = curvePolyline(
      el(
        'CircumCircle3D',
        { id: 'cc' },
        el('Positions', {}, pt('Point3D', '1 0 0'), pt('Point3D', '0 1 0'), pt('Point3D', '-1 0 0')),
      ),
      ctx(),
    )!;
    expect(polyLen(c)).toBeCloseTo(2 * Math.PI * 1000, -1);
    expect(Math.hypot(c[0] - c[c.length - 3], c[1] - c[c.length - 2], c[2] - c[c.length - 1])).toBeLessThan(1e-6);
    for (let i = 0; i < c.length; i += 3) expect(Math.hypot(c[i], c[i + 1])).toBeCloseTo(1000, 6);
  });

  it('Ellipse3D: semi-axes from the diameters along the given axes', () => {
    const c = curvePolyline(
      el(
        'Ellipse3D',
        {},
        pt('Center', '0 0 1'),
        q('MajorDiameter', 4),
        q('MinorDiameter', 2),
        vec('MajorAxis', '0 1 0'),
        vec('MinorAxis', '0 0 1'),
        vec('Normal', '1 0 0'),
      ),
      ctx(),
    )!;
    const ys = [],
      zs = [];
    for (let i = 0; i < c.length; i += 3) {
      expect(c[i]).toBeCloseTo(0, 9);
      ys.push(c[i + 1]);
      zs.push(c[i + 2]);
    }
    expect(Math.max(...ys)).toBeCloseTo(2000, 3);
    expect(Math.min(...zs)).toBeCloseTo(0, 3);
    // Ramanujan's perimeter of a = 2, b = 1 m
    const [a, b] = [2000, 1000],
      h = ((a - b) / (a + b)) ** 2;
    expect(polyLen(c)).toBeCloseTo(Math.PI * (a + b) * (1 + (3 * h) / (10 + Math.sqrt(4 - 3 * h))), -1);
  });

  it('PolyLine3D: points in order, closed when isClosed', () => {
    const pts = [pt('Point3D', '0 0 0'), pt('Point3D', '1 0 0'), pt('Point3D', '1 2 0')];
    expect(curvePolyline(el('PolyLine3D', {}, ...pts), ctx())).toEqual([0, 0, 0, 1000, 0, 0, 1000, 2000, 0]);
    expect(polyLen(curvePolyline(el('PolyLine3D', { isClosed: 'true' }, ...pts), ctx())!)).toBeCloseTo(
      1000 + 2000 + Math.hypot(1000, 2000),
      6,
    );
  });
});

describe('surface kinds', () => {
  const area = (n: XNode) => {
    const m = surfaceMesh(n, ctx())!;
    return meshArea(m.positions, m.indices).area / 1e6;
  };
  it('Cylinder3D (Origin, Axis, Radius, Height): lateral area 2πrh', () => {
    expect(
      area(el('Cylinder3D', { id: 'cy' }, pt('Origin', '0 0 0'), vec('Axis', '0 0 1'), q('Radius', 2), q('Height', 3))),
    ).toBeCloseTo(2 * Math.PI * 2 * 3, 1);
  });
  it('Cone3D (Origin, Tip, BaseRadius, TipRadius): frustum lateral area', () => {
    const [R, r, h] = [2, 1, 3];
    expect(
      area(
        el('Cone3D', { id: 'co' }, pt('Origin', '0 0 0'), pt('Tip', '0 0 3'), q('BaseRadius', R), q('TipRadius', r)),
      ),
    ).toBeCloseTo(Math.PI * (R + r) * Math.hypot(R - r, h), 1);
  });
  it('Sphere3D (Origin, Radius): area 4πr²', () => {
    expect(area(el('Sphere3D', { id: 'sp' }, pt('Origin', '1 1 1'), q('Radius', 2)))).toBeCloseTo(4 * Math.PI * 4, 0);
  });
  it('ExtrudedSurface (BaseCurve swept by Sweep/Vector3D over SweepLength)', () => {
    const base = el('BaseCurve', {}, el('Line3D', {}, pt('StartPoint', '0 0 0'), pt('EndPoint', '3 0 0')));
    expect(
      area(el('ExtrudedSurface', { id: 'ex' }, base, el('Sweep', {}, vec('Vector3D', '0 0 1'), q('SweepLength', 2)))),
    ).toBeCloseTo(6, 6);
  });
  it('SurfaceCollection: the union of its members', () => {
    const cyl = el(
      'Cylinder3D',
      { id: 'a' },
      pt('Origin', '0 0 0'),
      vec('Axis', '0 0 1'),
      q('Radius', 1),
      q('Height', 1),
    );
    const sph = el('Sphere3D', { id: 'b' }, pt('Origin', '5 0 0'), q('Radius', 1));
    expect(area(el('SurfaceCollection', { id: 'sc' }, cyl, sph))).toBeCloseTo(area(cyl) + area(sph), 6);
  });
});

describe('bar section kinds', () => {
  const sec = (kind: string, dims: Record<string, number>) =>
    sectionOf(
      el('BarSection', { id: 's', name: kind }, el(kind, {}, ...Object.entries(dims).map(([k, v]) => q(k, v / 1000)))),
      new UnitTable(new Map()),
    ).polygon!;
  const dims = { Height: 200, Width: 80, WebThickness: 10, FlangeThickness: 12 };
  it('UBar and ZBar: web plus two flanges', () => {
    for (const k of ['UBar', 'ZBar']) {
      const p = sec(k, dims);
      expect(p.area, k).toBeCloseTo(200 * 10 + 2 * (80 - 10) * 12, 6);
      expect(Math.abs(signedArea2d(p.outer)), k).toBeCloseTo(p.area, 6);
    }
  });
  it('LBarOW (web overshoots the flange) and LBarOF (flange overshoots the web)', () => {
    const ow = sec('LBarOW', { ...dims, Overshoot: 20 });
    expect(ow.area).toBeCloseTo(sec('LBar', dims).area + 20 * 10, 6);
    const of = sec('LBarOF', { ...dims, Overshoot: 20 });
    expect(of.area).toBeCloseTo(sec('LBar', dims).area, 6);
    expect(Math.min(...of.outer.filter((_, i) => i % 2 === 0))).toBe(0);
    expect(Math.min(...of.outer.filter((_, i) => i % 2 === 0 && of.outer[i + 1] < 100))).toBeCloseTo(20, 9); // web starts after the overshoot
  });
});

describe('HoleShapeCatalogue kinds', () => {
  const hole = (kind: string, dims: Record<string, number>, attrs: Record<string, string> = {}) => {
    const r = holeShape2d(
      el('Hole2D', { id: 'h', name: kind }, el(kind, attrs, ...Object.entries(dims).map(([k, v]) => q(k, v / 1000)))),
      ctx(),
    );
    if (typeof r === 'string') throw new Error(r);
    const ring = r.ring[0];
    const xs = ring.filter((_, i) => i % 2 === 0),
      ys = ring.filter((_, i) => i % 2 === 1);
    return {
      area: Math.abs(signedArea2d(ring)),
      w: Math.max(...xs) - Math.min(...xs),
      h: Math.max(...ys) - Math.min(...ys),
    };
  };
  it('ParametricCircle', () => {
    const h = hole('ParametricCircle', { Diameter: 200 });
    expect(h.area).toBeGreaterThan(Math.PI * 100 * 100 * 0.99);
    expect(h.w).toBeCloseTo(200, 6);
  });
  it('RectangularHole with its fillet radius; Width along x', () => {
    const h = hole('RectangularHole', { Height: 400, Width: 600, FilletRadius: 50 });
    expect([h.w, h.h]).toEqual([expect.closeTo(600, 6), expect.closeTo(400, 6)]);
    expect(Math.abs(h.area / (600 * 400 - (4 - Math.PI) * 50 * 50) - 1)).toBeLessThan(1e-3);
  });
  it('SymmetricalHole: semicircles of diameter min(H, W) joined by straight lines', () => {
    const h = hole('SymmetricalHole', { Height: 400, Width: 800 });
    expect([h.w, h.h]).toEqual([expect.closeTo(800, 6), expect.closeTo(400, 6)]);
    expect(Math.abs(h.area / (400 * 400 + Math.PI * 200 * 200) - 1)).toBeLessThan(1e-3);
  });
  it('SuperElliptical: semi-axes Height (x) and Width (y); exponent 2 is the ellipse', () => {
    const e2 = hole('SuperElliptical', { Height: 300, Width: 600 }, { exponent: '2' });
    expect([e2.w, e2.h]).toEqual([expect.closeTo(600, 6), expect.closeTo(1200, 6)]);
    expect(e2.area).toBeGreaterThan(Math.PI * 300 * 600 * 0.99);
    expect(hole('SuperElliptical', { Height: 300, Width: 600 }, { exponent: '4' }).area).toBeGreaterThan(e2.area);
  });
  it('RectangularMickeyMouseEars: the rectangle plus four corner ears', () => {
    const plain = hole('RectangularMickeyMouseEars', { Height: 400, Width: 600 });
    expect(plain.area).toBeCloseTo(600 * 400, 6);
    const ears = hole('RectangularMickeyMouseEars', { Height: 400, Width: 600, Radius: 50, Displacement: 0 });
    expect(ears.area).toBeCloseTo(600 * 400 + 4 * (3 / 4) * Math.PI * 50 * 50, -3);
    expect([ears.w, ears.h]).toEqual([expect.closeTo(700, 6), expect.closeTo(500, 6)]);
  });
});
