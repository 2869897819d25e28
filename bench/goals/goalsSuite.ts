/**
 * `npm run bench` (no suite named) or `npm run bench -- goals`: every performance goal (frame time, sections, memory, picking) against its baseline
 * in one table, printed and written as the first section of bench/README.md (replaced on each run). The
 * figures come from the suites' own runners, called BENCH_RUNS times: the viewer bench in Chromium
 * (bench/viewer/runViewerBench.ts runViewerSizes: orbit, draw calls, still frame, box selection, bytes per
 * triangle, first triangles), the tools bench in Node (bench/tools/toolsSuite.ts runToolsSize: sections X/Y/Z
 * against the linear scan, snap, the WebAssembly and TypeScript kernels) and the pick bench in Node
 * (bench/viewer/pickSuite.ts runPickSize); then the big ship once (./bigShipRun.ts). Ratios are taken within
 * one run (both sides under the same load), then their median, min and max over the runs. Sizes: ./goalsConfig.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ToolsFigures, runToolsSize } from '../tools/toolsSuite';
import { type PickFigures, runPickSize } from '../viewer/pickSuite';
import { type ViewerResult, runViewerSizes } from '../viewer/runViewerBench';
import { type BigShipFigures, measureBigShip } from './bigShipRun';
import { type GoalsConfig, goalsConfig } from './goalsConfig';
import { GOALS_HEADING, type GoalRow, formatGoalsTable, replaceGoalsSection } from './goalsTable';
import { writeBenchReadme } from '../benchReadme';

const here = path.dirname(fileURLToPath(import.meta.url));
const README = path.resolve(here, '../README.md');

/** One run's figures from each runner. */
interface RunFigures {
  orbit: ViewerResult;
  small: ViewerResult;
  sections: ToolsFigures;
  snap: ToolsFigures;
  pick: PickFigures;
}

const k = (n: number) => n.toLocaleString('en-US');
const ratio = (base: number | undefined, ours: number | undefined) =>
  base !== undefined && ours !== undefined && ours > 0 ? base / ours : Number.NaN;
const nan = (v: number | undefined) => v ?? Number.NaN;

