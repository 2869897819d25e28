/**
 * `npm run bench -- tools`: on generated ships (tools/generator; BENCH_SIZES, default
 * 100000 parts, e.g. BENCH_SIZES=100000,500000):
 * - section computation (engine/section computeSection over the SectionIndex BVH; also with its linear
 *   range scan) for a transverse (X),
 *   longitudinal (Y) and horizontal (Z) cut at the middle of the ship, beside a linear scan over all
 *   triangles of the same chunks testing each against the plane, in the same run;
 * - snap latency under the cursor: Engine.snapAt (BVH shapecast + kernel) at 200 canvas positions over the
 *   model in Node (no GPU), beside a linear scan gathering the triangles near the same rays;
 * - clip update latency: Engine.setClipPlaneValue (planes, quads, caps bookkeeping) for 100 plane moves,
 *   beside a linear scan over all triangles finding those crossing the moved plane.
 * BENCH_TOOLS=sections runs only the section rows (and leaves bench/README.md as it is).
 * Packages are cached in bench/out/ship-N.sc with the object table in ship-N.objects.json. Writes the
 * 'Tools' section of bench/README.md (other sections kept).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModelObject } from '../../engine/model/types';
import { decodeChunkPositions, decodeScenePackage } from '../../engine/package/reader';
import type { SceneChunk } from '../../engine/package/types';
import { computeSection } from '../../engine/section/section';
import { SectionIndex } from '../../engine/section/SectionIndex';
import type { SectionAxis } from '../../engine/section/types';
import { sliceTrianglesInto, segmentBuffer, chainSegments } from '../../engine/section/slice';
import { loadKernelSync } from '../../engine/node/wasm/loadKernel';
import { writeBenchReadme } from '../benchReadme';
import { benchNow as now } from '../benchClock';
import { headlessEngine } from '../viewer/headlessEngine';

const here = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.resolve(here, '../out');
const README = path.resolve(here, '../README.md');

interface Row {
  suite: string;
  case: string;
  value: number;
  unit: string;
}

/**
 * Generates, imports and encodes the generated ship of `parts` target parts unless cached in bench/out;
 * returns its package bytes and object table.
 */
export async function prepareShip(parts: number): Promise<{ bytes: Uint8Array; objects: ModelObject[] }> {
  const sc = path.join(OUT, `ship-${parts}.sc`),
    oj = path.join(OUT, `ship-${parts}.objects.json`);
  if (!existsSync(sc) || !existsSync(oj)) {
    await mkdir(OUT, { recursive: true });
    const { writeShipOcx } = await import('../../tools/generator/index');
    const { importOcxFile } = await import('../../engine/node/ocx/importFile');
    const { concatFrames, encodeScenePackage } = await import('../../engine/package/writer');
    const ocx = path.join(OUT, `ship-${parts}.3docx`);
    console.error(`tools bench: generating and importing ${parts} parts …`);
    if (!existsSync(ocx)) await writeShipOcx(ocx, { targetParts: parts, seed: 1 });
    const model = await importOcxFile(ocx);
    // A new file renamed over the old one: bench/out may hold hard links shared with other checkouts, which
    // writing in place would change too.
    await writeFile(
      `${sc}.new`,
      concatFrames(
        encodeScenePackage(model.meshes, {
          bounds: model.info.bounds,
          objectCount: model.objects.length,
          tolerances: model.info.tolerances,
        }),
      ),
    );
    await rename(`${sc}.new`, sc);
    await writeFile(oj, JSON.stringify(model.objects.map((o) => ({ ...o, bounds: null }))));
  }
  return {
    bytes: new Uint8Array(await readFile(sc)),
    objects: JSON.parse(await readFile(oj, 'utf8')) as ModelObject[],
  };
}

function median(a: number[]): number {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)];
}
function p95(a: number[]): number {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.95))];
}

