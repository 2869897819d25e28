/**
 * "A truncated, malformed or non-OCX file is refused with a message naming the problem
 * and its line". Also: BOM/CRLF/any element order accepted, progress monotonic, abort honoured.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importOcx, OcxImportError } from '../../../engine/ocx/index';

const DIR = path.resolve(__dirname, '../../../../shared/models/ocx');

async function* chunks(text: string | Uint8Array, size = 4096): AsyncIterable<Uint8Array | string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

async function refusal(text: string | Uint8Array): Promise<OcxImportError> {
  try {
    await importOcx(chunks(text));
  } catch (e) {
    expect(e).toBeInstanceOf(OcxImportError);
    return e as OcxImportError;
  }
  throw new Error('the document was accepted');
}

const NS = 'https://3docx.org/fileadmin//ocx_schema//V300//OCX_Schema.xsd';
const M1 = readFileSync(path.join(DIR, 'NAPA-OCX_M1.3docx'), 'utf8');

describe('importOcx refuses bad input', () => {
  it('refuses an empty file', async () => {
    const e = await refusal('');
    expect(e.message).toMatch(/^The file is empty/);
  });

  it('refuses a document that is not XML, naming the line', async () => {
    const e = await refusal('\n\nhello, world');
    expect(e.message).toMatch(/Not an XML document/);
    expect(e.line).toBe(3);
  });

  it('refuses malformed XML with the line of the error', async () => {
    const e = await refusal(
      `<ocx:ocxXML xmlns:ocx="${NS}" schemaVersion="3.0.0">\n<ocx:Header name="a" />\n<ocx:Vessel id="v1" name=x>\n</ocx:Vessel></ocx:ocxXML>`,
    );
    expect(e.message).toMatch(/Malformed XML/);
    expect(e.line).toBe(3);
    expect(e.message).toMatch(/line 3/);
  });

  it('refuses a truncated real file (cut in half), naming the unclosed element', async () => {
    const text = readFileSync(path.join(DIR, 'NAPA-TR03_TC11.3docx'), 'utf8');
    const half = text.slice(0, Math.floor(text.length / 2));
    const e = await refusal(half);
    expect(e.message).toMatch(/truncated: element <\w+> is not closed/);
    expect(e.line).toBe(half.split('\n').length);
  });

  it('refuses XML that is not OCX', async () => {
    const e = await refusal('<?xml version="1.0"?>\n<html><body/></html>');
    expect(e.message).toMatch(/^Not an OCX file: root element is <html>/);
    const e2 = await refusal('<ocxXML xmlns="urn:other">\n</ocxXML>');
    expect(e2.message).toMatch(/Not an OCX file: root element is <ocxXML> in unknown namespace urn:other/);
  });

  it('refuses a DOCTYPE with ENTITY declarations (entity expansion)', async () => {
    const e = await refusal(
      `<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]>\n<ocx:ocxXML xmlns:ocx="${NS}">&lol2;</ocx:ocxXML>`,
    );
    expect(e.message).toMatch(/DOCTYPE declares entities/);
    expect(e.line).toBe(2);
  });
});

describe('importOcx accepts variations', () => {
  it('accepts CRLF line ends, a BOM, byte chunks split mid-character and reports monotonic progress', async () => {
    const crlf = M1.replace(/\r?\n/g, '\r\n');
    const bytes = new TextEncoder().encode(crlf.startsWith('\uFEFF') ? crlf : `\uFEFF${crlf}`);
    const seen: number[] = [];
    const r = await importOcx(chunks(bytes, 777), { totalBytes: bytes.length, onProgress: (f) => seen.push(f) });
    expect(r.objects.filter((o) => o.type === 'PLATE')).toHaveLength(1);
    expect(seen[seen.length - 1]).toBe(1);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1]);
    expect(seen.some((f) => f > 0.2 && f <= 0.5)).toBe(true);
  });

  it('dispatches on namespace URI, not the prefix', async () => {
    const renamed = M1.replace(/ocx:/g, 'q:').replace('xmlns:ocx=', 'xmlns:q=');
    const r = await importOcx(chunks(renamed));
    expect(r.objects.map((o) => o.type)).toEqual(['MAIN OBJECT', 'PLATE']);
    expect(r.info.schemaVersion).toBe('3.0.0');
  });

  it('rejects with an AbortError when the signal aborts', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(importOcx(chunks(M1), { signal: ac.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });
});
