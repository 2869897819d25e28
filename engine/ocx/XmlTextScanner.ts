/**
 * The state and the non-tag tokens of the OCX reader's XML tokenizer (OCX_GUIDE §1.3
 * phase 1): XmlScanner (engine/ocx/XmlScanner.ts) extends this class with tags, attributes and namespaces
 * and drives the scan. Here: the buffer and position, line counting (LF, CR LF and a lone CR end a line),
 * errors (OcxImportError('Malformed XML: …', line, column)), character data and references, attribute
 * value decoding, comments, CDATA sections, the DOCTYPE and processing instructions.
 */
import { OcxImportError } from './errors';
import { entityError, entityValue, isNameChar } from './xmlChars';
import { type DoctypeScan, doctypeEnd, piEnd } from './xmlMarkup';
import type { XmlScanner } from './XmlScanner';

/** What the scanner reports. */
export interface XmlScanHandler {
  /** A start tag (read it from the scanner: qname, local, uri, line, attributes). @returns true to receive the element's text. */
  start(tag: XmlScanner): boolean;
  /** The end of the innermost open element (also right after start for an empty-element tag). */
  end(): void;
  /** Character data (references decoded, line ends normalised to LF) of an element whose start returned true; may come in pieces. */
  text(t: string): void;
  /** The whole `<!DOCTYPE …>` declaration. */
  doctype(text: string): void;
}

/** Options of XmlScanner. */
export interface XmlScanOptions {
  /** Added to the line of every error thrown (the text starts that many lines into a file). */
  lineOffset?: number;
}

/** The code unit at s[k], or -1 past the end (never an out-of-bounds read: those make V8 deoptimise the scan loops to float compares). */
export const at = (s: string, k: number): number => (k < s.length ? s.charCodeAt(k) : -1);

/** Longest malformed-XML message before its middle is cut (characters; the input it quotes can be megabytes). */
const MAX_MESSAGE_CHARS = 300;

/** The tokenizer's state and its handling of everything but tags (see the file comment); not used alone. */
export class XmlTextScanner {
  /** Line (1-based) of the position reached; inside handler.start the line of the tag's '>'. */
  line = 1;
  protected buf = '';
  protected pos = 0;
  /** Index in buf where the current line starts (may be negative). */
  protected lineStart = 0;
  /** Characters of the document before buf[0]. */
  protected offset = 0;
  protected depth = 0;
  /** Names of the open elements. */
  protected readonly tags: string[] = [];
  /** Per depth: does the open element's handler want its text? */
  protected readonly want: boolean[] = [false];
  protected rootSeen = false;
  protected doctypeSeen = false;
  /** The DOCTYPE waiting for more text (document offset of its '<') and how far it has been scanned. */
  private doctypeScan: { start: number; scan: DoctypeScan } | null = null;
  /** At the end of the input: the kind of token left unfinished. */
  protected pending = '';
  /** The value of the last reference read by ref(). */
  protected refValue = '';
  protected readonly lineOffset: number;

  constructor(
    protected readonly handler: XmlScanHandler,
    options: XmlScanOptions = {},
  ) {
    this.lineOffset = options.lineOffset ?? 0;
  }

  /** @throws OcxImportError for the malformed construct at buf index `at` (line `ln`, starting at `ls`). */
  protected fail(msg: string, at: number, ln = this.line, ls = this.lineStart): never {
    // A message quotes names and text from the input, which may be megabytes long: keep both ends, cut the middle.
    const shown = msg.length > MAX_MESSAGE_CHARS ? `${msg.slice(0, 240)}…${msg.slice(-40)}` : msg;
    throw new OcxImportError(`Malformed XML: ${shown}`, ln + this.lineOffset, Math.max(1, at - ls + 1));
  }

  /** Counts the line ends of s[a, b) into line / lineStart. */
  protected advanceLines(s: string, a: number, b: number): void {
    for (let k = a; k < b; k++) {
      const c = at(s, k);
      if (c === 10 || (c === 13 && at(s, k + 1) !== 10)) {
        this.line++;
        this.lineStart = k + 1;
      }
    }
  }

