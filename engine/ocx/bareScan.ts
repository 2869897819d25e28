/**
 * The OCX reader's XML tokenizer alone (bench/ocx/ocxSuite.ts): its bare throughput beside
 * a bare saxes parse of the same file.
 */
import { XmlScanner } from './XmlScanner';

/**
 * Drives an XmlScanner over a document with no-op handlers (the tokenizer's bare throughput, for the bench
 * beside a bare saxes parse: bench/ocx/ocxSuite.ts). Decodes UTF-8 chunks with TextDecoder in stream mode.
 * @returns the number of elements. @throws OcxImportError when the document is malformed.
 */
export async function bareScan(chunks: AsyncIterable<Uint8Array | string>): Promise<number> {
  let elements = 0;
  const scanner = new XmlScanner({
    start: () => {
      elements++;
      return false;
    },
    end: () => undefined,
    text: () => undefined,
    doctype: () => undefined,
  });
  const decoder = new TextDecoder('utf-8');
  for await (const c of chunks) scanner.write(typeof c === 'string' ? c : decoder.decode(c, { stream: true }));
  const tail = decoder.decode();
  if (tail) scanner.write(tail);
  scanner.end();
  scanner.close();
  return elements;
}
