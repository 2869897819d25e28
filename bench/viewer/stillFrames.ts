/**
 * Still-frame comparison in one headless Chromium session (the bench page, engine on the page's main
 * thread): `node --import tsx bench/viewer/stillFrames.ts [parts] [rounds]`. Loads the bench ship into the
 * Keelson engine and the three.js baseline side by side, then draws, in each round and interleaved, the
 * Keelson full-quality frame at the fitted 160°/10° view with each variant below and the baseline's frame at
 * the same view, every frame finished by a 1-pixel readback. Prints per variant the wall time (ms) and the
 * CPU time of all browser processes (ms, from /proc; less disturbed by other jobs on a shared machine than
 * the wall time), min and median over the rounds, so ratios come from one run under the same load.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { bundlePage, launchBenchBrowser, preparePackage, serve } from './runViewerBench';

/** Keelson variants: page-side code run before the variant's frames (`m` = the ModelScene). */
const VARIANTS: Record<string, string> = {
  'Keelson still frame':
    'm.rowOcclusionEnabled = true; m.chunks.forEach((c) => { c.edges?.layers.enable(0); c.rowEdges?.layers.enable(0); });',
  'Keelson without edges':
    'm.rowOcclusionEnabled = true; m.chunks.forEach((c) => { c.edges?.layers.disable(0); c.rowEdges?.layers.disable(0); });',
  // Chunks drawn whole, hidden objects included (before ModelScene.rowOcclusionEnabled).
  'Keelson, chunks drawn whole': 'm.rowOcclusionEnabled = false; m.chunks.forEach((c) => c.edges?.layers.enable(0));',
};

/** User + system CPU time (ms) of process `root` and its descendants (Linux /proc; clock ticks of 10 ms). */
function cpuMs(root: number): number {
  const parent = new Map<number, number>();
  const ticks = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const s = readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(d), Number(f[1]));
      ticks.set(Number(d), Number(f[11]) + Number(f[12]));
    } catch {
      // The process ended meanwhile.
    }
  }
  let sum = 0;
  for (const [pid, t] of ticks) {
    let p: number | undefined = pid;
    while (p !== undefined && p > 1 && p !== root) p = parent.get(p);
    if (p === root) sum += t;
  }
  return sum * 10;
}

function summary(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  return `min ${s[0].toFixed(0).padStart(5)}  median ${s[s.length >> 1].toFixed(0).padStart(5)}`;
}

async function main(): Promise<void> {
  const parts = Number(process.argv[2] ?? 10000);
  const rounds = Number(process.argv[3] ?? 5);
  const file = await preparePackage(parts);
  await bundlePage();
  const server = await serve();
  const browser = await launchBenchBrowser();
  // Chromium runs as a child of this process.
  const root = process.pid;
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    page.setDefaultTimeout(0);
    await page.goto(`${server.url}/`);
    await page.waitForFunction(() => 'keelsonGestureSetup' in globalThis);
    const url = `/${path.basename(file)}`;
    // Code as strings: the page runs it as written (no bundler helpers in functions passed to evaluate).
    await page.evaluate(`(async () => {
      await keelsonGestureSetup(${JSON.stringify(url)});
      const e = keelsonEngine, ins = e.inspect(), m = ins.model;
      const gl = document.querySelector('canvas').getContext('webgl2');
      e.orbitTo(160, 10, 0);
      e.fitToWindow();
      for (let k = 0; k < 60 && (k === 0 || m.lodPending); k++) { ins.invalidate(); ins.loop.frame(); }
      globalThis.keelsonStill = () => {
        const t = performance.now();
        ins.invalidate();
        ins.loop.frame();
        gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
        return performance.now() - t;
      };
      globalThis.keelsonStillModel = m;
      await keelsonBaseline(${JSON.stringify(url)}, { keep: true });
    })()`);
    const frame = async (code: string): Promise<{ ms: number; cpu: number }> => {
      const c0 = cpuMs(root);
      const ms = (await page.evaluate(code)) as number;
      return { ms, cpu: cpuMs(root) - c0 };
    };
    const keelson = (setup: string) =>
      frame(`(() => { const m = globalThis.keelsonStillModel; ${setup} return keelsonStill(); })()`);
    const baseline = () =>
      frame('(() => { const t = performance.now(); keelsonBaselineFrame(160); return performance.now() - t; })()');
    const wall = new Map<string, number[]>();
    const cpu = new Map<string, number[]>();
    const add = (k: string, r: { ms: number; cpu: number }) => {
      wall.set(k, [...(wall.get(k) ?? []), r.ms]);
      cpu.set(k, [...(cpu.get(k) ?? []), r.cpu]);
    };
    // Warm-up: shader compilation, uploads.
    for (const setup of Object.values(VARIANTS)) await keelson(setup);
    await baseline();
    for (let r = 0; r < rounds; r++) {
      for (const [name, setup] of Object.entries(VARIANTS)) {
        // Until the variant's edge levels are written again (a switch from full edges takes frames).
        await page.evaluate(`(() => { const m = globalThis.keelsonStillModel; ${setup}
          for (let k = 0; k < 60 && (k < 2 || m.lodPending); k++) keelsonStill(); })()`);
        add(name, await keelson(setup));
      }
      add('baseline (one Mesh per part)', await baseline());
    }
    await keelson(Object.values(VARIANTS)[0]);
    console.log(`still frames at ${parts} parts, ${rounds} rounds (wall ms | CPU ms of all browser processes):`);
    for (const [k, v] of wall) console.log(`${k.padEnd(34)} wall ${summary(v)} | cpu ${summary(cpu.get(k) ?? [])}`);
  } finally {
    await browser.close();
    server.close();
  }
}

await main();
