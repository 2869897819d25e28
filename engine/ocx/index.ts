/**
 * OCX import entry points. Implementation: engine/ocx/reader.ts (phase 1, streaming
 * SAX), engine/ocx/buildModel.ts (phases 2–3: resolution and tessellation) and engine/geometry/*.
 */
import type { ImportResult, PartMesh, ProgressFn } from '../model/types';
import { buildModel, ModelBuilder, type BuildOptions, type SharedData } from './buildModel';
import { collectShared } from './prepass';
import { readOcx, type PartRecord } from './reader';
import { OcxImportError } from './errors';
import type { PartTextContext } from './partText';
import { readSplit } from './splitRead';

export { OcxImportError };

/** Options of an import. Tolerances default to values that keep curved plates within 1 mm. */
export interface ImportOptions {
  /** Progress in [0, 1] with a message; monotonic. */
  onProgress?: ProgressFn;
  /** Aborts the import; the promise rejects with an AbortError. */
  signal?: AbortSignal;
  /** Chordal tolerance, mm. */
  chordalMm?: number;
  /** Angular tolerance, degrees. */
  angularDeg?: number;
  /** Total input size in bytes, for progress. */
  totalBytes?: number;
  /** File name, for messages and the model name fallback. */
  fileName?: string;
  /** Cut holes, openings and cut-outs out of plates (default true); BuildOptions.details. */
  details?: boolean;
  /** The importer's geometry repairs (default true); BuildOptions.healing. */
  healing?: boolean;
  /**
   * Opens the same document again from its start (a file: Node createReadStream, browser File.stream()).
   * When given, the import runs in two passes with bounded memory (OCX_GUIDE §1.3):
   * `chunks` feeds the cheap catalogue pre-pass (engine/ocx/prepass.ts), the reopened stream the main
   * pass, which tessellates and measures each part as soon as its element closes and keeps only the
   * compact results. Without it the whole stream is read first (memory grows with the parts' data).
   */
  reopen?: () => AsyncIterable<Uint8Array | string>;
  /**
   * Two-pass imports only: moves the tessellation of finished top-level part groups off the reading
   * thread (Node: engine/node/ocx/partPool.ts, worker threads). Without it, or when it returns null, every
   * group is processed on the calling thread (the browser's path). The result is the same either way.
   */
  offload?: OffloadFactory;
  /**
   * Takes the meshes (mm) of each top-level part group as soon as it is tessellated, in document order,
   * instead of keeping them: the result's `meshes` is then empty. For models whose meshes do not fit in
   * memory at once (the bench's 2,000,000-part ship is packaged chunk by chunk from a spill file).
   */
  onMeshes?: (meshes: PartMesh[]) => void;
}

/**
 * Takes finished top-level part groups off the reading thread and appends their outputs
 * (ModelBuilder.processGroup elsewhere, ModelBuilder.append here) to the builder in document order.
 */
export interface GroupOffload {
  /** Queues one group: its records in document order and the global index of the first. */
  add(records: PartRecord[], base: number): void;
  /**
   * Queues a top-level part cut out of the file (engine/ocx/partSplit.ts): its bytes, the file line and
   * column of its '<', and the enclosing start tags. When present, the import splits the file and the
   * calling thread parses only what is not a part (engine/ocx/splitRead.ts).
   */
  addText?(bytes: Uint8Array, line: number, column: number, context: PartTextContext): void;
  /** With addText: the unknown-element counts of each text part, in document order (after flush). */
  textUnsupported?(): [string, number][][];
  /** A promise while the backlog is too large to read on (awaited between chunks), else undefined. */
  backlog(): Promise<void> | undefined;
  /** Resolves once every queued group's output has been appended; rejects with a thread's error. */
  flush(): Promise<void>;
  /** Stops the threads; always called, also after an error or an abort. */
  close(): Promise<void>;
}

