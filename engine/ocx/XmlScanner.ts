/**
 * A streaming XML 1.0 + Namespaces tokenizer for the OCX reader (import throughput; OCX_GUIDE
 * §1.3 phase 1), in place of saxes. It works on the text of a TextDecoder in stream mode, fed in chunks split
 * anywhere (a tag, an attribute, a reference, a `]]>`, a `-->` or a CR LF may straddle chunks: an unfinished
 * token waits for the next chunk). Compared to a general SAX parser it allocates little: element and
 * attribute names are interned, attribute values are sliced only when the handler asks for them, and text is
 * decoded only inside elements whose handler asked for it.
 *
 * Well-formedness is checked as XML 1.0 requires (tags, names, attribute syntax and duplicates, references,
 * comments, CDATA, PIs, the XML declaration, one root, namespace prefixes bound); violations throw
 * OcxImportError('Malformed XML: …', line, column). Not checked: characters U+FFFE/U+FFFF and unpaired
 * surrogates in text and attribute values (control characters are refused). The DOCTYPE is handed to the
 * handler (the reader refuses entity declarations) and otherwise skipped; no entity is ever expanded besides
 * the five predefined ones and character references.
 *
 * Lines are 1-based and counted as XML does (LF, CR LF and a lone CR end a line); inside handler.start the
 * line is that of the start tag's closing '>' (as saxes reports it).
 *
 * This file holds the tags (start and end tags, attributes, namespaces) and the scan loop; the state and
 * everything else (character data, references, comments, CDATA, DOCTYPE, PIs, errors, lines) is in the
 * base class, engine/ocx/XmlTextScanner.ts.
 */
import { NamespaceScope, NameTable, type QName } from './xmlNames';
import { at, XmlTextScanner } from './XmlTextScanner';

/** Attributes of one tag checked for duplicates by a scan; more go through a set. */
const LINEAR_ATTRIBUTES = 16;

export type { XmlScanHandler, XmlScanOptions } from './XmlTextScanner';

/**
 * The tokenizer: write(text) per decoded chunk, then end() and close(). Fields qname … attrCount describe
 * the current start tag and are valid inside handler.start only.
 */
export class XmlScanner extends XmlTextScanner {
  qname = '';
  prefix = '';
  local = '';
  /** Namespace URI of the element ('' for none). */
  uri = '';
  /** Attributes of the current tag (namespace declarations left out). */
  attrCount = 0;
  /** The attribute names of a tag with more than LINEAR_ATTRIBUTES, for the duplicate check. */
  private seenAttributes: Set<string> | null = null;
  // attributes of the tag being read (grown by push when a tag has more than 64)
  private readonly aName: QName[] = new Array<QName>(64).fill({
    q: '',
    prefix: '',
    local: '',
    attrs: [],
    child: undefined,
  });
  private readonly aStart: number[] = new Array<number>(64).fill(0);
  private readonly aEnd: number[] = new Array<number>(64).fill(0);
  private readonly aStr: (string | null)[] = new Array<string | null>(64).fill(null);
  private readonly tagQ: QName[] = [];
  private rootQ: QName | undefined = undefined;
  private readonly nsMark: number[] = [];
  private readonly ns = new NamespaceScope();
  private rootClosed = false;
  private started = false;
  /** An unfinished token waits for a '>' (no use scanning again before one arrives). */
  private needGt = false;
  /** Pieces read while an unfinished tag waits for its '>' (needGt), not yet joined to the buffer. */
  private held: string[] = [];
  private readonly names = new NameTable();

  /** Open elements. */
  get openElements(): number {
    return this.depth;
  }

  /** Value of attribute `k` (< attrCount) of the current start tag. */
  attrValue(k: number): string {
    return this.aStr[k] ?? this.buf.slice(this.aStart[k], this.aEnd[k]);
  }

  /** Local name of attribute `k` of the current start tag. */
  attrLocal(k: number): string {
    return this.aName[k].local;
  }

  /** The current start tag's attributes by local name (namespace declarations left out; a later duplicate local name wins). */
  attributes(): Record<string, string> {
    const o: Record<string, string> = {};
    for (let k = 0; k < this.attrCount; k++)
      o[this.aName[k].local] = this.aStr[k] ?? this.buf.slice(this.aStart[k], this.aEnd[k]);
    return o;
  }

