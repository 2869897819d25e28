/**
 * Surface objects of real parts, derived from the `.sc` geometry the server holds
 * (import → encode → decode, so positions are quantised as in production):
 * - every bracket of NAPA-OCX_M8: the angle vertex is the file's BracketParameters Origin, the angle is
 *   the one between its UDirection and VDirection, and the arms end at Origin + ArmLengthU·U and
 *   Origin + ArmLengthV·V;
 * - the holes of NAPA-TR03_TC12 against the file's hole catalogue (Hole2D Diameter, Width, Height,
 *   FilletRadius; the HRM contour's corner arcs through their three catalogue points).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { importOcxFile } from '../../../engine/node/ocx/importFile';
import type { ImportResult } from '../../../engine/model/types';
import { concatFrames, encodeScenePackage } from '../../../engine/package/writer';
import { decodeScenePackage } from '../../../engine/package/reader';
import { SectionIndex } from '../../../engine/section/SectionIndex';
import { objectGeometry } from '../../../engine/annotate/indexGeometry';
import { deriveSurfaceObject, type SurfaceObject, type SurfaceParameter } from '../../../engine/annotate/surfaceObject';

const dir = path.resolve(__dirname, '../../../../shared/models/ocx');

async function load(name: string): Promise<{ r: ImportResult; index: SectionIndex; xml: string }> {
  const file = path.join(dir, `${name}.3docx`);
  const r = await importOcxFile(file);
  const frames = encodeScenePackage(r.meshes, {
    bounds: r.info.bounds,
    objectCount: r.objects.length,
    tolerances: r.info.tolerances,
  });
  return {
    r,
    index: SectionIndex.fromChunks(decodeScenePackage(concatFrames(frames)).chunks),
    xml: readFileSync(file, 'utf8'),
  };
}

function derive(m: { r: ImportResult; index: SectionIndex }, i: number): SurfaceObject | null {
  const g = objectGeometry(m.index, i);
  return deriveSurfaceObject(m.r.objects[i].name, g, {
    bracket: m.r.objects[i].type === 'BRACKET',
    tolerance: g.tolerance,
  });
}

const nums = (s: string) => s.trim().split(/\s+/).map(Number);
const mmOf = (p: SurfaceParameter) => Math.round(p.parameterValue * 1000);
const ofType = (so: SurfaceObject, t: SurfaceParameter['parameterType']) =>
  so.parameters.filter((p) => p.parameterType === t);
const pmm = (p: { x: number; y: number; z: number }) => [p.x * 1000, p.y * 1000, p.z * 1000];
const near = (a: number[], b: number[], tol: number) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]) <= tol;

describe('NAPA-OCX_M8 brackets', () => {
  let m: Awaited<ReturnType<typeof load>>;
  beforeAll(async () => {
    m = await load('NAPA-OCX_M8');
  }, 60_000);
  /** BracketParameters of a bracket (mm, unit directions). */
  const params = (id: string) => {
    const at = m.xml.indexOf(`id="${id}"`);
    const block = m.xml.slice(at, m.xml.indexOf('</ocx:BracketParameters>', at));
    const val = (tag: string, unit = 1000) =>
      Number(new RegExp(`<ocx:${tag} numericvalue="([^"]+)"`).exec(block)![1]) * unit;
    return {
      U: nums(/<ocx:UDirection direction="([^"]+)"/.exec(block)![1]),
      V: nums(/<ocx:VDirection direction="([^"]+)"/.exec(block)![1]),
      origin: nums(/<ocx:Origin coordinates="([^"]+)"/.exec(block)![1]).map((x) => x * 1000),
      armU: val('ArmLengthU'),
      armV: val('ArmLengthV'),
      copeRadius: val('CopeRadius', 1),
    };
  };

  it("every bracket: the angle between the file's UDirection and VDirection, its vertex where the arms start (the outline's extreme against U and V)", () => {
    const brackets = m.r.objects.filter((o) => o.type === 'BRACKET');
    expect(brackets.length).toBe(112);
    for (const b of brackets) {
      const { U, V } = params(b.id);
      const expectedAngle = (Math.acos(U[0] * V[0] + U[1] * V[1] + U[2] * V[2]) * 180) / Math.PI;
      const so = derive(m, b.index);
      expect(so, b.name).not.toBeNull();
      const angle = ofType(so!, 'angle');
      expect(angle, b.name).toHaveLength(1);
      expect(angle[0].parameterValue).toBeCloseTo(expectedAngle, 1);
      // U and V are axis directions here: the arms' meeting point is the bracket's extreme against both.
      const box = b.bounds!,
        vx = pmm(angle[0].angleVertex!);
      for (const d of [U, V]) {
        const k = d.findIndex((x) => Math.abs(x) === 1);
        expect(vx[k], `${b.name} axis ${k}`).toBeCloseTo(d[k] > 0 ? box[k] : box[k + 3], 0);
      }
    }
  });

  it('brackets with a 30 mm cope: vertex at the BracketParameters Origin, arms ending at Origin + ArmLengthU·U and + ArmLengthV·V', () => {
    const coped = m.r.objects.filter((o) => o.type === 'BRACKET' && params(o.id).copeRadius === 30);
    expect(coped.length).toBeGreaterThan(0);
    for (const b of coped) {
      const { U, V, origin, armU, armV } = params(b.id);
      const so = derive(m, b.index)!;
      const n = so.definitionPlane.normal,
        nv = [n.nx, n.ny, n.nz];
      // Compare in the plane (the face found is one side of the plate: drop the offset along the normal).
      const inPlane = (p: number[]) => {
        const d = p[0] * nv[0] + p[1] * nv[1] + p[2] * nv[2];
        return p.map((x, k) => x - d * nv[k]);
      };
      expect(near(inPlane(pmm(ofType(so, 'angle')[0].angleVertex!)), inPlane(origin), 1), b.name).toBe(true);
      const ends = ofType(so, 'length').flatMap((p) => [inPlane(pmm(p.startPoint!)), inPlane(pmm(p.endPoint!))]);
      expect(
        ends.some((e) => near(e, inPlane(origin.map((x, k) => x + armU * U[k])), 1)),
        `${b.name} arm U`,
      ).toBe(true);
      expect(
        ends.some((e) => near(e, inPlane(origin.map((x, k) => x + armV * V[k])), 1)),
        `${b.name} arm V`,
      ).toBe(true);
    }
  });

  it('brackets with a 30 mm cope report the radius of their outline (R 28: the NURBS arc runs from 1.202 to 1.23 about (1.202, 3.978))', () => {
    const coped = m.r.objects.filter((o) => o.type === 'BRACKET' && params(o.id).copeRadius === 30);
    expect(coped.length).toBeGreaterThan(0);
    for (const b of coped) expect(ofType(derive(m, b.index)!, 'radius').map(mmOf), b.name).toEqual([28]);
  });
});

