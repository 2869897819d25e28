/**
 * The catalogue pre-pass of OCX_GUIDE §1.3 (issue 3 item 5, memory bound): a cheap first pass over a
 * file that collects what every part needs before the parts themselves — Header, ClassCatalogue,
 * UnitsML, and the Vessel's ReferenceSurfaces, CoordinateSystem and DesignView (writers put them before
 * or after the parts: the schema order puts the catalogue after the Vessel, NAPA the surfaces after the
 * panels). The Vessel's parts are skipped without XML parsing: the text is scanned for the start tags of
 * those elements only, each found element is cut out whole, and the fragments alone are parsed by
 * readOcx (shared code, same capture rules) inside the document's own root start tag, so prefixes and
 * namespaces resolve as in the file. Line numbers are preserved (fragments are placed on their lines).
 *
 * Limitations: an element of those names inside an XML comment or CDATA section would be collected
 * too; the main pass still validates the whole document, so a malformed file is refused there.
 */
import { abortError, readOcx, SHARED_ELEMENTS, type RawModel } from './reader';

/** Element local names located by the scan: the root, the header, the Vessel (start tag only) and SHARED_ELEMENTS. */
const NAMES = ['ocxXML', 'Header', 'Vessel', ...SHARED_ELEMENTS];
const START = new RegExp(`<(?:([A-Za-z_][\\w.-]*):)?(${NAMES.join('|')})(?=[\\s/>])`, 'g');
/** Longest start-tag prefix that can span a chunk boundary ('<' + prefix + ':' + name), chars. */
const CARRY = 256;

/** One element cut out of the text: its source line (1-based) and its text. */
interface Fragment {
  line: number;
  text: string;
  /** Vessel child (wrapped in a Vessel element for the parse). */
  inVessel: boolean;
}

/**
 * Collects the shared data of an OCX document (the pre-pass).
 * @returns the RawModel of the fragments (parts empty), or null when the scan finds no OCX root start
 * tag (the main pass then refuses the file with its own message).
 * @throws OcxImportError when a collected fragment is malformed (line of the file); AbortError on abort.
 */
export async function collectShared(chunks: AsyncIterable<Uint8Array | string>, signal?: AbortSignal): Promise<RawModel | null> {
  const decoder = new TextDecoder('utf-8', { fatal: false });
  let buf = '';
  let bufLine = 1; // line number at buf[0]
  let root: { tag: string; qname: string; line: number } | null = null;
  let vesselQName = 'Vessel';
  let vesselTag = '';
  const fragments: Fragment[] = [];
  /** Open element being cut out: its start in buf, its closing tag, where to resume searching. */
  let open: { start: number; close: string; searchFrom: number; name: string; line: number } | null = null;
  let first = true;

  const advance = (to: number) => {
    bufLine += countLines(buf, 0, to);
    buf = buf.slice(to);
  };
  const scan = () => {
    for (;;) {
      if (open) {
        const end = buf.indexOf(open.close, open.searchFrom);
        if (end < 0) {
          open.searchFrom = Math.max(open.start, buf.length - open.close.length);
          return;
        }
        const gt = buf.indexOf('>', end + open.close.length);
        if (gt < 0) return;
        fragments.push({ line: open.line, text: buf.slice(open.start, gt + 1), inVessel: open.name !== 'ClassCatalogue' && open.name !== 'UnitsML' });
        advance(gt + 1);
        open = null;
        continue;
      }
      START.lastIndex = 0;
      const m = START.exec(buf);
      if (!m) {
        if (buf.length > CARRY) advance(buf.length - CARRY);
        return;
      }
      const tagEnd = endOfTag(buf, m.index + m[0].length);
      if (tagEnd < 0) {
        advance(m.index);
        return; // the start tag continues in the next chunk
      }
      const line = bufLine + countLines(buf, 0, m.index);
      const qname = (m[1] ? `${m[1]}:` : '') + m[2];
      const selfClosing = buf.charCodeAt(tagEnd - 1) === 47; // '/'
      if (m[2] === 'ocxXML') {
        if (!root) root = { tag: selfClosing ? buf.slice(m.index, tagEnd - 1) + '>' : buf.slice(m.index, tagEnd + 1), qname, line };
        advance(tagEnd + 1);
        continue;
      }
      if (!root) {
        advance(tagEnd + 1);
        continue;
      }
      if (m[2] === 'Vessel') {
        // its start tag wraps the Vessel fragments (it may declare namespaces); its content is scanned on
        vesselQName = qname;
        if (!selfClosing && !vesselTag) vesselTag = buf.slice(m.index, tagEnd + 1);
        advance(tagEnd + 1);
        continue;
      }
      if (selfClosing) {
        fragments.push({ line, text: buf.slice(m.index, tagEnd + 1), inVessel: m[2] !== 'Header' && m[2] !== 'ClassCatalogue' && m[2] !== 'UnitsML' });
        advance(tagEnd + 1);
        continue;
      }
      advance(m.index);
      open = { start: 0, close: `</${qname}`, searchFrom: tagEnd + 1 - m.index, name: m[2], line };
    }
  };

  for await (const chunk of chunks) {
    if (signal?.aborted) throw abortError();
    let text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    if (first && text.length) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
    }
    buf += text;
    scan();
  }
  buf += decoder.decode();
  scan();
  if (!root) return null;
  const r = root as { tag: string; qname: string; line: number };
  // the synthetic document: root start tag on its line, each fragment on its own line
  const out: string[] = [];
  let line = 1;
  const gotoLine = (l: number) => {
    if (l > line) {
      out.push('\n'.repeat(l - line));
      line = l;
    }
  };
  gotoLine(r.line);
  out.push(r.tag);
  line += countLines(r.tag, 0, r.tag.length);
  let inVessel = false;
  for (const f of fragments) {
    if (f.inVessel !== inVessel) {
      out.push(inVessel ? `</${vesselQName}>` : vesselTag || `<${vesselQName}>`);
      inVessel = f.inVessel;
    }
    gotoLine(f.line);
    out.push(f.text);
    line += countLines(f.text, 0, f.text.length);
  }
  if (inVessel) out.push(`</${vesselQName}>`);
  out.push(`</${r.qname}>`);
  return readOcx(once(out.join('')), { signal });
}

async function* once(text: string): AsyncGenerator<string> {
  yield text;
}

/** Index of the '>' that ends the start tag whose attributes begin at `from` (quotes respected), or -1. */
function endOfTag(s: string, from: number): number {
  let q = 0;
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (q) {
      if (c === q) q = 0;
    } else if (c === 34 || c === 39) q = c;
    else if (c === 62) return i;
  }
  return -1;
}

function countLines(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = s.indexOf('\n', from); i >= 0 && i < to; i = s.indexOf('\n', i + 1)) n++;
  return n;
}
