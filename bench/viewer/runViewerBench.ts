/**
 * `npm run bench -- viewer`: generates ships (tools/generator), imports them
 * (engine/node/ocx/importFile.ts) and encodes `.sc` packages (engine/package/writer.ts) into bench/out/
 * (git-ignored; reused when present), bundles ./page.ts, serves both over a local HTTP server and runs the
 * Keelson engine and the three.js baseline in headless Chromium (playwright-core, SwiftShader), then writes
 * the side-by-side table into bench/README.md with the date and the machine.
 * Sizes: BENCH_SIZES (comma-separated part counts, default "10000,100000"; add 500000 for the big ship).
 */
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchFigures } from './page';
import { NAV_DETAIL_MIN_PX, NAV_LOD_MAX_PX } from '../../engine/scene/ModelScene';
import { writeBenchReadme } from '../benchReadme';

const here = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.resolve(here, '../out');
const README = path.resolve(here, '../README.md');

/** Generates, imports and encodes the ship of `parts` parts unless its package exists. Returns the file path. */
export async function preparePackage(parts: number): Promise<string> {
  const file = path.join(OUT, `ship-${parts}.sc`);
  if (existsSync(file)) return file;
  const { writeShipOcx } = await import('../../tools/generator/index');
  const { importOcxFile } = await import('../../engine/node/ocx/importFile');
  const { concatFrames, encodeScenePackage } = await import('../../engine/package/writer');
  const ocx = path.join(OUT, `ship-${parts}.3docx`);
  console.error(`viewer bench: generating ${parts} parts …`);
  await writeShipOcx(ocx, { targetParts: parts, seed: 1 });
  console.error(`viewer bench: importing ${ocx} …`);
  const model = await importOcxFile(ocx);
  const frames = encodeScenePackage(model.meshes, {
    bounds: model.info.bounds,
    objectCount: model.objects.length,
    tolerances: model.info.tolerances,
  });
  await writeFile(file, concatFrames(frames));
  return file;
}

/**
 * Bundles the bench page into bench/out/page.js; with `entry` and `name`, another checkout's page (e.g. an
 * earlier commit's bench/viewer/page.ts, for before/after runs in one browser) into bench/out/<name>.
 * Returns the bundle's path.
 */
export async function bundlePage(entry = path.join(here, 'page.ts'), name = 'page.js'): Promise<string> {
  const esbuild = await import('esbuild');
  const out = path.join(OUT, name);
  await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    outfile: out,
    target: 'es2022',
    logLevel: 'error',
  });
  return out;
}

/**
 * Serves bench/out with a content-length (the engine's progress needs it). `/` is the page running
 * bench/out/page.js, `/?page=<bundle>.js` the page running another bundle of bench/out (see bundlePage).
 */
export function serve(): Promise<{ url: string; close(): void }> {
  const server = http.createServer(async (req, res) => {
    const [name0, query] = (req.url ?? '/').split('?');
    const name = decodeURIComponent(name0);
    if (name === '/') {
      const bundle = path.basename(new URLSearchParams(query ?? '').get('page') ?? 'page.js');
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        `<!doctype html><html><body style="margin:0"><script type="module" src="/${bundle}"></script></body></html>`,
      );
      return;
    }
    const file = path.join(OUT, path.basename(name));
    try {
      const st = await stat(file);
      res.writeHead(200, {
        'content-length': String(st.size),
        'content-type': file.endsWith('.js') ? 'text/javascript' : 'application/octet-stream',
      });
      createReadStream(file).pipe(res);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const a = server.address() as { port: number };
      resolve({ url: `http://127.0.0.1:${a.port}`, close: () => server.close() });
    }),
  );
}

