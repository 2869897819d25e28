/**
 * The OCX importer fuzz harness shared by the CI test (tests/fuzz/OcxImport.fuzz.test.ts) and the bench
 * (`npm run bench -- fuzz`, bench/fuzz/fuzzSuite.ts): seeded cases (tests/fuzz/ocxMutations.ts) imported in
 * a worker thread with a heap limit and a time bound (api/threadPool.ts, as the server's conversions), each
 * ending classified:
 *   imported — a model whose geometry is finite and whose tables agree;
 *   refused  — OcxImportError whose message is clear: names the problem and its line, or the whole file;
 *   unclear  — refused, but the message names no line, echoes pages of input, or shows 'undefined';
 *   bad-model — imported, but with non-finite or absurd geometry;
 *   crash    — any other error; hang — past the time bound; oom — past the heap limit.
 * The last four are findings. The time bound is CPU time of the import thread (tests/fuzz/threadCpu.ts),
 * with a wall-clock safety bound (10× by default) for a thread stuck off the CPU; wall clock alone where
 * the thread's CPU time cannot be read.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { threadPool } from '../../api/threadPool';
import { type MutationLimits, ocxCase } from './ocxMutations';
import type { OcxFuzzOutcome, OcxFuzzTask } from './ocxFuzz.worker';
import { caseCpuMs, type HangBounds, newThreadClock, threadCpuReadable, watchHang } from './threadCpu';

/** The shared sample files (read in place, never copied). */
export const OCX_SAMPLES = fileURLToPath(new URL('../../../shared/models/ocx', import.meta.url));

/** Small samples (≤ 340 KB, each imported in well under 0.1 s): the CI fuzz's bases. */
export const SMALL_BASES = [
  'NAPA-OCX_M1.3docx',
  'AVEVA-E3D-Model01.3docx',
  'NAPA-OCX_M3.3docx',
  'NAPA-OCX_M6.3docx',
  '3DEXPERIENCE-TR03_TC11.3docx',
  'NAPA-OCX_M5.3docx',
  'AVEVA-TR03_TC11.3docx',
  'PROSTEP-TR03_TC11.3docx',
  'NAPA-TR03_TC11.3docx',
  'NAPA-OCX_M2_v300rc3.3docx',
  'CADMATIC-TR03_TC11.3docx',
];

/** The bases by name, read once. */
export function loadBases(names: readonly string[]): { name: string; bytes: Uint8Array }[] {
  return names.map((name) => ({ name, bytes: readFileSync(path.join(OCX_SAMPLES, name)) }));
}

/** Outcome classes; the last four are findings. */
export type FuzzClass = 'imported' | 'refused' | 'unclear' | 'bad-model' | 'crash' | 'hang' | 'oom';
export const FINDINGS: readonly FuzzClass[] = ['unclear', 'bad-model', 'crash', 'hang', 'oom'];

/** One case's ending. */
export interface FuzzResult {
  seed: number;
  base: string;
  ops: string[];
  bytes: number;
  twoPass: boolean;
  chunkBytes: number;
  kind: FuzzClass;
  /** The error message, the model problem or the worker's end. */
  message: string;
  ms: number;
  /** CPU time of the import thread, ms (undefined when it cannot be read). */
  cpuMs?: number;
  /** Heap in use in the import thread when the import ended, MB (0 when unknown). */
  heapMb: number;
}

/** Bounds and size of a run. */
export interface FuzzRunOptions {
  /** Seeds of the cases (one case each). */
  seeds: readonly number[];
  bases: readonly { name: string; bytes: Uint8Array }[];
  limits: MutationLimits;
  /** A case whose import thread has used this much CPU time (ms) is a hang (its thread is terminated). */
  hangCpuMs: number;
  /** A case still running after this much wall-clock time (ms) is a hang too; 10 × hangCpuMs by default. */
  hangWallMs?: number;
  /** How often the thread's CPU time is read, ms (250 by default). */
  pollMs?: number;
  /** Heap limit of the import thread, MB. */
  memoryMb: number;
  /** Called after each case (progress of long runs). */
  onResult?: (r: FuzzResult) => void;
}

/** Messages naming the whole file rather than a place in it. */
const WHOLE_FILE = /^The file is empty/;
/** Longest clear message: an error quoting pages of the input is not one. */
const MAX_MESSAGE = 600;

