/**
 * The `ocx` bench suite: `npm run bench -- ocx` measures OCX import throughput (MB/s
 * and parts/s) of importOcxFile — the two-pass, bounded-memory path the server's conversion uses — for
 * every sample of ../shared/models/ocx and for generated ships of 10k and 100k parts, next to a bare
 * streaming saxes parse of the same file in the same run (same parser options, same 256 KiB reads,
 * no-op handlers, one thread): the floor the issue sets for an importer. The importer itself no longer
 * uses saxes but Keelson's own tokenizer (engine/ocx/XmlScanner.ts), whose bare throughput is reported
 * beside it for honesty. Each file is imported on one thread (threads: 0) and, for files ≥
 * THREADED_FROM_BYTES, also with maxThreads() worker threads that parse and tessellate the top-level
 * parts the calling thread cuts out of the file (engine/ocx/partSplit.ts, partPool.ts; the threads are
 * started by a warm-up import and kept, like the JIT warm-up). The load average is reported: worker threads only help when cores
 * are idle.
 * Targets: import ≥ 1/3 of the bare-parse throughput, a 100k-part ship in under a minute on one core.
 *
 * Method (measureFile): each side warmed up (60 runs, or 15 s if sooner), then the sides interleaved in
 * rounds of BLOCK runs each and each side's median taken; the ratio is bare median ÷ import median.
 * Environment: BENCH_OCX_SHIPS — comma-separated part counts of the generated ships (default
 * "10000,100000"; "" for the samples only); BENCH_OCX_FILES — comma-separated parts of sample names to
 * measure (default: every sample); BENCH_CLOCK=cpu — CPU time of the process instead of wall time.
 * Timings are reported, never asserted.
 */
import { createReadStream, readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SaxesParser } from 'saxes';
import { bareScan } from '../../engine/ocx/bareScan';
import { defaultThreads, importOcxFile, maxThreads, THREADED_FROM_BYTES } from '../../engine/node/ocx/importFile';
import { writeShipOcx } from '../../tools/generator/index';
import { benchNow as now } from '../benchClock';

/** One row of the results table (the shape of bench/run.ts BenchRow). */
export interface OcxBenchRow {
  suite: string;
  case: string;
  value: number;
  unit: string;
}

/** Throughput of one file. */
export interface OcxThroughput {
  file: string;
  mb: number;
  parts: number;
  bareMs: number;
  /** Keelson's own tokenizer (engine/ocx/XmlScanner.ts, the importer's parser) over the same file with no-op handlers, one thread. */
  scanMs: number;
  /** Import on the calling thread only. */
  importMs: number;
  /** import MB/s ÷ bare-parse MB/s (one thread). */
  ratio: number;
  /** Worker threads of the threaded import (maxThreads() for files ≥ THREADED_FROM_BYTES, else 0: not measured). */
  threads: number;
  /** Import with `threads` worker threads (= importMs when threads is 0). */
  threadedMs: number;
  /** What importOcxFile's default (defaultThreads(), by the idle cores) chose at the end of the measurement. */
  defaultThreads: number;
  /** 1-minute load average at the end of the measurement. */
  load: number;
  /** Threaded import MB/s ÷ bare-parse MB/s. */
  threadedRatio: number;
}

const SAMPLES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/models/ocx');

/** Streams the file through saxes (namespace mode, positions on) with no-op handlers; returns the element count. */
export async function bareParse(file: string): Promise<number> {
  const p = new SaxesParser({ xmlns: true, position: true });
  let n = 0;
  p.on('opentag', () => n++);
  p.on('closetag', () => undefined);
  p.on('text', () => undefined);
  const dec = new TextDecoder('utf-8');
  for await (const c of createReadStream(file, { highWaterMark: 256 * 1024 }))
    p.write(dec.decode(c as Uint8Array, { stream: true }));
  p.write(dec.decode());
  p.close();
  return n;
}