/** Linear scan: every triangle of every chunk tested against the plane axis = c; returns how many cross. */
function linearPlaneScan(world: Float32Array[], chunks: SceneChunk[], k: number, c: number): number {
  let n = 0;
  chunks.forEach((ch, ci) => {
    const p = world[ci],
      idx = ch.indices;
    for (let i = 0; i < idx.length; i += 3) {
      const a = p[idx[i] * 3 + k],
        b = p[idx[i + 1] * 3 + k],
        d = p[idx[i + 2] * 3 + k];
      if (Math.min(a, b, d) <= c && Math.max(a, b, d) >= c) n++;
    }
  });
  return n;
}

/**
 * The kernels alone, WebAssembly vs TypeScript, on the whole model: slicing every triangle at the
 * middle Y plane (batch by batch) and chaining the segments of each batch. Median of 5.
 */
function kernelRows(
  parts: number,
  kernel: NonNullable<ReturnType<typeof loadKernelSync>>,
  tsIndex: SectionIndex,
  index: SectionIndex,
  bounds: number[],
  figures: ToolsFigures = {},
): Row[] {
  const rows: Row[] = [];
  const add = (c: string, value: number, unit: string, key?: string) => {
    rows.push({ suite: 'tools', case: `${parts} parts: kernel ${c}`, value, unit });
    if (key) figures[`kernel.${key}`] = value;
  };
  const c = (bounds[1] + bounds[4]) / 2 + 13.7;
  const store = index.store!;
  const buf = segmentBuffer(1 << 16);
  const sliceTs: number[] = [],
    sliceWasm: number[] = [],
    chainTs: number[] = [],
    chainWasm: number[] = [];
  let segs = 0;
  const perBatch: Float64Array[] = [];
  for (let rep = 0; rep < 6; rep++) {
    let t = now();
    segs = 0;
    for (const b of tsIndex.batches) {
      buf.length = 0;
      segs += sliceTrianglesInto(b.positions, b.indices, 0, b.indices.length, 1, c, buf);
      if (rep === 0) perBatch.push(buf.data.slice(0, buf.length));
    }
    if (rep) sliceTs.push(now() - t);
    t = now();
    for (let b = 0; b < index.batches.length; b++) {
      kernel.clearSegments();
      kernel.sliceRange(store, b, 0, index.batches[b].indices.length, 1, c);
    }
    if (rep) sliceWasm.push(now() - t);
    t = now();
    for (const s of perBatch) if (s.length) chainSegments(s);
    if (rep) chainTs.push(now() - t);
    t = now();
    for (const s of perBatch) {
      if (!s.length) continue;
      kernel.clearSegments();
      kernel.pushSegments(s);
      kernel.chain();
    }
    if (rep) chainWasm.push(now() - t);
  }
  add(`slice every triangle at the middle Y plane (${segs} segments), TypeScript`, median(sliceTs), 'ms', 'sliceTs');
  add('slice every triangle at the middle Y plane, WebAssembly', median(sliceWasm), 'ms', 'sliceWasm');
  add('slicing speed-up', median(sliceTs) / median(sliceWasm), '×');
  add('chain those segments per batch, TypeScript', median(chainTs), 'ms', 'chainTs');
  add(
    'chain those segments per batch, WebAssembly (segments copied in, polylines out)',
    median(chainWasm),
    'ms',
    'chainWasm',
  );
  add('chaining speed-up', median(chainTs) / median(chainWasm), '×');
  return rows;
}

/** Linear scan: triangles whose vertices lie within `r` of a ray (origin o, unit direction d). */
function linearRayScan(world: Float32Array[], chunks: SceneChunk[], o: number[], d: number[], r: number): number {
  let n = 0;
  chunks.forEach((ch, ci) => {
    const p = world[ci],
      idx = ch.indices;
    for (let i = 0; i < idx.length; i++) {
      const v = idx[i] * 3;
      const w0 = p[v] - o[0],
        w1 = p[v + 1] - o[1],
        w2 = p[v + 2] - o[2];
      const t = w0 * d[0] + w1 * d[1] + w2 * d[2];
      if (w0 * w0 + w1 * w1 + w2 * w2 - t * t <= r * r) {
        n++;
        i += 2 - (i % 3);
      }
    }
  });
  return n;
}

