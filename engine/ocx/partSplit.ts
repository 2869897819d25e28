/**
 * Byte-level splitting of an OCX document for the threaded import (OCX_GUIDE §1.3):
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
 * What is cut is a parameter (CutRules): PART_RULES above; the catalogue pre-pass scans with its own
 * (engine/ocx/prepass.ts PREPASS_RULES: parts dropped, shared elements kept). The byte searches are in
 * engine/ocx/byteScan.ts.
 */
import {
  BANG,
  byteView,
  copyOf,
  CR,
  DASH,
  type DeclScan,
  elementEnd,
  endOfDecl,
  endOfStartTag,
  find2,
  find3,
  GT,
  INCOMPLETE,
  LBRACK,
  LF,
  localOf,
  LT,
  MarkupIndex,
  nameAt,
  newBytes,
  QUEST,
  RBRACK,
  SLASH,
} from './byteScan';
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

/** The root element's start tag as in the file: qualified name, bytes (own copy), line (1-based) of its '<'. */
export interface RootTag {
  qname: string;
  bytes: Uint8Array;
  line: number;
  selfClosing: boolean;
}

/** startTag results besides an end index. */
const NORMAL = -1,
  HOLD = -2;
const UNKNOWN = -2;
/** A cut element up to this size waits in the buffer for its end tag (fast path); a larger one is scanned tag by tag. */
const FAST_LIMIT = 8 << 20;
/** An unfinished construct this long (bytes) makes push() hold chunks without '>' instead of scanning again. */
const HOLD_FROM_BYTES = 64 * 1024;

/** What a splitter does with an element: cut it out and hand it over ('keep'), cut it out and drop it ('drop'), or scan on into it (null). */
export type CutAction = 'keep' | 'drop' | null;

/** Which elements a PartSplitter cuts out (the root's first non-empty Vessel child is always recognised, never cut). */
export interface CutRules {
  /** Elements are looked at down to this parent depth (1: children of the root, 2: grandchildren …); deeper ones are scanned over. */
  maxDepth: number;
  /** The action for an element of local name `local` whose parent is at `depth` (1 = the root); `inVessel`: the parent is the Vessel. */
  action(local: string, depth: number, inVessel: boolean): CutAction;
}

/** Local names cut and dropped at depth 2 (root children) and 3 (Vessel children): the pre-pass has them. */
const DROP_UNDER_ROOT: Set<string> = new Set(['ClassCatalogue', 'UnitsML'].filter((n) => SHARED_ELEMENTS.has(n)));
const DROP_UNDER_VESSEL = new Set([...SHARED_ELEMENTS].filter((n) => !DROP_UNDER_ROOT.has(n)));

/** The threaded import's rules (the file comment): the Vessel's parts kept, the pre-pass's elements dropped. */
export const PART_RULES: CutRules = {
  maxDepth: 2,
  action(local, depth, inVessel) {
    if (depth === 1) return DROP_UNDER_ROOT.has(local) ? 'drop' : null;
    if (!inVessel) return null;
    return PART_ELEMENTS.has(local) ? 'keep' : DROP_UNDER_VESSEL.has(local) ? 'drop' : null;
  },
};

/**
 * Splits a stream of UTF-8 chunks (see the file comment; `rules` choose what is cut, PART_RULES by
 * default). Feed chunks with push() and finish with end(); each returns the items completed so far, in
 * document order; a kept element comes as a 'part' item.
 */
export class PartSplitter {
  constructor(private readonly rules: CutRules = PART_RULES) {}

  /** Unprocessed bytes: the tail of the last chunk that does not hold a complete construct yet. */
  private buf: Uint8Array = new Uint8Array(0);
  /** Position in buf from which text is not emitted yet (or the open cut's bytes in this buffer start). */
  private from = 0;
  /** Position in buf of the next construct to scan. */
  private pos = 0;
  /** How far the declaration held at `pos` (a DOCTYPE waiting for its '>') has been scanned; null when none is. */
  private declScan: DeclScan | null = null;
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
  private rootTag: RootTag | null = null;

  /** The root element's start tag once seen (else null). */
  get root(): RootTag | null {
    return this.rootTag;
  }

  /** The enclosing start tags, once the Vessel start tag has been seen (else null). */
  get context(): PartContext | null {
    const c = this.ctx;
    return c.root && c.vessel ? (c as PartContext) : null;
  }

  /**
   * Chunks held while a long unfinished construct waits for its '>' (every construct ends with one):
   * appending each to the buffer and scanning again would be quadratic in the construct's length.
   */
  private held: Uint8Array[] = [];
  private heldBytes = 0;
  /** The memory buf lies in when it is the splitter's own (see append), and the end of what is used of it. */
  private store: Uint8Array = new Uint8Array(0);
  private storeEnd = 0;
  /** Bytes copied into the splitter's own buffers by append (tests check it stays linear in the input). */
  copiedBytes = 0;

