/**
 * Worker-thread entry of the part pool (engine/ocx/partPool.ts; issue 3 item 6, Node only). A worker
 * serves any number of imports, each identified by an id: PartInit builds that import's ModelBuilder
 * from its shared data, each PartBatch of top-level part groups is answered with their
 * ModelBuilder.processGroup outputs (mesh buffers transferred), PartEnd drops the builder.
 * Messages out: PartBatchResult ({ id, seq, outputs } or { id, seq, error } when a batch fails).
 */
import { parentPort } from 'node:worker_threads';
import { ModelBuilder, type BuildOptions, type GroupOutput, type SharedData } from './buildModel';
import type { PartRecord } from './reader';

/** Starts an import in a worker: the shared data and options its ModelBuilder is made from (structured-cloned). */
export interface PartInit {
  type: 'init';
  /** Import id, unique in the process. */
  id: number;
  shared: SharedData;
  build: Omit<BuildOptions, 'signal' | 'onProgress'>;
}

/** One batch of groups of an import. */
export interface PartBatch {
  type: 'batch';
  id: number;
  seq: number;
  groups: { records: PartRecord[]; base: number }[];
}

/** Ends an import in a worker (its builder is dropped). */
export interface PartEnd {
  type: 'end';
  id: number;
}

/** A worker's answer to a batch. */
export type PartBatchResult = { id: number; seq: number; outputs: GroupOutput[] } | { id: number; seq: number; error: string };

if (parentPort) {
  const port = parentPort;
  const builders = new Map<number, ModelBuilder | Error>();
  port.on('message', (m: PartInit | PartBatch | PartEnd) => {
    if (m.type === 'init') {
      try {
        builders.set(m.id, new ModelBuilder(m.shared, m.build));
      } catch (e) {
        builders.set(m.id, e as Error);
      }
    } else if (m.type === 'end') builders.delete(m.id);
    else {
      try {
        const builder = builders.get(m.id);
        if (!builder) throw new Error(`no import ${m.id} in this worker`);
        if (builder instanceof Error) throw builder;
        const outputs = m.groups.map((g) => builder.processGroup(g.records, g.base));
        const transfer = new Set<ArrayBuffer>();
        for (const o of outputs)
          for (const mesh of o.meshes) for (const a of [mesh.positions, mesh.normals, mesh.indices, mesh.edges]) if (a) transfer.add(a.buffer as ArrayBuffer);
        port.postMessage({ id: m.id, seq: m.seq, outputs } satisfies PartBatchResult, [...transfer]);
      } catch (e) {
        port.postMessage({ id: m.id, seq: m.seq, error: (e as Error).stack ?? String(e) } satisfies PartBatchResult);
      }
    }
  });
}
