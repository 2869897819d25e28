/**
 * OCX 2.8.x files (namespace http://data.dnvgl.com/Schemas/ocxXMLSchema, OCX_GUIDE §1.1) import: points
 * as X, Y, Z child quantities, vectors as x, y, z attributes, the RefPlane groups wrapped in FrameTables.
 * The fixtures are written here by those rules: a small hand-written panel, and NAPA's TC11 box rewritten
 * into the 2.8 forms, which must give the same ship as its 3.1 original.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importOcx } from '../../../engine/ocx/index';
import { LEGACY_NS } from '../../../engine/ocx/reader';

const DIR = path.resolve(__dirname, '../../../../shared/models/ocx');

async function* chunks(text: string): AsyncIterable<Uint8Array> {
  yield new TextEncoder().encode(text);
}

/** A 3.x document rewritten into the 2.8 forms (namespace, points, vectors, FrameTables). */
function to28(text: string): string {
  const V31 = 'https://3docx.org/fileadmin//ocx_schema//V310//OCX_Schema.xsd';
  return text
    .split(V31)
    .join(LEGACY_NS)
    .replace('schemaVersion="3.1.0"', 'schemaVersion="2.8.5"')
    .replace(
      /<(ocx:)(\w+) ([^>]*?)coordinates="([^"]*)"([^>]*?)unit="([^"]*)"([^>]*?)\s*\/>/g,
      (_, p: string, el: string, a: string, c: string, b: string, u: string, d: string) => {
        const [x, y, z] = c.trim().split(/\s+/);
        const q = (k: string, v: string) => `<${p}${k} numericvalue="${v}" unit="${u}"/>`;
        return `<${p}${el} ${a}${b}${d}>${q('X', x)}${q('Y', y)}${q('Z', z)}</${p}${el}>`;
      },
    )
    .replace(/ direction="([^"]*)"/g, (_, v: string) => {
      const [x, y, z] = v.trim().split(/\s+/);
      return ` x="${x}" y="${y}" z="${z}"`;
    })
    .replace(/(<ocx:CoordinateSystem [^>]*>)/, '$1<ocx:FrameTables>')
    .replace('</ocx:CoordinateSystem>', '</ocx:FrameTables></ocx:CoordinateSystem>');
}

const PANEL_28 = `<?xml version="1.0" encoding="UTF-8"?>
<ocxXML xmlns="${LEGACY_NS}" schemaVersion="2.8.5">
  <Header name="P" author="a" organization="o" originating_system="some 2.8 writer" application_version="1" time_stamp="2019-01-01T00:00:00"/>
  <Vessel id="v" name="Legacy">
    <FrameTables>
      <XRefPlanes>
        <RefPlane id="F0" name="FR0"><ReferenceLocation numericvalue="0" unit="Umm"/></RefPlane>
        <RefPlane id="F1" name="FR1"><ReferenceLocation numericvalue="700" unit="Umm"/></RefPlane>
      </XRefPlanes>
    </FrameTables>
    <Panel id="p1" name="DECK" functionType="DECK" tightness="NonTight">
      <UnboundedGeometry>
        <Plane3D id="pl"><Origin><X numericvalue="0" unit="Umm"/><Y numericvalue="0" unit="Umm"/><Z numericvalue="3000" unit="Umm"/></Origin><Normal x="0" y="0" z="1"/></Plane3D>
      </UnboundedGeometry>
      <ComposedOf>
        <Plate id="pa" name="PA">
          <PlateMaterial localRef="mat"><Thickness numericvalue="10" unit="Umm"/></PlateMaterial>
          <OuterContour>
            <Line3D id="l1"><StartPoint><X numericvalue="0" unit="Umm"/><Y numericvalue="0" unit="Umm"/><Z numericvalue="3000" unit="Umm"/></StartPoint><EndPoint><X numericvalue="2000" unit="Umm"/><Y numericvalue="0" unit="Umm"/><Z numericvalue="3000" unit="Umm"/></EndPoint></Line3D>
            <Line3D id="l2"><StartPoint><X numericvalue="2000" unit="Umm"/><Y numericvalue="0" unit="Umm"/><Z numericvalue="3000" unit="Umm"/></StartPoint><EndPoint><X numericvalue="2000" unit="Umm"/><Y numericvalue="1000" unit="Umm"/><Z numericvalue="3000" unit="Umm"/></EndPoint></Line3D>
            <Line3D id="l3"><StartPoint><X numericvalue="2000" unit="Umm"/><Y numericvalue="1000" unit="Umm"/><Z numericvalue="3000" unit="Umm"/></StartPoint><EndPoint><X numericvalue="0" unit="Umm"/><Y numericvalue="1000" unit="Umm"/><Z numericvalue="3000" unit="Umm"/></EndPoint></Line3D>
            <Line3D id="l4"><StartPoint><X numericvalue="0" unit="Umm"/><Y numericvalue="1000" unit="Umm"/><Z numericvalue="3000" unit="Umm"/></StartPoint><EndPoint><X numericvalue="0" unit="Umm"/><Y numericvalue="0" unit="Umm"/><Z numericvalue="3000" unit="Umm"/></EndPoint></Line3D>
          </OuterContour>
        </Plate>
      </ComposedOf>
      <StiffenedBy>
        <Stiffener id="s1" name="L1">
          <TraceLine><Line3D id="t1"><StartPoint><X numericvalue="0" unit="Umm"/><Y numericvalue="500" unit="Umm"/><Z numericvalue="3000" unit="Umm"/></StartPoint><EndPoint><X numericvalue="2000" unit="Umm"/><Y numericvalue="500" unit="Umm"/><Z numericvalue="3000" unit="Umm"/></EndPoint></Line3D></TraceLine>
          <MaterialRef localRef="mat"/>
          <SectionRef localRef="fb"/>
          <Inclination><WebDirection x="0" y="0" z="-1"/><FlangeDirection x="0" y="1" z="0"/><Position><X numericvalue="0" unit="Umm"/><Y numericvalue="500" unit="Umm"/><Z numericvalue="3000" unit="Umm"/></Position></Inclination>
        </Stiffener>
      </StiffenedBy>
    </Panel>
  </Vessel>
  <ClassCatalogue>
    <MaterialCatalogue><Material id="mat" name="A" grade="A"><Density numericvalue="7850" unit="Ukgm3"/></Material></MaterialCatalogue>
    <XSectionCatalogue><BarSection id="fb" name="FB100x10"><FlatBar><Height numericvalue="100" unit="Umm"/><Width numericvalue="10" unit="Umm"/></FlatBar></BarSection></XSectionCatalogue>
  </ClassCatalogue>
  <unitsml:UnitsML xmlns:unitsml="urn:oasis:names:tc:unitsml:schema:xsd:UnitsMLSchema_lite-0.9.18"><unitsml:UnitSet>
    <unitsml:Unit xml:id="Umm"><unitsml:UnitName xml:lang="en-US">millimetre</unitsml:UnitName><unitsml:UnitSymbol type="mm"/><unitsml:RootUnits><unitsml:EnumeratedRootUnit unit="meter" prefix="m"/></unitsml:RootUnits></unitsml:Unit>
    <unitsml:Unit xml:id="Ukgm3"><unitsml:UnitName xml:lang="en-US">kilogram per cubic metre</unitsml:UnitName><unitsml:UnitSymbol type="kg/m3"/><unitsml:RootUnits><unitsml:EnumeratedRootUnit unit="gram" prefix="k"/><unitsml:EnumeratedRootUnit unit="meter" powerNumerator="-3"/></unitsml:RootUnits></unitsml:Unit>
  </unitsml:UnitSet></unitsml:UnitsML>
</ocxXML>`;

