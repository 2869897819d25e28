/**
 * The CAD file references of an OCX 3.1 document (engine/ocx/cadRefs.ts): Equipment items and structural
 * parts with an ExternalGeometryRef, collected with their referring object from chunks split anywhere;
 * bad file names skipped and counted; the distinct names with all their objects.
 */
import { describe, expect, it } from 'vitest';
import { collectCadRefs, isValidCadFileName, MAX_CAD_REFS, requiredCadFiles } from '../../../engine/ocx/cadRefs';

/** Hand-written Equipments: two pumps share one file. */
const EQUIPMENT = [
  ['eq-pump-1', 'Ballast pump 1', 'as1-oc-214.stp', '.stp'],
  ['eq-pump-2', 'Ballast pump 2', 'as1-oc-214.stp', '.stp'],
  ['eq-cube', 'Hatch cover', 'cube-10mm.igs', '.igs'],
  ['eq-house', 'Deck house', 'IfcOpenHouse_IFC4.ifc', '.ifc'],
];
const equipmentsXml = () =>
  `<ocx:Equipments id="equipments" name="Equipment" ocx:GUIDRef="e">\n${EQUIPMENT.map(
    ([id, name, file, format], i) =>
      `<ocx:Equipment id="${id}" name="${name}" ocx:GUIDRef="e${i}"><ocx:ExternalGeometryRef ocx:externalRef="${file}" ocx:geometryFormat="${format}"/></ocx:Equipment>`,
  ).join('\n')}\n</ocx:Equipments>\n`;

const NS = 'https://3docx.org/fileadmin//ocx_schema//V310//OCX_Schema.xsd';
const doc = (vessel: string, equipments = '') =>
  `<?xml version="1.0"?>\n<ocx:ocxXML xmlns:ocx="${NS}" schemaVersion="3.1.0">\n<ocx:Vessel id="v" name="V" ocx:GUIDRef="g">\n${vessel}</ocx:Vessel>\n${equipments}</ocx:ocxXML>\n`;
const PLATE = `<ocx:Panel id="p1" name="DECK" ocx:GUIDRef="g1"><ocx:ComposedOf><ocx:Plate id="pl-7" name="DECK.P7" ocx:GUIDRef="g2"><ocx:ExternalGeometryRef ocx:externalRef="deck plate.jt" ocx:geometryFormat=".jt"/></ocx:Plate></ocx:ComposedOf></ocx:Panel>\n`;

/** The text in pieces of `n` characters. */
async function* pieces(s: string, n: number): AsyncGenerator<string> {
  for (let i = 0; i < s.length; i += n) yield s.slice(i, i + n);
}

describe('CAD file references', () => {
  it('collects equipment and structural-part references with their objects, from any chunking', async () => {
    const text = doc(PLATE, equipmentsXml());
    for (const n of [7, 64, text.length]) {
      const { refs, dropped } = await collectCadRefs(pieces(text, n));
      expect(dropped).toBe(0);
      expect(refs).toEqual([
        { fileName: 'deck plate.jt', format: '.jt', objectType: 'Plate', objectId: 'pl-7', objectName: 'DECK.P7' },
        {
          fileName: 'as1-oc-214.stp',
          format: '.stp',
          objectType: 'Equipment',
          objectId: 'eq-pump-1',
          objectName: 'Ballast pump 1',
        },
        {
          fileName: 'as1-oc-214.stp',
          format: '.stp',
          objectType: 'Equipment',
          objectId: 'eq-pump-2',
          objectName: 'Ballast pump 2',
        },
        {
          fileName: 'cube-10mm.igs',
          format: '.igs',
          objectType: 'Equipment',
          objectId: 'eq-cube',
          objectName: 'Hatch cover',
        },
        {
          fileName: 'IfcOpenHouse_IFC4.ifc',
          format: '.ifc',
          objectType: 'Equipment',
          objectId: 'eq-house',
          objectName: 'Deck house',
        },
      ]);
    }
  });

  it('lists each file once with every object that refers to it', async () => {
    const { refs } = await collectCadRefs(pieces(doc(PLATE, equipmentsXml()), 100));
    const files = requiredCadFiles(refs);
    expect(files.map((f) => f.fileName)).toEqual([
      'deck plate.jt',
      'as1-oc-214.stp',
      'cube-10mm.igs',
      'IfcOpenHouse_IFC4.ifc',
    ]);
    expect(files[1].objects.map((o) => o.name)).toEqual(['Ballast pump 1', 'Ballast pump 2']);
  });

  it('finds none in a model without references', async () => {
    expect(await collectCadRefs(pieces(doc('<ocx:Panel id="p" ocx:GUIDRef="x"/>\n'), 50))).toEqual({
      refs: [],
      dropped: 0,
    });
  });

  it('skips file names with a path or none, and counts them', async () => {
    const bad = ['../../etc/passwd', 'sub/dir.stp', 'c:\\x.stp', '', '..'];
    const items = bad
      .map(
        (f, i) =>
          `<ocx:Equipment id="b${i}" ocx:GUIDRef="b${i}"><ocx:ExternalGeometryRef ocx:externalRef="${f}" ocx:geometryFormat=".stp"/></ocx:Equipment>`,
      )
      .join('');
    const { refs, dropped } = await collectCadRefs(
      pieces(doc('', `<ocx:Equipments id="e" ocx:GUIDRef="e">${items}</ocx:Equipments>`), 30),
    );
    expect(refs).toEqual([]);
    expect(dropped).toBe(bad.length);
    for (const f of bad) expect(isValidCadFileName(f)).toBe(false);
    expect(isValidCadFileName('as1-oc-214.stp')).toBe(true);
  });

  it(`keeps at most ${MAX_CAD_REFS} references`, async () => {
    const one = (i: number) =>
      `<ocx:Equipment id="e${i}" ocx:GUIDRef="e${i}"><ocx:ExternalGeometryRef ocx:externalRef="f${i}.stp" ocx:geometryFormat=".stp"/></ocx:Equipment>`;
    const extra = 5;
    const items = Array.from({ length: MAX_CAD_REFS + extra }, (_, i) => one(i)).join('\n');
    const { refs, dropped } = await collectCadRefs(
      pieces(doc('', `<ocx:Equipments id="e" ocx:GUIDRef="e">${items}</ocx:Equipments>`), 65536),
    );
    expect(refs.length).toBe(MAX_CAD_REFS);
    expect(dropped).toBe(extra);
    expect(refs[MAX_CAD_REFS - 1].fileName).toBe(`f${MAX_CAD_REFS - 1}.stp`);
  });

  it('refuses a malformed document', async () => {
    await expect(collectCadRefs(pieces(doc(PLATE).replace('</ocx:Plate>', ''), 40))).rejects.toThrow(/Malformed XML/);
  });
});
