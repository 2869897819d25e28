/**
 * Compact element records captured from the OCX stream (OCX_GUIDE §1.3 phase 1): only the subtrees a
 * part, surface, catalogue item or unit needs are kept, as small nodes keyed by local name. Attributes
 * are keyed by local name (namespace prefixes are never used). Values stay raw strings until phase 2.
 */

/** A captured element: local name, attributes by local name, children, text (selected elements only), line. */
export interface XNode {
  n: string;
  a: Record<string, string>;
  c: XNode[];
  t?: string;
  line: number;
}

/** First child with local name `name`, or undefined. */
export function child(node: XNode | undefined, name: string): XNode | undefined {
  if (!node) return undefined;
  for (const c of node.c) if (c.n === name) return c;
  return undefined;
}

/** All children with local name `name`. */
export function children(node: XNode | undefined, name: string): XNode[] {
  return node ? node.c.filter((c) => c.n === name) : [];
}

/** Follows a path of local names (first match at each step). */
export function path(node: XNode | undefined, ...names: string[]): XNode | undefined {
  let cur = node;
  for (const n of names) cur = child(cur, n);
  return cur;
}

/** Depth-first walk over node and its descendants. */
export function walk(node: XNode, visit: (n: XNode) => void): void {
  visit(node);
  for (const c of node.c) walk(c, visit);
}

/** Parses a number with Number() semantics ('NaN', exponents, '-0'); undefined for missing/blank. */
export function num(s: string | undefined): number | undefined {
  if (s === undefined) return undefined;
  const f = plainDecimal(s, 0, s.length);
  if (f === f) return f; // NaN: not a plain decimal, parsed below
  const t = s.trim();
  if (t === '') return undefined;
  return Number(t);
}

/** Parses a whitespace-separated list of numbers (trailing spaces allowed). */
export function numList(s: string | undefined): number[] {
  const out: number[] = [];
  readNumbers(s, out, Infinity);
  return out;
}

/**
 * Parses the first `max` numbers of a whitespace-separated list into out (numList's values, without a
 * list of all of them: a point's three coordinates). @returns how many were read (≤ max).
 */
export function numsInto(s: string | undefined, out: Float64Array, max: number): number {
  return readNumbers(s, out, Math.min(max, out.length));
}

/** The scan of numList and numsInto: up to `max` numbers of s into out; returns how many. */
function readNumbers(s: string | undefined, out: number[] | Float64Array, max: number): number {
  if (!s) return 0;
  // a scan instead of split(/\s+/).map(Number): no intermediate string array
  const n = s.length;
  let i = 0,
    count = 0;
  while (i < n && count < max) {
    let c = s.charCodeAt(i);
    while (i < n && (c === 32 || c === 10 || c === 13 || c === 9)) c = s.charCodeAt(++i);
    if (i >= n) break;
    const a = i;
    while (i < n && c !== 32 && c !== 10 && c !== 13 && c !== 9) c = s.charCodeAt(++i);
    const f = plainDecimal(s, a, i);
    out[count++] = f === f ? f : Number(s.slice(a, i));
  }
  return count;
}

/** Exact powers of ten 10^0 … 10^22 (all representable in float64). */
const POW10 = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));

/**
 * The value of s[a, b) when it is a plain decimal — optional sign, at most 15 digits with at most one
 * point, at most 22 of them after it — else NaN (the caller then uses Number()). Equal to Number() bit
 * for bit: the digits form an exact integer m < 2^53 and m / 10^k of two exact float64 values is the
 * correctly rounded quotient, as Number() rounds the decimal correctly (Clinger's fast path). No
 * substring per number.
 */
function plainDecimal(s: string, a: number, b: number): number {
  let j = a,
    neg = false;
  const c0 = s.charCodeAt(j);
  if (c0 === 45) {
    neg = true;
    j++;
  } else if (c0 === 43) j++;
  let m = 0,
    digits = 0,
    frac = -1;
  for (; j < b; j++) {
    const c = s.charCodeAt(j);
    if (c >= 48 && c <= 57) {
      m = m * 10 + (c - 48);
      digits++;
      if (frac >= 0) frac++;
    } else if (c === 46 && frac < 0) frac = 0;
    else return NaN;
  }
  if (digits === 0 || digits > 15 || frac > 22) return NaN;
  const v = frac > 0 ? m / POW10[frac] : m;
  return neg ? -v : v;
}

/** Normalises a GUID: strips braces, trims, upper case (the ModelObject contract); null when empty (OCX_GUIDE §2.18). */
export function normGuid(s: string | undefined): string | null {
  if (!s) return null;
  const g = s.replace(/[{}]/g, '').trim().toUpperCase();
  return g === '' ? null : g;
}
