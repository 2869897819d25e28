/**
 * PartSplitter (engine/ocx/partSplit.ts): the byte-level split of an OCX document into
 * top-level parts and the text the calling thread parses must not depend on how the file is chunked,
 * must cut exactly the Vessel's part elements (and drop the pre-pass's shared elements), report each
 * part's file line and column, and keep the text's line count — on the samples, with CRLF line ends,
 * multi-byte characters, comments, CDATA and same-named nested elements, and on one-line documents.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PartSplitter, type SplitItem } from '../../../engine/ocx/partSplit';

const DIR = path.resolve(__dirname, '../../../../shared/models/ocx');
const FILES = readdirSync(DIR)
  .filter((f) => f.endsWith('.3docx'))
  .sort();
const enc = new TextEncoder();
const dec = new TextDecoder('utf-8', { ignoreBOM: true });

interface Summary {
  /** The text the reader gets, with each cut replaced by its line breaks. */
  text: string;
  parts: { text: string; line: number; column: number }[];
}

/** Splits `bytes` fed in chunks of the given sizes (cycled). */
function split(bytes: Uint8Array, sizes: number[]): Summary {
  const s = new PartSplitter();
  const items: SplitItem[] = [];
  let k = 0;
  for (let i = 0; i < bytes.length; ) {
    const n = Math.max(1, sizes[k++ % sizes.length]);
    items.push(...s.push(bytes.slice(i, i + n)));
    i += n;
  }
  items.push(...s.end());
  const text: Uint8Array[] = [];
  const parts: Summary['parts'] = [];
  for (const it of items) {
    if (it.kind === 'text') text.push(it.bytes.slice());
    else if (it.kind === 'lines') text.push(enc.encode('\n'.repeat(it.count)));
    else parts.push({ text: dec.decode(it.bytes), line: it.line, column: it.column });
  }
  return { text: text.map((t) => dec.decode(t, { stream: true })).join('') + dec.decode(), parts };
}

/** Line and column (1-based, characters; CR LF and lone CR are line breaks) of string index i. */
function lineCol(s: string, i: number): { line: number; column: number } {
  let line = 1;
  let col = 1;
  for (let k = 0; k < i; k++) {
    const c = s[k];
    if (c === '\n') {
      if (s[k - 1] !== '\r') line++;
      col = 1;
    } else if (c === '\r') {
      line++;
      col = 1;
    } else if (!(c >= '\udc00' && c <= '\udfff')) col++;
  }
  return { line, column: col };
}

function lineBreaks(s: string): number {
  return (s.match(/\r\n|\r|\n/g) ?? []).length;
}

/** Checks a split against the document: parts at their places, in order, text lines kept. */
function checkAgainst(doc: string, r: Summary, expectedParts: number): void {
  expect(r.parts.length).toBe(expectedParts);
  let from = 0;
  for (const p of r.parts) {
    const at = doc.indexOf(p.text, from);
    expect(at).toBeGreaterThanOrEqual(0);
    expect({ line: p.line, column: p.column }).toEqual(lineCol(doc, at));
    from = at + p.text.length;
  }
  expect(lineBreaks(r.text)).toBe(lineBreaks(doc));
}

const DOC = [
  '\ufeff<?xml version="1.0" encoding="UTF-8"?>\n<!-- <ocx:Panel id="in-a-comment"> -->\n',
  // a DOCTYPE whose subset holds '>' and ']' in quotes: scanned on across chunks, never ended early
  '<!DOCTYPE o:ocxXML SYSTEM "x>y.dtd" [\n <!ELEMENT o:Panel ANY>\n <!ATTLIST o:Panel n CDATA \'a]>b\'> ]>\n',
  '<o:ocxXML xmlns:o="https://3docx.org/fileadmin//ocx_schema//V310//OCX_Schema.xsd" schemaVersion="3.1.0">\n',
  '  <o:Header name="Ålesund — ship" originating_system="Test > writer"/>\n',
  '  <o:Vessel id="V"\n     name="V1">\n',
  '    <o:Panel id="P1" name="a > b"><o:Description>Bærende &amp; «tank»</o:Description>\n',
  '      <o:ComposedOf><o:Plate id="P1a"/><o:Plate id="P1b"><!-- </o:Panel> --></o:Plate></o:ComposedOf>\n',
  '    </o:Panel>\n',
  '    <o:CoordinateSystem id="CS"><o:FrameTables/></o:CoordinateSystem>\n',
  '    <o:Plate id="FREE" /><o:Stiffener id="S1"><![CDATA[</o:Stiffener>]]></o:Stiffener>\n',
  '    <o:Panel id="P2"><o:Panel id="nested"></o:Panel></o:Panel><o:PanelRef id="not-a-part"/>\n',
  '    <o:Pillar id="PI"\n      name="multi-line start tag"><o:PillarX/></o:Pillar>\n',
  '  </o:Vessel>\n  <o:ClassCatalogue><o:Material id="M"/></o:ClassCatalogue>\n',
  '</o:ocxXML>\n',
].join('');