  /** Character data s[a, b): checked, delivered when the element asked for it. @returns where it ended (past b when a reference straddles b). */
  protected text(s: string, a: number, b: number): number {
    let ln = this.line;
    let ls = this.lineStart;
    if (this.depth === 0) {
      for (let k = a; k < b; k++) {
        const c = at(s, k);
        if (c === 10 || (c === 13 && at(s, k + 1) !== 10)) {
          ln++;
          ls = k + 1;
        } else if (c !== 32 && c !== 9 && c !== 13)
          this.fail(this.rootSeen ? 'text after the root element' : 'text before the root element', k, ln, ls);
      }
      this.line = ln;
      this.lineStart = ls;
      return b;
    }
    const want = this.want[this.depth];
    let out = '';
    let from = a;
    for (let k = a; k < b; k++) {
      const c = at(s, k);
      if (c >= 39 && c !== 93) continue;
      if (c === 10) {
        ln++;
        ls = k + 1;
      } else if (c === 13) {
        const lf = at(s, k + 1) === 10;
        if (!lf) {
          ln++;
          ls = k + 1;
        }
        if (want) {
          out += s.slice(from, k) + (lf ? '' : '\n');
          from = k + 1;
        }
      } else if (c === 38) {
        const e = this.ref(s, k, s.length, ln, ls);
        if (want) out += s.slice(from, k) + this.refValue;
        from = e;
        k = e - 1;
      } else if (c === 93) {
        if (at(s, k + 1) === 93 && at(s, k + 2) === 62) this.fail("']]>' in character data", k, ln, ls);
      } else if (c < 32 && c !== 9) this.fail(`disallowed character U+${c.toString(16).padStart(4, '0')}`, k, ln, ls);
    }
    this.line = ln;
    this.lineStart = ls;
    const end = Math.max(from, b);
    if (want) {
      out += s.slice(from, end);
      if (out) this.handler.text(out);
    }
    return end;
  }

  /** The reference at s[k] = '&' (its ';' before `limit`): sets refValue, returns the index after ';'. */
  protected ref(s: string, k: number, limit: number, ln: number, ls: number): number {
    let e = k + 1;
    if (at(s, e) === 35) e++;
    while (e < limit && isNameChar(at(s, e))) e++;
    if (e >= limit || at(s, e) !== 59)
      this.fail(
        `malformed reference ${JSON.stringify(s.slice(k, Math.min(e + 1, k + 40)))} (a '&' must start &name; or &#N;)`,
        k,
        ln,
        ls,
      );
    const body = s.slice(k + 1, e);
    const v = entityValue(body);
    if (v === null) this.fail(entityError(body), k, ln, ls);
    this.refValue = v;
    return e + 1;
  }

  /** Attribute value s[a, b) with references decoded and white space normalised (tab, CR, LF, CR LF → space). */
  protected decodeAttr(s: string, a: number, b: number, ln: number, ls: number): string {
    let out = '';
    let from = a;
    for (let k = a; k < b; k++) {
      const c = at(s, k);
      if (c === 38) {
        const e = this.ref(s, k, b, ln, ls);
        out += s.slice(from, k) + this.refValue;
        from = e;
        k = e - 1;
      } else if (c === 9 || c === 10 || c === 13) {
        out += `${s.slice(from, k)} `;
        if (c === 13 && at(s, k + 1) === 10) k++;
        if (c !== 9) {
          ln++;
          ls = k + 1;
        }
        from = k + 1;
      }
    }
    return out + s.slice(from, b);
  }

  /** A comment, CDATA section or DOCTYPE at s[i] = '<', s[i + 1] = '!'. */
  protected bang(s: string, i: number): number {
    const n = s.length;
    if (s.startsWith('<!--', i)) {
      const k = s.indexOf('--', i + 4);
      if (k < 0 || k + 2 >= n) return -1;
      this.advanceLines(s, i, k);
      if (at(s, k + 2) !== 62) this.fail("'--' inside a comment", k);
      return k + 3;
    }
    if (s.startsWith('<![CDATA[', i)) {
      const k = s.indexOf(']]>', i + 9);
      if (this.depth === 0) this.fail(`a CDATA section ${this.rootSeen ? 'after' : 'before'} the root element`, i);
      if (k < 0) return -1;
      this.advanceLines(s, i, k);
      if (this.want[this.depth] && k > i + 9) this.handler.text(s.slice(i + 9, k).replace(/\r\n?/g, '\n'));
      return k + 3;
    }
    if (s.startsWith('<!DOCTYPE', i)) {
      if (this.rootSeen || this.doctypeSeen) this.fail('a DOCTYPE after the root element or a second DOCTYPE', i);
      // a DOCTYPE waiting for more text is scanned on from where the last chunk stopped
      const at = this.offset + i;
      const st = this.doctypeScan?.start === at ? this.doctypeScan.scan : { at: 9, q: 0, subset: false };
      const j = doctypeEnd(s, i, st);
      this.doctypeScan = j < 0 ? { start: at, scan: st } : null;
      if (j < 0) return -1;
      this.advanceLines(s, i, j);
      this.doctypeSeen = true;
      this.handler.doctype(s.slice(i, j + 1));
      return j + 1;
    }
    const head = s.slice(i, i + 9);
    if (head.length < 9 && ('<!--'.startsWith(head) || '<![CDATA['.startsWith(head) || '<!DOCTYPE'.startsWith(head)))
      return -1;
    return this.fail("unknown markup after '<!' (a comment, CDATA section or DOCTYPE expected)", i);
  }

  /** A processing instruction or the XML declaration at s[i] = '<', s[i + 1] = '?'. */
  protected pi(s: string, i: number): number {
    const k = piEnd(s, i, this.offset + i === 0, (msg, at) => this.fail(msg, at));
    if (k < 0) return -1;
    this.advanceLines(s, i, k);
    return k + 2;
  }
}
