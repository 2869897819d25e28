/**
 * One comparison measured in a process of its own (`node --expose-gc --import tsx bench/compare/compareChild.ts
 * TASK_JSON ANSWER_FILE`), so its peak memory is the comparison's and not the import's that made the revisions:
 * reads both revision directories (objects.json, properties.json, .sc → shape figures) and diffs them, sampling
 * the live heap after each step, writes the diff to ANSWER_FILE (as the cache would) and prints one JSON line:
 * { loadMs, diffMs, totalMs, cpuMs, heapPeakMb, maxRssMb, answerBytes }.
 */
import { writeFileSync } from 'node:fs';
import { type CompareTask, loadSnapshot } from '../../api/compare/computeComparison';
import { diffRevisions } from '../../api/compare/diffRevisions';

async function main(task: CompareTask, answerFile: string) {
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
  gc();
  const base = process.memoryUsage().heapUsed;
  let peak = 0;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage().heapUsed - base);
  };
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const a = await loadSnapshot(task.from);
  sample();
  const b = await loadSnapshot(task.to);
  sample();
  const t1 = performance.now();
  const d = diffRevisions(a, b);
  sample();
  const t2 = performance.now();
  const cpu = process.cpuUsage(cpu0);
  const answer = JSON.stringify(d);
  writeFileSync(answerFile, answer);
  const answerBytes = Buffer.byteLength(answer);
  return {
    loadMs: t1 - t0,
    diffMs: t2 - t1,
    totalMs: t2 - t0,
    cpuMs: (cpu.user + cpu.system) / 1000,
    heapPeakMb: peak / 2 ** 20,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    answerBytes,
  };
}

main(JSON.parse(process.argv[2]) as CompareTask, process.argv[3]).then(
  (r) => console.log(JSON.stringify(r)),
  (e) => {
    console.error((e as Error).message);
    process.exit(1);
  },
);
