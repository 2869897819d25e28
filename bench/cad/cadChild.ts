/**
 * One CAD file converted in a process of its own (`node --import tsx bench/cad/cadChild.ts FILE`), so its peak
 * memory is the conversion's: converts FILE twice with readCadFile (the readers the CAD worker threads run;
 * the first run includes the wasm start of OpenCascade or web-ifc, the second is warm) and prints one JSON
 * line: { triangles, meshes, coldMs, coldCpuMs, warmMs, warmCpuMs, baseRssMb, maxRssMb }. baseRssMb is the
 * process's resident memory before the first conversion (Node, tsx, the readers' modules loaded).
 */
import { readCadFile } from '../../api/cad/readCad';

async function timed(file: string) {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const c = await readCadFile(file);
  const cpu = process.cpuUsage(cpu0);
  return { c, ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000 };
}

async function main(file: string) {
  const baseRssMb = process.memoryUsage().rss / 2 ** 20;
  const cold = await timed(file);
  const warm = await timed(file);
  return {
    triangles: warm.c.triangles,
    meshes: warm.c.meshes.length,
    coldMs: cold.ms,
    coldCpuMs: cold.cpuMs,
    warmMs: warm.ms,
    warmCpuMs: warm.cpuMs,
    baseRssMb,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

main(process.argv[2]).then(
  (r) => console.log(JSON.stringify(r)),
  (e) => {
    console.error((e as Error).message);
    process.exit(1);
  },
);