  /** Feeds the next piece of the text. @throws OcxImportError for malformed XML. */
  write(text: string): void {
    if (!this.started && text.length) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    const p = this.pos;
    const left = this.buf.length - p;
    if (left === 0) {
      this.rebase(text, p);
      this.run(false);
      return;
    }
    const gt = text.indexOf('>');
    if (gt < 0 && this.needGt) {
      // an unfinished tag waits for a '>': the pieces are kept and joined once it comes (joining each
      // piece onto the buffer would copy a long tag once per piece, quadratic in its length)
      this.held.push(text);
      return;
    }
    if (this.held.length) {
      this.held.push(text);
      text = this.held.join('');
      this.held = [];
      this.write(text);
      return;
    }
    if (gt >= 0 && gt < 4096) {
      // the held-back piece and the new text up to its first '>': usually enough to finish the straddling
      // token, and then the new text is scanned as it came (a flat string; joining copies it)
      this.rebase(this.buf.slice(p) + text.slice(0, gt + 1), p);
      this.run(false);
      if (this.pos >= left) {
        const at = this.pos - left;
        this.rebase(text, left);
        this.pos = at;
        this.run(false);
        return;
      }
      this.rebase([this.buf.slice(this.pos), text.slice(gt + 1)].join(''), this.pos);
    } else this.rebase([this.buf.slice(p), text].join(''), p);
    this.run(false);
  }

  /** Makes `text` the buffer, the old buffer's first `drop` characters being consumed. */
  private rebase(text: string, drop: number): void {
    this.buf = text;
    this.offset += drop;
    this.lineStart -= drop;
    this.pos = 0;
  }

  /** The input is complete: scans what was held back. A token left unfinished is reported by close(); `line` is then the last line. */
  end(): void {
    if (this.held.length) {
      this.rebase(this.buf.slice(this.pos) + this.held.join(''), this.pos);
      this.held = [];
    }
    this.run(true);
    if (this.pos < this.buf.length) this.advanceLines(this.buf, this.pos, this.buf.length);
  }

  /** After end(): @throws OcxImportError for an unfinished token, a missing root or unclosed elements. */
  close(): void {
    const at = this.buf.length;
    if (this.pending) this.fail(`the document ends inside ${this.pending}`, at);
    if (!this.rootSeen) this.fail('the document has no root element', at);
    if (this.depth > 0) this.fail(`unclosed tag <${this.tags[this.depth - 1]}>`, at);
  }

  private run(final: boolean): void {
    const s = this.buf;
    const n = s.length;
    let i = this.pos;
    this.needGt = false;
    while (i < n) {
      if (at(s, i) !== 60) {
        let lt = s.indexOf('<', i);
        if (lt < 0) {
          if (!final) {
            // hold back what could continue in the next chunk: a reference, ']]' of ']]>', CR of CR LF
            let cut = n - 2;
            // the last '&' at or after i: searched forward over this text only (a search back from the
            // chunk's end crossed the whole chunk when the text after the last tag has none)
            let amp = -1;
            for (let k = s.indexOf('&', i); k >= 0; k = s.indexOf('&', k + 1)) amp = k;
            if (amp >= i && amp < cut && s.indexOf(';', amp) < 0) cut = amp;
            if (cut > i) i = this.text(s, i, cut);
            break;
          }
          lt = n;
        }
        i = this.text(s, i, lt);
        continue;
      }
      const c = i + 1 < n ? at(s, i + 1) : -1;
      const r =
        c === -1
          ? -1
          : c === 47
            ? this.endTag(s, i)
            : c === 33
              ? this.bang(s, i)
              : c === 63
                ? this.pi(s, i)
                : this.startTag(s, i);
      if (r < 0) {
        if (final)
          this.pending =
            c === 47
              ? 'an end tag'
              : c === 33
                ? 'a comment, CDATA section or DOCTYPE'
                : c === 63
                  ? 'a processing instruction'
                  : 'a start tag';
        else this.needGt = true;
        break;
      }
      i = r;
    }
    this.pos = i;
  }

  /** A start tag at s[i] = '<': returns the index after its '>', or -1 when it is unfinished. */
  /** Line and line start (index in the text) while a start tag is read: committed to line/lineStart when it is complete. */
  private tln = 0;
  private tls = 0;

  /** Skips XML white space from j (s[j] is white space); returns the index after it, counting line breaks (CR LF once) into tln/tls. */
  private skipSpace(s: string, j: number): number {
    let c = s.charCodeAt(j);
    while (c === 32 || c === 10 || c === 9 || c === 13) {
      if (c === 10 || (c === 13 && at(s, j + 1) !== 10)) {
        this.tln++;
        this.tls = j + 1;
      }
      c = at(s, ++j);
    }
    return j;
  }

