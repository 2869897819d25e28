/**
 * Task handler of the part pool's piscina threads (engine/node/ocx/partPool.ts, Node only). A task is one
 * batch of an import: units that are a top-level part's bytes cut out of the file (parsed here,
 * engine/ocx/partText.ts) or already parsed groups of part records. Any thread may get any batch of any
 * import, so each thread keeps one ModelBuilder per import, made on the import's first batch in that
 * thread from the import's shared data (v8-serialized once into a SharedArrayBuffer that every task
 * carries by reference), and drops it once the import has ended (a flag in the same buffer, read at
 * each task; an idle thread is ended by the pool's idle timeout). Batches run one after the other.
 * Answers are PartBatchResult, mesh buffers transferred.
 */
import v8 from 'node:v8';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { ModelBuilder, type BuildOptions, type SharedData } from '../../ocx/buildModel';
import {
  errorData,
  processUnits,
  type PartError,
  type PartTextContext,
  type PartTextResult,
  type PartUnit,
} from '../../ocx/partText';

/** What a thread builds an import's ModelBuilder from (v8-serialized into PartBatch.data after HEADER_BYTES). */
export interface PartInit {
  shared: SharedData;
  build: Omit<BuildOptions, 'signal' | 'onProgress'>;
}

/**
 * Bytes at the start of PartBatch.data before the serialized PartInit: an Int32 at 0 is 1 once the
 * import has ended, an Int32 at 4 holds the serialized length.
 */
export const HEADER_BYTES = 8;

/** One batch of units of an import; `context` is needed when a unit is text. */
export interface PartBatch {
  /** Import id, unique in the process. */
  id: number;
  seq: number;
  /** The import's SharedArrayBuffer: ended flag, length, serialized PartInit. */
  data: SharedArrayBuffer;
  units: PartUnit[];
  context: PartTextContext | null;
}

/** A thread's answer to a batch: one PartTextResult per unit, in order, or the first error. */
export type PartBatchResult = { seq: number; results: PartTextResult[] } | { seq: number; error: PartError };

/** This thread's builders by import id, with the import's ended flag. */
const builders = new Map<number, { builder: ModelBuilder | Error; ended: Int32Array }>();

function builderFor(task: PartBatch): ModelBuilder {
  for (const [id, b] of builders) if (Atomics.load(b.ended, 0) === 1) builders.delete(id);
  let entry = builders.get(task.id);
  if (!entry) {
    const head = new Int32Array(task.data, 0, 2);
    let builder: ModelBuilder | Error;
    try {
      const init = v8.deserialize(Buffer.from(new Uint8Array(task.data, HEADER_BYTES, head[1]))) as PartInit;
      builder = new ModelBuilder(init.shared, init.build);
    } catch (e) {
      builder = e as Error;
    }
    entry = { builder, ended: head };
    builders.set(task.id, entry);
  }
  if (entry.builder instanceof Error) throw entry.builder;
  return entry.builder;
}

/** The batch this thread is on: tasks run one after the other, in the order the pool hands them over. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * Processes one batch. The pool hands a thread several tasks at once (concurrentTasksPerWorker), so
 * the next batch is already in the thread when one ends; they run one at a time.
 */
export default function partBatch(task: PartBatch): Promise<unknown> {
  const run = queue.then(() => processBatch(task));
  queue = run.catch(() => undefined);
  return run;
}

async function processBatch(task: PartBatch): Promise<unknown> {
  try {
    const results = await processUnits(builderFor(task), task.units, task.context);
    const transfer = new Set<ArrayBuffer>();
    for (const r of results)
      for (const g of r.groups)
        for (const mesh of g.out.meshes)
          for (const a of [mesh.positions, mesh.normals, mesh.indices, mesh.edges])
            if (a) transfer.add(a.buffer as ArrayBuffer);
    const value: PartBatchResult = { seq: task.seq, results };
    return move({ [transferableSymbol]: [...transfer], [valueSymbol]: value } as never);
  } catch (e) {
    return { seq: task.seq, error: errorData(e) } satisfies PartBatchResult;
  }
}