/** The goal rows of the runs (and of the big ship's runs), in the order of the goals list (orbit, sections, bytes, picking, still frame, memory). */
export function goalRows(cfg: GoalsConfig, runs: RunFigures[], big: BigShipFigures[]): GoalRow[] {
  const rows: GoalRow[] = [];
  const of = <T>(xs: T[], f: (x: T) => number | undefined) => xs.map((x) => nan(f(x)));
  const orbitK = (r: RunFigures) => r.orbit.keelson,
    orbitB = (r: RunFigures) => r.orbit.baseline;
  rows.push(
    {
      figure: `orbit frame time at ${k(cfg.orbitParts)} parts, ms (result: baseline ÷ Keelson)`,
      keelson: of(runs, (r) => orbitK(r).orbitMedianMs),
      baseline: of(runs, (r) => orbitB(r)?.orbitMedianMs),
      result: of(runs, (r) => ratio(orbitB(r)?.orbitMedianMs, orbitK(r).orbitMedianMs)),
      unit: '×',
      goal: { kind: 'atLeast', value: 10 },
      digits: 1,
    },
    {
      figure: `draw calls of the last orbit frame at ${k(cfg.orbitParts)} parts`,
      keelson: [],
      baseline: [],
      result: of(runs, (r) => orbitK(r).orbitDrawCalls),
      unit: 'calls',
      goal: { kind: 'atMost', value: 2000 },
      digits: 0,
    },
  );
  for (const axis of ['X', 'Y', 'Z'])
    rows.push({
      figure: `section ${axis} at ${k(cfg.sectionParts)} parts, ms (result: linear scan ÷ index, same kernel)`,
      keelson: of(runs, (r) => r.sections[`section${axis}.index`]),
      baseline: of(runs, (r) => r.sections[`section${axis}.linear`]),
      result: of(runs, (r) => ratio(r.sections[`section${axis}.linear`], r.sections[`section${axis}.index`])),
      unit: '×',
      goal: { kind: 'atLeast', value: 30 },
      digits: 1,
    });
  rows.push(
    {
      figure: `GPU geometry bytes per triangle after the LOD levels at ${k(cfg.orbitParts)} parts (baseline: one Mesh per part)`,
      keelson: [],
      baseline: of(runs, (r) => orbitB(r)?.bytesPerTriangle),
      result: of(runs, (r) => orbitK(r).bytesPerTriangle),
      unit: 'B',
      goal: { kind: 'atMost', value: 12 },
      digits: 2,
    },
    {
      figure: `GPU geometry + picking BVH bytes per triangle at ${k(cfg.orbitParts)} parts`,
      keelson: [],
      baseline: [],
      result: of(runs, (r) => orbitK(r).bvhBytesPerTriangle),
      unit: 'B',
      goal: { kind: 'atMost', value: 25 },
      digits: 2,
    },
    {
      figure: `pick at ${k(cfg.pickParts)} parts, ms, Node (result: Raycaster without BVH ÷ Keelson)`,
      keelson: of(runs, (r) => r.pick.keelsonMs),
      baseline: of(runs, (r) => r.pick.baselineMs),
      result: of(runs, (r) => ratio(r.pick.baselineMs, r.pick.keelsonMs)),
      unit: '×',
      goal: { kind: 'atLeast', value: 1000 },
      digits: 3,
      resultDigits: 0,
    },
    {
      figure: `snap under the cursor at ${k(cfg.snapParts)} parts, median ms (baseline: linear scan near the ray)`,
      keelson: [],
      baseline: of(runs, (r) => r.snap['snap.linear']),
      result: of(runs, (r) => r.snap['snap.median']),
      unit: 'ms',
      goal: { kind: 'atMost', value: 16 },
      digits: 2,
    },
    {
      figure: `still frame at ${k(cfg.smallParts)} parts, ms (result: baseline ÷ Keelson)`,
      keelson: of(runs, (r) => r.small.keelson.stillMedianMs),
      baseline: of(runs, (r) => r.small.baseline?.stillMedianMs),
      result: of(runs, (r) => ratio(r.small.baseline?.stillMedianMs, r.small.keelson.stillMedianMs)),
      unit: '×',
      goal: { kind: 'atLeast', value: 1 },
      digits: 2,
    },
    {
      figure: `box selection at ${k(cfg.smallParts)} parts, ms (result: baseline ÷ Keelson)`,
      keelson: of(runs, (r) => r.small.keelson.boxMs),
      baseline: of(runs, (r) => r.small.baseline?.boxMs),
      result: of(runs, (r) => ratio(r.small.baseline?.boxMs, r.small.keelson.boxMs)),
      unit: '×',
      goal: { kind: 'atLeast', value: 1 },
      digits: 2,
    },
    {
      figure: `package arrived when the first triangles were drawn at ${k(cfg.orbitParts)} parts`,
      keelson: [],
      baseline: [],
      result: of(runs, (r) => orbitK(r).firstFrameAtPercent),
      unit: '%',
      goal: { kind: 'below', value: 25 },
      digits: 1,
    },
  );
  if (big.length) {
    const p = k(big[0].parts);
    const info = (figure: string, f: (b: BigShipFigures) => number, unit: string, digits: number): GoalRow => ({
      figure,
      keelson: [],
      baseline: [],
      result: big.map(f),
      unit,
      goal: { kind: 'report' },
      digits,
    });
    rows.push(
      {
        figure: `${p}-part ship: browser peak memory, sum of Chromium's processes' PSS, MB (machine: ${k(Math.round(os.totalmem() / 1e6))} MB)`,
        keelson: [],
        baseline: [],
        result: big.map((b) => b.peakPss.pssMB),
        unit: 'MB',
        goal: { kind: 'below', value: Math.round(os.totalmem() / 1e6) },
        digits: 0,
      },
      info(`${p}-part ship: browser peak memory, sum of RSS, MB`, (b) => b.peakRss.rssMB, 'MB', 0),
      info(`${p}-part ship: time to first frame, ms`, (b) => b.firstFrameMs, 'ms', 0),
      {
        figure: `${p}-part ship: package arrived at the first frame`,
        keelson: [],
        baseline: [],
        result: big.map((b) => b.firstFrameAtPercent),
        unit: '%',
        goal: { kind: 'below', value: 25 },
        digits: 1,
      },
      info(`${p}-part ship: fully loaded, ms`, (b) => b.loadedMs, 'ms', 0),
      info(`${p}-part ship: picking BVHs, box hierarchy and its warm-up built, ms`, (b) => b.readyMs, 'ms', 0),
      info(`${p}-part ship: JS heap after load, MB`, (b) => b.heapMB, 'MB', 0),
    );
  }
  const kernel = (figure: string, ts: string, wasm: string, digits = 2): GoalRow => ({
    figure: `${figure} at ${k(cfg.sectionParts)} parts, ms: WebAssembly (Keelson column) vs TypeScript (baseline column)`,
    keelson: of(runs, (r) => r.sections[wasm]),
    baseline: of(runs, (r) => r.sections[ts]),
    result: of(runs, (r) => ratio(r.sections[ts], r.sections[wasm])),
    unit: '×',
    goal: { kind: 'report' },
    digits,
    resultDigits: 2,
  });
  rows.push(
    kernel('kernel: slice every triangle at the middle Y plane', 'kernel.sliceTs', 'kernel.sliceWasm'),
    kernel('kernel: chain those segments per batch', 'kernel.chainTs', 'kernel.chainWasm'),
    kernel('section X through the index', 'sectionX.indexTs', 'sectionX.index'),
    kernel('section Y through the index', 'sectionY.indexTs', 'sectionY.index'),
    kernel('section Z through the index', 'sectionZ.indexTs', 'sectionZ.index'),
    kernel('section index build (block extents, batch copy)', 'indexBuildTs', 'indexBuildWasm', 0),
    {
      figure: `kernel linear memory after the index build at ${k(cfg.sectionParts)} parts, MB`,
      keelson: [],
      baseline: [],
      result: of(runs, (r) => r.sections.kernelMemoryMB),
      unit: 'MB',
      goal: { kind: 'report' },
      digits: 0,
    },
  );
  return rows;
}

