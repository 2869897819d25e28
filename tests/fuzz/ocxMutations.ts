/**
 * Structure-aware mutations of OCX documents for the importer fuzz (tests/fuzz, bench/fuzz): cuts, elements
 * duplicated, swapped and removed, absurd numbers (NaN, 1e308, -0, huge counts), deep nesting, huge
 * attributes and texts, broken UTF-8, entity tricks, broken markup and references. A case is a pure
 * function of its seed and base document, so any finding is reproduced from the seed alone.
 *
 * The document is handled as a latin1 string (one char per byte) so cuts may split a UTF-8 sequence and
 * byte-level damage stays byte-exact.
 */
import { type Rng, rngOf } from './prng';

/** One element of the document: byte offsets of its start tag's '<', the start tag's end and its end. */
interface Span {
  name: string;
  start: number;
  openEnd: number;
  end: number;
}

const TAG = /<(\/?)([A-Za-z_][\w.:-]*)(?:\s[^<>]*?)?(\/?)>/g;

/** The elements of `doc` (approximate: a tag scanner, enough to pick whole elements). */
function spansOf(doc: string): Span[] {
  const spans: Span[] = [];
  const stack: { name: string; start: number; openEnd: number }[] = [];
  for (const m of doc.matchAll(TAG)) {
    const at = m.index ?? 0;
    const end = at + m[0].length;
    if (m[3]) spans.push({ name: m[2], start: at, openEnd: end, end });
    else if (!m[1]) stack.push({ name: m[2], start: at, openEnd: end });
    else {
      // the innermost open element of that name, searched from the top (mapping the whole stack per end tag
      // was quadratic in the nesting: a case nested 100,000 deep took minutes to build)
      let i = stack.length - 1;
      while (i >= 0 && stack[i].name !== m[2]) i--;
      if (i < 0) continue;
      const open = stack[i];
      stack.length = i;
      spans.push({ ...open, end });
    }
  }
  return spans;
}

/** Numbers standing alone in attribute values and texts (not inside names or ids). */
const NUMBER = /(?<=[\s">(,])-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?(?=[\s"<),])/g;

/** Values no model should hold: not numbers, out of range, denormal, signed zero, counts past any array. */
export const ABSURD_NUMBERS = [
  'NaN',
  'Infinity',
  '-Infinity',
  '1e308',
  '-1e308',
  '1e309',
  '-0',
  '0',
  '5e-324',
  '1e-320',
  '2147483647',
  '4294967296',
  '9007199254740993',
  '-2147483648',
  '-1',
  '99999999999999999999',
  '1e9',
  '0x10',
  '1,5',
  '',
  ' ',
  '1 2',
  '+',
  '.',
  'e5',
];

/** Byte sequences that are not UTF-8: a stray continuation, cut sequences, overlong forms, surrogates, NUL. */
const BAD_UTF8 = [
  [0xff],
  [0xfe, 0xff],
  [0x80],
  [0xc3],
  [0xe2, 0x82],
  [0xc0, 0xaf],
  [0xe0, 0x80, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0x00],
  [0x1b],
  [0xef, 0xbf, 0xbe],
];

/** Entity and DOCTYPE tricks: expansion bombs, external and parameter entities, bad character references. */
const ENTITY_REFS = [
  '&#0;',
  '&#xD800;',
  '&#x110000;',
  '&#99999999999999999;',
  '&#x;',
  '&#;',
  '&undefined;',
  '&amp',
  '&',
  '&lol;',
  '&xxe;',
  '&#x1F600;',
  '&amp;#x41;',
  '&lt;ocx:Panel&gt;',
];
const DOCTYPES = [
  '<!DOCTYPE ocx [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>',
  '<!DOCTYPE ocx [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>',
  '<!DOCTYPE ocx SYSTEM "http://127.0.0.1:1/ocx.dtd">',
  '<!DOCTYPE ocx [<!ENTITY % p SYSTEM "http://127.0.0.1:1/p.dtd"> %p;]>',
  '<!DOCTYPE ocx [<!ELEMENT ocx ANY><!ATTLIST ocx a CDATA "x">]>',
  '<!DOCTYPE ocx [',
  '<!DOCTYPE>',
];
/** Fragments that break markup where they land. */
const MARKUP = [
  '<',
  '>',
  '</',
  '/>',
  '<!--',
  '-->',
  ']]>',
  '<![CDATA[',
  '<?pi x?>',
  '<?xml version="1.0"?>',
  '"',
  "'",
  '=',
  '<:a>',
  '<1a>',
  '</ocx:Nothing>',
  '<a b="1" b="2"/>',
  '\r',
  '\t',
  '\u000c',
];

