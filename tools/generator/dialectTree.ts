/**
 * Streaming rewrite of the generator's OCX text into another writer's dialect (tools/generator/dialects.ts).
 * The canonical text (ocxWriter.ts) is parsed with saxes; every child of the root and of the Vessel is
 * collected as a small element tree, handed to a rewrite function and serialised again, so a 100k-part
 * ship never lives in memory as one tree. Element and attribute names keep their prefixes as written
 * (`ocx:`, `unitsml:`, `xml:`); the serialiser maps the `ocx` prefix to the dialect's.
 */
import { SaxesParser } from 'saxes';

/** An element: qualified name as written (e.g. "ocx:Plate"), attributes in order, children (text as strings). */
export interface El {
  name: string;
  attrs: [string, string][];
  kids: (El | string)[];
  /** A comment instead of an element (name '#comment', text in kids[0]). */
  comment?: boolean;
}

/** The local part of a qualified name. */
export const local = (name: string) => name.slice(name.indexOf(':') + 1);

/** Child elements of e (optionally only those with local name `n`). */
export function elems(e: El, n?: string): El[] {
  const out: El[] = [];
  for (const k of e.kids)
    if (typeof k !== 'string' && !k.comment && (n === undefined || local(k.name) === n)) out.push(k);
  return out;
}

/** First child element with local name n. */
export const first = (e: El | undefined, n: string): El | undefined => (e ? elems(e, n)[0] : undefined);

/** Every descendant element (depth first, pre-order) with local name n. */
export function descendants(e: El, n: string, out: El[] = []): El[] {
  for (const k of elems(e)) {
    if (local(k.name) === n) out.push(k);
    descendants(k, n, out);
  }
  return out;
}

/** Attribute value by qualified or local name. */
export function attr(e: El, name: string): string | undefined {
  for (const [k, v] of e.attrs) if (k === name || local(k) === name) return v;
  return undefined;
}

/** Sets (or adds) an attribute by qualified name. */
export function setAttr(e: El, name: string, value: string): void {
  const a = e.attrs.find(([k]) => k === name);
  if (a) a[1] = value;
  else e.attrs.push([name, value]);
}

/** A new element in the ocx: namespace. */
export const ocx = (n: string, attrs: [string, string][] = [], kids: (El | string)[] = []): El => ({
  name: `ocx:${n}`,
  attrs,
  kids,
});

const escAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
const escText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** How names are written: the ocx prefix of elements and of attributes ('' = default namespace). */
export interface NameStyle {
  element: string;
  attribute: string;
}

const rename = (name: string, prefix: string) =>
  name.startsWith('ocx:') ? (prefix ? `${prefix}:${name.slice(4)}` : name.slice(4)) : name;

/** Start tag text of e (without the closing '>'). */
function openTag(e: El, s: NameStyle): string {
  let t = `<${rename(e.name, s.element)}`;
  for (const [k, v] of e.attrs) {
    const value = k.endsWith('refType') && v.startsWith('ocx:') ? rename(v, s.element) : v;
    t += ` ${rename(k, s.attribute)}="${escAttr(value)}"`;
  }
  return t;
}

/** Serialises e with its subtree. */
export function serialize(e: El, s: NameStyle): string {
  if (e.comment) return `<!--${e.kids[0] as string}-->`;
  if (!e.kids.length) return `${openTag(e, s)}/>`;
  let t = `${openTag(e, s)}>`;
  for (const k of e.kids) t += typeof k === 'string' ? escText(k) : serialize(k, s);
  return `${t}</${rename(e.name, s.element)}>`;
}

/** What a rewrite sees: the root and Vessel start tags, and each finished child of either. */
export interface TreeRewrite {
  /** Rewrites the root (ocxXML) start tag in place (namespaces, schemaVersion); called once. */
  root(e: El): void;
  /** Rewrites a finished child of the root or of the Vessel; returns the elements to write instead. */
  part(e: El, parent: 'root' | 'Vessel'): El[];
  style: NameStyle;
}

/**
 * Parses canonical OCX text pieces and yields the rewritten text: the root and Vessel start tags as
 * soon as they are read, every other child of them once it closes. Whitespace between those top-level
 * pieces is kept.
 * @throws Error when the input is not well-formed XML (saxes's message with line and column).
 */
export async function* rewriteOcx(pieces: AsyncIterable<string>, rw: TreeRewrite): AsyncGenerator<string> {
  const parser = new SaxesParser({ xmlns: false, position: true });
  let out = '';
  const stack: El[] = [];
  let depth = 0; // open elements: 1 = root, 2 = Vessel (when open), collected trees below
  let vesselOpen = false;
  const topLevel = () => depth === 1 || (depth === 2 && vesselOpen);
  parser.on('xmldecl', (d) => (out += `<?xml version="${d.version ?? '1.0'}" encoding="${d.encoding ?? 'UTF-8'}"?>`));
  parser.on('opentag', (tag) => {
    const e: El = { name: tag.name, attrs: Object.entries(tag.attributes as Record<string, string>), kids: [] };
    if (depth === 0) {
      rw.root(e);
      out += `${openTag(e, rw.style)}>`;
    } else if (depth === 1 && local(tag.name) === 'Vessel') {
      vesselOpen = true;
      for (const r of rw.part(e, 'root')) out += `${openTag(r, rw.style)}>`;
    } else if (stack.length) stack[stack.length - 1].kids.push(e);
    if (depth > 0 && !(depth === 1 && local(tag.name) === 'Vessel')) stack.push(e);
    depth++;
  });
  parser.on('closetag', (tag) => {
    depth--;
    if (depth === 0) out += `</${rename(tag.name, rw.style.element)}>`;
    else if (depth === 1 && vesselOpen && local(tag.name) === 'Vessel') {
      vesselOpen = false;
      out += `</${rename(tag.name, rw.style.element)}>`;
    } else {
      const e = stack.pop()!;
      if (!stack.length) for (const r of rw.part(e, depth === 1 ? 'root' : 'Vessel')) out += serialize(r, rw.style);
    }
  });
  parser.on('text', (t) => {
    if (stack.length) stack[stack.length - 1].kids.push(t);
    else if (topLevel() || depth === 0) out += t;
  });
  parser.on('comment', (c) => {
    const e: El = { name: '#comment', attrs: [], kids: [c], comment: true };
    if (stack.length) stack[stack.length - 1].kids.push(e);
    else out += `<!--${c}-->`;
  });
  parser.on('error', (err) => {
    throw err;
  });
  for await (const piece of pieces) {
    parser.write(piece);
    if (out.length > 1 << 16) {
      yield out;
      out = '';
    }
  }
  parser.close();
  yield out;
}