type NumericFigure = { [K in keyof BenchFigures]-?: BenchFigures[K] extends number ? K : never }[keyof BenchFigures];
const ROWS: [NumericFigure, string, number][] = [
  ['triangles', 'triangles', 0],
  ['firstFrameMs', 'time to first frame (ms)', 0],
  ['firstFrameAtPercent', 'package arrived at first frame (%)', 1],
  ['loadedMs', 'time fully loaded (ms)', 0],
  ['orbitMedianMs', 'orbit frame time, median (ms)', 1],
  ['orbitP95Ms', 'orbit frame time, p95 (ms)', 1],
  ['stillMedianMs', 'still frame time (full quality, after release), median (ms)', 1],
  ['pickMs', 'pick latency, median (ms)', 2],
  ['boxMs', 'box-selection latency (ms)', 1],
  ['heapMB', 'JS heap after load (MB)', 0],
  ['bytesPerTriangle', 'geometry bytes per triangle', 2],
  ['loadBytesPerTriangle', 'geometry bytes per triangle at load (before LOD levels)', 2],
  ['bvhBytesPerTriangle', 'geometry + picking BVH bytes per triangle', 2],
];

function table(results: ViewerResult[]): string {
  const lines: string[] = [];
  for (const r of results) {
    lines.push(
      `### ${r.parts.toLocaleString('en-US')} parts`,
      '',
      '| figure | Keelson | baseline | ratio |',
      '|---|---:|---:|---:|',
    );
    for (const [k, label, d] of ROWS) {
      const a = r.keelson[k],
        b = r.baseline ? r.baseline[k] : NaN;
      const ratio = Number.isFinite(a) && Number.isFinite(b) && a > 0 ? `${(b / a).toFixed(1)}×` : '–';
      lines.push(
        `| ${label} | ${fmt(a, d)} | ${r.baseline ? fmt(b, d) : 'not run'} | ${k === 'triangles' || k === 'firstFrameAtPercent' ? '' : ratio} |`,
      );
    }
    if (r.keelson.drawnTriangles !== undefined) {
      const still =
        r.keelson.stillTriangles !== undefined
          ? `, ${r.keelson.stillTriangles.toLocaleString('en-US')} in the still frame after release (full quality)`
          : '';
      lines.push(
        '',
        `Keelson drew ${r.keelson.drawnTriangles.toLocaleString('en-US')} of ${r.keelson.triangles.toLocaleString('en-US')} triangles in the last orbit frame (interactive detail)${still}.`,
      );
      if (r.keelson.orbitDrawCalls !== undefined)
        lines.push(
          '',
          `Draw calls: ${r.keelson.orbitDrawCalls} in the last orbit frame, ${r.keelson.stillDrawCalls} in the still frame. ` +
            `Chunks in the view: ${r.keelson.chunksInView}, of them dropped by occlusion culling ${r.keelson.orbitChunksOccluded} (last orbit frame) and ${r.keelson.stillChunksOccluded} (still frame).`,
        );
    }
    const v = r.keelson.variants ?? {};
    if (Object.keys(v).length) {
      lines.push(
        '',
        'Keelson orbit median with factors switched off one at a time (same run, 4 frames each after one warm-up round):',
        '',
        '| variant | orbit median (ms) |',
        '|---|---:|',
      );
      for (const [name, ms] of Object.entries(v)) lines.push(`| ${name} | ${ms.toFixed(1)} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

function fmt(v: number, d: number): string {
  return Number.isFinite(v) ? v.toFixed(d) : 'n/a';
}

/** One ship's figures from runViewerSizes: Keelson's and the baseline's (null when skipped or failed). */
export interface ViewerResult {
  parts: number;
  keelson: BenchFigures;
  baseline: BenchFigures | null;
}

/** Options of runViewerSizes (defaults: the `viewer` suite's, from its environment variables). */
export interface ViewerRunOptions {
  /** Run the three.js baseline too (default: unless BENCH_SKIP_BASELINE=1). */
  baseline?: boolean;
  /** Keelson page options: load only (no gestures; the goals bench's largest ship). */
  loadOnly?: boolean;
  /** JS heap bound of the page (V8 --max-old-space-size), MB (default 8192). */
  pageHeapMB?: number;
  /** Makes a package that preparePackage cannot hold in memory (the goals bench's big ship). */
  prepare?: (parts: number) => Promise<string>;
}

/** The bench's Chromium: headless, SwiftShader (software WebGL), precise heap figures and gc(). */
export async function launchBenchBrowser(pageHeapMB = 8192) {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader',
      '--disable-background-networking',
      '--no-first-run',
      '--enable-precise-memory-info',
      `--js-flags=--expose-gc --max-old-space-size=${pageHeapMB}`,
    ],
  });
}

/**
 * Measures Keelson (and the baseline) in headless Chromium on the generated ships of `sizes` parts and
 * returns the figures (bench/viewer/page.ts BenchFigures) with the baseline failures, writing nothing.
 */
export async function runViewerSizes(
  sizes: number[],
  options: ViewerRunOptions = {},
): Promise<{ results: ViewerResult[]; failures: string[] }> {
  await mkdir(OUT, { recursive: true });
  const files = new Map<number, string>();
  for (const n of sizes) files.set(n, await (options.prepare ?? preparePackage)(n));
  await bundlePage();
  const server = await serve();
  const browser = await launchBenchBrowser(options.pageHeapMB);
  const results: ViewerResult[] = [];
  const failures: string[] = [];
  try {
    for (const n of sizes) {
      const url = `/${path.basename(files.get(n)!)}`;
      // BENCH_VARIANTS: part counts (comma-separated) at which the one-factor-at-a-time orbit variants run.
      const opts = {
        variants: (process.env.BENCH_VARIANTS ?? '')
          .split(',')
          .map((x) => Number(x.trim()))
          .includes(n),
        // BENCH_SHOTS=1: PNGs of the start view at rest and with interactive detail into bench/out/shot-<parts>-*.png.
        shots: process.env.BENCH_SHOTS === '1',
        loadOnly: options.loadOnly === true,
        // BENCH_TRIANGLE_STRIPS=0: surfaces drawn as triangle lists (scene/triangleStrips.ts), for A/B runs.
        triangleStrips: process.env.BENCH_TRIANGLE_STRIPS !== '0',
      };
      const run = async (fn: 'keelsonBench' | 'keelsonBaseline') => {
        const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
        // BENCH_TIMEOUT_MIN bounds one implementation's run (the baseline may not finish on the big ship).
        page.setDefaultTimeout(Number(process.env.BENCH_TIMEOUT_MIN ?? 0) * 60000);
        try {
          await page.goto(`${server.url}/`);
          await page.waitForFunction(() => 'keelsonBench' in globalThis);
          return (await page.evaluate(
            ([f, u, o]) =>
              (globalThis as unknown as Record<string, (u: string, o: object) => Promise<BenchFigures>>)[f](u, o),
            [fn, url, opts] as const,
          )) as BenchFigures;
        } finally {
          await page.close();
        }
      };
      console.error(`viewer bench: ${n} parts — Keelson engine …`);
      const keelson = await run('keelsonBench');
      for (const [name, url] of Object.entries(keelson.shots ?? {})) {
        await writeFile(
          path.join(OUT, `shot-${n}-${name}.png`),
          Buffer.from(url.slice(url.indexOf(',') + 1), 'base64'),
        );
      }
      delete keelson.shots;
      let baseline: BenchFigures | null = null;
      if (options.baseline ?? process.env.BENCH_SKIP_BASELINE !== '1') {
        console.error(`viewer bench: ${n} parts — baseline …`);
        try {
          baseline = await run('keelsonBaseline');
        } catch (e) {
          const why = (e as Error).message.split('\n')[0];
          console.error(`viewer bench: baseline failed at ${n} parts: ${why}`);
          failures.push(`${n.toLocaleString('en-US')} parts: the baseline did not finish (${why.slice(0, 160)}).`);
        }
      }
      results.push({ parts: n, keelson, baseline });
    }
  } finally {
    await browser.close();
    server.close();
  }
  return { results, failures };
}

/** Runs the suite; returns rows for bench/run.ts's table. */
export async function viewerSuite(): Promise<{ suite: string; case: string; value: number; unit: string }[]> {
  const sizes = (process.env.BENCH_SIZES ?? '10000,100000')
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => n > 0);
  if (sizes.length === 0) throw new Error(`BENCH_SIZES "${process.env.BENCH_SIZES}" names no part counts`);
  const { results, failures } = await runViewerSizes(sizes);
  await writeReadme(results, failures);
  return results.flatMap((r) =>
    ROWS.map(([k, label]) => ({
      suite: 'viewer',
      case: `${r.parts} parts: ${label}`,
      value: r.keelson[k],
      unit: r.baseline ? `(baseline ${fmt(r.baseline[k], 2)})` : '',
    })),
  );
}

async function writeReadme(results: ViewerResult[], failures: string[]): Promise<void> {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const machine = `${cpu}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.platform()} ${os.release()}; headless Chromium with SwiftShader (software WebGL)`;
  const section = [
    '## Viewer benchmark (`npm run bench -- viewer`)',
    '',
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine}.`,
    '',
    'Keelson = engine/Engine.ts (batched 16-bit chunks, state-table highlighting, chunk culling, objects under 1 px skipped, edges only',
    'on objects of 12 px or more, vertex-clustered LOD indices with cells of at most 1.5 px, single-sided surfaces, per-chunk BVH);',
    'baseline = three.js with one Mesh per part (Float32 positions and normals, Uint32 indices, single-sided Lambert) and Raycaster',
    'without a BVH. Both: 1280 × 720 canvas, pixel ratio 1, antialias on, the same camera path (orbit from 160°/10°, fitted, 1.2° per',
    'frame), each frame drawn synchronously and ended by a 1-pixel readback so the time includes the (software) GPU. Keelson settles',
    'its LOD levels for the start view first (the frames the engine draws by itself after a view change; not in the orbit figures).',
    "Keelson's orbit frames are drawn during a pointer drag, i.e. with interactive detail (engine/scene/ModelScene.ts `interactive`):",
    `no edges, objects under ${NAV_DETAIL_MIN_PX} px skipped, LOD cells up to ${NAV_LOD_MAX_PX} px (its levels are built at the drag's first step, before the measured`,
    'frames). The still frame is the full-quality frame drawn at the end view after the release (edges on objects of ≥ 12 px, objects',
    'under 1 px skipped, LOD cells ≤ 1.5 px), redrawn and finished 5 times; the baseline has one quality, so its still frame is its orbit frame.',
    'Pick: pointer down/up to selection (Keelson, BVHs and the box-selection hierarchy built beforehand by the idle builder) vs Raycaster.intersectObjects (baseline).',
    'Box selection: right-to-left over the middle third, the first box of the page (cold code). The baseline draws nothing until the whole package is in, so its first frame',
    'and full load coincide. Geometry bytes per triangle count every GPU buffer after the orbit and still frames (Keelson: positions,',
    'indices, edges, vertex-run textures, the LOD indices built for those views); "at load" is before any LOD level; the BVH row adds',
    "Keelson's picking BVHs (all built; the baseline has none).",
    '',
    ...(failures.length ? [...failures, ''] : []),
    table(results),
  ].join('\n');
  let text = existsSync(README) ? await readFile(README, 'utf8') : '# Benchmarks\n\n';
  const start = text.indexOf('## Viewer benchmark');
  if (start >= 0) {
    const next = text.indexOf('\n## ', start + 5);
    text = text.slice(0, start) + section + (next >= 0 ? text.slice(next) : '\n');
  } else text = `${text.trimEnd()}\n\n${section}\n`;
  await writeBenchReadme(text);
}
