/**
 * The catalogue pre-pass (engine/ocx/prepass.ts collectShared) scans the UTF-8 bytes
 * and parses only the header and the shared elements. Checked against the single-pass reader (readOcx
 * over the whole file, which captures the same data while reading everything): same header, catalogue,
 * units, surfaces, coordinate systems and design views, with the file's lines, on every sample and for
 * any chunking (bytes or text); an element of those names inside a comment, a CDATA section or a part
 * is not collected; BOM, CR LF and lone-CR line ends, multi-line start tags; a malformed collected
 * element is refused with its file line; no OCX root gives null; abort.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collectShared } from '../../../engine/ocx/prepass';
import { readOcx, type RawModel } from '../../../engine/ocx/reader';

const DIR = path.resolve(__dirname, '../../../../shared/models/ocx');
const FILES = readdirSync(DIR)
  .filter((f) => f.endsWith('.3docx'))
  .sort();
const enc = new TextEncoder();

async function* chunks(doc: Uint8Array | string, sizes: number[]): AsyncGenerator<Uint8Array | string> {
  let k = 0;
  for (let i = 0; i < doc.length; ) {
    const n = Math.max(1, sizes[k++ % sizes.length]);
    yield doc.slice(i, i + n);
    i += n;
  }
}

/** The shared data of a RawModel, Maps as entry lists. */
function shared(r: RawModel | null) {
  if (!r) return null;
  return {
    header: r.header,
    surfaces: [...r.surfaces],
    catalogue: [...r.catalogue],
    units: [...r.units],
    coordinateSystems: r.coordinateSystems,
    designViews: r.designViews,
  };
}

/** The single-pass reader's shared data: the reference. */
async function reference(doc: Uint8Array | string) {
  return shared(await readOcx(chunks(doc, [1 << 20])));
}

const NS = 'https://3docx.org/fileadmin//ocx_schema//V310//OCX_Schema.xsd';
const UNITS = 'urn:oasis:names:tc:unitsml:schema:xsd:UnitsMLSchema-1.0';
/** A small document with the shared elements before and after the parts, decoys in comments, CDATA and parts. */
const DOC = [
  '\ufeff<?xml version="1.0" encoding="UTF-8"?>\n<!-- <o:ClassCatalogue><o:Material id="in-a-comment"/></o:ClassCatalogue> -->\n',
  `<o:ocxXML xmlns:o="${NS}"\n    schemaVersion="3.1.0">\n`,
  '  <o:Header name="Ålesund — ship" originating_system="Test > writer"/>\n',
  '  <o:Vessel id="V"\n     name="V1">\n',
  '    <o:CoordinateSystem id="CS1"><o:FrameTables/></o:CoordinateSystem>\n',
  '    <o:Panel id="P1" name="a > b"><o:Description>Bærende &amp; «tank»</o:Description>\n',
  '      <o:CoordinateSystem id="in-a-part"/><!-- </o:Panel> -->\n',
  '    </o:Panel>\n',
  '    <o:Description><![CDATA[<o:DesignView id="in-cdata"/>]]></o:Description>\n',
  '    <o:Plate id="FREE"><o:Description>text: /o:Plate o:Plate</o:Description><o:ReferenceSurfaces><o:Plane3D id="in-a-plate"/></o:ReferenceSurfaces></o:Plate>\n',
  '    <o:ReferenceSurfaces>\n      <o:Plane3D id="RS1" name="deck"><o:Origin x="0" y="0" z="0"/></o:Plane3D>\n    </o:ReferenceSurfaces>\n',
  '    <o:DesignView id="DV1"><!-- a comment: the view is scanned tag by tag --><o:Occurrence id="OC1"/></o:DesignView>\n',
  '  </o:Vessel>\n',
  '  <o:ClassCatalogue>\n    <o:MaterialCatalogue><!-- </o:ClassCatalogue> -->\n',
  '      <o:Material id="M1"\n          name="steel"/>\n      <o:Material id="M2" name="«alu»"/>\n    </o:MaterialCatalogue>\n  </o:ClassCatalogue>\n',
  `  <u:UnitsML xmlns:u="${UNITS}"><u:UnitSet><u:Unit xml:id="Um"><u:UnitName>metre</u:UnitName></u:Unit></u:UnitSet></u:UnitsML>\n`,
  '</o:ocxXML>\n',
].join('');

/** Line (1-based; CR LF, CR and LF end lines) of the first occurrence of `needle` in `doc`. */
function lineOf(doc: string, needle: string): number {
  const at = doc.indexOf(needle);
  expect(at).toBeGreaterThanOrEqual(0);
  return (doc.slice(0, at).match(/\r\n|\r|\n/g) ?? []).length + 1;
}

