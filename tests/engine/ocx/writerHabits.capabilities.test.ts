/**
 * The capabilities that let Keelson agree with other writers' figures, each on a small fixture written
 * for it: catalogue references by GUID when localRef is absent, bulb flats from the catalogue's own
 * parameters, profile volumes along the section centroid's path, the writer's CoG and weight
 * conventions chosen from the file's figures, and an Offset of 0 under stiffeners decided per panel.
 */
import { describe, expect, it } from 'vitest';
import { sectionPolygon } from '../../../engine/geometry/barSections';
import type { PartFidelity } from '../../../engine/model/types';
import { CatalogueRefs } from '../../../engine/ocx/catalogueRefs';
import { applyCogConventions, conventionOf, MIN_VOTES, weightConventionOf } from '../../../engine/ocx/cogConventions';
import { importOcx } from '../../../engine/ocx/index';
import { meshMember, sectionCentroid } from '../../../engine/ocx/memberMesh';
import { habitsOf } from '../../../engine/ocx/vendorHabits';
import type { XNode } from '../../../engine/ocx/xmlTree';

const node = (n: string, a: Record<string, string>): XNode => ({ n, a, c: [], line: 1 });

describe('catalogue references', () => {
  const cat = new Map<string, XNode>([
    ['HP200', node('BarSection', { id: 'HP200', name: 'HP200x10', GUIDRef: '{042FFEA7-6607-4FFE-B67D-C8B950A32936}' })],
    ['MatA', node('Material', { id: 'MatA', name: 'A', GUIDRef: 'aa' })],
  ]);
  const refs = new CatalogueRefs(cat, ['BarSection']);

  it('resolves by localRef, else by GUID (braces and case normalised), else by name', () => {
    expect(refs.idOf(node('SectionRef', { localRef: 'HP200' }))).toBe('HP200');
    expect(refs.idOf(node('SectionRef', { GUIDRef: '042ffea7-6607-4ffe-b67d-c8b950a32936' }))).toBe('HP200');
    expect(refs.idOf(node('SectionRef', { name: 'HP200x10' }))).toBe('HP200');
  });

  it('keeps a dangling localRef dangling and never resolves to another kind', () => {
    expect(
      refs.idOf(node('SectionRef', { localRef: 'nowhere', GUIDRef: '042ffea7-6607-4ffe-b67d-c8b950a32936' })),
    ).toBe(undefined);
    expect(refs.idOf(node('SectionRef', { GUIDRef: 'aa' }))).toBe(undefined);
    expect(refs.idOf(undefined)).toBe(undefined);
  });
});

describe('bulb flats from the catalogue’s own parameters', () => {
  const hp = (extra: Record<string, number>) =>
    sectionPolygon('BulbFlat', { height: 200, webThickness: 10, flangeWidth: 38, ...extra });

  it('keeps the given radius and angle and takes only the bulb height from EN 10067 (HP200x10 25.66 cm²)', () => {
    const s = hp({ bulbOuterRadius: 8, bulbInnerRadius: 8, bulbAngle: Math.PI / 6 });
    expect(s.area).toBeCloseTo(2566, -1);
    // the top outer corner is a radius-8 arc ending at the flange width: the widest point is b = 38
    const us = s.outer.filter((_, k) => k % 2 === 0);
    expect(Math.max(...us)).toBeCloseTo(38, 6);
    const [uc, vc] = sectionCentroid(s);
    expect(uc).toBeCloseTo(8.7, 1); // writers report +8.7 mm along FlangeDirection
    expect(vc).toBeCloseTo(119.5, 0);
  });

  it('fillets the web–flank corner with BulbInnerRadius (more vertices, same target area)', () => {
    const plain = hp({ bulbOuterRadius: 8 });
    const filleted = hp({ bulbOuterRadius: 8, bulbInnerRadius: 8 });
    expect(filleted.outer.length).toBeGreaterThan(plain.outer.length);
    expect(filleted.area).toBeCloseTo(plain.area, 0);
  });

  it('uses BulbTopRadius when BulbOuterRadius is absent, and the table radius when neither is given', () => {
    expect(hp({ bulbTopRadius: 8 }).outer).toEqual(hp({ bulbOuterRadius: 8 }).outer);
    expect(hp({}).area).toBeCloseTo(2566, -1);
  });
});

