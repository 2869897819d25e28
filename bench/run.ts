/**
 * Benchmark runner: `npm run bench -- NAME ...` runs the named suites and prints a results table. Timings
 * are reported, never asserted. `npm run bench` with no suite named runs the goals bench: every one of
 * the performance goals against its baseline in one table, also written as the first section of bench/README.md
 * (bench/goals/goalsSuite.ts; sizes and runs by environment, bench/goals/goalsConfig.ts; BENCH_GOALS_QUICK=1
 * for small sizes). It takes hours at the issue's sizes (500,000 and 2,000,000 parts).
 *
 * Suites:
 *   goals   — the goals table (the default, above).
 *   lod     — the chunks' LOD levels by vertex clustering beside meshoptimizer's simplifiers: build time,
 *             triangles kept and drawn, geometric error (bench/viewer/lodSuite.ts; BENCH_SIZES, default 10000).
 *   package — generates a ship (tools/generator), imports it with importOcxFile, then measures `.sc`
 *             encode and streaming decode throughput (engine/package).
 *   ocx     — OCX import throughput (MB/s, parts/s) per sample and for generated ships of 10k and 100k
 *             parts beside a bare saxes parse of the same file (bench/ocx/ocxSuite.ts).
 *   tools   — sections, snap and clip latency on generated ships vs linear scans (bench/tools/toolsSuite.ts;
 *             BENCH_SIZES=100000,500000; named explicitly, it takes minutes).
 *   pick    — pick latency of Engine.pick vs a Raycaster over one Mesh per part, in Node on the same rays
 *             (bench/viewer/pickSuite.ts; BENCH_SIZES, default 100000,500000).
 *   review  — 50 reviewers posting and reading comments on one project for a minute over HTTP and
 *             socket.io (bench/comments/reviewSuite.ts; REVIEWERS, BENCH_SECONDS).
 *   compare — revision comparison of two generated 100k-part ships with known edits: time and peak memory
 *             (bench/compare/compareSuite.ts; BENCH_PARTS).
 *   colouring — colours and legend of a 100k-part ship by quantities (bench/viewer/colouringSuite.ts; BENCH_PARTS).
 *   tables  — table reads (weights, part lists, compartments) of a 100k-part ship vs serialising its object table
 *             (bench/tables/tablesSuite.ts; BENCH_PARTS).
 *   properties — the properties panel's merge of every part of a generated 100k-part ship by index vs per-object
 *             lists (bench/viewer/propertiesSuite.ts; BENCH_PARTS).
 *   cad     — CAD conversion per format: MB/s, triangles/s, peak memory (bench/cad/cadSuite.ts; BENCH_CAD_TRIANGLES).
 *   load    — simulated users (sign-in, model list, opening a model, sections, quantities, comments with
 *             attachments, conversions) against one server process and a two-process cluster on PostgreSQL:
 *             throughput, p50/p95/p99, errors, lost writes (bench/load/loadSuite.ts; BENCH_USERS, BENCH_SECONDS).
 *   fuzz    — OCX importer, zip and BCF upload fuzz: outcomes by class, slowest case, peak memory
 *             (bench/fuzz/fuzzSuite.ts; FUZZ_CASES, FUZZ_ZIP_CASES, FUZZ_BCF_CASES, FUZZ_SEED).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { writeShipOcx } from '../tools/generator/generateShip';
import { importOcxFile } from '../engine/node/ocx/importFile';
import { concatFrames, encodeScenePackage } from '../engine/package/writer';
import { ScenePackageReader } from '../engine/package/reader';
import { renderThumbnail } from '../engine/render/softRaster';
import { ocxSuite } from './ocx/ocxSuite';

/** One row of the results table. */
export interface BenchRow {
  suite: string;
  case: string;
  value: number;
  unit: string;
}

type Suite = () => Promise<BenchRow[]>;

async function time<T>(fn: () => T | Promise<T>): Promise<{ result: T; ms: number }> {
  const t = performance.now();
  const result = await fn();
  return { result, ms: performance.now() - t };
}

