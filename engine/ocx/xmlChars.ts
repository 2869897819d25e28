/**
 * Character classes and references of XML 1.0 (fifth edition) and Namespaces in XML 1.0, for the
 * streaming tokenizer engine/ocx/XmlScanner.ts: name characters, the predefined
 * entities and character references.
 */

/** ASCII name classes: bit 1 = NameStartChar, bit 2 = NameChar (the colon is both; QNames are split later). */
const ASCII = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const start = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 58;
  const name = start || (c >= 48 && c <= 57) || c === 45 || c === 46;
  ASCII[c] = (start ? 1 : 0) | (name ? 2 : 0);
}

/** XML 1.0 NameStartChar for UTF-16 code units ≥ 0x80 (a surrogate half counts: pairs encode #x10000–#xEFFFF). */
function isNameStartHigh(c: number): boolean {
  return (
    (c >= 0xc0 && c <= 0xd6) ||
    (c >= 0xd8 && c <= 0xf6) ||
    (c >= 0xf8 && c <= 0x2ff) ||
    (c >= 0x370 && c <= 0x37d) ||
    (c >= 0x37f && c <= 0x1fff) ||
    c === 0x200c ||
    c === 0x200d ||
    (c >= 0x2070 && c <= 0x218f) ||
    (c >= 0x2c00 && c <= 0x2fef) ||
    (c >= 0x3001 && c <= 0xd7ff) ||
    (c >= 0xd800 && c <= 0xdfff) ||
    (c >= 0xf900 && c <= 0xfdcf) ||
    (c >= 0xfdf0 && c <= 0xfffd)
  );
}

/** Is the UTF-16 code unit `c` an XML NameStartChar (surrogate halves accepted)? */
export function isNameStart(c: number): boolean {
  return c < 128 ? (ASCII[c] & 1) !== 0 : isNameStartHigh(c);
}

/** Is the UTF-16 code unit `c` an XML NameChar (surrogate halves accepted)? */
export function isNameChar(c: number): boolean {
  return c < 128
    ? (ASCII[c] & 2) !== 0
    : c === 0xb7 || (c >= 0x300 && c <= 0x36f) || c === 0x203f || c === 0x2040 || isNameStartHigh(c);
}

/** Is `s` an XML Name? */
export function isName(s: string): boolean {
  if (s === '' || !isNameStart(s.charCodeAt(0))) return false;
  for (let i = 1; i < s.length; i++) if (!isNameChar(s.charCodeAt(i))) return false;
  return true;
}

/** Is the code point `n` an XML 1.0 Char? */
export function isXmlChar(n: number): boolean {
  return (
    n === 9 ||
    n === 10 ||
    n === 13 ||
    (n >= 0x20 && n <= 0xd7ff) ||
    (n >= 0xe000 && n <= 0xfffd) ||
    (n >= 0x10000 && n <= 0x10ffff)
  );
}

/** The five predefined entities. */
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** The replacement text of the reference `&body;` (body without '&' and ';'), or null when it is not allowed (entityError says why). */
export function entityValue(body: string): string | null {
  if (body.charCodeAt(0) === 35) {
    // '#'
    let n = NaN;
    if (/^#x[0-9a-fA-F]{1,8}$/.test(body)) n = parseInt(body.slice(2), 16);
    else if (/^#[0-9]{1,10}$/.test(body)) n = parseInt(body.slice(1), 10);
    return isXmlChar(n) ? String.fromCodePoint(n) : null;
  }
  return Object.hasOwn(PREDEFINED, body) ? PREDEFINED[body] : null;
}

/** Why the reference `&body;` is refused (entityValue gave null). */
export function entityError(body: string): string {
  const shown = body.length > 40 ? `${body.slice(0, 40)}…` : body;
  if (body.charCodeAt(0) === 35) return `malformed character reference &${shown};`;
  return isName(body)
    ? `undefined entity &${shown}; (only the five predefined entities and character references are allowed)`
    : `malformed entity reference &${shown};`;
}

/** The XML declaration's pseudo-attributes after '<?xml' up to '?>' (version required, then encoding, standalone). */
export const XML_DECL =
  /^[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(["'])1\.[0-9]+\1([ \t\r\n]+encoding[ \t\r\n]*=[ \t\r\n]*(["'])[A-Za-z][A-Za-z0-9._-]*\3)?([ \t\r\n]+standalone[ \t\r\n]*=[ \t\r\n]*(["'])(?:yes|no)\5)?[ \t\r\n]*$/;