describe('PartSplitter', () => {
  it('cuts the Vessel’s parts (comments, CDATA, nested same-named elements, quoted “>”), drops the shared elements', () => {
    const r = split(enc.encode(DOC), [1 << 20]);
    expect(r.parts.map((p) => /id="([^"]+)"/.exec(p.text)![1])).toEqual(['P1', 'FREE', 'S1', 'P2', 'PI']);
    expect(r.parts[0].text.endsWith('</o:Panel>')).toBe(true);
    expect(r.parts[3].text).toBe('<o:Panel id="P2"><o:Panel id="nested"></o:Panel></o:Panel>');
    expect(r.text).not.toContain('CoordinateSystem');
    expect(r.text).not.toContain('ClassCatalogue');
    expect(r.text).toContain('<o:PanelRef id="not-a-part"/>');
    expect(r.text).toContain('in-a-comment');
    checkAgainst(DOC, r, 5);
  });

  it('gives the same result for any chunking (1-byte chunks included), LF and CR LF', () => {
    for (const doc of [DOC, DOC.replace(/\n/g, '\r\n')]) {
      const bytes = enc.encode(doc);
      const whole = split(bytes, [bytes.length]);
      checkAgainst(doc, whole, 5);
      expect(split(bytes, [1])).toEqual(whole);
      fc.assert(
        fc.property(fc.array(fc.integer({ min: 1, max: 97 }), { minLength: 1, maxLength: 8 }), (sizes) => {
          expect(split(bytes, sizes)).toEqual(whole);
        }),
        { numRuns: 60 },
      );
    }
  });

  it('a one-line document: columns count characters, not bytes', () => {
    const doc = DOC.replace(/\n\s*/g, ' ');
    const r = split(enc.encode(doc), [13, 5000]);
    checkAgainst(doc, r, 5);
    expect(r.parts[1].line).toBe(1);
  });

  it('a truncated document hands the open part back as text', () => {
    const doc = DOC.slice(0, DOC.indexOf('<o:Plate id="P1b">'));
    const r = split(enc.encode(doc), [64]);
    expect(r.parts).toEqual([]);
    expect(r.text).toBe(doc);
  });

  it.each(FILES)('%s: the parts are the Vessel’s part elements, at their lines, for any chunking', (f) => {
    const bytes = readFileSync(path.join(DIR, f));
    const doc = dec.decode(bytes);
    const whole = split(bytes, [bytes.length]);
    const expected = [
      ...doc.matchAll(/<ocx:(Panel|Plate|Stiffener|Bracket|Pillar|Seam|EdgeReinforcement|Arrangement)[\s>/]/g),
    ].length;
    expect(whole.parts.length).toBeGreaterThan(0);
    expect(whole.parts.length).toBeLessThanOrEqual(expected);
    checkAgainst(doc, whole, whole.parts.length);
    expect(split(bytes, [4093, 65536, 17])).toEqual(whole);
  });
  it('copies a long part fed in small chunks a bounded number of times (a copy of the held part per chunk was quadratic)', () => {
    const inner = '<o:Plate id="x"><o:Description>d</o:Description></o:Plate>\n'.repeat(40_000); // 2.3 MB
    const doc = DOC.replace('<o:Panel id="P2">', `<o:Panel id="P2">${inner}`);
    const bytes = enc.encode(doc);
    const s = new PartSplitter();
    const items: SplitItem[] = [];
    for (let i = 0; i < bytes.length; i += 256) items.push(...s.push(bytes.subarray(i, i + 256)));
    items.push(...s.end());
    const parts = items.filter((it) => it.kind === 'part');
    const whole = `<o:Panel id="P2">${inner}<o:Panel id="nested"></o:Panel></o:Panel>`;
    expect(parts.map((p) => (p.kind === 'part' ? dec.decode(p.bytes) : ''))).toContain(whole);
    // the held part grows by doubling: under 4 copies of each byte (one copy per chunk: 10 GB here)
    expect(s.copiedBytes).toBeLessThan(4 * bytes.length);
  });
});
