/**
 * Box selection before/after and against the baseline in one headless Chromium session:
 * `node --import tsx bench/viewer/boxGestures.ts [parts] [rounds] [git ref] [--full]`. Bundles this
 * checkout's bench page and, with a git ref, the page of that commit (its tree unpacked under
 * the temporary directory, bundled to bench/out/page-<ref>.js), then in each round, in rotating order, opens a
 * fresh page per side so every box is the page's first gesture (as a user's first box after loading):
 * - Keelson (each bundle): `keelsonGestureSetup` (load, picking BVHs, the box hierarchy and — from 804441b on —
 *   its warm-up boxes done by the idle builder, fitted view), then the first box (right to left over the middle third, as the viewer bench) and
 *   four more (warm);
 * - the baseline: `keelsonBaseline` (load, first frame, 10 orbit frames, picks, then its one box).
 * With --full each Keelson side runs the whole viewer bench page (`keelsonBench`: orbit, still frames,
 * picks, then the box — exactly what `npm run bench -- viewer` and the goals table report) and the still
 * frame is printed too. Prints min / median over the rounds (wall ms) and the load average.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import type { BenchFigures } from './page';
import { bundlePage, launchBenchBrowser, preparePackage, serve } from './runViewerBench';

const here = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(here, '../..');

/**
 * Unpacks commit `ref` into the temporary directory (outside the checkout, so neither the type check nor
 * the tests see it; this checkout's node_modules linked in) and bundles its bench page into bench/out.
 */
async function bundleRef(ref: string): Promise<string> {
  const sha = execFileSync('git', ['rev-parse', '--short', ref], { cwd: REPO, encoding: 'utf8' }).trim();
  const dir = path.join(os.tmpdir(), `keelson-ab-${sha}`);
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true });
    execFileSync('sh', ['-c', `git archive ${sha} | tar -x -C ${JSON.stringify(dir)}`], { cwd: REPO });
    symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'));
  }
  const name = `page-${sha}.js`;
  await bundlePage(path.join(dir, 'bench/viewer/page.ts'), name);
  return name;
}

function summary(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return '–';
  const f = (v: number) => v.toFixed(1).padStart(7);
  return `min ${f(s[0])}  median ${f(s[(s.length - 1) >> 1])}  (${xs.map((v) => v.toFixed(1)).join(', ')})`;
}

const load = () =>
  os
    .loadavg()
    .map((v) => v.toFixed(1))
    .join(' ');

async function main(): Promise<void> {
  const args = process.argv.slice(2).filter((a) => a !== '--full');
  const full = process.argv.includes('--full');
  const parts = Number(args[0] ?? 10000);
  const rounds = Number(args[1] ?? 5);
  const ref = args[2];
  const file = await preparePackage(parts);
  const url = `/${path.basename(file)}`;
  await bundlePage();
  const sides: { name: string; bundle: string | null }[] = [{ name: 'Keelson (this checkout)', bundle: 'page.js' }];
  if (ref) sides.unshift({ name: `Keelson (${ref})`, bundle: await bundleRef(ref) });
  sides.push({ name: 'baseline (one Mesh per part)', bundle: null });
  const server = await serve();
  const browser = await launchBenchBrowser();
  const cold = new Map<string, number[]>(),
    warm = new Map<string, number[]>(),
    still = new Map<string, number[]>();
  const add = (m: Map<string, number[]>, k: string, v: number) => m.set(k, [...(m.get(k) ?? []), v]);
  const open = async (bundle: string): Promise<Page> => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    page.setDefaultTimeout(0);
    await page.goto(`${server.url}/?page=${bundle}`);
    await page.waitForFunction(() => 'keelsonGestureSetup' in globalThis);
    return page;
  };
  console.log(`box selection at ${parts} parts, ${rounds} rounds${full ? ' (whole bench page)' : ''}; load ${load()}`);
  try {
    for (let r = 0; r < rounds; r++) {
      // Rotate the order so no side always runs first (or right after the baseline's big heap).
      const order = sides.map((_, i) => sides[(i + r) % sides.length]);
      for (const side of order) {
        const page = await open(side.bundle ?? 'page.js');
        try {
          if (!side.bundle) {
            const f = (await page.evaluate(`keelsonBaseline(${JSON.stringify(url)}, {})`)) as BenchFigures;
            add(cold, side.name, f.boxMs);
            add(still, side.name, f.stillMedianMs);
          } else if (full) {
            const f = (await page.evaluate(`keelsonBench(${JSON.stringify(url)}, {})`)) as BenchFigures;
            add(cold, side.name, f.boxMs);
            add(still, side.name, f.stillMedianMs);
          } else {
            await page.evaluate(`keelsonGestureSetup(${JSON.stringify(url)})`);
            const times = (await page.evaluate(
              'Array.from({ length: 5 }, (_, i) => keelsonGesture("box", i).ms)',
            )) as number[];
            add(cold, side.name, times[0]);
            add(warm, side.name, Math.min(...times.slice(1)));
          }
        } finally {
          await page.close();
        }
      }
      console.log(`round ${r + 1} done; load ${load()}`);
    }
    console.log(`first box of the page (ms):`);
    for (const s of sides) console.log(`  ${s.name.padEnd(30)} ${summary(cold.get(s.name) ?? [])}`);
    if (!full) {
      console.log(`later boxes, fastest of 4 (ms):`);
      for (const s of sides.filter((x) => x.bundle))
        console.log(`  ${s.name.padEnd(30)} ${summary(warm.get(s.name) ?? [])}`);
    } else {
      console.log(`still frame, median of the page's 5 (ms):`);
      for (const s of sides) console.log(`  ${s.name.padEnd(30)} ${summary(still.get(s.name) ?? [])}`);
    }
    console.log(`load ${load()}`);
  } finally {
    await browser.close();
    server.close();
  }
}

await main();