/** What a mutated case is made of. */
export interface MutationLimits {
  /** Most bytes one mutation may add (huge attributes, duplicates, nesting). */
  maxGrowBytes: number;
}

type Mutation = (doc: string, rng: Rng, limits: MutationLimits) => string;

const splice = (doc: string, at: number, cut: number, insert: string) =>
  doc.slice(0, at) + insert + doc.slice(at + cut);
/** A random element, or undefined for a document without any. */
function someSpan(doc: string, rng: Rng): Span | undefined {
  const spans = spansOf(doc);
  return spans.length ? rng.pick(spans) : undefined;
}
const latin1OfUtf8 = (s: string) => Buffer.from(s, 'utf8').toString('latin1');
/** `unit` repeated to about `bytes` bytes. */
const repeatTo = (unit: string, bytes: number) => unit.repeat(Math.max(1, Math.floor(bytes / unit.length)));
/** A size up to the limit, spread over orders of magnitude. */
const sizeOf = (rng: Rng, limits: MutationLimits) =>
  Math.min(limits.maxGrowBytes, rng.pick([1024, 65536, 1 << 20, 4 << 20, 16 << 20]));

/** The mutations by name (each a pure function of the document and the generator). */
export const MUTATIONS: Record<string, Mutation> = {
  cut: (doc, rng) => doc.slice(0, rng.int(doc.length + 1)),
  duplicate(doc, rng, limits) {
    const s = someSpan(doc, rng);
    if (!s) return doc;
    const text = doc.slice(s.start, s.end);
    const copies = Math.max(
      1,
      Math.min(rng.pick([1, 2, 10, 1000, 100000]), Math.floor(limits.maxGrowBytes / text.length)),
    );
    return splice(doc, s.end, 0, text.repeat(copies));
  },
  swap(doc, rng) {
    const spans = spansOf(doc);
    if (spans.length < 2) return doc;
    const a = rng.pick(spans);
    const free = spans.filter((b) => b.end <= a.start || b.start >= a.end);
    if (!free.length) return doc;
    const b = rng.pick(free);
    const [x, y] = a.start < b.start ? [a, b] : [b, a];
    return (
      doc.slice(0, x.start) +
      doc.slice(y.start, y.end) +
      doc.slice(x.end, y.start) +
      doc.slice(x.start, x.end) +
      doc.slice(y.end)
    );
  },
  remove(doc, rng) {
    const s = someSpan(doc, rng);
    return s ? splice(doc, s.start, s.end - s.start, '') : doc;
  },
  /** Every number of one element's start tag or text becomes one absurd value. */
  absurdNumber(doc, rng) {
    const s = someSpan(doc, rng);
    if (!s) return doc;
    const value = rng.pick(ABSURD_NUMBERS);
    const first = doc.indexOf('<', s.openEnd);
    const to = first < 0 ? s.end : Math.min(s.end, first);
    const part = doc.slice(s.start, to).replace(NUMBER, () => value);
    return doc.slice(0, s.start) + part + doc.slice(to);
  },
  /** Up to 50 numbers anywhere become absurd values. */
  absurdNumbers(doc, rng) {
    const count = rng.range(1, 50);
    const all = [...doc.matchAll(NUMBER)];
    if (!all.length) return doc;
    const chosen = new Set(Array.from({ length: count }, () => rng.int(all.length)));
    let out = doc;
    for (const i of [...chosen].sort((a, b) => b - a)) {
      const m = all[i];
      out = splice(out, m.index ?? 0, m[0].length, rng.pick(ABSURD_NUMBERS));
    }
    return out;
  },
  /** An attribute that lists numbers (coordinates, knots, weights) gets a huge count of them. */
  hugeCount(doc, rng, limits) {
    const lists = [...doc.matchAll(/="(-?[\d.eE+-]+(?:\s+-?[\d.eE+-]+)+)"/g)];
    if (!lists.length) return doc;
    const m = rng.pick(lists);
    const unit = `${m[1].split(/\s+/).slice(0, 3).join(' ')} `;
    const grown = repeatTo(unit, sizeOf(rng, limits)).trimEnd();
    return splice(doc, (m.index ?? 0) + 2, m[1].length, grown);
  },
  /**
   * Elements nested up to 200,000 deep (balanced or never closed) inside a random element. Deeper is only
   * slower, not different: nested part elements cost about 0.25 ms each (each is a part with a warning).
   */
  deepNesting(doc, rng, limits) {
    const s = someSpan(doc, rng);
    if (!s) return doc;
    const name = rng.chance(0.5) ? s.name : rng.pick(['ocx:Panel', 'ocx:Plate', 'x', 'ocx:NURBSSurface']);
    const depth = Math.min(
      rng.pick([100, 1000, 10000, 100000, 200000]),
      Math.floor(limits.maxGrowBytes / (2 * name.length + 5)),
    );
    const closed = rng.chance(0.6);
    return splice(doc, s.openEnd, 0, `<${name}>`.repeat(depth) + (closed ? `</${name}>`.repeat(depth) : ''));
  },
  /** A huge attribute value: a new attribute, or an existing one (id, coordinates, unit) grown. */
  hugeAttribute(doc, rng, limits) {
    const s = someSpan(doc, rng);
    if (!s) return doc;
    const value = repeatTo(rng.pick(['a', '1 ', 'é', '&amp;', '\u00ff']), sizeOf(rng, limits));
    const tag = doc.slice(s.start, s.openEnd);
    const attrs = [...tag.matchAll(/(\s[\w:.-]+=")([^"]*)"/g)];
    if (attrs.length && rng.chance(0.5)) {
      const a = rng.pick(attrs);
      const at = s.start + (a.index ?? 0) + a[1].length;
      return splice(doc, at, a[2].length, latin1OfUtf8(value));
    }
    return splice(doc, s.start + 1 + s.name.length, 0, ` huge="${latin1OfUtf8(value)}"`);
  },
  /** One start tag with tens of thousands of attributes, or one attribute repeated. */
  manyAttributes(doc, rng, limits) {
    const s = someSpan(doc, rng);
    if (!s) return doc;
    const n = Math.min(rng.pick([100, 10000, 100000]), Math.floor(limits.maxGrowBytes / 12));
    const same = rng.chance(0.3);
    const attrs = Array.from({ length: n }, (_, i) => ` ${same ? 'a' : `a${i}`}="${i}"`).join('');
    return splice(doc, s.start + 1 + s.name.length, 0, attrs);
  },
  /** A huge text or comment inside an element. */
  hugeText(doc, rng, limits) {
    const s = someSpan(doc, rng);
    if (!s) return doc;
    const unit = rng.pick(['1.5 ', 'x', '<!-- c -->', '<![CDATA[data]]>', '&#65;', ' ']);
    return splice(doc, s.openEnd, 0, repeatTo(unit, sizeOf(rng, limits)));
  },
  brokenUtf8(doc, rng) {
    let out = doc;
    for (let k = rng.range(1, 4); k > 0; k--)
      out = splice(out, rng.int(out.length + 1), 0, String.fromCharCode(...rng.pick(BAD_UTF8)));
    return out;
  },
  /** A DOCTYPE with entities before the root, or an odd reference in a value or text. */
  entity(doc, rng) {
    if (rng.chance(0.4)) {
      const root = doc.search(/<[A-Za-z_]/);
      return splice(doc, Math.max(0, root), 0, `${rng.pick(DOCTYPES)}\n`);
    }
    const s = someSpan(doc, rng);
    if (!s) return doc;
    const ref = rng.pick(ENTITY_REFS);
    const attrs = [...doc.slice(s.start, s.openEnd).matchAll(/="/g)];
    const at = attrs.length && rng.chance(0.5) ? s.start + (rng.pick(attrs).index ?? 0) + 2 : s.openEnd;
    return splice(doc, at, 0, ref);
  },
  markup(doc, rng) {
    return splice(doc, rng.int(doc.length + 1), 0, rng.pick(MARKUP));
  },
  /** References broken: a ref pointing at another element, itself, nothing; ids made duplicate. */
  references(doc, rng) {
    const ids = [...doc.matchAll(/\s(id|GUIDRef|guidref)="([^"]*)"/g)];
    const refs = [...doc.matchAll(/\s(\w*[Rr]ef)="([^"]*)"/g)];
    const target = rng.pick([...ids, ...refs, ...(ids.length ? [] : [null])]);
    if (!target) return doc;
    const value = rng.pick(['', ' ', 'nowhere', ids.length ? rng.pick(ids)[2] : 'x', target[2], target[2] + target[2]]);
    const at = (target.index ?? 0) + target[1].length + 3;
    return splice(doc, at, target[2].length, value);
  },
  /** The namespace changed or a prefix left undeclared. */
  namespace(doc, rng) {
    if (rng.chance(0.5))
      return doc.replace(/xmlns:ocx="[^"]*"/, rng.pick(['xmlns:ocx=""', 'xmlns:ocx="urn:other"', 'xmlns:oc="x"', '']));
    const s = someSpan(doc, rng);
    if (!s?.name.includes(':')) return doc;
    return splice(doc, s.start + 1, s.name.indexOf(':'), rng.pick(['zz', '', 'xml', 'xmlns']));
  },
  garbage(doc, rng) {
    const bytes = Array.from({ length: rng.range(1, 64) }, () => rng.int(256));
    return splice(doc, rng.int(doc.length + 1), 0, String.fromCharCode(...bytes));
  },
};

/** Mutation names in the order cases draw them. */
export const MUTATION_NAMES = Object.keys(MUTATIONS);

/** One fuzz case. */
export interface OcxCase {
  seed: number;
  /** The base document's name. */
  base: string;
  /** Mutations applied in order. */
  ops: string[];
  bytes: Uint8Array;
}

/**
 * The case of `seed` on one of `bases` (name → bytes): 1 to 3 mutations drawn uniformly, applied in order.
 */
export function ocxCase(
  seed: number,
  bases: readonly { name: string; bytes: Uint8Array }[],
  limits: MutationLimits,
): OcxCase {
  const rng = rngOf(seed);
  const base = rng.pick(bases);
  let doc = Buffer.from(base.bytes).toString('latin1');
  const ops: string[] = [];
  const count = rng.pick([1, 1, 1, 2, 3]);
  for (let i = 0; i < count; i++) {
    const name = rng.pick(MUTATION_NAMES);
    try {
      doc = MUTATIONS[name](doc, rng, limits);
      ops.push(name);
    } catch (e) {
      // a pattern of this file overflowing the regexp stack on a megabyte value: the mutation is left out
      if (!(e instanceof RangeError)) throw e;
      ops.push(`${name} (left out)`);
    }
  }
  return { seed, base: base.name, ops, bytes: Buffer.from(doc, 'latin1') };
}
