/**
 * Worker-thread entry of the part pool (engine/node/ocx/partPool.ts, Node only). A worker
 * serves any number of imports, each identified by an id: PartInit builds that import's ModelBuilder
 * from its shared data; each PartBatch is a list of units — a top-level part's bytes cut out of the file
 * (parsed here, engine/ocx/partText.ts) or an already parsed group of part records — answered in order
 * with their outputs (mesh buffers transferred); PartEnd drops the builder. Batches are processed one
 * after the other. Messages out: PartBatchResult.
 */
import { parentPort } from 'node:worker_threads';
import { ModelBuilder, type BuildOptions, type SharedData } from '../../ocx/buildModel';
import {
  errorData,
  processUnits,
  type PartError,
  type PartTextContext,
  type PartTextResult,
  type PartUnit,
} from '../../ocx/partText';

/** Starts an import in a worker: the shared data and options its ModelBuilder is made from (structured-cloned). */
export interface PartInit {
  type: 'init';
  /** Import id, unique in the process. */
  id: number;
  shared: SharedData;
  build: Omit<BuildOptions, 'signal' | 'onProgress'>;
}

/** One batch of units of an import; `context` is needed when a unit is text. */
export interface PartBatch {
  type: 'batch';
  id: number;
  seq: number;
  units: PartUnit[];
  context: PartTextContext | null;
}

/** Ends an import in a worker (its builder is dropped). */
export interface PartEnd {
  type: 'end';
  id: number;
}

/** A worker's answer to a batch: one PartTextResult per unit, in order, or the first error. */
export type PartBatchResult =
  | { id: number; seq: number; results: PartTextResult[] }
  | { id: number; seq: number; error: PartError };

if (parentPort) {
  const port = parentPort;
  const builders = new Map<number, ModelBuilder | Error>();
  let queue: Promise<void> = Promise.resolve();
  const run = async (m: PartBatch) => {
    try {
      const builder = builders.get(m.id);
      if (!builder) throw new Error(`no import ${m.id} in this worker`);
      if (builder instanceof Error) throw builder;
      const results = await processUnits(builder, m.units, m.context);
      const transfer = new Set<ArrayBuffer>();
      for (const r of results)
        for (const g of r.groups)
          for (const mesh of g.out.meshes)
            for (const a of [mesh.positions, mesh.normals, mesh.indices, mesh.edges])
              if (a) transfer.add(a.buffer as ArrayBuffer);
      port.postMessage({ id: m.id, seq: m.seq, results } satisfies PartBatchResult, [...transfer]);
    } catch (e) {
      port.postMessage({ id: m.id, seq: m.seq, error: errorData(e) } satisfies PartBatchResult);
    }
  };
  port.on('message', (m: PartInit | PartBatch | PartEnd) => {
    if (m.type === 'init') {
      try {
        builders.set(m.id, new ModelBuilder(m.shared, m.build));
      } catch (e) {
        builders.set(m.id, e as Error);
      }
    } else if (m.type === 'end') queue = queue.then(() => void builders.delete(m.id));
    else queue = queue.then(() => run(m));
  });
}