describe('profile volume along the section centroid’s path (Pappus)', () => {
  it('a ring stiffener with its bulb inside a 500 mm ring weighs 2π(500 − u_c) × A, not 2π·500 × A', () => {
    const sec = sectionPolygon('FlatBar', { width: 10, height: 100 });
    const R = 500,
      n = 720;
    const trace: number[] = [];
    for (let i = 0; i <= n; i++) {
      const t = (2 * Math.PI * i) / n;
      trace.push(0, R * Math.cos(t), R * Math.sin(t));
    }
    // web along −x (out of the ring's plane), flange direction toward the ring's centre at the start
    const res = meshMember(sec, trace, [{ position: [0, R, 0], web: [-1, 0, 0], flange: [0, -1, 0] }], 0, 0);
    const [uc] = sectionCentroid(sec); // 5 mm
    const chord = (n / Math.PI) * Math.sin(Math.PI / n); // the polygon's perimeter factor
    expect(res.length).toBeCloseTo(2 * Math.PI * R * chord, 3);
    expect(res.centroidLength).toBeCloseTo(2 * Math.PI * (R - uc) * chord, 0); // within 0.5 mm of 3110 mm
    expect(res.length - res.centroidLength).toBeCloseTo(2 * Math.PI * uc, 0); // 31.4 mm shorter
  });
});

const rec = (
  element: string,
  vendor: [number, number, number],
  solid: [number, number, number],
  moulded: [number, number, number],
): PartFidelity => ({
  object: 0,
  id: element,
  element,
  line: 1,
  vendor: { cogMm: vendor },
  computed: { cogMm: solid, cogMouldedMm: moulded },
  cogDevMm: Math.hypot(vendor[0] - solid[0], vendor[1] - solid[1], vendor[2] - solid[2]),
});

describe('writer conventions from the file’s own figures', () => {
  const thick = (k: number) => rec('Plate', [k, 1000, 0], [k, 1025, 0], [k, 1000, 0]);

  it(`needs ${MIN_VOTES} parts that tell the conventions apart before overruling the writer`, () => {
    expect(conventionOf([thick(1), thick(2)], 'solid')).toEqual({ convention: 'solid', from: 'writer' });
    expect(conventionOf([thick(1), thick(2), thick(3)], 'solid')).toEqual({ convention: 'moulded', from: 'data' });
    // thin plates (both CoGs within 10 mm) do not vote
    const thin = rec('Plate', [0, 1000, 0], [0, 1005, 0], [0, 1000, 0]);
    expect(conventionOf([thin, thin, thin, thin], 'solid')).toEqual({ convention: 'solid', from: 'writer' });
  });

  it('rewrites the compared CoG and its deviation under the chosen convention, per kind of part', () => {
    const rs = [thick(1), thick(2), thick(3), rec('Stiffener', [0, 830, 0], [0, 830, 0], [0, 880, 0])];
    const c = applyCogConventions(rs, habitsOf({ originating_system: 'Someone New' }));
    expect(c).toMatchObject({ writer: 'other', plates: 'moulded', platesFrom: 'data', profiles: 'solid' });
    for (const r of rs) expect(r.cogDevMm).toBeCloseTo(0, 9);
  });

  it('chooses trace-length weights for curved profiles when the figures follow the trace', () => {
    const w = (v: number, path: number, trace: number): PartFidelity => ({
      object: 0,
      id: 's',
      element: 'Stiffener',
      line: 1,
      vendor: { weightKg: v },
      computed: { weightKg: path, weightTraceKg: trace },
    });
    const curved = [w(63.28, 62.17, 63.28), w(63.28, 62.17, 63.28), w(63.28, 64.3, 63.28)];
    expect(weightConventionOf(curved, 'centroid-path')).toEqual({ convention: 'trace', from: 'data' });
    const straight = [w(20, 20, 20), w(20, 20, 20), w(20, 20, 20)];
    expect(weightConventionOf(straight, 'centroid-path')).toEqual({ convention: 'centroid-path', from: 'writer' });
  });

  it('knows the writers of the corpus by their headers, not by file names', () => {
    expect(habitsOf({ originating_system: 'AVEVA E3D Design' })).toMatchObject({
      writer: 'AVEVA E3D',
      plateCog: 'moulded',
      profileCog: 'solid',
      offsetFollowsStiffeners: true,
    });
    expect(habitsOf({ originating_system: 'Aveva Hull' }).writer).toBe('AVEVA Hull');
    expect(habitsOf({ originating_system: 'AITAC Structure', organization: 'AITAC' }).profileWeight).toBe('trace');
    expect(habitsOf({ originating_system: 'CADMATIC 26.1' }).plateCog).toBe('solid');
  });
});