/**
 * The figures of one ship as data (ms, ×, MB; keys named where they are measured), for the goals bench
 * (bench/goals): e.g. `sectionY.index`, `sectionY.linear` (same kernel), `kernel.sliceTs`, `snap.median`.
 */
export type ToolsFigures = Record<string, number>;

/** Which parts of the tools bench runToolsSize measures (default: all). */
export interface ToolsParts {
  /** Sections X/Y/Z (index vs linear scan) and the kernels alone. */
  sections?: boolean;
  /** Snap and clip through the engine. */
  snap?: boolean;
}

/** Runs the tools bench on the ship of `parts` parts; returns the table rows and the figures as data. */
export async function runToolsSize(
  parts: number,
  what: ToolsParts = {},
): Promise<{ rows: Row[]; figures: ToolsFigures }> {
  const figures: ToolsFigures = {};
  const rows = await runSize(parts, figures, what);
  return { rows, figures };
}

async function runSize(parts: number, figures: ToolsFigures = {}, what: ToolsParts = {}): Promise<Row[]> {
  const rows: Row[] = [];
  const add = (c: string, value: number, unit: string, key?: string) => {
    rows.push({ suite: 'tools', case: `${parts} parts: ${c}`, value, unit });
    if (key) figures[key] = value;
  };
  const { bytes, objects } = await prepareShip(parts);
  const { header, chunks } = decodeScenePackage(bytes);
  const bounds = [...header.bounds];
  const world = chunks.map((c) => decodeChunkPositions(c));
  const triangles = chunks.reduce((n, c) => n + c.indices.length / 3, 0);
  add('objects', objects.length, 'objects', 'objects');
  add('triangles', triangles, 'tris', 'triangles');
  if (what.sections === false) return runSnap(parts, bytes, objects, bounds, world, chunks, rows, add);
  const kernel = loadKernelSync(undefined, { install: false });
  // Each build is timed with no other index alive: a second index's dequantised positions on the heap made
  // whichever build came second pay more garbage collection (WebAssembly 0.58× TypeScript at 500k that way,
  // about equal in fresh processes). The TypeScript index the cuts below use is built again, untimed.
  let t = now();
  SectionIndex.fromChunks(chunks, null);
  add('section index build (TypeScript)', now() - t, 'ms', 'indexBuildTs');
  t = now();
  const index = SectionIndex.fromChunks(chunks, kernel);
  add(
    `section index build (${kernel ? 'WebAssembly block extents' : 'no WebAssembly kernel: TypeScript'})`,
    now() - t,
    'ms',
    kernel ? 'indexBuildWasm' : undefined,
  );
  if (kernel) {
    const mem = kernel.memoryStats();
    add('WebAssembly kernel memory after the index build (linear memory)', mem.total / 1e6, 'MB', 'kernelMemoryMB');
    add('WebAssembly kernel page arena in use (batches, block extents, buffers)', mem.arena / 1e6, 'MB');
  }
  const tsIndex = kernel ? SectionIndex.fromChunks(chunks, null) : index;
  const model = { objects, index };
  const tsModel = { objects, index: tsIndex };
  for (const [axis, k] of [
    ['X', 0],
    ['Y', 1],
    ['Z', 2],
  ] as [SectionAxis, number][]) {
    const c = (bounds[k] + bounds[k + 3]) / 2 + 13.7;
    const runs = {
      bvh: [] as number[],
      bvhTs: [] as number[],
      ref: [] as number[],
      refTs: [] as number[],
      lin: [] as number[],
    };
    let cut = 0;
    const timed = (into: number[], fn: () => unknown) => {
      const t0 = now();
      fn();
      into.push(now() - t0);
    };
    // One untimed run of each first (JIT warm-up and the garbage of the index build), then the median of 11
    // (linear scans: 5). At 500k parts a collection of the bench's large heap (objects, two indexes, the
    // decoded positions) can land in any rep and triple it, so a median of few reps wanders with it.
    computeSection(model, axis, c, { grid: false });
    computeSection(tsModel, axis, c, { grid: false });
    computeSection(model, axis, c, { grid: false, linear: true });
    computeSection(tsModel, axis, c, { grid: false, linear: true });
    for (let rep = 0; rep < 11; rep++) {
      timed(runs.bvh, () => {
        const r = computeSection(model, axis, c, { grid: false });
        cut = r.steel.plates.intersected.length + r.steel.stiffeners.intersected.length;
      });
      timed(runs.bvhTs, () => computeSection(tsModel, axis, c, { grid: false }));
      if (rep < 5) {
        timed(runs.ref, () => computeSection(model, axis, c, { grid: false, linear: true }));
        timed(runs.refTs, () => computeSection(tsModel, axis, c, { grid: false, linear: true }));
        timed(runs.lin, () => linearPlaneScan(world, chunks, k, c));
      }
    }
    const m = Object.fromEntries(Object.entries(runs).map(([n, v]) => [n, median(v)])) as Record<
      keyof typeof runs,
      number
    >;
    const span = (v: number[]) => `min ${Math.min(...v).toFixed(1)}, max ${Math.max(...v).toFixed(1)}`;
    add(
      `section ${axis} (index + WebAssembly kernel, ${cut} plates+stiffeners cut; ${span(runs.bvh)})`,
      m.bvh,
      'ms',
      `section${axis}.index`,
    );
    add(`section ${axis} (index + TypeScript kernel; ${span(runs.bvhTs)})`, m.bvhTs, 'ms', `section${axis}.indexTs`);
    add(
      `section ${axis} linear scan, WebAssembly slicing and chaining (${span(runs.ref)})`,
      m.ref,
      'ms',
      `section${axis}.linear`,
    );
    add(
      `section ${axis} linear scan, TypeScript (every triangle visited, sliced, chained, classified; ${span(runs.refTs)})`,
      m.refTs,
      'ms',
    );
    add(`section ${axis} bare plane test of every triangle (no slicing; lower bound of any scan)`, m.lin, 'ms');
    add(`section ${axis} speed-up vs linear scan with the same kernel`, m.ref / m.bvh, '×');
    add(`section ${axis} speed-up vs TypeScript linear scan`, m.refTs / m.bvh, '×');
    add(`section ${axis} WebAssembly vs TypeScript kernel (index path)`, m.bvhTs / m.bvh, '×');
  }
  if (kernel) rows.push(...kernelRows(parts, kernel, tsIndex, index, bounds, figures));

  // BENCH_TOOLS=sections stops after the section rows (no snap or clip, README untouched).
  if (process.env.BENCH_TOOLS === 'sections' || what.snap === false) return rows;
  return runSnap(parts, bytes, objects, bounds, world, chunks, rows, add);
}

