/**
 * `npm run bench -- fuzz`: the importer and upload fuzz at full size (bench/README.md "Fuzzing"). Runs
 * FUZZ_CASES (default 10,000) seeded OCX cases on every shared sample up to 400 KB with mutations growing
 * inputs up to 16 MB (a case is a hang past FUZZ_HANG_CPU_S, default 120, seconds of CPU time of its import
 * thread, or past FUZZ_HANG_WALL_S, default 1,200, of wall clock), FUZZ_ZIP_CASES (default 1,000) zip
 * archives and FUZZ_BCF_CASES (default 500) BCF packages (a hang past the same CPU time), seeds from FUZZ_SEED (default 100,001, disjoint
 * from CI's 1…1,000). Reports cases, outcomes by class, the bounds, the slowest case and peak memory; every
 * finding and the slowest cases are printed with their seed on stderr, so they are reproduced with
 * `ocxCase(seed, …)`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { objectIndex } from '../../api/comments/bcf/viewpoint';
import { importOcxFile } from '../../engine/node/ocx/importFile';
import { BCF_FINDINGS, describeBcf, loadBcfBases, runBcfFuzz } from '../../tests/fuzz/bcfHarness';
import {
  countByClass,
  describeBounds,
  describeResult,
  FINDINGS,
  type FuzzResult,
  type FuzzRunOptions,
  hangBounds,
  loadBases,
  OCX_SAMPLES,
  runOcxFuzz,
} from '../../tests/fuzz/ocxHarness';
import { describeZip, runZipFuzz, ZIP_FINDINGS } from '../../tests/fuzz/zipHarness';
import type { BenchRow } from '../run';

/** OCX cases between two progress lines on stderr. */
const PROGRESS_EVERY = 100;

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const seeds = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

/** Rows of one harness: cases, each class, slowest case. */
function summary(
  suite: string,
  results: readonly { kind: string; ms: number }[],
  classes: readonly string[],
): BenchRow[] {
  const slowest = results.reduce((a, b) => (b.ms > a.ms ? b : a), results[0]);
  return [
    { suite, case: 'cases', value: results.length, unit: 'cases' },
    ...classes.map((k) => ({
      suite,
      case: `outcome ${k}`,
      value: results.filter((r) => r.kind === k).length,
      unit: 'cases',
    })),
    { suite, case: 'slowest case', value: slowest?.ms ?? 0, unit: 'ms' },
    {
      suite,
      case: 'median case',
      value: [...results].sort((a, b) => a.ms - b.ms)[results.length >> 1]?.ms ?? 0,
      unit: 'ms',
    },
  ];
}

