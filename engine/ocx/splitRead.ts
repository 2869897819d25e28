/**
 * The part pass of a threaded import: the document is split by PartSplitter
 * (engine/ocx/partSplit.ts); each top-level part's bytes go to the GroupOffload (parsed and tessellated
 * by worker threads, engine/node/ocx/partPool.ts), everything else is parsed here by readOcx with the cut
 * parts replaced by their line breaks. Parts are queued exactly when the reader has consumed the text
 * before them, so the order of work is document order; unknown-element counts are merged in that order.
 */
import type { GroupOffload } from './index';
import type { PartTextContext } from './partText';
import { PartSplitter, type PartContext, type SplitItem } from './partSplit';
import { abortError, readOcx, type RawModel } from './reader';

/** Options of readSplit. */
export interface SplitReadOptions {
  /** The pre-pass's shared data (its elements are cut out and dropped here). */
  shared: RawModel;
  signal?: AbortSignal;
  /** Bytes of the file consumed so far. */
  onBytes?: (n: number) => void;
}

const NEWLINES = new Uint8Array(4096).fill(10);
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8');

/** The enclosing start tags as text. */
function contextText(c: PartContext): PartTextContext {
  return {
    root: decoder.decode(c.root),
    rootQName: c.rootQName,
    vessel: decoder.decode(c.vessel),
    vesselQName: c.vesselQName,
  };
}

/**
 * Reads the document from `chunks`, handing each top-level part to `offload.addText` and the groups the
 * reader still finds (parts outside the Vessel's direct children) to `offload.add`. The caller flushes
 * the offload; then `mergeUnsupported` gives the unknown-element counts in document order.
 * @throws OcxImportError as readOcx; the offload's first error (backlog) ends the read with it.
 */
export async function readSplit(
  chunks: AsyncIterable<Uint8Array | string>,
  offload: GroupOffload & Required<Pick<GroupOffload, 'addText'>>,
  options: SplitReadOptions,
): Promise<{ raw: RawModel; mergeUnsupported: (texts: [string, number][][]) => void }> {
  const { shared, signal, onBytes } = options;
  const splitter = new PartSplitter();
  const unsupported = new Map<string, number>();
  /** Size of the reader's unknown-element map when each part was queued. */
  const marks: number[] = [];
  let context: PartTextContext | null = null;
  let consumed = 0;
  function* emit(items: SplitItem[]): Generator<Uint8Array> {
    for (const item of items) {
      if (item.kind === 'text') yield item.bytes;
      else if (item.kind === 'lines')
        for (let n = item.count; n > 0; n -= NEWLINES.length) yield NEWLINES.subarray(0, Math.min(n, NEWLINES.length));
      else {
        const c = splitter.context;
        if (!c) {
          yield item.bytes; // cannot happen: parts are cut only inside the Vessel
          continue;
        }
        context ??= contextText(c);
        marks.push(unsupported.size);
        offload.addText(item.bytes, item.line, item.column, context);
      }
    }
  }
  async function* text(): AsyncGenerator<Uint8Array> {
    for await (const chunk of chunks) {
      if (signal?.aborted) throw abortError();
      const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
      consumed += bytes.byteLength;
      yield* emit(splitter.push(bytes));
      onBytes?.(consumed);
      const wait = offload.backlog();
      if (wait) await wait;
    }
    yield* emit(splitter.end());
  }
  const raw = await readOcx(text(), { shared, signal, unsupported });
  const mergeUnsupported = (texts: [string, number][][]) => {
    const merged = new Map<string, number>();
    const add = (el: string, n: number) => merged.set(el, (merged.get(el) ?? 0) + n);
    const keys = [...unsupported];
    let taken = 0;
    texts.forEach((list, k) => {
      for (; taken < (marks[k] ?? keys.length); taken++) add(...keys[taken]);
      for (const [el, n] of list) add(el, n);
    });
    for (; taken < keys.length; taken++) add(...keys[taken]);
    raw.unsupported = merged;
  };
  return { raw, mergeUnsupported };
}
