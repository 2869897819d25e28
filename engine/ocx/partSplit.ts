/**
 * Byte-level splitting of an OCX document for the threaded import (issue 3 item 6, OCX_GUIDE §1.3):
 * the calling thread does not parse the Vessel's parts itself. PartSplitter walks the UTF-8 bytes tag
 * by tag (quotes, comments, CDATA, processing instructions and DOCTYPE respected; no names resolved,
 * no text decoded) and cuts out
 *  - each top-level part: a child of the root's Vessel whose local name is in PART_ELEMENTS — handed
 *    over whole with its line, to be parsed and tessellated elsewhere (engine/ocx/partText.ts);
 *  - each element the catalogue pre-pass already collected (ClassCatalogue and UnitsML under the root,
 *    ReferenceSurfaces, CoordinateSystem and DesignView under the Vessel) — dropped.
 * Everything else (the prolog, root, Header, Vessel and any other content) passes through as text for
 * the calling thread's reader; a cut element is replaced there by its line breaks, so every line the
 * reader reports stays the file's own. The split is purely lexical: well-formedness is checked by the
 * readers of the text and of each part (a truncated document hands its open element back as text, so
 * the reader names the unclosed element as in a one-thread import).
 */
import { PART_ELEMENTS, SHARED_ELEMENTS } from './reader';

/** One piece of the document, in document order. */
export type SplitItem =
  /** Bytes for the calling thread's reader (complete constructs; UTF-8 boundaries respected). */
  | { kind: 'text'; bytes: Uint8Array }
  /** A top-level part element, whole (own copy); `line` and `column` (1-based, characters) are those of its '<'. */
  | { kind: 'part'; bytes: Uint8Array; line: number; column: number }
  /** A cut element's line breaks: the reader gets that many '\n' in its place. */
  | { kind: 'lines'; count: number };

/** The start tags enclosing a top-level part (root and Vessel, bytes as in the file) for parsing it alone. */
export interface PartContext {
  root: Uint8Array;
  rootQName: string;
  vessel: Uint8Array;
  vesselQName: string;
}

const LT = 60, GT = 62, SLASH = 47, BANG = 33, QUEST = 63, DASH = 45, LBRACK = 91, RBRACK = 93, LF = 10, CR = 13, DQ = 34, SQ = 39;

/** startTag results besides an end index. */
const NORMAL = -1, HOLD = -2;
const UNKNOWN = -2;
/** elementEnd results. */
const INCOMPLETE = -1, NEEDS_SCAN = -2;
/** A cut element up to this size waits in the buffer for its end tag (fast path); a larger one is scanned tag by tag. */
const FAST_LIMIT = 8 << 20;

/** Local names cut and dropped at depth 2 (root children) and 3 (Vessel children): the pre-pass has them. */
const DROP_UNDER_ROOT: Set<string> = new Set(['ClassCatalogue', 'UnitsML'].filter((n) => SHARED_ELEMENTS.has(n)));
const DROP_UNDER_VESSEL = new Set([...SHARED_ELEMENTS].filter((n) => !DROP_UNDER_ROOT.has(n)));

/**
 * Splits a stream of UTF-8 chunks (see the file comment). Feed chunks with push() and finish with end();
 * each returns the items completed so far, in document order.
 */