describe('NAPA-TR03_TC12 holes against the hole catalogue', () => {
  let m: Awaited<ReturnType<typeof load>>;
  const catalogue = new Map<string, Record<string, number>>();
  beforeAll(async () => {
    m = await load('NAPA-TR03_TC12');
    const re = /<ocx:Hole2D id="[^"]+" name="([^"]+)"[\s\S]*?<\/ocx:Hole2D>/g;
    for (let h = re.exec(m.xml); h; h = re.exec(m.xml)) {
      const v: Record<string, number> = {};
      for (const t of ['Diameter', 'Width', 'Height', 'FilletRadius']) {
        const x = new RegExp(`<ocx:${t} numericvalue="([^"]+)" unit="Um"`).exec(h[0]);
        if (x) v[t] = Math.round(Number(x[1]) * 1000);
      }
      catalogue.set(h[1], v);
    }
  }, 60_000);

  const hole = (catName: string) => {
    const o = m.r.objects.filter(
      (x) => x.type === 'HOLE' && String(m.r.properties[x.index].DES ?? '').startsWith(`${catName}:`),
    );
    expect(o.length, catName).toBeGreaterThan(0);
    return o.map((x) => derive(m, x.index)!);
  };
  const dims = (so: SurfaceObject) =>
    [...ofType(so, 'horizontalLength'), ...ofType(so, 'verticalLength')].map(mmOf).sort((a, b) => a - b);

  it('circles: one radius of half the Diameter', () => {
    for (const name of ['D500', 'C250'])
      for (const so of hole(name)) {
        expect(so.parameters.map((p) => p.parameterType)).toEqual(['radius']);
        expect(mmOf(so.parameters[0])).toBe(catalogue.get(name)!.Diameter / 2);
      }
  });
  it('rectangular holes: Width × Height, and the FilletRadius at every corner', () => {
    for (const name of ['R1000X700', '600X800R150'])
      for (const so of hole(name)) {
        const c = catalogue.get(name)!;
        expect(dims(so)).toEqual([c.Width, c.Height].sort((a, b) => a - b));
        expect(ofType(so, 'radius').map(mmOf)).toEqual(
          c.FilletRadius > 0 ? [c.FilletRadius, c.FilletRadius, c.FilletRadius, c.FilletRadius] : [],
        );
        expect(ofType(so, 'length')).toHaveLength(0);
      }
  });
  it('symmetrical (oblong) holes: Width × Height with two end radii of half the smaller side', () => {
    for (const so of hole('600X800')) {
      const c = catalogue.get('600X800')!;
      expect(dims(so)).toEqual([c.Width, c.Height].sort((a, b) => a - b));
      expect(ofType(so, 'radius').map(mmOf)).toEqual([
        Math.min(c.Width, c.Height) / 2,
        Math.min(c.Width, c.Height) / 2,
      ]);
    }
  });
  it('the super-elliptical hole: its 2·Height × 2·Width extent (semi-axes of OCX_GUIDE §2.15), no radius', () => {
    for (const so of hole('EL600X1200')) {
      const c = catalogue.get('EL600X1200')!;
      expect(dims(so)).toEqual([2 * c.Height, 2 * c.Width].sort((a, b) => a - b));
      expect(ofType(so, 'radius')).toHaveLength(0);
    }
  });
  it('the HRM contour: four corner arcs of the radius through their catalogue points, straight sides of the catalogue lengths', () => {
    // First CircumArc3D of HRM*2000*800*50*10: start, intermediate, end (m) → circumradius by hand.
    const [a, b, c] = [
      [-0.93048, 0.4],
      [-1.00707, 0.40707],
      [-1, 0.33048],
    ].map((p) => p.map((x) => x * 1000));
    const ab = Math.hypot(a[0] - b[0], a[1] - b[1]),
      bc = Math.hypot(b[0] - c[0], b[1] - c[1]),
      ca = Math.hypot(c[0] - a[0], c[1] - a[1]);
    const area2 = Math.abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
    const R = Math.round((ab * bc * ca) / (2 * area2));
    for (const so of hole('HRM*2000*800*50*10')) {
      expect(ofType(so, 'radius').map(mmOf)).toEqual([R, R, R, R]);
      expect(
        ofType(so, 'length')
          .map(mmOf)
          .sort((x, y) => x - y),
      ).toEqual([661, 661, 1861, 1861]);
    }
  });
});