describe('OCX 2.8.x import', () => {
  it('imports a panel written with X/Y/Z points, x/y/z vectors and FrameTables', async () => {
    const r = await importOcx(chunks(PANEL_28), { fileName: 'legacy.3docx' });
    expect(r.info.schemaVersion).toBe('2.8.5');
    expect(r.objects.map((o) => o.type)).toEqual(['MAIN OBJECT', 'PLATE', 'STIFFENER']);
    expect(r.warnings.filter((w) => w.code === 'geometry-failed')).toEqual([]);
    const plate = r.properties[1];
    expect(plate.AREA_GEOM as number).toBeCloseTo(2, 6); // 2 m × 1 m
    expect(r.objects[1].bounds![2]).toBeCloseTo(3000, 3); // on the plane at z = 3000 mm
    const stiff = r.properties[2];
    expect(stiff.VOLM_GEOM as number).toBeCloseTo(0.1 * 0.01 * 2, 9); // FB100x10 × 2 m
    // the web hangs below the deck (WebDirection given as x/y/z attributes)
    expect(r.objects[2].bounds![2]).toBeLessThan(3000 - 99);
    expect(r.frames.x.map((f) => [f.name, Math.round(f.coordinate * 1e6) / 1e6])).toEqual([
      ['FR0', 0],
      ['FR1', 700],
    ]);
  });

  it('NAPA-TR03_TC11 rewritten into the 2.8 forms gives the same ship as its 3.1 original', async () => {
    const text = readFileSync(path.join(DIR, 'NAPA-TR03_TC11.3docx'), 'utf8');
    const legacy = to28(text);
    expect(legacy).not.toContain('coordinates=');
    expect(legacy).toContain('<ocx:FrameTables>');
    const [a, b] = await Promise.all([importOcx(chunks(text)), importOcx(chunks(legacy))]);
    expect(b.info.schemaVersion).toBe('2.8.5');
    expect(b.objects.map((o) => [o.id, o.type])).toEqual(a.objects.map((o) => [o.id, o.type]));
    expect(b.frames).toEqual(a.frames);
    for (let i = 0; i < a.properties.length; i++)
      for (const k of ['AREA_GEOM', 'VOLM_GEOM', 'XCG_GEOM', 'YCG_GEOM', 'ZCG_GEOM', 'XCG', 'W'])
        if (typeof a.properties[i][k] === 'number')
          expect(b.properties[i][k] as number, `${a.objects[i].id} ${k}`).toBeCloseTo(a.properties[i][k] as number, 9);
  });
});
