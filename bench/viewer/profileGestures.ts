/**
 * CPU profile of the selection gestures in headless Chromium (the bench page, engine on the page's main
 * thread): `node --import tsx bench/viewer/profileGestures.ts [parts] [box|pick] [repeats]`. Loads the
 * bench ship (bench/out, made by `npm run bench -- viewer` or here), runs the gesture `repeats` times under
 * the CDP sampling profiler and prints each gesture's time and the functions with the most self time
 * (ms summed over the gestures) and their callers, so the lead can see where a gesture's time goes.
 */
import { bundlePage, launchBenchBrowser, preparePackage, serve } from './runViewerBench';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
  hitCount?: number;
  positionTicks?: { line: number; ticks: number }[];
}

async function main(): Promise<void> {
  const parts = Number(process.argv[2] ?? 10000);
  const kind = (process.argv[3] ?? 'box') as 'box' | 'pick';
  const repeats = Number(process.argv[4] ?? 20);
  const file = await preparePackage(parts);
  await bundlePage();
  const server = await serve();
  const browser = await launchBenchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    page.setDefaultTimeout(0);
    await page.goto(`${server.url}/`);
    await page.waitForFunction(() => 'keelsonGestureSetup' in globalThis);
    await page.evaluate(
      (u) => (globalThis as unknown as { keelsonGestureSetup(u: string): Promise<void> }).keelsonGestureSetup(u),
      `/${path.basename(file)}`,
    );
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
    const times = await page.evaluate(
      ([k, n]) => {
        const g = (globalThis as unknown as { keelsonGesture(k: string, i: number): { ms: number; selected: number } })
          .keelsonGesture;
        return Array.from({ length: n }, (_, i) => g(k, i));
      },
      [kind, repeats] as const,
    );
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as {
      profile: { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] };
    };
    console.log(`${kind} at ${parts} parts, ${repeats} gestures (ms, selected):`);
    console.log(times.map((t) => `${t.ms.toFixed(2)}/${t.selected}`).join(' '));
    // Self time per node from the sample deltas.
    const self = new Map<number, number>();
    for (let i = 0; i < profile.samples.length; i++)
      self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000);
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const name = (n: ProfileNode) =>
      `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber + 1}`;
    const agg = new Map<string, { ms: number; callers: Map<string, number> }>();
    for (const [id, ms] of self) {
      const n = byId.get(id)!;
      const key = name(n);
      const a = agg.get(key) ?? { ms: 0, callers: new Map() };
      a.ms += ms;
      // Caller chain of 3 for context.
      const chain: string[] = [];
      for (let p = parent.get(id); p !== undefined && chain.length < 3; p = parent.get(p))
        chain.push(name(byId.get(p)!));
      const ck = chain.join(' < ');
      a.callers.set(ck, (a.callers.get(ck) ?? 0) + ms);
      agg.set(key, a);
    }
    // Hottest source lines of the bundle (page.js line: ticks), for a look at the line in bench/out/page.js.
    const lines = new Map<string, number>();
    for (const n of profile.nodes)
      for (const t of n.positionTicks ?? [])
        lines.set(
          `${n.callFrame.functionName || '(anon)'}:${t.line}`,
          (lines.get(`${n.callFrame.functionName || '(anon)'}:${t.line}`) ?? 0) + t.ticks,
        );
    console.log(
      'hottest lines (ticks):',
      [...lines]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 20)
        .map(([k, v]) => `${k}=${v}`)
        .join(' '),
    );
    const total = [...agg.values()].reduce((s, a) => s + a.ms, 0);
    console.log(`profiled ${total.toFixed(1)} ms`);
    for (const [k, a] of [...agg].sort((x, y) => y[1].ms - x[1].ms).slice(0, 25)) {
      console.log(`${a.ms.toFixed(1).padStart(8)} ms  ${k}`);
      for (const [c, ms] of [...a.callers].sort((x, y) => y[1] - x[1]).slice(0, 2))
        console.log(`             ${ms.toFixed(1)} < ${c}`);
    }
  } finally {
    await browser.close();
    server.close();
  }
}

await main();
