/**
 * Byte-level XML scanning helpers shared by the splitter of the threaded import and the catalogue
 * pre-pass (engine/ocx/partSplit.ts, engine/ocx/prepass.ts, OCX_GUIDE §1.3). They work
 * on UTF-8 bytes without decoding: every construct they look for (tags, comments, CDATA, processing
 * instructions, declarations) is delimited by ASCII bytes, which never occur inside a multi-byte
 * character. Searches use native Uint8Array / Node Buffer indexOf; byteView() gives a buffer Node's
 * memchr-based Buffer#indexOf (several times faster than the TypedArray one for single bytes).
 */

export const LT = 60,
  GT = 62,
  SLASH = 47,
  BANG = 33,
  QUEST = 63,
  DASH = 45,
  LBRACK = 91,
  RBRACK = 93,
  LF = 10,
  CR = 13,
  DQ = 34,
  SQ = 39;

/** elementEnd results besides an index. */
export const INCOMPLETE = -1,
  NEEDS_SCAN = -2;

const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;
const ascii = new TextEncoder();

/**
 * The same bytes as a Node Buffer view (no copy) when running in Node, so that indexOf uses Node's
 * native byte search; elsewhere `b` itself.
 */
export function byteView(b: Uint8Array): Uint8Array {
  if (!NodeBuffer || NodeBuffer.isBuffer(b)) return b;
  return NodeBuffer.from(b.buffer, b.byteOffset, b.byteLength);
}

/** A new buffer of `n` bytes in its own memory (a Node Buffer, see byteView, when running in Node). */
export function newBytes(n: number): Uint8Array {
  return NodeBuffer ? NodeBuffer.allocUnsafeSlow(n) : new Uint8Array(n);
}

/** The qualified name starting at `i` (ASCII name characters; stops at white space, '/', '>'). */
export function nameAt(b: Uint8Array, i: number): string {
  let j = i;
  while (j < b.length) {
    const c = b[j];
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === SLASH || c === GT) break;
    j++;
  }
  let s = '';
  for (let k = i; k < j; k++) s += String.fromCharCode(b[k]);
  return s;
}

/** The local part of a qualified name. */
export function localOf(qname: string): string {
  const colon = qname.indexOf(':');
  return colon < 0 ? qname : qname.slice(colon + 1);
}

/** First index in [from, to) of `needle` in b, or -1 (Node's native Buffer search when there is one). */
export function indexOfBytes(b: Uint8Array, needle: Uint8Array, from: number, to = b.length): number {
  if (from + needle.length > to) return -1;
  if (NodeBuffer) {
    const i = NodeBuffer.from(b.buffer, b.byteOffset + from, to - from).indexOf(needle);
    return i < 0 ? -1 : i + from;
  }
  const first = needle[0];
  for (let i = b.indexOf(first, from); i >= 0 && i + needle.length <= to; i = b.indexOf(first, i + 1)) {
    let k = 1;
    while (k < needle.length && b[i + k] === needle[k]) k++;
    if (k === needle.length) return i;
  }
  return -1;
}

/** Does byte `c` end an element name (white space, '>' or '/')? */
export function isNameEnd(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === GT || c === SLASH;
}

/** Where the next '<!' and '<?' are in a buffer (searched once per buffer, then only past them). */
export class MarkupIndex {
  private bang = -2;
  private quest = -2;
  constructor(private readonly b: Uint8Array) {}
  /** True when a comment, CDATA section, DOCTYPE or processing instruction starts in [from, to). */
  any(from: number, to: number): boolean {
    if (this.bang !== -1 && this.bang < from) this.bang = this.next(BANG, from);
    if (this.quest !== -1 && this.quest < from) this.quest = this.next(QUEST, from);
    return (this.bang >= 0 && this.bang < to) || (this.quest >= 0 && this.quest < to);
  }
  /** Index of the next '<' followed by `c` at or after `from`, or -1 (searching for the rare second byte). */
  private next(c: number, from: number): number {
    const b = this.b;
    for (let i = b.indexOf(c, from + 1); i >= 0; i = b.indexOf(c, i + 1)) if (b[i - 1] === LT) return i - 1;
    return -1;
  }
}

/**
 * Index just past the end tag of the element named `qname`, searched from `resume`, found by
 * a byte search: valid only when the content holds no comment, CDATA section or processing instruction
 * and no element of the same name ('<' cannot occur inside attribute values or text). One native search
 * for the local name finds both the end tag and same-named start tags (hits are checked for the '<' or
 * '</' and the prefix before them): the local name starts with a rarer byte than '<', so this is several
 * times faster than searching for `</qname` and `<qname`. `resume` is the element's content start, or
 * later when the bytes of the content before it were searched in an earlier buffer.
 * @returns the index, INCOMPLETE when the end tag is not in b (the rest is clean), NEEDS_SCAN when the
 * search cannot be trusted.
 */