/** Runs every runner BENCH_RUNS times and the big ship; returns the README section (also printed). */
export async function runGoals(cfg: GoalsConfig = goalsConfig()): Promise<string> {
  const started = new Date();
  const loads: number[] = [os.loadavg()[0]];
  const runs: RunFigures[] = [];
  const viewerSizes = [...new Set([cfg.orbitParts, cfg.smallParts])];
  for (let i = 0; i < cfg.runs; i++) {
    const say = (what: string) => console.error(`goals bench: run ${i + 1}/${cfg.runs}: ${what} …`);
    say(`viewer at ${viewerSizes.join(', ')} parts`);
    const viewer = await runViewerSizes(viewerSizes, { baseline: true });
    for (const f of viewer.failures) console.error(`goals bench: ${f}`);
    const at = (n: number) => viewer.results.find((r) => r.parts === n)!;
    loads.push(os.loadavg()[0]);
    say(`sections at ${cfg.sectionParts} parts`);
    const sections = (await runToolsSize(cfg.sectionParts, { snap: false })).figures;
    say(`snap at ${cfg.snapParts} parts`);
    const snap = (await runToolsSize(cfg.snapParts, { sections: false })).figures;
    say(`pick at ${cfg.pickParts} parts`);
    const pick = (await runPickSize(cfg.pickParts)).figures;
    loads.push(os.loadavg()[0]);
    runs.push({ orbit: at(cfg.orbitParts), small: at(cfg.smallParts), sections, snap, pick });
  }
  const big: BigShipFigures[] = [];
  for (let i = 0; cfg.bigParts > 0 && i < cfg.bigRuns; i++) {
    console.error(`goals bench: opening the ${cfg.bigParts}-part ship (${i + 1}/${cfg.bigRuns}) …`);
    big.push(await measureBigShip(cfg.bigParts));
    loads.push(os.loadavg()[0]);
  }
  const section = goalsSection(cfg, runs, big, started, loads);
  console.log(section);
  const readme = existsSync(README) ? await readFile(README, 'utf8') : '# Benchmarks\n\n';
  await writeBenchReadme(replaceGoalsSection(readme, section));
  return section;
}