/** A panel on z = 0 (normal +z), a 20 mm plate with Offset 0 and an FB100x10 hanging below (web −z). */
function panel(writer: string, stiffenerCogZ: number | null): string {
  const NS = 'https://3docx.org/fileadmin//ocx_schema//V310//OCX_Schema.xsd';
  const p = (x: number, y: number) => `coordinates="${x} ${y} 0" unit="Umm"`;
  const line = (a: [number, number], b: [number, number]) =>
    `<Line3D id="l${a}${b}"><StartPoint ${p(...a)}/><EndPoint ${p(...b)}/></Line3D>`;
  const cog =
    stiffenerCogZ === null
      ? ''
      : `<PhysicalProperties><DryWeight numericvalue="15.7" unit="Ukg"/><CenterOfGravity coordinates="1000 500 ${stiffenerCogZ}" unit="Umm"/></PhysicalProperties>`;
  const stiffener = (k: number) =>
    `<Stiffener id="s${k}" GUIDRef="g${k}">${cog}<TraceLine><Line3D id="t${k}"><StartPoint coordinates="0 ${250 * k} 0" unit="Umm"/><EndPoint coordinates="2000 ${250 * k} 0" unit="Umm"/></Line3D></TraceLine><MaterialRef localRef="mat"/><SectionRef localRef="fb"/><Inclination><WebDirection direction="0 0 -1"/><FlangeDirection direction="0 1 0"/><Position coordinates="0 ${250 * k} 0" unit="Umm"/></Inclination></Stiffener>`;
  return `<ocxXML xmlns="${NS}" schemaVersion="3.1.0">
<Header name="t" author="a" organization="o" originating_system="${writer}" application_version="1" time_stamp="2025-01-01T00:00:00"/>
<Vessel id="v" GUIDRef="gv"><Panel id="p" GUIDRef="gp" functionType="DECK" tightness="NonTight">
<UnboundedGeometry><Plane3D id="pl"><Origin coordinates="0 0 0" unit="Umm"/><Normal direction="0 0 1"/></Plane3D></UnboundedGeometry>
<ComposedOf><Plate id="a" GUIDRef="ga"><PlateMaterial localRef="mat"><Thickness numericvalue="20" unit="Umm"/></PlateMaterial>
<OuterContour>${line([0, 0], [2000, 0])}${line([2000, 0], [2000, 1000])}${line([2000, 1000], [0, 1000])}${line([0, 1000], [0, 0])}</OuterContour>
<Offset numericvalue="0" unit="Umm"/></Plate></ComposedOf>
<StiffenedBy>${stiffener(1)}${stiffener(2)}${stiffener(3)}</StiffenedBy></Panel></Vessel>
<ClassCatalogue><MaterialCatalogue><Material id="mat" name="A" GUIDRef="gm"><Density numericvalue="7850" unit="Ukgm3"/></Material></MaterialCatalogue>
<XSectionCatalogue><BarSection id="fb" name="FB100x10" GUIDRef="gs"><FlatBar><Height numericvalue="100" unit="Umm"/><Width numericvalue="10" unit="Umm"/></FlatBar></BarSection></XSectionCatalogue></ClassCatalogue>
<unitsml:UnitsML xmlns:unitsml="urn:oasis:names:tc:unitsml:schema:xsd:UnitsMLSchema_lite-0.9.18"><unitsml:UnitSet>
<unitsml:Unit xml:id="Umm"><unitsml:UnitName xml:lang="en">mm</unitsml:UnitName><unitsml:UnitSymbol type="mm"/><unitsml:RootUnits><unitsml:EnumeratedRootUnit unit="meter" prefix="m"/></unitsml:RootUnits></unitsml:Unit>
<unitsml:Unit xml:id="Ukg"><unitsml:UnitName xml:lang="en">kg</unitsml:UnitName><unitsml:UnitSymbol type="kg"/><unitsml:RootUnits><unitsml:EnumeratedRootUnit unit="gram" prefix="k"/></unitsml:RootUnits></unitsml:Unit>
<unitsml:Unit xml:id="Ukgm3"><unitsml:UnitName xml:lang="en">kg/m3</unitsml:UnitName><unitsml:UnitSymbol type="kg/m3"/><unitsml:RootUnits><unitsml:EnumeratedRootUnit unit="gram" prefix="k"/><unitsml:EnumeratedRootUnit unit="meter" powerNumerator="-3"/></unitsml:RootUnits></unitsml:Unit>
</unitsml:UnitSet></unitsml:UnitsML></ocxXML>`;
}

async function plateZ(writer: string, cogZ: number | null): Promise<[number, number]> {
  const text = panel(writer, cogZ);
  const r = await importOcx(
    (async function* () {
      yield new TextEncoder().encode(text);
    })(),
  );
  const plate = r.objects.find((o) => o.id === 'a')!;
  expect(r.warnings.filter((w) => w.code === 'geometry-failed')).toEqual([]);
  return [plate.bounds![2], plate.bounds![5]];
}

describe('Offset 0 under stiffeners standing on the −n side', () => {
  it('follows the schema (+n) for an unknown writer without figures, the stiffeners’ side for AVEVA', async () => {
    expect(await plateZ('Someone New', null)).toEqual([0, 20]);
    expect(await plateZ('AVEVA E3D Design', null)).toEqual([-20, 0]);
  });

  it('lets the panel’s own stiffener CoGs decide, whatever the writer', async () => {
    // FB100 centroid 50 mm below the face it stands on: −70 = under a 20 mm plate, −50 = beside it
    expect(await plateZ('Someone New', -70)).toEqual([-20, 0]);
    expect(await plateZ('AVEVA E3D Design', -50)).toEqual([0, 20]);
  });
});
