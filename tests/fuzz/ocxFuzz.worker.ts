/**
 * Worker-thread entry of the OCX importer fuzz (piscina, tests/fuzz/ocxHarness.ts): imports one mutated
 * document from memory the way the server does (importOcxFile's in-memory path: pre-pass, then the part
 * pass on a reopened stream) or in one pass, and reports how it ended. The harness gives the thread a heap
 * limit and terminates it past the time bound, so a hang or a memory blow-up is seen as such.
 */
import { getHeapStatistics } from 'node:v8';
import { importOcx, OcxImportError } from '../../engine/ocx/index';
import type { ImportResult } from '../../engine/model/types';
import { caseCpuMs, newThreadClock, publishThreadClock } from './threadCpu';

/** One import to run. */
export interface OcxFuzzTask {
  /** Where the thread publishes its id and CPU time for the harness's CPU-time bound (tests/fuzz/threadCpu.ts). */
  clock?: Int32Array;
  bytes: Uint8Array;
  /** Two passes (the server's path) or one (no reopen). */
  twoPass: boolean;
  /** Bytes per chunk fed to the importer (small chunks split tokens and UTF-8 sequences). */
  chunkBytes: number;
}

/** How an import ended, as plain data. */
export type OcxFuzzOutcome = (
  | { kind: 'imported'; objects: number; meshes: number; warnings: number; heapMb: number; problem?: string }
  | { kind: 'refused'; message: string; heapMb: number }
  | { kind: 'crash'; message: string }
) & {
  /** CPU time of this thread for the case, ms (undefined when it cannot be read). */
  cpuMs?: number;
};

async function* chunksOf(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

/** What is wrong with an accepted model (non-finite or absurd geometry, broken tables), or undefined. */
export function modelProblem(r: ImportResult): string | undefined {
  if (!Array.isArray(r.objects) || r.properties.length !== r.objects.length)
    return 'objects and properties differ in length';
  for (const m of r.meshes) {
    if (m.object < 0 || m.object >= r.objects.length) return `mesh of object ${m.object} outside the object table`;
    const vertices = m.positions.length / 3;
    for (const v of m.positions)
      if (!Number.isFinite(v) || Math.abs(v) > 1e12) return `mesh of ${r.objects[m.object].id}: coordinate ${v}`;
    for (const i of m.indices)
      if (i >= vertices) return `mesh of ${r.objects[m.object].id}: index ${i} past ${vertices} vertices`;
  }
  if (r.meshes.length && !r.info.bounds.every(Number.isFinite)) return `bounds ${r.info.bounds.join(' ')}`;
  return undefined;
}

/** Imports the task's bytes, timing this thread's CPU; never throws (every ending is an outcome). */
export default async function run(task: OcxFuzzTask): Promise<OcxFuzzOutcome> {
  const clock = task.clock ?? newThreadClock();
  publishThreadClock(clock);
  const out = await importCase(task);
  return { ...out, cpuMs: caseCpuMs(clock) };
}

/** The import of one case as an outcome (never throws). */
async function importCase(task: OcxFuzzTask): Promise<OcxFuzzOutcome> {
  const bytes = new Uint8Array(task.bytes);
  const heapMb = () => Math.round(getHeapStatistics().used_heap_size / 1048576);
  try {
    const r = await importOcx(chunksOf(bytes, task.chunkBytes), {
      totalBytes: bytes.length,
      fileName: 'fuzz.3docx',
      ...(task.twoPass ? { reopen: () => chunksOf(bytes, task.chunkBytes) } : {}),
    });
    const used = heapMb();
    return {
      kind: 'imported',
      objects: r.objects.length,
      meshes: r.meshes.length,
      warnings: r.warnings.length,
      heapMb: used,
      problem: modelProblem(r),
    };
  } catch (e) {
    if (e instanceof OcxImportError) return { kind: 'refused', message: e.message, heapMb: heapMb() };
    const err = e as Error;
    return { kind: 'crash', message: `${err?.name}: ${err?.message}\n${err?.stack ?? ''}`.slice(0, 4000) };
  }
}