  private startTag(s: string, i: number): number {
    const n = s.length;
    let j = i + 1;
    if (this.rootClosed) this.fail('a second element after the root element', i);
    // names end at a delimiter; interning validates each distinct name once
    let c = 0;
    // first guess: the element that followed the previous sibling's name last time (checked)
    const d = this.depth;
    let name: QName | undefined = d > 0 ? this.tagQ[d - 1].child : this.rootQ;
    if (name !== undefined) {
      const q = name.q;
      const len = q.length;
      let k = 0;
      if (j + len < n) while (k < len && q.charCodeAt(k) === s.charCodeAt(j + k)) k++;
      c = k === len && j + len < n ? s.charCodeAt(j + len) : 0;
      if (k === len && j + len < n && !(c > 62 || (c >= 45 && c <= 58 && c !== 47))) j += len;
      else name = undefined;
    }
    if (name === undefined) {
      while (j < n && ((c = s.charCodeAt(j)) > 62 || (c >= 45 && c <= 58 && c !== 47))) j++;
      if (j >= n) return -1;
      name = j > i + 1 ? this.names.intern(s, i + 1, j) : undefined;
      if (!name)
        this.fail(
          j > i + 1
            ? `malformed element name <${s.slice(i + 1, j)}>`
            : `disallowed character ${JSON.stringify(s[j])} after '<'`,
          i + 1,
        );
    }
    this.tln = this.line;
    this.tls = this.lineStart;
    let count = 0;
    let empty = false;
    for (;;) {
      c = at(s, j);
      const ws = c === 32 || c === 10 || c === 9 || c === 13;
      if (ws) {
        j = this.skipSpace(s, j);
        c = at(s, j);
      }
      if (j >= n) return -1;
      if (c === 62) {
        j++;
        break;
      }
      if (c === 47) {
        if (j + 1 >= n) return -1;
        if (at(s, j + 1) !== 62)
          this.fail(`'/' not followed by '>' in the start tag <${name.q}>`, j, this.tln, this.tls);
        empty = true;
        j += 2;
        break;
      }
      if (!ws) this.fail(`no white space before the attribute in the start tag <${name.q}>`, j, this.tln, this.tls);
      const a = j;
      // most tags of an element name have the same attributes in the same order: try the last ones first
      let an: QName | undefined = count < name.attrs.length ? name.attrs[count] : undefined;
      if (an !== undefined) {
        const q = an.q;
        const len = q.length;
        let k = 0;
        if (a + len < n) while (k < len && q.charCodeAt(k) === s.charCodeAt(a + k)) k++;
        c = k === len && a + len < n ? s.charCodeAt(a + len) : 0;
        if (k === len && a + len < n && !(c > 62 || (c >= 45 && c <= 58 && c !== 47))) j = a + len;
        else an = undefined;
      }
      if (an === undefined) {
        while (j < n && ((c = s.charCodeAt(j)) > 62 || (c >= 45 && c <= 58 && c !== 47))) j++;
        if (j >= n) return -1;
        an = j > a ? this.names.intern(s, a, j) : undefined;
        if (!an)
          this.fail(
            j > a
              ? `malformed attribute name ${s.slice(a, j)}`
              : `disallowed character ${JSON.stringify(s[j])} in the start tag <${name.q}>`,
            a,
            this.tln,
            this.tls,
          );
        if (count < 16) name.attrs[count] = an;
      }
      if (c === 32 || c === 10 || c === 9 || c === 13) {
        j = this.skipSpace(s, j);
        c = at(s, j);
      }
      if (j >= n) return -1;
      if (c !== 61) this.fail(`attribute ${an.q} without a value`, j, this.tln, this.tls);
      c = at(s, ++j);
      if (c === 32 || c === 10 || c === 9 || c === 13) {
        j = this.skipSpace(s, j);
        c = at(s, j);
      }
      if (j >= n) return -1;
      if (c !== 34 && c !== 39) this.fail(`unquoted value of attribute ${an.q}`, j, this.tln, this.tls);
      const q = c;
      const vs = ++j;
      const vln = this.tln;
      const vls = this.tls;
      let special = false;
      for (; ; j++) {
        if (j >= n) return -1;
        c = s.charCodeAt(j);
        if (c === q) break;
        if (c < 39 || c === 60) {
          if (c === 60) this.fail(`'<' in the value of attribute ${an.q}`, j, this.tln, this.tls);
          if (c === 38 || c < 32) {
            special = true;
            if (c === 10 || (c === 13 && at(s, j + 1) !== 10)) {
              this.tln++;
              this.tls = j + 1;
            } else if (c < 32 && c !== 9 && c !== 13)
              this.fail(`disallowed character U+${c.toString(16).padStart(4, '0')}`, j, this.tln, this.tls);
          }
        }
      }
      const str = special ? this.decodeAttr(s, vs, j, vln, vls) : null;
      if (count < this.aName.length) {
        this.aName[count] = an;
        this.aStart[count] = vs;
        this.aEnd[count] = j;
        this.aStr[count] = str;
      } else {
        this.aName.push(an);
        this.aStart.push(vs);
        this.aEnd.push(j);
        this.aStr.push(str);
      }
      count++;
      j++;
      if (this.duplicateAttribute(an, count))
        this.fail(`duplicate attribute ${an.q} in the start tag <${name.q}>`, vs - 2 - an.q.length, this.tln, this.tls);
    }
    this.line = this.tln;
    this.lineStart = this.tls;
    this.openElement(s, name, count, j - 1);
    if (empty) this.closeElement();
    return j;
  }