/** Snap and clip through the engine in Node (rows appended to `rows`). */
async function runSnap(
  _parts: number,
  bytes: Uint8Array,
  objects: ModelObject[],
  bounds: number[],
  world: Float32Array[],
  chunks: SceneChunk[],
  rows: Row[],
  add: (c: string, value: number, unit: string, key?: string) => void,
): Promise<Row[]> {
  let t: number;
  // Snap and clip through the engine in Node.
  const W = 1600,
    H = 900;
  const engine = await headlessEngine(bytes, W, H);
  engine.setObjectTable({
    ids: objects.map((o) => o.id),
    types: objects.map((o) => o.type),
    parents: Int32Array.from(objects, (o) => o.parent),
  });
  await engine.loadModel('/ship.sc', {});
  engine.orbitTo(160, 10, 0);
  engine.fitToWindow();
  t = now();
  const ms = engine.inspect();
  for (const c of ms.model!.chunks) c.buildBvh();
  add('picking BVHs build', now() - t, 'ms');
  const snaps: number[] = [],
    linSnaps: number[] = [];
  let hits = 0;
  const { cams } = engine.inspect();
  for (let i = 0; i < 200; i++) {
    const x = W * (0.2 + 0.6 * ((i * 0.618) % 1)),
      y = H * (0.3 + 0.4 * ((i * 0.377) % 1));
    t = now();
    if (engine.snapAt(x, y).type === 'snap') hits++;
    snaps.push(now() - t);
    if (i < 10) {
      const ray = cams.raycaster(x, y).ray;
      t = now();
      linearRayScan(
        world,
        chunks,
        [ray.origin.x, ray.origin.y, ray.origin.z],
        [ray.direction.x, ray.direction.y, ray.direction.z],
        15 * cams.worldPerPixel([0, 0, 0]),
      );
      linSnaps.push(now() - t);
    }
  }
  add(`snap latency median (${hits}/200 snapped)`, median(snaps), 'ms', 'snap.median');
  add('snap latency p95', p95(snaps), 'ms');
  add('snap linear scan of all triangles, median', median(linSnaps), 'ms', 'snap.linear');
  engine.setClipping(true);
  const clips: number[] = [],
    linClips: number[] = [];
  for (let i = 0; i < 100; i++) {
    const x = bounds[0] + ((bounds[3] - bounds[0]) * (i + 0.5)) / 100;
    t = now();
    engine.setClipPlaneValue('xMax', Math.max(x, engine.getClipBox().box.xMin + 1));
    clips.push(now() - t);
    if (i < 10) {
      t = now();
      linearPlaneScan(world, chunks, 0, x);
      linClips.push(now() - t);
    }
  }
  add('clip update latency median', median(clips), 'ms');
  add('clip update latency p95', p95(clips), 'ms');
  add('clip linear scan of all triangles, median', median(linClips), 'ms');
  engine.dispose();
  return rows;
}