/**
 * Warm-up of each side before timing: WARM_RUNS runs, or fewer when they take more than WARM_MS ms of
 * wall time (the large files). V8 optimises the importer's many functions only after dozens of runs: a
 * 0.17 MB file's import took 2–3 × its steady time over its first 40 runs in one process
 * (bench/README.md, 'OCX import'), so the earlier 10 runs or 0.3 s measured it half warm — and on a
 * loaded machine a short time limit cuts the count short, hence the long one.
 */
const WARM_RUNS = 60;
const WARM_MS = 15_000;

/** Runs fn until it has run WARM_RUNS times or for WARM_MS in all (once for a file that takes longer). */
async function warm(fn: () => Promise<unknown>): Promise<void> {
  const t0 = performance.now();
  for (let i = 0; i < WARM_RUNS && performance.now() - t0 < WARM_MS; i++) await fn();
}

/**
 * Runs of one side in a row within a round: the garbage one side leaves behind (a scavenge, a step of
 * marking) falls on the next side's first run, so the sides change every few runs rather than every run.
 */
const BLOCK = 3;

/** The median of a (the upper one of an even count). */
function median(a: number[]): number {
  const s = [...a].sort((x, y) => x - y);
  return s[s.length >> 1];
}

/**
 * Measures one file: bare saxes parse, Keelson's tokenizer alone and the import (one thread, and for
 * files ≥ THREADED_FROM_BYTES the threaded import), after a warm-up of each, **interleaved**: each round
 * times BLOCK runs of every side in turn, so that a surge of load falls on all sides alike; each side's
 * time is its median over all its runs (3 to 33 runs; one for files > 50 MB). Clock:
 * `now` (wall, or CPU time with BENCH_CLOCK=cpu).
 */
export async function measureFile(file: string): Promise<OcxThroughput> {
  const mb = statSync(file).size / 1e6;
  const rounds = mb > 50 ? 1 : Math.max(1, Math.min(11, Math.ceil(2 / Math.max(mb, 0.01))));
  const block = mb > 50 ? 1 : BLOCK;
  const threads = mb * 1e6 >= THREADED_FROM_BYTES ? maxThreads() : 0;
  const chosen = mb * 1e6 >= THREADED_FROM_BYTES ? defaultThreads() : 0;
  const first = await importOcxFile(file, { threads: 0 }); // the part count
  const sides: (() => Promise<unknown>)[] = [
    () => bareParse(file),
    () => bareScan(createReadStream(file, { highWaterMark: 256 * 1024 }) as AsyncIterable<Uint8Array>),
    () => importOcxFile(file, { threads: 0 }),
  ];
  if (threads) sides.push(() => importOcxFile(file, { threads })); // its warm-up starts the worker threads
  for (const side of sides) await warm(side); // steady state: the JIT has optimised this file's code paths
  const times: number[][] = sides.map(() => []);
  for (let r = 0; r < rounds; r++)
    for (let k = 0; k < sides.length; k++)
      for (let b = 0; b < block; b++) {
        const t = now();
        await sides[k]();
        times[k].push(now() - t);
      }
  const [bareMs, scanMs, importMs] = times.slice(0, 3).map(median);
  const threadedMs = threads ? median(times[3]) : importMs;
  return {
    file: path.basename(file),
    mb,
    parts: first.objects.length,
    bareMs,
    scanMs,
    importMs,
    ratio: bareMs / importMs,
    threads,
    threadedMs,
    threadedRatio: bareMs / threadedMs,
    defaultThreads: chosen,
    load: os.loadavg()[0],
  };
}

