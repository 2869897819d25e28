/**
 * The rare markup of the OCX reader's XML tokenizer (engine/ocx/XmlScanner.ts): the end
 * of a DOCTYPE declaration (internal subset, quoted strings and comments in it skipped) and of a
 * processing instruction, with the checks of the XML declaration.
 */
import { isNameChar, isNameStart, XML_DECL } from './xmlChars';

/** Where doctypeEnd stopped in a DOCTYPE not complete yet: characters scanned from its '<', open quote, in the subset. */
export interface DoctypeScan {
  at: number;
  q: number;
  subset: boolean;
}

/**
 * Index of the '>' ending the `<!DOCTYPE` at s[i], or -1 when it is not in `s` yet. With `state`, the scan
 * goes on from where the last call on the same DOCTYPE stopped (its text from s[i] being the same, with more
 * after it) and, on -1, records where it stopped — before a '<' whose comment cannot be told yet — so a
 * DOCTYPE arriving in many chunks is scanned once, not again from its start at each chunk.
 */
export function doctypeEnd(s: string, i: number, state?: DoctypeScan): number {
  const n = s.length;
  let q = state?.q ?? 0;
  let subset = state?.subset ?? false;
  let j = i + (state?.at ?? 9);
  for (; j < n; j++) {
    const c = s.charCodeAt(j);
    if (q) {
      if (c === q) q = 0;
    } else if (c === 34 || c === 39) q = c;
    else if (subset && c === 60 && (s.startsWith('<!--', j) || (j + 4 > n && '<!--'.startsWith(s.slice(j))))) {
      // a comment in the subset, or the start of one cut off by the end of the text so far
      const k = j + 4 > n ? -1 : s.indexOf('-->', j + 4);
      if (k < 0) break;
      j = k + 2;
    } else if (c === 91) subset = true;
    else if (c === 93) subset = false;
    else if (c === 62 && !subset) return j;
  }
  if (state) {
    state.at = j - i;
    state.q = q;
    state.subset = subset;
  }
  return -1;
}

/**
 * Index of the '?>' ending the processing instruction at s[i] = '<', s[i + 1] = '?', or -1 when it is not
 * in `s` yet. The target `xml` is the XML declaration: only at the document's start (`atStart`), with a
 * version first, then encoding and standalone.
 * @throws through `fail` (message, index in s) for a missing or bad target or a bad XML declaration.
 */
export function piEnd(s: string, i: number, atStart: boolean, fail: (msg: string, at: number) => never): number {
  const n = s.length;
  let j = i + 2;
  if (j >= n) return -1;
  if (!isNameStart(s.charCodeAt(j))) fail('a processing instruction without a target', j);
  while (j < n && isNameChar(s.charCodeAt(j))) j++;
  const k = s.indexOf('?>', j);
  if (k < 0) return -1;
  const c = s.charCodeAt(j);
  if (k > j && c !== 32 && c !== 9 && c !== 10 && c !== 13)
    fail(`disallowed character ${JSON.stringify(s[j])} in a processing instruction target`, j);
  const target = s.slice(i + 2, j);
  if (target.length === 3 && target.toLowerCase() === 'xml') {
    if (target !== 'xml' || !atStart) fail('the XML declaration must be at the very start of the document', i);
    if (!XML_DECL.test(s.slice(j, k)))
      fail('malformed XML declaration (version="1.x" first, then encoding and standalone)', i);
  }
  return k;
}