  /**
   * Whether attribute `count - 1` (`an`) repeats an earlier name of the tag: a scan for the usual few
   * attributes, a set past LINEAR_ATTRIBUTES so that a tag with 10⁵ attributes is not checked in quadratic time.
   */
  private duplicateAttribute(an: QName, count: number): boolean {
    if (count <= LINEAR_ATTRIBUTES) {
      for (let k = 0; k < count - 1; k++) if (this.aName[k].q === an.q) return true;
      return false;
    }
    if (count === LINEAR_ATTRIBUTES + 1) this.seenAttributes = new Set(this.aName.slice(0, count - 1).map((q) => q.q));
    const seen = this.seenAttributes as Set<string>;
    if (seen.has(an.q)) return true;
    seen.add(an.q);
    return false;
  }

  /** Namespace declarations, resolution and checks of a complete start tag, then handler.start. */
  private openElement(s: string, name: QName, count: number, gt: number): void {
    const ns = this.ns;
    const mark = ns.size;
    let kept = 0;
    let prefixed = 0;
    for (let k = 0; k < count; k++) {
      const an = this.aName[k];
      if (an.prefix === 'xmlns' || an.q === 'xmlns') {
        const bad = ns.declare(
          an.prefix === 'xmlns' ? an.local : '',
          this.aStr[k] ?? s.slice(this.aStart[k], this.aEnd[k]),
        );
        if (bad) this.fail(bad, gt);
        continue;
      }
      if (an.prefix !== '') prefixed++;
      if (kept !== k) {
        this.aName[kept] = an;
        this.aStart[kept] = this.aStart[k];
        this.aEnd[kept] = this.aEnd[k];
        this.aStr[kept] = this.aStr[k];
      }
      kept++;
    }
    this.attrCount = kept;
    const uri = ns.resolve(name.prefix);
    if (uri === undefined) this.fail(`unbound namespace prefix ${JSON.stringify(name.prefix)} of <${name.q}>`, gt);
    if (name.prefix === 'xmlns') this.fail(`the element <${name.q}> has the reserved prefix xmlns`, gt);
    const bad = prefixed ? ns.checkAttributes(this.aName, kept) : null;
    if (bad) this.fail(bad, gt);
    this.qname = name.q;
    this.prefix = name.prefix;
    this.local = name.local;
    this.uri = uri;
    this.rootSeen = true;
    const d = this.depth;
    this.tags[d] = name.q;
    this.tagQ[d] = name;
    if (d > 0) this.tagQ[d - 1].child = name;
    else this.rootQ = name;
    this.nsMark[d] = mark;
    this.depth = d + 1;
    this.want[d + 1] = this.handler.start(this);
  }

  private closeElement(): void {
    const d = --this.depth;
    this.handler.end();
    this.ns.pop(this.nsMark[d]);
    if (d === 0) this.rootClosed = true;
  }

  /** An end tag at s[i] = '<', s[i + 1] = '/'. */
  private endTag(s: string, i: number): number {
    const n = s.length;
    let j = i + 2;
    if (j >= n) return -1;
    const top = this.depth > 0 ? this.tags[this.depth - 1] : '';
    let c = at(s, j);
    // compare with the open element's name while reading it
    let k = 0;
    const tl = top.length;
    while (k < tl && c === top.charCodeAt(k)) {
      k++;
      c = at(s, ++j);
    }
    while (c > 62 || (c >= 45 && c <= 58 && c !== 47)) c = at(s, ++j);
    const e = j;
    while (c === 32 || c === 10 || c === 9 || c === 13) c = at(s, ++j);
    if (j >= n) return -1;
    this.advanceLines(s, e, j);
    if (c !== 62) this.fail(`disallowed character ${JSON.stringify(s[j])} in the end tag </${s.slice(i + 2, e)}>`, j);
    if (e === i + 2) this.fail(`disallowed character ${JSON.stringify(s[e])} in an end tag`, e);
    if (this.depth === 0) this.fail(`end tag </${s.slice(i + 2, e)}> without a start tag`, i);
    if (k !== tl || e - i - 2 !== tl)
      this.fail(`end tag </${s.slice(i + 2, e)}> does not match the start tag <${top}>`, i);
    this.closeElement();
    return j + 1;
  }
}