  /** Takes the next chunk; returns the items it completes. */
  push(chunk: Uint8Array): SplitItem[] {
    if (this.buf.length - this.pos + this.heldBytes >= HOLD_FROM_BYTES && chunk.indexOf(GT) < 0) {
      this.held.push(copyOf(chunk, 0, chunk.length));
      this.heldBytes += chunk.length;
      return [];
    }
    return this.pushNow(this.takeHeld(chunk));
  }

  /** `chunk` after the held chunks, as one (itself when none is held). */
  private takeHeld(chunk: Uint8Array): Uint8Array {
    if (!this.held.length) return chunk;
    const b = newBytes(this.heldBytes + chunk.length);
    let o = 0;
    for (const h of this.held) {
      b.set(h, o);
      o += h.length;
    }
    b.set(chunk, o);
    this.held = [];
    this.heldBytes = 0;
    return b;
  }

  private pushNow(chunk: Uint8Array): SplitItem[] {
    const out: SplitItem[] = [];
    const pos = this.pos;
    this.advanceBuf(pos);
    if (!this.sawCR && chunk.indexOf(CR) >= 0) this.sawCR = true;
    if (pos === this.buf.length) this.buf = byteView(chunk);
    else this.buf = this.append(this.buf.subarray(pos), chunk);
    this.from = 0;
    this.pos = 0;
    this.markup = null;
    this.scan(out);
    return out;
  }

  /**
   * `rest` (the unscanned tail of buf) followed by `chunk`. A construct waiting for its end (a cut element
   * up to FAST_LIMIT) grows by every chunk: the bytes go into spare room after it in a store of doubling
   * size, so each byte is copied a bounded number of times (a copy of the whole tail per chunk was
   * quadratic: 8 MB in 256 B chunks copied 125 GB). Bytes already handed out as text lie before `rest`
   * and are never written.
   */
  private append(rest: Uint8Array, chunk: Uint8Array): Uint8Array {
    const store = this.store;
    const end = rest.byteOffset - store.byteOffset + rest.length;
    if (rest.buffer === store.buffer && end === this.storeEnd && end + chunk.length <= store.length) {
      store.set(chunk, end);
      this.storeEnd = end + chunk.length;
      this.copiedBytes += chunk.length;
      return store.subarray(end - rest.length, this.storeEnd);
    }
    const size = rest.length + chunk.length;
    // room to double only once a tail outgrows a chunk or two (most tails are a few bytes of a tag)
    const b = newBytes(size > 2 * chunk.length ? 2 * size : size);
    b.set(rest);
    b.set(chunk, rest.length);
    this.copiedBytes += size;
    this.store = b;
    this.storeEnd = size;
    return b.subarray(0, size);
  }

  /** Ends the stream: what is left (an unclosed cut included) is handed to the reader as text. */
  end(): SplitItem[] {
    const out: SplitItem[] = this.held.length ? this.pushNow(this.takeHeld(new Uint8Array(0))) : [];
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
        else {
          // a declaration held for its end is scanned on from where the last chunk stopped
          const st = lt === this.pos && this.declScan ? this.declScan : { at: 0, bracket: 0, q: 0 };
          end = endOfDecl(b, lt + 2, st);
          this.declScan = end < 0 ? st : null;
        }
      } else {
        const gt = endOfStartTag(b, lt + 1);
        if (gt < 0) return this.hold(out, lt);
        end = gt + 1;
        const selfClosing = b[gt - 1] === SLASH;
        const r = this.cut ? NORMAL : this.startTag(out, lt, gt, selfClosing);
        if (r === HOLD) return this.hold(out, lt);
        if (r >= 0)
          end = r; // a whole cut element, found by its end tag
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
        this.rootTag = { qname, bytes: copyOf(b, lt, gt + 1), line: this.lineAt(lt), selfClosing };
      }
      return NORMAL;
    }
    if (depth > this.rules.maxDepth) return NORMAL;
    const qname = nameAt(b, lt + 1);
    const local = localOf(qname);
    if (depth === 1 && local === 'Vessel' && this.vesselDepth < 0 && !selfClosing) {
      this.vesselDepth = 2;
      if (!this.ctx.vessel) {
        this.ctx.vessel = copyOf(b, lt, gt + 1);
        this.ctx.vesselQName = qname;
      }
      return NORMAL;
    }
    const action = this.rules.action(local, depth, depth === 2 && this.vesselDepth === 2);
    if (action === null) return NORMAL;
    const keep = action === 'keep';
    if (selfClosing) {
      this.beginCut(out, lt, depth, keep);
      this.finishCut(out, gt + 1);
      return gt + 1;
    }
    // fast path: the element's end tag found by a byte search, when nothing in between can fool it
    // a held element resumes its search where the last buffer ended (bytes before it are checked)
    const resume = this.resume > 0 ? lt + this.resume : gt + 1;
    this.resume = 0;
    const end = elementEnd(b, Math.max(gt + 1, resume), qname, (this.markup ??= new MarkupIndex(b)));
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