export class PartSplitter {
  /** Unprocessed bytes: the tail of the last chunk that does not hold a complete construct yet. */
  private buf: Uint8Array = new Uint8Array(0);
  /** Position in buf from which text is not emitted yet (or the open cut's bytes in this buffer start). */
  private from = 0;
  /** Position in buf of the next construct to scan. */
  private pos = 0;
  /** For a cut element held for its end tag: bytes from its '<' already searched (0: none). */
  private resume = 0;
  /** Comment/PI positions of buf, made on first need. */
  private markup: MarkupIndex | null = null;
  /** Element depth at `pos` (0 = outside the root). */
  private depth = 0;
  /** Line (1-based) at buf[0]. */
  private lineAtBuf = 1;
  /** Lines counted from buf[0] up to `counted`. */
  private counted = 0;
  private linesToCounted = 0;
  private lastWasCR = false;
  private rootSeen = false;
  private vesselDepth = -1;
  /** The cut element being collected: earlier pieces (own copies), its start line, its depth, kept or dropped. */
  private cut: { pieces: Uint8Array[]; line: number; column: number; depth: number; keep: boolean } | null = null;
  /** Column at buf[0]. */
  private colAtBuf = 1;
  /** Index in buf where the current line starts (0 when it started in an earlier buffer). */
  private lineStart = 0;
  /** Next LF at or after `counted`, -1 none in buf, UNKNOWN not searched yet. */
  private nextLF = UNKNOWN;
  /** Last column computed: at buf[colMemo] the column is colMemoValue. */
  private colMemo = 0;
  private colMemoValue = 1;
  private sawCR = false;
  private ctx: Partial<PartContext> = {};
  /** Stops splitting (everything left passes as text), e.g. after a construct the scan does not handle. */
  private passThrough = false;

  /** The enclosing start tags, once the Vessel start tag has been seen (else null). */
  get context(): PartContext | null {
    const c = this.ctx;
    return c.root && c.vessel ? (c as PartContext) : null;
  }

  /** Takes the next chunk; returns the items it completes. */
  push(chunk: Uint8Array): SplitItem[] {
    const out: SplitItem[] = [];
    const pos = this.pos;
    this.advanceBuf(pos);
    if (!this.sawCR && chunk.indexOf(CR) >= 0) this.sawCR = true;
    if (pos === this.buf.length) this.buf = chunk;
    else {
      const rest = this.buf.subarray(pos);
      const b = new Uint8Array(rest.length + chunk.length);
      b.set(rest);
      b.set(chunk, rest.length);
      this.buf = b;
    }
    this.from = 0;
    this.pos = 0;
    this.markup = null;
    this.scan(out);
    return out;
  }

  /** Ends the stream: what is left (an unclosed cut included) is handed to the reader as text. */
  end(): SplitItem[] {
    const out: SplitItem[] = [];
    if (this.cut) {
      for (const p of this.cut.pieces) out.push({ kind: 'text', bytes: p });
      this.cut = null;
    }
    if (this.from < this.buf.length) out.push({ kind: 'text', bytes: this.buf.subarray(this.from) });
    this.from = this.pos = this.buf.length;
    return out;
  }

  /**
   * Moves buf's origin to `to` (= pos: everything before it is scanned; outside a cut it has been
   * emitted), keeping the line count right; an open cut keeps a copy of its bytes (the chunk may be reused).
   */
  private advanceBuf(to: number): void {
    this.countTo(to);
    this.colAtBuf = this.columnAt(to);
    this.lineAtBuf += this.linesToCounted;
    this.counted = 0;
    this.linesToCounted = 0;
    this.nextLF = UNKNOWN;
    this.lineStart = 0;
    this.colMemo = 0;
    this.colMemoValue = this.colAtBuf;
    if (this.cut && to > this.from) this.cut.pieces.push(copyOf(this.buf, this.from, to));
  }

  /**
   * Counts line breaks over buf[counted, to); `to` never decreases between advanceBuf calls, so each
   * byte is looked at once. Without CR in the file: native searches for LF; with CR (CR LF or lone CR
   * line ends) a byte loop that also keeps the column.
   */
  private countTo(to: number): void {
    if (to <= this.counted) return;
    const b = this.buf;
    if (this.sawCR) return this.countSlow(to);
    let n = this.linesToCounted;
    let nl = this.nextLF;
    if (nl === UNKNOWN || (nl >= 0 && nl < this.counted)) nl = b.indexOf(LF, this.counted);
    while (nl >= 0 && nl < to) {
      n++;
      this.lineStart = nl + 1;
      nl = b.indexOf(LF, nl + 1);
    }
    this.nextLF = nl;
    this.counted = to;
    this.linesToCounted = n;
  }