/** The whole README section: how it was run, the table, where the big ship's memory went, what helped. */
function goalsSection(
  cfg: GoalsConfig,
  runs: RunFigures[],
  big: BigShipFigures[],
  started: Date,
  loads: number[],
): string {
  const stamp = (d: Date) => d.toISOString().slice(0, 16).replace('T', ' ');
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const lines = [
    GOALS_HEADING,
    '',
    `Run ${stamp(started)}–${stamp(new Date()).slice(11)} UTC${cfg.quick ? ' (**BENCH_GOALS_QUICK: small sizes, plumbing check only — the goals are set at the full sizes**)' : ''} on ${cpu}, ` +
      `${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; load average (1 min) during the run ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}. ` +
      `${cfg.runs ? `${cfg.runs} runs of each figure (BENCH_RUNS)` : 'BENCH_RUNS=0: the big ship only'}; every ratio is taken within one run, then the median, min and max over the runs. ` +
      'Keelson and baseline columns are medians of their own figures. Sources: the viewer bench in Chromium with SwiftShader ' +
      '(`npm run bench -- viewer`, its section below explains the method), the tools bench (`-- tools`, wall clock unless ' +
      'BENCH_CLOCK=cpu) and the pick bench (`-- pick`) in Node; sizes from `bench/goals/goalsConfig.ts`.',
    '',
    formatGoalsTable(goalRows(cfg, runs, big)),
    '',
  ];
  for (const b of big) {
    const kinds = Object.entries(b.peakPss.byKind)
      .sort((x, y) => y[1] - x[1])
      .map(([kind, mb]) => `${kind} ${k(Math.round(mb))} MB`)
      .join(', ');
    lines.push(
      `**${k(b.parts)}-part ship** (${k(b.objects)} objects, ${k(b.triangles)} triangles, package ${k(Math.round(b.packageMB))} MB; ` +
        `Chromium's page heap bound ${process.env.BENCH_GOALS_PAGE_HEAP_MB ?? 16384} MB, \`--js-flags=--max-old-space-size\`): ` +
        `at the PSS peak (${b.peakPss.processes} processes) ${kinds}. GPU geometry at load ${b.loadBytesPerTriangle.toFixed(2)} B/triangle ` +
        `(${k(Math.round((b.loadBytesPerTriangle * b.triangles) / 1e6))} MB).` +
        (b.made
          ? ` Package made in this run: OCX ${k(Math.round(b.made.ocxBytes / 1e6))} MB generated in ${k(Math.round(b.made.generateMs / 1000))} s, ` +
            `imported with the meshes spilled to disk in ${k(Math.round(b.made.importMs / 1000))} s (spill ${k(Math.round(b.made.spillBytes / 1e6))} MB), ` +
            `${k(b.made.chunks)} chunks planned in ${k(Math.round(b.made.planMs / 1000))} s and encoded in ${k(Math.round(b.made.encodeMs / 1000))} s; ` +
            `packager peak RSS ${k(Math.round(b.made.peakRssMB))} MB.`
          : ''),
      '',
    );
  }
  lines.push(readFileSync(path.join(here, 'whatHelped.md'), 'utf8').trimEnd(), '');
  return lines.join('\n');
}

/** Rows for bench/run.ts's generic table (`npm run bench -- goals` prints them after the section). */
export async function goalsSuite(): Promise<{ suite: string; case: string; value: number; unit: string }[]> {
  await runGoals();
  return [];
}