/** Creates a GroupOffload for one import (null: process on the calling thread). */
export type OffloadFactory = (
  shared: SharedData,
  build: Omit<BuildOptions, 'signal' | 'onProgress'>,
  builder: ModelBuilder,
) => GroupOffload | null;

/**
 * Imports an OCX 3.0/3.1 document from a stream of UTF-8 bytes or text chunks. Reading reports progress
 * 0..0.5 by bytes (when totalBytes is given), tessellation 0.5..1; with options.reopen (two passes)
 * the pre-pass ends at 0.1 and the part pass reports 0.1..1 by bytes. Nothing outside the returned value
 * is changed, so a refused file leaves any stored model untouched.
 * @returns the object table, properties (catalogue units), meshes (mm), frame tables and warnings.
 * @throws OcxImportError for an empty, truncated, malformed or non-OCX document (message names the
 * problem and its line); an Error named 'AbortError' when options.signal aborts.
 */
export async function importOcx(
  chunks: AsyncIterable<Uint8Array | string>,
  options: ImportOptions = {},
): Promise<ImportResult> {
  let last = 0;
  const progress = (f: number, msg: string) => {
    if (!options.onProgress) return;
    const v = Math.min(1, Math.max(last, f));
    last = v;
    options.onProgress(v, msg);
  };
  progress(0, 'Reading');
  const total = options.totalBytes;
  const build = {
    chordalMm: options.chordalMm ?? 1,
    angularDeg: options.angularDeg ?? 15,
    fileName: options.fileName ?? 'model',
    details: options.details ?? true,
    healing: options.healing ?? true,
    signal: options.signal,
    onMeshes: options.onMeshes,
  };
  if (options.reopen) {
    let shared = null;
    try {
      shared = await collectShared(chunks, options.signal);
    } catch (e) {
      if ((e as Error).name === 'AbortError') throw e; // a malformed fragment: the single pass names the error
    }
    if (shared) {
      // pre-pass 0..0.1 (a scan), main pass 0.1..1 by bytes
      progress(0.1, 'Importing parts');
      const builder = new ModelBuilder(shared, build);
      const { signal: _signal, onMeshes: _onMeshes, ...plain } = build;
      const offload = options.offload?.(shared, plain, builder) ?? null;
      try {
        const onBytes = total
          ? (n: number) =>
              progress(0.1 + 0.9 * Math.min(1, n / total), `Importing parts (${builder.count} objects so far)`)
          : undefined;
        if (offload?.addText) {
          const split = offload as GroupOffload & Required<Pick<GroupOffload, 'addText' | 'textUnsupported'>>;
          let read: Awaited<ReturnType<typeof readSplit>>;
          try {
            read = await readSplit(options.reopen(), split, { shared, signal: options.signal, onBytes });
          } catch (e) {
            // the parts queued before the error come first in the document: their error wins
            if ((e as Error).name !== 'AbortError') await split.flush();
            throw e;
          }
          await split.flush();
          read.mergeUnsupported(split.textUnsupported());
          progress(1, 'Tessellation done');
          return builder.finish(read.raw);
        }
        const raw = await readOcx(options.reopen(), {
          signal: options.signal,
          shared,
          onGroup: offload
            ? (records, base) => offload.add(records, base)
            : (records, base) => builder.addGroup(records, base),
          drain: offload ? () => offload.backlog() : undefined,
          onBytes,
        });
        if (offload) await offload.flush();
        progress(1, 'Tessellation done');
        return builder.finish(raw);
      } finally {
        await offload?.close();
      }
    }
    chunks = options.reopen(); // no OCX root found by the scan, or a bad fragment: the single pass gives the precise error
  }
  const raw = await readOcx(chunks, {
    onBytes: total ? (n) => progress(0.5 * Math.min(1, n / total), 'Reading') : undefined,
    signal: options.signal,
  });
  progress(0.5, 'Resolving references');
  return buildModel(raw, { ...build, onProgress: (f, m) => progress(0.5 + 0.5 * f, m) });
}
