/**
 * The OCX reader's own XML tokenizer (engine/ocx/XmlScanner.ts) and the rule that "a
 * malformed file is refused with a message naming the problem and its line": every well-formedness
 * violation is refused through readOcx with its message and line, whole and split into small chunks;
 * references, attribute-value normalisation and line ends are decoded as XML 1.0 requires.
 */
import { describe, expect, it } from 'vitest';
import { OcxImportError } from '../../../engine/ocx/errors';
import { readOcx } from '../../../engine/ocx/reader';
import { XmlScanner } from '../../../engine/ocx/XmlScanner';

const NS = 'https://3docx.org/fileadmin//ocx_schema//V300//OCX_Schema.xsd';
const R = `<ocx:ocxXML xmlns:ocx="${NS}" schemaVersion="3.0.0">`;
const END = '</ocx:ocxXML>';

async function* pieces(text: string, size: number): AsyncIterable<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

/** The refusal of `text` by readOcx, fed in chunks of `size` characters. */
async function refusal(text: string, size: number): Promise<OcxImportError> {
  try {
    await readOcx(pieces(text, size));
  } catch (e) {
    expect(e).toBeInstanceOf(OcxImportError);
    return e as OcxImportError;
  }
  throw new Error(`accepted: ${text}`);
}

/** [what, document, message, line] */
const MALFORMED: [string, string, RegExp, number][] = [
  [
    'mismatched end tag',
    `${R}\n<ocx:Vessel>\n</ocx:Panel>\n${END}`,
    /^Malformed XML: end tag <\/ocx:Panel> does not match the start tag <ocx:Vessel>/,
    3,
  ],
  ['end tag after the root', `${R}${END}\n</ocx:ocxXML>`, /end tag <\/ocx:ocxXML> without a start tag/, 2],
  [
    'unclosed elements at the end',
    `${R}\n<ocx:Vessel>\n<ocx:Panel id="p">\n`,
    /^The document is truncated: element <Panel> is not closed \(3 open elements/,
    4,
  ],
  [
    'a file cut inside a tag',
    `${R}\n<ocx:Vessel>\n<ocx:Panel id="p`,
    /^The document is truncated: element <Vessel> is not closed/,
    3,
  ],
  ["'<' in an attribute value", `${R}\n<ocx:Vessel name="a<b"/>${END}`, /'<' in the value of attribute name/, 2],
  [
    'an unquoted attribute',
    `${R}\n<ocx:Header a="1" />\n<ocx:Vessel id="v1" name=x>\n</ocx:Vessel>${END}`,
    /unquoted value of attribute name/,
    3,
  ],
  ['an attribute without value', `${R}\n<ocx:Vessel\n id/>${END}`, /attribute id without a value/, 3],
  ['no white space between attributes', `${R}<ocx:Vessel a="1"b="2"/>${END}`, /no white space before the attribute/, 1],
  [
    'a duplicate attribute',
    `${R}\n\n<ocx:Vessel id="a" id="b"/>${END}`,
    /duplicate attribute id in the start tag <ocx:Vessel>/,
    3,
  ],
  [
    'a duplicate namespaced attribute',
    `${R}<ocx:Vessel xmlns:q="${NS}" ocx:id="a" q:id="b"/>${END}`,
    /duplicate attribute \{https:\/\/3docx\.org.*\}id/,
    1,
  ],
  ['an element name starting with a digit', `${R}\n<ocx:1Vessel/>${END}`, /malformed element name <ocx:1Vessel>/, 2],
  ['an element name with two colons', `${R}\n<ocx:a:b/>${END}`, /malformed element name <ocx:a:b>/, 2],
  ['a bad attribute name', `${R}\n<ocx:Vessel 1a="x"/>${END}`, /malformed attribute name 1a/, 2],
  ["'<' followed by a space", `${R}\n< ocx:Vessel/>${END}`, /disallowed character " " after '<'/, 2],
  ["'/' not followed by '>'", `${R}\n<ocx:Vessel / >${END}`, /'\/' not followed by '>'/, 2],
  ['an undeclared element prefix', `${R}\n<q:Vessel/>${END}`, /unbound namespace prefix "q" of <q:Vessel>/, 2],
  [
    'an undeclared attribute prefix',
    `${R}\n<ocx:Vessel q:x="1"/>${END}`,
    /unbound namespace prefix "q" of the attribute q:x/,
    2,
  ],
  ['an undeclared prefix (xmlns:p="")', `${R}\n<ocx:Vessel xmlns:p=""/>${END}`, /may not be undeclared/, 2],
  ['text after the root', `${R}${END}\nhello`, /text after the root element/, 2],
  ['a second element after the root', `${R}${END}\n<ocx:ocxXML/>`, /a second element after the root element/, 2],
  ['text before the root', `<!-- c -->\nhello${R}${END}`, /text before the root element/, 2],
  ["'--' inside a comment", `${R}\n<!-- a -- b -->${END}`, /'--' inside a comment/, 2],
  ['a comment left open', `${R}${END}\n<!-- a`, /the document ends inside a comment/, 2],
  ['an undefined entity in an attribute', `${R}\n<ocx:Vessel name="&foo;"/>${END}`, /undefined entity &foo;/, 2],
  [
    'an undefined entity in text',
    `${R}<ocx:Vessel>\n<ocx:Description>&nbsp;</ocx:Description></ocx:Vessel>${END}`,
    /undefined entity &nbsp;/,
    2,
  ],
  ['a bad hex character reference', `${R}<ocx:Vessel name="&#xZZ;"/>${END}`, /malformed character reference &#xZZ;/, 1],
  ['a reference to U+0000', `${R}<ocx:Vessel>\n\n&#0;</ocx:Vessel>${END}`, /malformed character reference &#0;/, 3],
  ['a reference beyond U+10FFFF', `${R}<ocx:Vessel name="&#1114112;"/>${END}`, /malformed character reference/, 1],
  ["a '&' without a reference", `${R}<ocx:Vessel>\nA & B</ocx:Vessel>${END}`, /malformed reference "& "/, 2],
  ["']]>' in text", `${R}<ocx:Vessel>\na ]]> b</ocx:Vessel>${END}`, /']]>' in character data/, 2],
  ['a control character', `${R}<ocx:Vessel>\n\u0001</ocx:Vessel>${END}`, /disallowed character U\+0001/, 2],
  [
    'a DOCTYPE declaring entities',
    `<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY a "b">]>\n${R}${END}`,
    /^Refused: the DOCTYPE declares entities/,
    2,
  ],
  ['a DOCTYPE inside the root', `${R}\n<!DOCTYPE x>${END}`, /a DOCTYPE after the root element or a second DOCTYPE/, 2],
  [
    'an XML declaration not at the start',
    `<!-- c -->\n<?xml version="1.0"?>${R}${END}`,
    /the XML declaration must be at the very start/,
    2,
  ],
  ['a bad XML declaration', `<?xml version="2.0"?>\n${R}${END}`, /malformed XML declaration/, 1],
  ['unknown markup', `${R}\n<!ELEMENT x>${END}`, /unknown markup after '<!'/, 2],
  ['a CDATA section outside the root', `<![CDATA[x]]>${R}${END}`, /a CDATA section before the root element/, 1],
];

describe('malformed documents are refused with their message and line', () => {
  it.each(MALFORMED)('%s', async (_what, doc, message, line) => {
    for (const size of [doc.length, 7, 1]) {
      const e = await refusal(doc, size);
      expect(e.message, `chunks of ${size}`).toMatch(message);
      expect(e.line, `chunks of ${size}: ${e.message}`).toBe(line);
    }
  });

  it('lines count CR LF once and a lone CR as a line end; errors carry a column', async () => {
    const e = await refusal(`${R}\r\n<ocx:Vessel>\r\r\n<ocx:Panel name=x/>`, 5);
    expect(e.line).toBe(4);
    expect(e.column).toBe(17);
  });
});

/** The events of one document through the scanner: S qname {uri} attrs @line | E | T text. */
function events(chunks: string[]): string[] {
  const out: string[] = [];
  const sc = new XmlScanner({
    start: (t) => {
      const a: string[] = [];
      for (let k = 0; k < t.attrCount; k++) a.push(`${t.attrLocal(k)}=${JSON.stringify(t.attrValue(k))}`);
      out.push(`S ${t.qname} {${t.uri}} ${a.join(' ')} @${t.line}`);
      return true;
    },
    end: () => out.push('E'),
    text: (s) => (out[out.length - 1]?.startsWith('T ') ? (out[out.length - 1] += s) : out.push(`T ${s}`)),
    doctype: (d) => out.push(`D ${d}`),
  });
  for (const c of chunks) sc.write(c);
  sc.end();
  sc.close();
  return out;
}

describe('references, attribute values and line ends', () => {
  const doc =
    '\uFEFF<?xml version="1.0" encoding="UTF-8"?>\r\n<!DOCTYPE r [ <!ELEMENT r ANY> <!-- ] > --> ]>\r\n' +
    '<r xmlns="urn:a" xmlns:b="urn:b" v="x&#10;y\tz\r\nw&amp;&lt;&gt;&quot;&apos;&#x4E2D;&#128512;" b:w=\'1 "2"\'>\r\n' +
    '<b:t>a&amp;b\rc\r\nd<![CDATA[<&>]]y\r\n]]>e</b:t><e\r\n x="1"\r\n/><!-- c - c --><?pi data?></r>\r\n<!-- after -->\r\n';

  it('decodes references, normalises attribute white space and text line ends, resolves namespaces', () => {
    expect(events([doc])).toEqual([
      'D <!DOCTYPE r [ <!ELEMENT r ANY> <!-- ] > --> ]>',
      `S r {urn:a} v=${JSON.stringify('x\ny z w&<>"\'中😀')} w="1 \\"2\\"" @4`,
      'T \n',
      'S b:t {urn:b}  @5',
      'T a&b\nc\nd<&>]]y\ne',
      'E',
      'S e {urn:a} x="1" @10',
      'E',
      'E',
    ]);
  });

  it('gives the same events for every split point (single characters included)', () => {
    const whole = events([doc]);
    for (let at = 1; at < doc.length; at++)
      expect(events([doc.slice(0, at), doc.slice(at)]), `split at ${at}`).toEqual(whole);
    expect(events([...doc])).toEqual(whole);
  });

  it('readOcx keeps the decoded text of a Description', async () => {
    const raw = await readOcx(
      pieces(
        `${R}<ocx:Vessel><ocx:Plate id="p1"><ocx:Description>A &amp; B\r\n&#x43;</ocx:Description></ocx:Plate></ocx:Vessel>${END}`,
        3,
      ),
    );
    expect(raw.parts[0].node.c[0].t).toBe('A & B\nC');
  });
});

describe('a message quoting a huge name', () => {
  it('keeps both ends of the quote and stays short (fuzz seed 103232: a 3.7 MB end-tag name)', async () => {
    const name = 'x'.repeat(1_000_000);
    const e = await refusal(`${R}\n<a></${name}<b>${END}`, 4093);
    expect(e.message.length).toBeLessThan(600);
    expect(e.message).toMatch(/^Malformed XML: disallowed character "<" in the end tag <\/x+…x+>/);
    expect(e.message).toMatch(/\(line 2, column \d+\)/);
  });
});
