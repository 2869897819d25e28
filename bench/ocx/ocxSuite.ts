/**
 * The `ocx` bench suite (issue 3 item 6): `npm run bench -- ocx` measures OCX import throughput (MB/s
 * and parts/s) of importOcxFile — the two-pass, bounded-memory path the server's conversion uses — for
 * every sample of ../shared/models/ocx and for generated ships of 10k and 100k parts, next to a bare
 * streaming saxes parse of the same file in the same run (same parser options, same 256 KiB reads,
 * no-op handlers): the floor under any importer. Targets: import ≥ 1/3 of the bare-parse throughput,
 * a 100k-part ship in under a minute on one core (everything here runs on the main thread).
 *
 * Environment: BENCH_OCX_SHIPS — comma-separated part counts of the generated ships (default
 * "10000,100000"; "" for the samples only). Timings are reported, never asserted.
 */
import { createReadStream, readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SaxesParser } from 'saxes';
import { importOcxFile } from '../../engine/ocx/importFile';
import { writeShipOcx } from '../generator/index';

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
  importMs: number;
  /** import MB/s ÷ bare-parse MB/s. */
  ratio: number;
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
  for await (const c of createReadStream(file, { highWaterMark: 256 * 1024 })) p.write(dec.decode(c as Uint8Array, { stream: true }));
  p.write(dec.decode());
  p.close();
  return n;
}

/** Best of `reps` timings of fn, ms (reps grow for small files so that each side runs ≥ ~300 ms). */
async function best(fn: () => Promise<unknown>, reps: number): Promise<number> {
  let min = Infinity;
  for (let i = 0; i < reps; i++) {
    const t = performance.now();
    await fn();
    min = Math.min(min, performance.now() - t);
  }
  return min;
}

/** Measures one file: bare parse and import, each the best of a few runs (one run for files > 50 MB). */
export async function measureFile(file: string): Promise<OcxThroughput> {
  const mb = statSync(file).size / 1e6;
  const reps = mb > 50 ? 1 : Math.max(2, Math.min(20, Math.ceil(3 / Math.max(mb, 0.01))));
  const first = await importOcxFile(file); // warm-up (JIT) and the part count
  const parts = first.objects.length;
  const bareMs = await best(() => bareParse(file), reps);
  const importMs = mb > 50 ? await best(() => importOcxFile(file), 1) : await best(() => importOcxFile(file), reps);
  return { file: path.basename(file), mb, parts, bareMs, importMs, ratio: bareMs / importMs };
}

/** The rows of one measured file. */
export function rowsOf(t: OcxThroughput): OcxBenchRow[] {
  const s = (ms: number) => ms / 1000;
  return [
    { suite: 'ocx', case: `${t.file} size`, value: t.mb, unit: 'MB' },
    { suite: 'ocx', case: `${t.file} parts`, value: t.parts, unit: 'objects' },
    { suite: 'ocx', case: `${t.file} bare parse`, value: t.mb / s(t.bareMs), unit: 'MB/s' },
    { suite: 'ocx', case: `${t.file} import`, value: t.mb / s(t.importMs), unit: 'MB/s' },
    { suite: 'ocx', case: `${t.file} import`, value: t.parts / s(t.importMs), unit: 'parts/s' },
    { suite: 'ocx', case: `${t.file} import time`, value: t.importMs / 1000, unit: 's' },
    { suite: 'ocx', case: `${t.file} import / bare`, value: t.ratio, unit: 'ratio (target ≥ 0.33)' },
  ];
}

/** Markdown table of measured files (for bench/README.md, section "OCX import"). */
export function markdownTable(ts: OcxThroughput[]): string {
  const head = '| file | MB | objects | bare parse MB/s | import MB/s | import parts/s | import s | import / bare |\n|---|---:|---:|---:|---:|---:|---:|---:|';
  const rows = ts.map((t) =>
    `| ${t.file} | ${t.mb.toFixed(2)} | ${t.parts} | ${(t.mb / (t.bareMs / 1000)).toFixed(1)} | ${(t.mb / (t.importMs / 1000)).toFixed(1)} | ${Math.round(t.parts / (t.importMs / 1000))} | ${(t.importMs / 1000).toFixed(2)} | ${t.ratio.toFixed(2)} |`,
  );
  return [head, ...rows].join('\n');
}

/** The suite: every sample, then the generated ships. Prints the markdown table to stderr as well. */
export async function ocxSuite(): Promise<OcxBenchRow[]> {
  const results: OcxThroughput[] = [];
  for (const f of readdirSync(SAMPLES).filter((n) => n.endsWith('.3docx')).sort()) results.push(await measureFile(path.join(SAMPLES, f)));
  const ships = (process.env.BENCH_OCX_SHIPS ?? '10000,100000').split(',').map((s) => s.trim()).filter(Boolean).map(Number);
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