/** Why a refusal's message is unclear, or undefined when it is clear. */
export function unclearReason(message: string): string | undefined {
  if (message.length > MAX_MESSAGE) return `message of ${message.length} characters`;
  // 'undefined entity &undefined;' is a clear message; a bare undefined is a value the code never had
  if (/(?<!&)\bundefined\b(?! entity)|\[object |\bNaN\b(?!")/.test(message))
    return 'message shows undefined, NaN or an object';
  if (!/\(line \d+(, column \d+)?\)/.test(message) && !WHOLE_FILE.test(message)) return 'message names no line';
  return undefined;
}

/**
 * The bounds a run applies: CPU time of the import thread and a wall-clock safety bound, or (where the
 * thread's CPU time cannot be read) hangCpuMs as a wall-clock bound.
 */
export function hangBounds(
  o: Pick<FuzzRunOptions, 'hangCpuMs' | 'hangWallMs'>,
  cpuReadable = threadCpuReadable(),
): HangBounds {
  return cpuReadable ? { cpuMs: o.hangCpuMs, wallMs: o.hangWallMs ?? 10 * o.hangCpuMs } : { wallMs: o.hangCpuMs };
}

/** The bounds as the bench prints them, e.g. '120 s CPU time of the import thread, 1200 s wall clock'. */
export function describeBounds(b: HangBounds): string {
  const wall = `${b.wallMs / 1000} s wall clock`;
  return b.cpuMs === undefined
    ? `${wall} (thread CPU time not readable here)`
    : `${b.cpuMs / 1000} s CPU time of the import thread, ${wall}`;
}

/** Runs the cases one after another in one worker thread (replaced after a hang or OOM). */
export async function runOcxFuzz(o: FuzzRunOptions): Promise<FuzzResult[]> {
  const bounds = hangBounds(o);
  const pool = threadPool(new URL('./ocxFuzz.worker.ts', import.meta.url).href, {
    maxThreads: 1,
    memoryMb: o.memoryMb,
    what: 'OCX fuzz',
  });
  const results: FuzzResult[] = [];
  try {
    for (const seed of o.seeds) {
      const c = ocxCase(seed, o.bases, o.limits);
      const clock = newThreadClock();
      const task: OcxFuzzTask = {
        clock,
        bytes: c.bytes,
        twoPass: seed % 4 !== 0,
        chunkBytes: [256, 4093, 65536, 262144][(seed >>> 2) % 4],
      };
      const started = performance.now();
      let kind: FuzzClass;
      let message = '';
      let heapMb = 0;
      let cpuMs: number | undefined;
      const watch = watchHang(bounds, () => caseCpuMs(clock), o.pollMs);
      try {
        const out = (await pool.run(task, { signal: watch.signal })) as OcxFuzzOutcome;
        cpuMs = out.cpuMs;
        if (out.kind === 'imported') {
          kind = out.problem ? 'bad-model' : 'imported';
          message = out.problem ?? `${out.objects} objects, ${out.meshes} meshes, ${out.warnings} warnings`;
          heapMb = out.heapMb;
        } else if (out.kind === 'refused') {
          const why = unclearReason(out.message);
          kind = why ? 'unclear' : 'refused';
          message = why ? `${why}: ${out.message.slice(0, 300)}` : out.message;
          heapMb = out.heapMb;
        } else {
          kind = 'crash';
          message = out.message;
        }
      } catch (e) {
        const err = e as Error & { code?: string };
        const bound = watch.ended();
        cpuMs = watch.lastCpuMs();
        if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') kind = 'oom';
        else if (bound) kind = 'hang';
        else kind = 'crash';
        message =
          bound === 'cpu'
            ? `past the ${(bounds.cpuMs ?? 0) / 1000} s CPU-time bound of the import thread`
            : bound === 'wall'
              ? `past the ${bounds.wallMs / 1000} s wall-clock bound (${cpuMs === undefined ? 'CPU time unknown' : `${(cpuMs / 1000).toFixed(1)} s CPU`})`
              : `${err.name}: ${err.message}`;
      } finally {
        watch.stop();
      }
      const r: FuzzResult = {
        seed,
        base: c.base,
        ops: c.ops,
        bytes: c.bytes.length,
        twoPass: task.twoPass,
        chunkBytes: task.chunkBytes,
        kind,
        message,
        ms: performance.now() - started,
        cpuMs,
        heapMb,
      };
      results.push(r);
      o.onResult?.(r);
    }
  } finally {
    await pool.destroy();
  }
  return results;
}

/** Counts by class. */
export function countByClass(results: readonly FuzzResult[]): Record<FuzzClass, number> {
  const out = { imported: 0, refused: 0, unclear: 0, 'bad-model': 0, crash: 0, hang: 0, oom: 0 };
  for (const r of results) out[r.kind]++;
  return out;
}

/** A finding as one line: enough to reproduce it (seed, base, mutations, read mode). */
export function describeResult(r: FuzzResult): string {
  const cpu = r.cpuMs === undefined ? '' : `, ${(r.cpuMs / 1000).toFixed(1)} s CPU`;
  return `seed ${r.seed} (${r.base}; ${r.ops.join(' + ')}; ${r.bytes} B; ${r.twoPass ? 'two passes' : 'one pass'}, ${r.chunkBytes} B chunks${cpu}) → ${r.kind}: ${r.message.split('\n').slice(0, 3).join(' | ')}`;
}
