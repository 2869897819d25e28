/**
 * The catalogue pre-pass of OCX_GUIDE §1.3: a cheap first pass over a file that
 * collects what every part needs before the parts themselves — Header, ClassCatalogue, UnitsML, and the
 * Vessel's ReferenceSurfaces, CoordinateSystem and DesignView (writers put them before or after the
 * parts: the schema order puts the catalogue after the Vessel, NAPA the surfaces after the panels).
 *
 * The scan works on the UTF-8 bytes with the threaded import's splitter (engine/ocx/partSplit.ts, rules
 * PREPASS_RULES): nothing is decoded but the collected elements; the Vessel's top-level parts are skipped
 * by finding their end tags (native byte searches); comments, CDATA sections, processing instructions
 * and the DOCTYPE are stepped over, so an element of those names inside them is not collected. Those
 * elements (wherever they are outside the Vessel's parts) are cut out whole and parsed alone by readOcx
 * (shared code, same capture rules) inside the document's own root start tag, so prefixes and namespaces
 * resolve as in the file; each is placed on its own line of the file, so lines (of nodes and of errors)
 * are the file's. The scan does not check well-formedness: the main pass validates the whole file.
 */
import { byteView, localOf, nameAt, newBytes } from './byteScan';
import { PartSplitter, type CutRules, type RootTag, type SplitItem } from './partSplit';
import { abortError, PART_ELEMENTS, readOcx, SHARED_ELEMENTS, type RawModel } from './reader';

/** Elements collected: the header and the shared elements. */
const COLLECTED = new Set(['Header', ...SHARED_ELEMENTS]);
/** Collected elements parsed as children of the root; the others are wrapped in the Vessel's start tag. */
const UNDER_ROOT = new Set(['Header', 'ClassCatalogue', 'UnitsML']);

/**
 * The pre-pass's cuts: the Vessel's parts dropped unread, the header and the shared elements kept at any
 * depth outside them, everything else scanned over.
 */
export const PREPASS_RULES: CutRules = {
  maxDepth: Infinity,
  action(local, _depth, inVessel) {
    if (inVessel && PART_ELEMENTS.has(local)) return 'drop';
    return COLLECTED.has(local) ? 'keep' : null;
  },
};

/** One element cut out of the file: its source line (1-based), its bytes, whether it goes in the Vessel. */
interface Fragment {
  line: number;
  bytes: Uint8Array;
  inVessel: boolean;
}

const encoder = new TextEncoder();

/**
 * Collects the shared data of an OCX document (the pre-pass) from UTF-8 byte or text chunks.
 * @returns the RawModel of the collected elements (parts empty; header, units, catalogue, surfaces,
 * coordinate systems, design views and their unknown-element counts), or null when the document's root
 * is not an OCX root (ocxXML, any prefix) or there is none (the main pass then refuses the file with its
 * own message).
 * @throws OcxImportError when a collected element is malformed (with the file's line); an Error named
 * 'AbortError' when `signal` aborts.
 */
export async function collectShared(
  chunks: AsyncIterable<Uint8Array | string>,
  signal?: AbortSignal,
): Promise<RawModel | null> {
  const splitter = new PartSplitter(PREPASS_RULES);
  const fragments: Fragment[] = [];
  const take = (items: SplitItem[]) => {
    for (const it of items) {
      if (it.kind !== 'part') continue;
      const local = localOf(nameAt(it.bytes, 1));
      fragments.push({ line: it.line, bytes: it.bytes, inVessel: !UNDER_ROOT.has(local) });
    }
  };
  let surrogate = ''; // a high surrogate ending a text chunk waits for its pair
  for await (const chunk of chunks) {
    if (signal?.aborted) throw abortError();
    let bytes: Uint8Array;
    if (typeof chunk === 'string') {
      let text = surrogate + chunk;
      const last = text.charCodeAt(text.length - 1);
      surrogate = last >= 0xd800 && last <= 0xdbff ? text.slice(-1) : '';
      if (surrogate) text = text.slice(0, -1);
      bytes = encoder.encode(text);
    } else bytes = chunk;
    take(splitter.push(bytes));
  }
  if (surrogate) take(splitter.push(encoder.encode(surrogate)));
  take(splitter.end());
  const root = splitter.root;
  if (!root || localOf(root.qname) !== 'ocxXML') return null;
  const vessel = splitter.context;
  return readOcx(
    once(synthetic(root, vessel ? oneLine(vessel.vessel) : null, vessel?.vesselQName ?? 'Vessel', fragments)),
    { signal },
  );
}

/**
 * The document the fragments are parsed as: the root start tag on its line, each fragment on its own
 * line; fragments of the Vessel wrapped in its start tag (written on the line before, see oneLine).
 */
function synthetic(
  root: RootTag,
  vesselTag: Uint8Array | null,
  vesselQName: string,
  fragments: Fragment[],
): Uint8Array {
  const out: Uint8Array[] = [];
  let line = 1;
  const put = (b: Uint8Array) => {
    out.push(b);
    line += lineBreaks(b);
  };
  const gotoLine = (l: number) => {
    if (l > line) put(encoder.encode('\n'.repeat(l - line)));
  };
  gotoLine(root.line);
  const r = root.bytes;
  // an empty root: its tag opened (the '/' before '>' dropped), closed at the end
  put(root.selfClosing ? concat([r.subarray(0, r.lastIndexOf(47)), encoder.encode('>')]) : r);
  const vesselEnd = encoder.encode(`</${vesselQName}>`);
  let inVessel = false;
  for (const f of fragments) {
    if (f.inVessel !== inVessel) {
      put(inVessel ? vesselEnd : (vesselTag ?? encoder.encode(`<${vesselQName}>`)));
      inVessel = f.inVessel;
    }
    gotoLine(f.line);
    put(f.bytes);
  }
  if (inVessel) put(vesselEnd);
  put(encoder.encode(`</${root.qname}>`));
  return concat(out);
}

/** A start tag with its line breaks (CR, LF) made spaces: the same element and attribute values (XML normalises them to spaces), on one line. */
function oneLine(tag: Uint8Array): Uint8Array {
  const b = tag.slice();
  for (let i = 0; i < b.length; i++) if (b[i] === 10 || b[i] === 13) b[i] = 32;
  return b;
}

/** Line breaks of XML in b: LF, CR LF and a lone CR. */
function lineBreaks(bytes: Uint8Array): number {
  const b = byteView(bytes);
  let n = 0;
  for (let i = b.indexOf(10); i >= 0; i = b.indexOf(10, i + 1)) n++;
  for (let i = b.indexOf(13); i >= 0; i = b.indexOf(13, i + 1)) if (b[i + 1] !== 10) n++;
  return n;
}

function concat(parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = newBytes(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}
