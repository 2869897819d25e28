/**
 * The goals bench's largest ship (the goal "a 2,000,000-part generated ship opens on this 24 GB machine
 * with its peak memory in the table"): makes its package in a child process (./bigShip.ts: generated OCX
 * streamed to disk, packaged chunk by chunk) unless bench/out/ship-N.sc exists, then opens it in the viewer
 * bench page (bench/viewer/page.ts keelsonBench, load only: no gestures) in headless Chromium (SwiftShader)
 * while ./processMemory.ts samples the memory of every Chromium process.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runViewerSizes } from '../viewer/runViewerBench';
import { type TreeMemory, sampleTreeMemory } from './processMemory';
import type { StreamPackageStats } from './streamPackage';

const here = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.resolve(here, '../out');

/** Figures of opening the big ship (ms from the start of the load, MB). */
export interface BigShipFigures {
  parts: number;
  objects: number;
  triangles: number;
  packageMB: number;
  firstFrameMs: number;
  firstFrameAtPercent: number;
  loadedMs: number;
  /** Picking BVHs and the box-selection hierarchy built (the engine's idle work after loading). */
  readyMs: number;
  /** JS heap of the page after loading (performance.memory after gc()). */
  heapMB: number;
  /** GPU geometry bytes per triangle at load. */
  loadBytesPerTriangle: number;
  /** Largest sums over Chromium's processes (PSS: shared pages counted once; RSS: per process). */
  peakPss: TreeMemory;
  peakRss: TreeMemory;
  /** Making the package in this run (null when bench/out held it already). */
  made: (StreamPackageStats & { generateMs: number; ocxBytes: number }) | null;
}

/** Node heap bound of the packaging child, MB: the importer keeps the object table (~2.5 kB per part). */
const PACKAGER_HEAP_MB = Number(process.env.BENCH_GOALS_PACKAGER_HEAP_MB ?? 14000);
/** Chromium's heap bound for the page, MB (the 500k ship's page held 1.4 GB). */
const PAGE_HEAP_MB = Number(process.env.BENCH_GOALS_PAGE_HEAP_MB ?? 16384);

/** Makes bench/out/ship-N.sc in a child process with its own heap bound; returns what it reported. */
async function makePackage(parts: number): Promise<BigShipFigures['made']> {
  const args = [
    `--max-old-space-size=${PACKAGER_HEAP_MB}`,
    '--import',
    'tsx',
    path.join(here, 'bigShip.ts'),
    `${parts}`,
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const code = await new Promise<number | null>((r) => child.on('close', r));
  if (code !== 0) throw new Error(`goals bench: packaging the ${parts}-part ship failed (exit ${code})`);
  return JSON.parse(out.trim().split('\n').pop()!);
}

/** Object count (engine/package/format.ts header offset 64) and size of a package file. */
async function packageHeader(sc: string): Promise<{ objects: number; bytes: number }> {
  const f = await open(sc);
  try {
    const head = new Uint8Array(96);
    await f.read(head, 0, 96, 0);
    return { objects: new DataView(head.buffer).getUint32(64, true), bytes: (await f.stat()).size };
  } finally {
    await f.close();
  }
}

/**
 * Opens the generated ship of `parts` parts (package made first when missing) and returns its figures.
 * @throws Error when packaging fails or the page does not load the ship.
 */
export async function measureBigShip(parts: number): Promise<BigShipFigures> {
  const sc = path.join(OUT, `ship-${parts}.sc`);
  const made = existsSync(sc) ? null : await makePackage(parts);
  const sampler = sampleTreeMemory(process.pid, 'chromium');
  let peaks: ReturnType<typeof sampler.stop> | null = null;
  try {
    const { results } = await runViewerSizes([parts], {
      baseline: false,
      loadOnly: true,
      pageHeapMB: PAGE_HEAP_MB,
      prepare: async () => sc,
    });
    peaks = sampler.stop();
    const k = results[0].keelson;
    const header = await packageHeader(sc);
    return {
      parts,
      objects: header.objects,
      triangles: k.triangles,
      packageMB: header.bytes / 1e6,
      firstFrameMs: k.firstFrameMs,
      firstFrameAtPercent: k.firstFrameAtPercent,
      loadedMs: k.loadedMs,
      readyMs: k.readyMs ?? Number.NaN,
      heapMB: k.heapMB,
      loadBytesPerTriangle: k.loadBytesPerTriangle,
      peakPss: peaks.peakPss,
      peakRss: peaks.peakRss,
      made,
    };
  } finally {
    if (!peaks) sampler.stop();
  }
}
