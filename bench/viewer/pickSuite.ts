/**
 * `npm run bench -- pick` (picking): pick latency of the Keelson engine (Engine.pick: chunk
 * BVHs, chunks in ray-entry order with an early out) beside the baseline a developer would otherwise write
 * (three.js Raycaster.intersectObjects over one Mesh per part, no BVH), both in Node on the same rays (the
 * engine's orbit camera at 160°/10°, fitted, 1280 × 720, a 7 × 5 grid over the middle of the canvas).
 * Picking is CPU work in both, so Node measures it without the software GPU's noise. BVH build time is
 * excluded (the engine builds BVHs in idle slices after loading) and listed. Packages: bench/out/ship-N.sc
 * (made by the viewer or tools suites). Sizes: BENCH_SIZES (default 100000,500000).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Mesh, MeshBasicMaterial } from 'three';
import { decodeScenePackage } from '../../engine/package/reader';
import { partGeometries } from './partGeometry';
import { headlessEngine } from './headlessEngine';

const OUT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../out');
const W = 1280,
  H = 720;

interface Row {
  suite: string;
  case: string;
  value: number;
  unit: string;
}

function median(a: number[]): number {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)];
}

/** Pick medians of one ship as data (ms; `hits` and `agree` of `points` rays), for the goals bench (bench/goals). */
export interface PickFigures {
  keelsonMs: number;
  baselineMs: number;
  hits: number;
  agree: number;
  points: number;
}

/** Runs the pick bench on the ship of `parts` parts; returns the table rows and the figures as data. */
export async function runPickSize(parts: number): Promise<{ rows: Row[]; figures: PickFigures }> {
  const holder: { figures?: PickFigures } = {};
  const rows = await runSize(parts, holder);
  return { rows, figures: holder.figures! };
}

async function runSize(parts: number, out: { figures?: PickFigures } = {}): Promise<Row[]> {
  const file = path.join(OUT, `ship-${parts}.sc`);
  if (!existsSync(file)) throw new Error(`pick bench: ${file} is missing (run the viewer or tools bench first)`);
  const bytes = new Uint8Array(await readFile(file));
  const rows: Row[] = [];
  const add = (c: string, value: number, unit: string) =>
    rows.push({ suite: 'pick', case: `${parts} parts: ${c}`, value, unit });
  const engine = await headlessEngine(bytes, W, H);
  await engine.loadModel('/ship.sc', {});
  engine.orbitTo(160, 10, 0);
  engine.fitToWindow();
  const inner = engine.inspect();
  let t = performance.now();
  for (const c of inner.model!.chunks) c.buildBvh();
  add('BVH build (idle builder; excluded)', performance.now() - t, 'ms');

  // Baseline: one Mesh per part, Float32 positions, Uint32 indices (as in bench/viewer/page.ts).
  const { chunks } = decodeScenePackage(bytes);
  const material = new MeshBasicMaterial();
  const meshes: Mesh[] = [];
  for (const { object, geometry } of partGeometries(chunks)) {
    const m = new Mesh(geometry, material);
    m.userData.object = object;
    m.updateMatrixWorld(true);
    meshes.push(m);
  }
  const points: [number, number][] = [];
  for (let i = 0; i < 7; i++) for (let j = 0; j < 5; j++) points.push([W * (0.2 + 0.1 * i), H * (0.3 + 0.1 * j)]);
  const ours: number[] = [],
    base: number[] = [];
  let agree = 0,
    hits = 0;
  for (const [x, y] of points) {
    engine.pick(x, y); // warm
    t = performance.now();
    const a = engine.pick(x, y);
    ours.push(performance.now() - t);
    const rc = inner.cams.raycaster(x, y);
    t = performance.now();
    const b = rc.intersectObjects(meshes, false);
    base.push(performance.now() - t);
    if (a.type === 'hit') hits++;
    if ((a.type === 'hit' ? a.nodeId : -1) === (b.length ? (b[0].object.userData.object as number) : -1)) agree++;
  }
  add(`pick latency median, Keelson (${hits}/${points.length} hit)`, median(ours), 'ms');
  add('pick latency median, baseline Raycaster without BVH', median(base), 'ms');
  add('pick speed-up', median(base) / median(ours), '×');
  add('same object picked', agree, `of ${points.length}`);
  out.figures = { keelsonMs: median(ours), baselineMs: median(base), hits, agree, points: points.length };
  for (const m of meshes) m.geometry.dispose();
  engine.dispose();
  return rows;
}

/** The suite. */
export async function pickSuite(): Promise<Row[]> {
  const sizes = (process.env.BENCH_SIZES ?? '100000,500000')
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => n > 0);
  const rows: Row[] = [];
  for (const n of sizes) rows.push(...(await runSize(n)));
  return rows;
}
