/**
 * Names and namespaces for the OCX reader's XML tokenizer (engine/ocx/XmlScanner.ts):
 * interned qualified names (each distinct name is validated and split once) and the in-scope namespace
 * bindings of Namespaces in XML 1.0 (declarations, resolution, the xml / xmlns rules).
 */
import { isName, isNameStart } from './xmlChars';

const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

/** An interned qualified name. */
export interface QName {
  q: string;
  prefix: string;
  local: string;
  /** As an element name: the attribute names of its last start tag, in order (a prediction, checked). */
  attrs: QName[];
  /** As an element name: its last child element's name (a prediction, checked). */
  child: QName | undefined;
}

/** Copies a string that may be a slice of a large chunk (so that an interned name never keeps a chunk alive). */
const own = (s: string): string => (s.length < 13 ? s : (JSON.parse(JSON.stringify(s)) as string));

const at = (s: string, k: number): number => (k < s.length ? s.charCodeAt(k) : -1);

/** Interned names: 1024 buckets of up to 8. */
export class NameTable {
  private readonly buckets: (QName[] | undefined)[] = new Array<QName[] | undefined>(1024);

  /** The interned QName s[a, b) (b < s.length); undefined when it is not a valid QName (a bad character, a misplaced colon). */
  intern(s: string, a: number, b: number): QName | undefined {
    const len = b - a;
    const h =
      (len * 31 +
        at(s, a) * 7 +
        at(s, b - 1) * 131 +
        at(s, a + (len >> 1)) * 17 +
        at(s, b - 2) * 3 +
        at(s, a + 4) * 5) &
      1023;
    let bucket = this.buckets[h];
    if (bucket !== undefined)
      for (let m = 0; m < bucket.length; m++) {
        const q = bucket[m].q;
        if (q.length !== len) continue;
        let k = 0;
        while (k < len && q.charCodeAt(k) === s.charCodeAt(a + k)) k++;
        if (k === len) return bucket[m];
      }
    const q = own(s.slice(a, b));
    if (!isName(q)) return undefined;
    const colon = q.indexOf(':');
    let name: QName;
    if (colon < 0) name = { q, prefix: '', local: q, attrs: [], child: undefined };
    else {
      if (colon === 0 || colon === len - 1 || q.indexOf(':', colon + 1) >= 0 || !isNameStart(q.charCodeAt(colon + 1)))
        return undefined;
      name = { q, prefix: q.slice(0, colon), local: q.slice(colon + 1), attrs: [], child: undefined };
    }
    if (bucket === undefined) this.buckets[h] = bucket = [];
    if (bucket.length < 8) bucket.push(name);
    else bucket[len & 7] = name;
    return name;
  }
}

/** The namespace bindings in scope: a stack of (prefix, URI), the default namespace under prefix ''. */
export class NamespaceScope {
  private readonly prefixes: string[] = ['xml', 'xmlns', ''];
  private readonly uris: string[] = [XML_NS, XMLNS_NS, ''];
  private cacheP = '\0';
  private cacheU = '';

  /** Bindings on the stack (a mark for pop). */
  get size(): number {
    return this.prefixes.length;
  }

  /** The URI bound to `prefix` ('' for no namespace), or undefined when unbound. */
  resolve(prefix: string): string | undefined {
    if (prefix === this.cacheP) return this.cacheU;
    const p = this.prefixes;
    for (let k = p.length - 1; k >= 0; k--)
      if (p[k] === prefix) {
        this.cacheP = prefix;
        return (this.cacheU = this.uris[k]);
      }
    return undefined;
  }

  /** Binds `prefix` ('' = default) to `uri`. @returns null, or why the declaration is refused (a reserved prefix or URI, an undeclared prefix). */
  declare(prefix: string, uri: string): string | null {
    if (prefix === 'xmlns') return 'the prefix xmlns may not be declared';
    if (prefix === 'xml' ? uri !== XML_NS : uri === XML_NS || uri === XMLNS_NS)
      return `the prefix ${JSON.stringify(prefix)} may not be bound to ${uri}`;
    if (prefix !== '' && uri === '')
      return `the prefix ${prefix} may not be undeclared (xmlns:${prefix}="") in XML 1.0`;
    this.prefixes.push(prefix);
    this.uris.push(uri);
    this.cacheP = '\0';
    return null;
  }

  /** Drops the bindings above `mark`. */
  pop(mark: number): void {
    if (this.prefixes.length > mark) {
      this.prefixes.length = mark;
      this.uris.length = mark;
      this.cacheP = '\0';
    }
  }

  /** Attribute names[0, count): prefixes bound, no two with the same local name and namespace. @returns null or the problem. */
  checkAttributes(names: QName[], count: number): string | null {
    const uris: string[] = [];
    // a tag with many attributes is checked through a set (a scan per attribute would be quadratic)
    const seen = count > 16 ? new Set<string>() : null;
    for (let k = 0; k < count; k++) {
      const an = names[k];
      const u = an.prefix === '' ? '' : this.resolve(an.prefix);
      if (u === undefined) return `unbound namespace prefix ${JSON.stringify(an.prefix)} of the attribute ${an.q}`;
      uris.push(u);
      if (u === '') continue;
      if (seen) {
        const key = `${u}\u0000${an.local}`;
        if (seen.has(key)) return `duplicate attribute {${u}}${an.local}`;
        seen.add(key);
      } else
        for (let m = 0; m < k; m++)
          if (uris[m] === u && names[m].local === an.local) return `duplicate attribute {${u}}${an.local}`;
    }
    return null;
  }
}
