/**
 * The OCX reader's tokenizer (engine/ocx/XmlScanner.ts) reports what saxes reported —
 * the same elements, local names, namespace URIs, attributes (xmlns declarations left out), start-tag
 * lines and text — on every sample and on a document using every XML feature; and the same events for
 * any chunking of the UTF-8 bytes (multi-byte characters, tags, references, `]]>`, `-->`, CR LF split
 * anywhere; fast-check).
 */
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { bareScan } from '../../../engine/ocx/bareScan';
import { XmlScanner } from '../../../engine/ocx/XmlScanner';

const DIR = path.resolve(__dirname, '../../../../shared/models/ocx');
const FILES = readdirSync(DIR)
  .filter((f) => f.endsWith('.3docx'))
  .sort();

/** The events of a document: S local {uri} attrs @line, E, T merged text (inside the root). */
function scannerEvents(chunks: Iterable<Uint8Array>): string[] {
  const out: string[] = [];
  const sc = new XmlScanner({
    start: (t) => {
      const a: string[] = [];
      for (let k = 0; k < t.attrCount; k++) a.push(`${t.attrLocal(k)}=${JSON.stringify(t.attrValue(k))}`);
      out.push(`S ${t.local} {${t.uri}} ${a.join(' ')} @${t.line}`);
      return true;
    },
    end: () => out.push('E'),
    text: (s) => text(out, s),
    doctype: () => undefined,
  });
  const dec = new TextDecoder('utf-8');
  for (const c of chunks) sc.write(dec.decode(c, { stream: true }));
  sc.write(dec.decode());
  sc.end();
  sc.close();
  return out;
}

function text(out: string[], s: string): void {
  if (out[out.length - 1]?.startsWith('T ')) out[out.length - 1] += s;
  else out.push(`T ${s}`);
}

/** The same events from saxes (namespace mode, positions), as the reader used them before. */
function saxesEvents(doc: string): string[] {
  const out: string[] = [];
  const p = new SaxesParser({ xmlns: true, position: true });
  let depth = 0;
  p.on('opentag', (t) => {
    const a: string[] = [];
    for (const k in t.attributes) {
      const at = t.attributes[k];
      if (at.prefix !== 'xmlns' && at.name !== 'xmlns') a.push(`${at.local}=${JSON.stringify(at.value)}`);
    }
    out.push(`S ${t.local} {${t.uri}} ${a.join(' ')} @${p.line}`);
    depth++;
  });
  p.on('closetag', () => {
    out.push('E');
    depth--;
  });
  p.on('text', (s) => depth > 0 && text(out, s));
  p.on('cdata', (s) => text(out, s));
  p.on('error', (e) => {
    throw e;
  });
  p.write(doc.charCodeAt(0) === 0xfeff ? doc.slice(1) : doc).close();
  return out;
}

/** A document with every feature the tokenizer handles, CR LF line ends and non-ASCII names and values. */
const FEATURES =
  '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\r\n<!-- before -->\r\n<!DOCTYPE ocx:ocxXML SYSTEM "x.dtd" [ <!ELEMENT a ANY> <!-- ] > \' --> ]>\r\n<?pi some data?>\r\n' +
  '<ocx:ocxXML xmlns:ocx="https://3docx.org/fileadmin//ocx_schema//V300//OCX_Schema.xsd" xmlns="urn:default" schemaVersion="3.0.0">\r\n' +
  '  <ocx:Vessel id="v&#x31;" name="Ship &amp; Co &lt;é&gt; 中文 😀" note=\'tab\there\r\nnext&#9;ref\'>\r\n' +
  '    <ocx:Description>Léa &amp; 中\r\nline2\rline3 <![CDATA[<raw> & ]] ]]> tail &#x1F600;</ocx:Description>\r\n' +
  '    <Plain a = "1"\r\n      b="2" ><inner xmlns="" xmlns:q="urn:q" q:c="3" c="4"/></Plain>\r\n' +
  '    <ocx:Données_é-1.x xml:id="u1"/><!-- a - b --><?target?>\r\n' +
  '  </ocx:Vessel >\r\n</ocx:ocxXML>\r\n<!-- after -->\r\n';

const enc = new TextEncoder();

/** `bytes` cut at the given sizes (cycled). */
function* cut(bytes: Uint8Array, sizes: number[]): Iterable<Uint8Array> {
  for (let i = 0, k = 0; i < bytes.length; k++) {
    const n = sizes[k % sizes.length];
    yield bytes.subarray(i, i + n);
    i += n;
  }
}

describe('the tokenizer reports what saxes reported', () => {
  it.each(FILES)('%s: same names, URIs, attributes, lines and text', (f) => {
    const bytes = readFileSync(path.join(DIR, f));
    const mine = scannerEvents([bytes]);
    expect(mine.length).toBeGreaterThan(10);
    expect(mine).toEqual(saxesEvents(bytes.toString('utf8')));
  });

  it('a document with every feature (CR LF, references, CDATA, DOCTYPE, PIs, namespaces, non-ASCII)', () => {
    const mine = scannerEvents([enc.encode(FEATURES)]);
    expect(mine).toContain(
      'S Données_é-1.x {https://3docx.org/fileadmin//ocx_schema//V300//OCX_Schema.xsd} id="u1" @13',
    );
    expect(mine).toEqual(saxesEvents(FEATURES));
  });

  it('bareScan counts the elements', async () => {
    async function* once() {
      yield enc.encode(FEATURES);
    }
    expect(await bareScan(once())).toBe(6);
  });
});

describe('the same events for any chunking of the bytes', () => {
  const sizes = (max: number) => fc.array(fc.integer({ min: 1, max }), { minLength: 1, maxLength: 40 });

  it('the feature document, chunks of 1–12 bytes', () => {
    const bytes = enc.encode(FEATURES);
    const whole = scannerEvents([bytes]);
    fc.assert(
      fc.property(sizes(12), (s) => {
        expect(scannerEvents(cut(bytes, s))).toEqual(whole);
      }),
      { numRuns: 300 },
    );
  });

  it('every sample, chunks of 1–3000 bytes', () => {
    const docs = FILES.map((f) => readFileSync(path.join(DIR, f)));
    const wholes = docs.map((b) => scannerEvents([b]));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: docs.length - 1 }), sizes(3000), (d, s) => {
        expect(scannerEvents(cut(docs[d], s))).toEqual(wholes[d]);
      }),
      { numRuns: 40 },
    );
  });
});