/** The `package` suite: generate → import → encode → decode (arbitrary 64 KiB pieces) → thumbnail. */
async function packageSuite(): Promise<BenchRow[]> {
  const parts = Number(process.env.BENCH_PARTS ?? 2000);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'keelson-bench-'));
  try {
    const file = path.join(dir, 'ship.3docx');
    const gen = await time(() => writeShipOcx(file, { targetParts: parts, seed: 1 }));
    const imp = await time(() => importOcxFile(file));
    const model = imp.result;
    const info = { bounds: model.info.bounds, objectCount: model.objects.length, tolerances: model.info.tolerances };
    const enc = await time(() => encodeScenePackage(model.meshes, info));
    const bytes = concatFrames(enc.result);
    const triangles = new DataView(bytes.buffer).getUint32(72, true);
    const dec = await time(() => {
      const reader = new ScenePackageReader();
      let chunks = 0;
      for (let o = 0; o < bytes.length; o += 65536)
        chunks += reader.push(bytes.subarray(o, o + 65536)).filter((e) => e.type === 'chunk').length;
      reader.end();
      return chunks;
    });
    const thumb = await time(() => renderThumbnail(model.meshes, model.info.bounds));
    const mb = bytes.length / 1e6;
    return [
      { suite: 'package', case: 'generated parts', value: gen.result.parts, unit: 'parts' },
      { suite: 'package', case: 'generate OCX', value: gen.ms, unit: 'ms' },
      { suite: 'package', case: 'import OCX', value: imp.ms, unit: 'ms' },
      { suite: 'package', case: 'triangles', value: triangles, unit: 'tris' },
      { suite: 'package', case: '.sc size', value: mb, unit: 'MB' },
      { suite: 'package', case: 'chunks', value: dec.result, unit: 'chunks' },
      { suite: 'package', case: 'encode', value: enc.ms, unit: 'ms' },
      { suite: 'package', case: 'encode throughput', value: mb / (enc.ms / 1000), unit: 'MB/s' },
      { suite: 'package', case: 'decode (64 KiB pieces)', value: dec.ms, unit: 'ms' },
      { suite: 'package', case: 'decode throughput', value: mb / (dec.ms / 1000), unit: 'MB/s' },
      { suite: 'package', case: 'thumbnail 160x120', value: thumb.ms, unit: 'ms' },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Registered suites by name. */
export const SUITES: Record<string, Suite> = {
  package: packageSuite,
  ocx: ocxSuite,
  viewer: async () => (await import('./viewer/runViewerBench')).viewerSuite(),
  tools: async () => (await import('./tools/toolsSuite')).toolsSuite(),
  pick: async () => (await import('./viewer/pickSuite')).pickSuite(),
  review: async () => (await import('./comments/reviewSuite')).reviewSuite(),
  compare: async () => (await import('./compare/compareSuite')).compareSuite(),
  colouring: async () => (await import('./viewer/colouringSuite')).colouringSuite(),
  tables: async () => (await import('./tables/tablesSuite')).tablesSuite(),
  properties: async () => (await import('./viewer/propertiesSuite')).propertiesSuite(),
  cad: async () => (await import('./cad/cadSuite')).cadSuite(),
  load: async () => (await import('./load/loadSuite')).loadSuite(),
  fuzz: async () => (await import('./fuzz/fuzzSuite')).fuzzSuite(),
  lod: async () => (await import('./viewer/lodSuite')).lodSuite(),
  goals: async () => (await import('./goals/goalsSuite')).goalsSuite(),
};
/** Suites run when none is named: the goals table (it prints and writes its own section). */
const DEFAULT_SUITES = ['goals'];

/** Formats rows as an aligned text table. */
export function formatTable(rows: BenchRow[]): string {
  const cells = [
    ['suite', 'case', 'value', 'unit'],
    ...rows.map((r) => [r.suite, r.case, Number.isInteger(r.value) ? String(r.value) : r.value.toFixed(2), r.unit]),
  ];
  const widths = [0, 1, 2, 3].map((c) => Math.max(...cells.map((row) => row[c].length)));
  return cells
    .map(
      (row, i) =>
        row.map((v, c) => (c === 2 ? v.padStart(widths[c]) : v.padEnd(widths[c]))).join('  ') +
        (i === 0 ? `\n${widths.map((w) => '-'.repeat(w)).join('  ')}` : ''),
    )
    .join('\n');
}

async function main(): Promise<void> {
  const names = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const unknown = names.filter((n) => !SUITES[n]);
  if (unknown.length)
    throw new Error(`Unknown bench suite(s): ${unknown.join(', ')} (known: ${Object.keys(SUITES).join(', ')})`);
  const rows: BenchRow[] = [];
  for (const name of names.length ? names : DEFAULT_SUITES) rows.push(...(await SUITES[name]()));
  if (rows.length) console.log(formatTable(rows));
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('bench/run.ts')) {
  main().catch((e) => {
    console.error(`bench: ${(e as Error).message}`);
    process.exit(1);
  });
}