/** The fuzz suite. */
export async function fuzzSuite(): Promise<BenchRow[]> {
  const from = num('FUZZ_SEED', 100_001);
  const rows: BenchRow[] = [];
  const started = performance.now();

  const names = readdirSync(OCX_SAMPLES)
    .filter((f) => f.endsWith('.3docx') && statSync(path.join(OCX_SAMPLES, f)).size <= 400_000)
    .sort();
  const ocxCases = num('FUZZ_CASES', 10_000);
  // The results so far, for the progress lines: `ocx` is only assigned once the whole run has ended.
  const seen: FuzzResult[] = [];
  // CPU time of the import thread: on a shared machine a wall-clock bound took cases that waited for a core
  const bound: Pick<FuzzRunOptions, 'hangCpuMs' | 'hangWallMs'> = {
    hangCpuMs: num('FUZZ_HANG_CPU_S', 120) * 1000,
    hangWallMs: num('FUZZ_HANG_WALL_S', 1200) * 1000,
  };
  console.error(`fuzz: hang bound ${describeBounds(hangBounds(bound))}`);
  const ocx: FuzzResult[] = await runOcxFuzz({
    seeds: seeds(from, ocxCases),
    bases: loadBases(names),
    limits: { maxGrowBytes: 16 << 20 },
    ...bound,
    memoryMb: 2048,
    onResult: (r) => {
      if (FINDINGS.includes(r.kind)) console.error(`fuzz finding: ${describeResult(r)}`);
      // Often enough that a run stopped on a loaded machine still tells how far it got (and with what CPU).
      seen.push(r);
      if (seen.length % PROGRESS_EVERY === 0)
        console.error(
          `fuzz: ${seen.length}/${ocxCases} OCX cases after ${((performance.now() - started) / 1000).toFixed(0)} s, ` +
            `${(process.cpuUsage().user / 1e6).toFixed(0)} s CPU (${JSON.stringify(countByClass(seen))})`,
        );
    },
  });
  const counts = countByClass(ocx);
  rows.push(...summary('fuzz ocx', ocx, Object.keys(counts)));
  const applied = hangBounds(bound);
  if (applied.cpuMs !== undefined)
    rows.push({ suite: 'fuzz ocx', case: 'hang bound: import thread CPU', value: applied.cpuMs / 1000, unit: 's' });
  rows.push({
    suite: 'fuzz ocx',
    case: applied.cpuMs === undefined ? 'hang bound: wall clock' : 'hang safety bound: wall clock',
    value: applied.wallMs / 1000,
    unit: 's',
  });
  rows.push({
    suite: 'fuzz ocx',
    case: 'slowest case, import thread CPU',
    value: Math.max(0, ...ocx.map((r) => r.cpuMs ?? 0)),
    unit: 'ms',
  });
  rows.push({
    suite: 'fuzz ocx',
    case: 'peak heap of one import',
    value: Math.max(0, ...ocx.map((r) => r.heapMb)),
    unit: 'MB',
  });
  rows.push({
    suite: 'fuzz ocx',
    case: 'largest input',
    value: Math.max(0, ...ocx.map((r) => r.bytes)) / 1e6,
    unit: 'MB',
  });
  for (const r of [...ocx].sort((a, b) => b.ms - a.ms).slice(0, 3))
    console.error(`fuzz slow: ${r.ms.toFixed(0)} ms ${describeResult(r)}`);

  const zipCases = num('FUZZ_ZIP_CASES', 1000);
  const zip = await runZipFuzz(
    seeds(from, zipCases),
    { ocx: readFileSync(path.join(OCX_SAMPLES, 'NAPA-OCX_M1.3docx')), bombBytes: 64 << 20, maxEntries: 70000 },
    4 << 20,
    120_000,
    (r) => {
      if (ZIP_FINDINGS.includes(r.kind)) console.error(`fuzz finding: ${describeZip(r)}`);
    },
  );
  rows.push(...summary('fuzz zip', zip, ['extracted', 'refused', ...ZIP_FINDINGS]));

  const bcfCases = num('FUZZ_BCF_CASES', 500);
  const model = await importOcxFile(path.join(OCX_SAMPLES, 'NAPA-OCX_M1.3docx'));
  const bcf = runBcfFuzz(
    seeds(from, bcfCases),
    loadBcfBases(),
    objectIndex(model.objects),
    8 << 20,
    (r) => {
      if (BCF_FINDINGS.includes(r.kind)) console.error(`fuzz finding: ${describeBcf(r)}`);
    },
    bound.hangCpuMs ?? 120_000,
  );
  rows.push(...summary('fuzz bcf', bcf, ['imported', 'refused', ...BCF_FINDINGS]));
  rows.push({
    suite: 'fuzz bcf',
    case: 'slowest case, CPU',
    value: Math.max(0, ...bcf.map((r) => r.cpuMs)),
    unit: 'ms',
  });
  for (const r of [...bcf].sort((a, b) => b.cpuMs - a.cpuMs).slice(0, 3))
    console.error(`fuzz slow: ${r.ms.toFixed(0)} ms ${describeBcf(r)}`);

  rows.push({
    suite: 'fuzz',
    case: 'peak RSS (process and import thread)',
    value: process.resourceUsage().maxRSS / 1024,
    unit: 'MB',
  });
  rows.push({ suite: 'fuzz', case: 'wall time', value: (performance.now() - started) / 1000, unit: 's' });
  return rows;
}