  private countSlow(to: number): void {
    const b = this.buf;
    let n = this.linesToCounted;
    let col = this.columnAt(this.counted);
    let cr = this.lastWasCR;
    for (let i = this.counted; i < to; i++) {
      const c = b[i];
      if (c === LF) {
        if (!cr) n++;
        cr = false;
        col = 1;
      } else if (c === CR) {
        n++;
        cr = true;
        col = 1;
      } else {
        cr = false;
        if ((c & 0xc0) !== 0x80) col++;
      }
    }
    this.counted = to;
    this.linesToCounted = n;
    this.lastWasCR = cr;
    this.colMemo = to;
    this.colMemoValue = col;
    this.lineStart = Math.max(0, to - 1); // the memo now answers for `to`
  }

  /** Line (1-based) of buf[pos]. */
  private lineAt(pos: number): number {
    this.countTo(pos);
    return this.lineAtBuf + this.linesToCounted;
  }

  /** Column (1-based, in characters: UTF-8 continuation bytes not counted) of buf[pos]; pos never decreases. */
  private columnAt(pos: number): number {
    if (!this.sawCR) this.countTo(pos);
    let from: number;
    let col: number;
    if (this.colMemo >= this.lineStart && this.colMemo <= pos) {
      from = this.colMemo;
      col = this.colMemoValue;
    } else if (this.lineStart > 0) {
      from = this.lineStart;
      col = 1;
    } else {
      from = 0;
      col = this.colAtBuf;
    }
    const b = this.buf;
    for (let i = from; i < pos; i++) if ((b[i] & 0xc0) !== 0x80) col++;
    this.colMemo = pos;
    this.colMemoValue = col;
    return col;
  }

  private scan(out: SplitItem[]): void {
    const b = this.buf;
    const n = b.length;
    if (this.passThrough) {
      this.emitText(out, n);
      this.pos = n;
      return;
    }
    let i = this.pos;
    for (;;) {
      const lt = b.indexOf(LT, i);
      if (lt < 0) {
        // text to the end: nothing can start a cut before the next '<'
        this.emitText(out, n);
        this.pos = n;
        return;
      }
      if (lt + 3 >= n) return this.hold(out, lt);
      const c1 = b[lt + 1];
      let end: number; // index just past the construct, or -1 when it continues in the next chunk
      if (c1 === SLASH) {
        const gt = b.indexOf(GT, lt + 2);
        if (gt < 0) return this.hold(out, lt);
        end = gt + 1;
        this.depth--;
        if (this.depth === this.vesselDepth - 1) this.vesselDepth = -1;
        if (this.cut && this.depth === this.cut.depth) this.finishCut(out, end);
      } else if (c1 === QUEST) {
        end = find2(b, lt + 2, QUEST, GT);
      } else if (c1 === BANG) {
        if (b[lt + 2] === DASH && b[lt + 3] === DASH) end = find3(b, lt + 4, DASH, DASH, GT);
        else if (b[lt + 2] === LBRACK) end = find3(b, lt + 3, RBRACK, RBRACK, GT);
        else end = endOfDecl(b, lt + 2);
      } else {
        const gt = endOfStartTag(b, lt + 1);
        if (gt < 0) return this.hold(out, lt);
        end = gt + 1;
        const selfClosing = b[gt - 1] === SLASH;
        const r = this.cut ? NORMAL : this.startTag(out, lt, gt, selfClosing);
        if (r === HOLD) return this.hold(out, lt);
        if (r >= 0) end = r; // a whole cut element, found by its end tag
        else if (!selfClosing) this.depth++;
      }
      if (end < 0) return this.hold(out, lt);
      i = end;
      if (this.depth < 0) {
        // more end tags than start tags: malformed; the reader of the text says so
        this.passThrough = true;
        if (this.cut) this.end().forEach((it) => out.push(it));
        this.emitText(out, n);
        this.pos = n;
        return;
      }
    }
  }

