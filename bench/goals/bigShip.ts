/**
 * `node --max-old-space-size=N --import tsx bench/goals/bigShip.ts PARTS`: makes bench/out/ship-PARTS.sc
 * for ships too large for the in-memory path of bench/viewer/runViewerBench.ts preparePackage: generates
 * the OCX (tools/generator, seed 1, streamed to disk) unless present, then packages it chunk by chunk
 * (./streamPackage.ts). Prints one JSON line of StreamPackageStats plus the generator's figures. Run as a
 * child process by the goals bench so its heap bound and its memory are its own.
 */
import { existsSync } from 'node:fs';
import { mkdir, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeShipOcx } from '../../tools/generator/index';
import { streamPackage } from './streamPackage';

const OUT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../out');

async function main(): Promise<void> {
  const parts = Number(process.argv[2]);
  if (!Number.isInteger(parts) || parts <= 0)
    throw new Error(`bigShip: PARTS must be a positive integer, got "${process.argv[2]}"`);
  await mkdir(OUT, { recursive: true });
  const ocx = path.join(OUT, `ship-${parts}.3docx`);
  const sc = path.join(OUT, `ship-${parts}.sc`);
  const log = (m: string) => console.error(`big ship ${parts}: ${m}`);
  let generateMs = 0;
  if (!existsSync(ocx)) {
    log(`generating ${ocx} …`);
    const t = performance.now();
    // Written under a temporary name so an interrupted run does not leave a truncated file to reuse.
    await writeShipOcx(`${ocx}.part`, { targetParts: parts, seed: 1 });
    await rename(`${ocx}.part`, ocx);
    generateMs = performance.now() - t;
  }
  // Tessellation threads besides the reading one (BENCH_GOALS_PACKAGER_THREADS, default 0). The threads once
  // refused this process's --max-old-space-size and the import then waited for ever (fixed: tsxExecArgv.ts
  // workerExecArgv); one thread stays the default, as on the 2 cores the packaging was measured on.
  const threads = Number(process.env.BENCH_GOALS_PACKAGER_THREADS ?? 0);
  const stats = await streamPackage(ocx, `${sc}.part`, log, threads);
  await rename(`${sc}.part`, sc);
  console.log(JSON.stringify({ ...stats, generateMs, ocxBytes: (await stat(ocx)).size }));
}

main().catch((e) => {
  console.error(`bigShip: ${(e as Error).stack ?? e}`);
  process.exit(1);
});