export function elementEnd(b: Uint8Array, resume: number, qname: string, markup: MarkupIndex): number {
  const pre = qname.indexOf(':') + 1; // bytes of 'prefix:' before the local name
  const local = ascii.encode(qname.slice(pre));
  const n = local.length;
  let at = -1;
  let incomplete = false;
  let i = indexOfBytes(b, local, resume + pre + 1);
  for (; i >= 0; i = indexOfBytes(b, local, i + 1)) {
    const p = i - pre; // the prefix's start: after '<' (a start tag) or '</' (an end tag)
    let k = 0;
    while (k < pre && b[p + k] === qname.charCodeAt(k)) k++;
    if (k < pre) continue;
    const close = b[p - 1] === SLASH && b[p - 2] === LT;
    if (!close && b[p - 1] !== LT) continue;
    if (p - (close ? 2 : 1) < resume) continue;
    if (i + n >= b.length) {
      if (!close) return NEEDS_SCAN;
      incomplete = true;
      break;
    }
    if (!isNameEnd(b[i + n])) continue;
    if (!close) return NEEDS_SCAN; // a same-named element inside
    at = p - 2;
    break;
  }
  let gt = -1;
  if (at >= 0) {
    gt = b.indexOf(GT, i + n);
    if (gt < 0) incomplete = true;
  }
  const to = at >= 0 && !incomplete ? at : b.length;
  if (markup.any(resume, to)) return NEEDS_SCAN;
  if (at < 0 || incomplete) return INCOMPLETE;
  return gt + 1;
}

/** Index of the '>' ending a start tag whose name starts at `from` (quoted '>' skipped), or -1. */
export function endOfStartTag(b: Uint8Array, from: number): number {
  let gt = b.indexOf(GT, from);
  let i = from;
  while (gt >= 0) {
    // a quote before the '>' opens a value that may hold '>': jump over each value
    let q = -1;
    for (let k = i; k < gt; k++) {
      const c = b[k];
      if (c === DQ || c === SQ) {
        q = k;
        break;
      }
    }
    if (q < 0) return gt;
    const close = b.indexOf(b[q], q + 1);
    if (close < 0) return -1;
    i = close + 1;
    if (close > gt) gt = b.indexOf(GT, i);
  }
  return -1;
}

/** Index just past the first `a b` pair from `from`, or -1. */
export function find2(b: Uint8Array, from: number, a: number, c: number): number {
  for (let i = b.indexOf(a, from); i >= 0 && i + 1 < b.length; i = b.indexOf(a, i + 1))
    if (b[i + 1] === c) return i + 2;
  return -1;
}

/** Index just past the first `a b c` triple from `from`, or -1. */
export function find3(b: Uint8Array, from: number, a: number, a2: number, c: number): number {
  for (let i = b.indexOf(a, from); i >= 0 && i + 2 < b.length; i = b.indexOf(a, i + 1))
    if (b[i + 1] === a2 && b[i + 2] === c) return i + 3;
  return -1;
}

/** Where endOfDecl stopped in a declaration not complete yet: bytes scanned from `from`, bracket depth, open quote. */
export interface DeclScan {
  at: number;
  bracket: number;
  q: number;
}

/**
 * Index just past a markup declaration such as <!DOCTYPE …[ … ]> (brackets and quotes respected), or -1.
 * With `state`, the scan goes on from where the last call on the same declaration stopped (the bytes from
 * `from` being the same, with more after them) and, on -1, records where it stopped: a DOCTYPE arriving in
 * many chunks is scanned once, not again from its start at each chunk.
 */
export function endOfDecl(b: Uint8Array, from: number, state?: DeclScan): number {
  let bracket = state?.bracket ?? 0;
  let q = state?.q ?? 0;
  for (let i = from + (state?.at ?? 0); i < b.length; i++) {
    const c = b[i];
    if (q) {
      if (c === q) q = 0;
    } else if (c === DQ || c === SQ) q = c;
    else if (c === LBRACK) bracket++;
    else if (c === RBRACK) bracket--;
    else if (c === GT && bracket <= 0) return i + 1;
  }
  if (state) {
    state.at = b.length - from;
    state.bracket = bracket;
    state.q = q;
  }
  return -1;
}

/** A copy of b[from, to) in its own ArrayBuffer (Node's Buffer#slice would share the chunk's memory; a plain Uint8Array, transferable). */
export function copyOf(b: Uint8Array, from: number, to: number): Uint8Array {
  const out = new Uint8Array(to - from);
  out.set(b.subarray(from, to));
  return out;
}