describe('collectShared (byte-level pre-pass)', () => {
  it.each(FILES)(
    '%s: the single-pass reader’s shared data, for any chunking',
    async (f) => {
      const bytes = readFileSync(path.join(DIR, f));
      const ref = await reference(bytes);
      expect(ref!.units.length).toBeGreaterThan(0);
      expect(shared(await collectShared(chunks(bytes, [bytes.length])))).toEqual(ref);
      const sizes = bytes.length < 400_000 ? [[4093, 65536, 17], [257]] : [[65536], [4093, 262144, 1000]];
      for (const s of sizes) expect(shared(await collectShared(chunks(bytes, s)))).toEqual(ref);
      expect(shared(await collectShared(chunks(bytes.toString('utf8'), [1000, 33])))).toEqual(ref);
    },
    30_000,
  );

  it('collects the real elements only: not inside comments, CDATA sections or parts', async () => {
    const r = (await collectShared(chunks(DOC, [1 << 20])))!;
    expect(r.header.name).toBe('Ålesund — ship');
    expect([...r.catalogue.keys()]).toEqual(['M1', 'M2']);
    expect(r.catalogue.get('M2')!.a.name).toBe('«alu»');
    expect(r.coordinateSystems.map((n) => n.a.id)).toEqual(['CS1']);
    expect([...r.surfaces.keys()]).toEqual(['RS1']);
    expect(r.designViews.map((n) => n.a.id)).toEqual(['DV1']);
    expect(r.designViews[0].c.map((n) => n.a.id)).toEqual(['OC1']);
    expect([...r.units.keys()]).toEqual(['Um']);
    expect(r.parts).toEqual([]);
    // the single-pass reader agrees (it sees the part's own children as part data, not shared data)
    expect(shared(r)).toEqual(await reference(DOC));
  });

  it('same result and file lines with BOM, LF, CR LF and lone CR, multi-line tags, for any chunking', async () => {
    for (const doc of [DOC, DOC.replace(/\n/g, '\r\n'), DOC.replace(/\n/g, '\r')]) {
      const bytes = enc.encode(doc);
      const whole = shared(await collectShared(chunks(bytes, [bytes.length])));
      expect(whole).toEqual(await reference(doc));
      expect(whole!.catalogue.find(([id]) => id === 'M1')![1].line).toBe(lineOf(doc, 'name="steel"'));
      expect(whole!.surfaces[0][1].line).toBe(lineOf(doc, 'id="RS1"'));
      expect(whole!.units[0][1].line).toBe(lineOf(doc, 'xml:id="Um"'));
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.integer({ min: 1, max: 97 }), { minLength: 1, maxLength: 6 }),
          fc.boolean(),
          async (sizes, text) => {
            expect(shared(await collectShared(chunks(text ? doc : bytes, sizes)))).toEqual(whole);
          },
        ),
        { numRuns: 40 },
      );
    }
  });

  it('a malformed collected element is refused with its line in the file', async () => {
    for (const eol of ['\n', '\r\n']) {
      const doc = DOC.replace('<o:Material id="M2" name="«alu»"/>', '<o:Material id="M2" name="«alu»">').replace(
        /\n/g,
        eol,
      );
      // the reader reports the mismatched end tag, on its line; the single-pass reader says the same
      const line = lineOf(doc, '</o:MaterialCatalogue>');
      expect(await readOcx(chunks(doc, [1 << 20])).catch((e: { line?: number }) => e.line)).toBe(line);
      for (const sizes of [[1 << 20], [61], [7, 3000]]) {
        await expect(collectShared(chunks(enc.encode(doc), sizes))).rejects.toMatchObject({
          name: 'OcxImportError',
          message: expect.stringMatching(/^Malformed XML/),
        });
        const err = await collectShared(chunks(enc.encode(doc), sizes)).catch((e: { line?: number }) => e);
        expect((err as { line?: number }).line).toBe(line);
      }
      const bad = DOC.replace(
        '<o:Plane3D id="RS1" name="deck">',
        '<o:Plane3D id="RS1" name="deck" name="twice">',
      ).replace(/\n/g, eol);
      await expect(collectShared(chunks(bad, [500]))).rejects.toMatchObject({ line: lineOf(bad, 'name="twice"') });
    }
  });

  it('no OCX root: null; abort: AbortError', async () => {
    expect(await collectShared(chunks('<root><o:ClassCatalogue xmlns:o="x"/></root>', [5]))).toBeNull();
    expect(await collectShared(chunks('', [5]))).toBeNull();
    expect(await collectShared(chunks('<!-- <ocxXML> --> just text', [5]))).toBeNull();
    const ac = new AbortController();
    ac.abort();
    await expect(collectShared(chunks(DOC, [100]), ac.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });
});