/** The rows of one measured file. */
export function rowsOf(t: OcxThroughput): OcxBenchRow[] {
  const s = (ms: number) => ms / 1000;
  const rows: OcxBenchRow[] = [
    { suite: 'ocx', case: `${t.file} size`, value: t.mb, unit: 'MB' },
    { suite: 'ocx', case: `${t.file} parts`, value: t.parts, unit: 'objects' },
    { suite: 'ocx', case: `${t.file} bare parse, 1 thread`, value: t.mb / s(t.bareMs), unit: 'MB/s' },
    { suite: 'ocx', case: `${t.file} Keelson tokenizer alone, 1 thread`, value: t.mb / s(t.scanMs), unit: 'MB/s' },
    { suite: 'ocx', case: `${t.file} import, 1 thread`, value: t.mb / s(t.importMs), unit: 'MB/s' },
    { suite: 'ocx', case: `${t.file} import, 1 thread`, value: t.parts / s(t.importMs), unit: 'parts/s' },
    { suite: 'ocx', case: `${t.file} import time, 1 thread`, value: t.importMs / 1000, unit: 's' },
    { suite: 'ocx', case: `${t.file} import / bare, 1 thread`, value: t.ratio, unit: 'ratio (target ≥ 0.33)' },
  ];
  if (t.threads)
    rows.push(
      { suite: 'ocx', case: `${t.file} import, 1 + ${t.threads} threads`, value: t.mb / s(t.threadedMs), unit: 'MB/s' },
      {
        suite: 'ocx',
        case: `${t.file} import, 1 + ${t.threads} threads`,
        value: t.parts / s(t.threadedMs),
        unit: 'parts/s',
      },
      { suite: 'ocx', case: `${t.file} import time, 1 + ${t.threads} threads`, value: t.threadedMs / 1000, unit: 's' },
      {
        suite: 'ocx',
        case: `${t.file} import / bare, 1 + ${t.threads} threads`,
        value: t.threadedRatio,
        unit: 'ratio (target ≥ 0.33)',
      },
    );
  return rows;
}

/** Markdown table of measured files (for bench/README.md, section "OCX import"). */
export function markdownTable(ts: OcxThroughput[]): string {
  const head =
    '| file | MB | objects | bare parse MB/s (saxes, 1 thread) | Keelson tokenizer alone MB/s | import MB/s (1 thread) | parts/s (1 thread) | s (1 thread) | import / bare (1 thread) | threads | import MB/s (threads) | s (threads) | import / bare (threads) | load avg |\n' +
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|';
  const rows = ts.map((t) => {
    const one = `${(t.mb / (t.importMs / 1000)).toFixed(1)} | ${Math.round(t.parts / (t.importMs / 1000))} | ${(t.importMs / 1000).toFixed(2)} | ${t.ratio.toFixed(2)}`;
    const thr = t.threads
      ? `1 + ${t.threads} workers | ${(t.mb / (t.threadedMs / 1000)).toFixed(1)} | ${(t.threadedMs / 1000).toFixed(2)} | ${t.threadedRatio.toFixed(2)}`
      : '– | | | ';
    return `| ${t.file} | ${t.mb.toFixed(2)} | ${t.parts} | ${(t.mb / (t.bareMs / 1000)).toFixed(1)} | ${(t.mb / (t.scanMs / 1000)).toFixed(1)} | ${one} | ${thr} | ${t.load.toFixed(1)} |`;
  });
  return [head, ...rows].join('\n');
}

/** The suite: every sample, then the generated ships. Prints the markdown table to stderr as well. */
export async function ocxSuite(): Promise<OcxBenchRow[]> {
  const results: OcxThroughput[] = [];
  const only = (process.env.BENCH_OCX_FILES ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const f of readdirSync(SAMPLES)
    .filter((n) => n.endsWith('.3docx') && (!only.length || only.some((o) => n.includes(o))))
    .sort())
    results.push(await measureFile(path.join(SAMPLES, f)));
  const ships = (process.env.BENCH_OCX_SHIPS ?? '10000,100000')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(Number);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'keelson-ocx-bench-'));
  try {
    for (const n of ships) {
      const file = path.join(dir, `ship-${n / 1000}k.3docx`);
      await writeShipOcx(file, { targetParts: n, seed: 1, name: `BENCH-${n}` });
      results.push(await measureFile(file));
      await rm(file, { force: true });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  process.stderr.write(`\n${markdownTable(results)}\n\n`);
  return results.flatMap(rowsOf);
}