  /**
   * A start tag outside any cut at [lt, gt]: records the root and the Vessel, starts cuts.
   * @returns NORMAL (go on scanning inside the element), HOLD (wait for the next chunk: a cut element
   * is not complete in the buffer yet) or the index just past a cut element found whole.
   */
  private startTag(out: SplitItem[], lt: number, gt: number, selfClosing: boolean): number {
    const b = this.buf;
    const depth = this.depth; // depth of the new element's parent
    if (depth === 0) {
      if (!this.rootSeen) {
        this.rootSeen = true;
        const qname = nameAt(b, lt + 1);
        this.ctx.rootQName = qname;
        this.ctx.root = selfClosing ? new Uint8Array(0) : copyOf(b, lt, gt + 1);
      }
      return NORMAL;
    }
    if (depth > 2) return NORMAL;
    const qname = nameAt(b, lt + 1);
    const colon = qname.indexOf(':');
    const local = colon < 0 ? qname : qname.slice(colon + 1);
    let keep: boolean;
    if (depth === 1) {
      if (local === 'Vessel' && this.vesselDepth < 0 && !selfClosing) {
        this.vesselDepth = 2;
        if (!this.ctx.vessel) {
          this.ctx.vessel = copyOf(b, lt, gt + 1);
          this.ctx.vesselQName = qname;
        }
        return NORMAL;
      }
      if (!DROP_UNDER_ROOT.has(local)) return NORMAL;
      keep = false;
    } else {
      if (this.vesselDepth !== 2) return NORMAL;
      if (PART_ELEMENTS.has(local)) keep = true;
      else if (DROP_UNDER_VESSEL.has(local)) keep = false;
      else return NORMAL;
    }
    if (selfClosing) {
      this.beginCut(out, lt, depth, keep);
      this.finishCut(out, gt + 1);
      return gt + 1;
    }
    // fast path: the element's end tag found by a byte search, when nothing in between can fool it
    // a held element resumes its search where the last buffer ended (bytes before it are checked)
    const resume = this.resume > 0 ? lt + this.resume : gt + 1;
    this.resume = 0;
    const end = elementEnd(b, gt + 1, Math.max(gt + 1, resume), qname, (this.markup ??= new MarkupIndex(b)));
    if (end === INCOMPLETE && b.length - lt < FAST_LIMIT) {
      this.resume = Math.max(0, b.length - lt - (qname.length + 3));
      return HOLD;
    }
    this.beginCut(out, lt, depth, keep);
    if (end >= 0) {
      this.finishCut(out, end);
      return end;
    }
    return NORMAL; // scanned tag by tag (depth counted) until the element closes
  }

  private beginCut(out: SplitItem[], lt: number, depth: number, keep: boolean): void {
    this.emitText(out, lt);
    this.cut = { pieces: [], line: this.lineAt(lt), column: this.columnAt(lt), depth, keep };
  }

  /** Ends the open cut at `end` (exclusive) and emits it. */
  private finishCut(out: SplitItem[], end: number): void {
    const cut = this.cut!;
    const last = this.buf.subarray(this.from, end);
    const lines = this.lineAt(end) - cut.line;
    if (cut.keep) {
      let bytes: Uint8Array;
      if (cut.pieces.length === 0) bytes = copyOf(last, 0, last.length);
      else {
        let len = last.length;
        for (const p of cut.pieces) len += p.length;
        bytes = new Uint8Array(len);
        let o = 0;
        for (const p of cut.pieces) {
          bytes.set(p, o);
          o += p.length;
        }
        bytes.set(last, o);
      }
      out.push({ kind: 'part', bytes, line: cut.line, column: cut.column });
    }
    if (lines > 0) out.push({ kind: 'lines', count: lines });
    this.cut = null;
    this.from = end;
  }

  /** Emits buf[from, to) as text (outside a cut). */
  private emitText(out: SplitItem[], to: number): void {
    if (this.cut || to <= this.from) return;
    out.push({ kind: 'text', bytes: this.buf.subarray(this.from, to) });
    this.from = to;
  }

  /** The construct at `lt` continues in the next chunk: emit the text before it and keep the rest. */
  private hold(out: SplitItem[], lt: number): void {
    this.emitText(out, lt);
    this.pos = lt;
  }
}