/** The machine's 1-minute load average when the suite module was loaded (written beside the figures). */
const LOAD_AT_START = os.loadavg()[0];

/** The suite. */
export async function toolsSuite(): Promise<Row[]> {
  const sizes = (process.env.BENCH_SIZES ?? '100000')
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => n > 0);
  const rows: Row[] = [];
  for (const n of sizes) rows.push(...(await runSize(n)));
  if (process.env.BENCH_TOOLS !== 'sections') await writeReadme(rows);
  return rows;
}

async function writeReadme(rows: Row[]): Promise<void> {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const section = [
    '## Tools (`npm run bench -- tools`)',
    '',
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpu}, ${os.cpus().length} cores (shared; load average ${LOAD_AT_START.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end), Node ${process.versions.node}; engine in Node without a GPU.`,
    'Sections: computeSection over the SectionIndex (BVH over object ranges, then 32-triangle blocks with their own extent) at the',
    `middle of the ship (+13.7 mm); one warm-up run each, then the median of 11 (linear scans: 5) with min and max; clock: ${process.env.BENCH_CLOCK === 'cpu' ? 'CPU time of this process (BENCH_CLOCK=cpu)' : 'wall'}; the index build is listed, not included. Beside it the`,
    'same job without any index (`linear: true`): every triangle visited for the object extents, crossing ones sliced, chained and',
    'classified with the same kernels; and a bare plane test of every triangle (no slicing: a lower bound for any scan).',
    'Snap: Engine.snapAt at 200 cursor positions (nearest-first BVH shapecast, at most 2000 candidate triangles, then the kernel; BVHs',
    'and snapping tables built beforehand, as the idle builder does), beside a linear scan of all triangles near the ray.',
    'Clip: Engine.setClipPlaneValue for 100 xMax moves (planes, quads, cap stencil bookkeeping), beside a linear scan finding the',
    'triangles crossing the plane. Targets: sections ≥ 30× faster than the linear scan on the 500k-part ship; snap within one 16 ms',
    'frame on the 100k-part ship.',
    '',
    '| case | value | unit |',
    '|---|---:|---|',
    ...rows.map((r) => `| ${r.case} | ${Number.isInteger(r.value) ? r.value : r.value.toFixed(2)} | ${r.unit} |`),
  ].join('\n');
  let text = existsSync(README) ? await readFile(README, 'utf8') : '# Benchmarks\n\n';
  const start = text.indexOf('## Tools (');
  if (start >= 0) {
    const next = text.indexOf('\n## ', start + 5);
    text = text.slice(0, start) + section + (next >= 0 ? `\n${text.slice(next)}` : '\n');
  } else text = `${text.trimEnd()}\n\n${section}\n`;
  await writeBenchReadme(text);
}
