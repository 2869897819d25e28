/**
 * The `cad` bench suite: `npm run bench -- cad` measures CAD conversion (api/cad) per format: throughput
 * (MB/s, triangles/s) and peak memory of each file of ../shared/models/cad and of large STL (binary and
 * ASCII), GLB and OBJ files made here with three's exporters (BENCH_CAD_TRIANGLES triangles, default
 * 500000). Each file is converted in a child process (bench/cad/cadChild.ts) twice — cold (wasm start
 * included) and warm — and once more through convertCadFile, the server's path (a worker thread started
 * per OpenCascade/web-ifc file, a shared pool for the mesh formats). Throughput is of the warm run; CPU time
 * is given beside wall time because the bench machine is shared. Timings are reported, never asserted.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Mesh, MeshStandardMaterial, Scene, TorusKnotGeometry } from 'three';
import { GLTFExporter } from 'three/examples/jsm/exporters/GLTFExporter.js';
import { OBJExporter } from 'three/examples/jsm/exporters/OBJExporter.js';
import { STLExporter } from 'three/examples/jsm/exporters/STLExporter.js';
import { closeCadPools, convertCadFile } from '../../api/cad/convertCad';
import { tsxExecArgv } from '../../engine/node/tsxExecArgv';
import { shimFileReader } from './fileReaderShim';

const here = path.dirname(fileURLToPath(import.meta.url));
const SAMPLES = path.resolve(here, '../../../shared/models/cad');

/** One row of the results table (the shape of bench/run.ts BenchRow). */
interface Row {
  suite: string;
  case: string;
  value: number;
  unit: string;
}

/** A torus knot of about `triangles` triangles (in metres for glTF, numbers for STL/OBJ). */
function knotScene(triangles: number): Scene {
  const radial = 16;
  const tubular = Math.max(8, Math.round(triangles / (2 * radial)));
  const scene = new Scene();
  const mesh = new Mesh(new TorusKnotGeometry(10, 3, tubular, radial), new MeshStandardMaterial());
  mesh.name = 'knot';
  scene.add(mesh);
  scene.updateMatrixWorld(true);
  return scene;
}

/** Writes the generated mesh-format files into `dir`; returns their paths. */
async function generated(dir: string, triangles: number): Promise<string[]> {
  shimFileReader();
  const scene = knotScene(triangles);
  const files = {
    'knot-binary.stl': new Uint8Array((new STLExporter().parse(scene, { binary: true }) as DataView).buffer),
    'knot-ascii.stl': new STLExporter().parse(scene) as string,
    'knot.glb': new Uint8Array((await new GLTFExporter().parseAsync(scene, { binary: true })) as ArrayBuffer),
    'knot.obj': new OBJExporter().parse(scene),
  };
  const out: string[] = [];
  for (const [name, data] of Object.entries(files)) {
    await writeFile(path.join(dir, name), data);
    out.push(path.join(dir, name));
  }
  return out;
}

/** Runs bench/cad/cadChild.ts on `file`. */
function child(file: string) {
  const r = spawnSync(process.execPath, [...tsxExecArgv(), path.join(here, 'cadChild.ts'), file], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0) throw new Error(`cadChild ${path.basename(file)}: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as {
    triangles: number;
    meshes: number;
    coldMs: number;
    coldCpuMs: number;
    warmMs: number;
    warmCpuMs: number;
    baseRssMb: number;
    maxRssMb: number;
  };
}

/** The `cad` suite (see the file comment). */
export async function cadSuite(): Promise<Row[]> {
  const triangles = Number(process.env.BENCH_CAD_TRIANGLES ?? 500_000);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'keelson-bench-cad-'));
  const rows: Row[] = [];
  try {
    const samples = (await readdir(SAMPLES)).filter((f) => !f.endsWith('.md')).map((f) => path.join(SAMPLES, f));
    for (const file of [...samples, ...(await generated(dir, triangles))]) {
      const name = path.basename(file);
      const mb = (await stat(file)).size / 1e6;
      const r = child(file);
      const t0 = performance.now();
      await convertCadFile(file, { timeoutMs: 600_000 });
      const serverMs = performance.now() - t0;
      const row = (c: string, value: number, unit: string) =>
        rows.push({ suite: 'cad', case: `${name} ${c}`, value, unit });
      row('size', mb, 'MB');
      row('triangles', r.triangles, 'tris');
      row('cold (wasm start)', r.coldMs, 'ms');
      row('warm', r.warmMs, 'ms');
      row('warm CPU', r.warmCpuMs, 'ms');
      row('throughput', mb / (r.warmMs / 1000), 'MB/s');
      row('throughput', r.triangles / (r.warmMs / 1000), 'tris/s');
      row('peak RSS (process)', r.maxRssMb, 'MB');
      row('peak RSS over start', r.maxRssMb - r.baseRssMb, 'MB');
      row('convertCadFile (thread)', serverMs, 'ms');
    }
    rows.push({ suite: 'cad', case: 'load average (1 min) at end', value: os.loadavg()[0], unit: '' });
  } finally {
    await closeCadPools();
    await rm(dir, { recursive: true, force: true });
  }
  return rows;
}