/** The qualified name starting at `i` (ASCII name characters; stops at white space, '/', '>'). */
function nameAt(b: Uint8Array, i: number): string {
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

const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;
const ascii = new TextEncoder();

/** First index in [from, to) of `needle` in b, or -1 (Node's native Buffer search when there is one). */
function indexOfBytes(b: Uint8Array, needle: Uint8Array, from: number, to = b.length): number {
  if (NodeBuffer) {
    const i = NodeBuffer.from(b.buffer, b.byteOffset + from, Math.max(0, to - from)).indexOf(needle);
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

function isNameEnd(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === GT || c === SLASH;
}

/** Where the next '<!' and '<?' are in a buffer (searched once per buffer, then only past them). */
class MarkupIndex {
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
 * Index just past the end tag of the element named `qname` whose content starts at `from`, found by
 * searching for `</qname`: valid only when the content holds no comment, CDATA section or processing
 * instruction and no element of the same name ('<' cannot occur inside attribute values or text).
 * b[from, resume) is known to hold none of these (searched in an earlier buffer).
 * @returns the index, INCOMPLETE when the end tag is not in b (the rest is clean), NEEDS_SCAN when the
 * search cannot be trusted.
 */
function elementEnd(b: Uint8Array, from: number, resume: number, qname: string, markup: MarkupIndex): number {
  const close = ascii.encode(`</${qname}`);
  const open = ascii.encode(`<${qname}`);
  let at = -1;
  let incomplete = false;
  for (let i = indexOfBytes(b, close, resume); i >= 0; i = indexOfBytes(b, close, i + 1)) {
    if (i + close.length >= b.length) {
      incomplete = true;
      break;
    }
    if (isNameEnd(b[i + close.length])) {
      at = i;
      break;
    }
  }
  let gt = -1;
  if (at >= 0) {
    gt = b.indexOf(GT, at + close.length);
    if (gt < 0) incomplete = true;
  }
  const to = at >= 0 && !incomplete ? at : b.length;
  if (markup.any(resume, to)) return NEEDS_SCAN;
  for (let i = indexOfBytes(b, open, resume, to); i >= 0; i = indexOfBytes(b, open, i + 1, to)) if (i + open.length >= b.length || isNameEnd(b[i + open.length])) return NEEDS_SCAN;
  if (at < 0 || incomplete) return INCOMPLETE;
  return gt + 1;
}

/** Index of the '>' ending a start tag whose name starts at `from` (quoted '>' skipped), or -1. */
function endOfStartTag(b: Uint8Array, from: number): number {
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
function find2(b: Uint8Array, from: number, a: number, c: number): number {
  for (let i = b.indexOf(a, from); i >= 0 && i + 1 < b.length; i = b.indexOf(a, i + 1)) if (b[i + 1] === c) return i + 2;
  return -1;
}

/** Index just past the first `a b c` triple from `from`, or -1. */
function find3(b: Uint8Array, from: number, a: number, a2: number, c: number): number {
  for (let i = b.indexOf(a, from); i >= 0 && i + 2 < b.length; i = b.indexOf(a, i + 1)) if (b[i + 1] === a2 && b[i + 2] === c) return i + 3;
  return -1;
}

/** Index just past a markup declaration such as <!DOCTYPE …[ … ]> (brackets and quotes respected), or -1. */
function endOfDecl(b: Uint8Array, from: number): number {
  let bracket = 0;
  let q = 0;
  for (let i = from; i < b.length; i++) {
    const c = b[i];
    if (q) {
      if (c === q) q = 0;
    } else if (c === DQ || c === SQ) q = c;
    else if (c === LBRACK) bracket++;
    else if (c === RBRACK) bracket--;
    else if (c === GT && bracket <= 0) return i + 1;
  }
  return -1;
}

/** A copy of b[from, to) in its own ArrayBuffer (Node's Buffer#slice would share the chunk's memory). */
function copyOf(b: Uint8Array, from: number, to: number): Uint8Array {
  const out = new Uint8Array(to - from);
  out.set(b.subarray(from, to));
  return out;
}
