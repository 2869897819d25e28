/**
 * Picking BVH variants on a bench ship, in Node: bytes and pick CPU time of three-mesh-bvh trees built with
 * different split strategies and leaf sizes over the same chunks, measured interleaved (A B C … per round,
 * rotated) in one process so the machine's load falls on all of them alike. Every variant's picks must
 * return the same object and point as the first variant's (the hits along a ray do not depend on the tree).
 *
 * Usage: `node --import tsx bench/viewer/bvhVariants.ts <parts> [rounds] [variant …]`, a variant being
 * `center:10`, `sah:16`, `average:12` (strategy:targetLeafSize). Package: bench/out/ship-<parts>.sc (made
 * by the viewer bench). Rays: a 48 × 27 grid over the middle 60 % of the canvas (each way) at three orbit views (fitted).
 * Snapping (Engine.snapAt) runs on every 8th ray. Prints per variant: node bytes and indirect bytes per
 * triangle, build CPU ms (all chunks; the slowest chunk), pick and snap CPU µs per query (min / median over
 * rounds) and the machine's load average.
 */
import os from 'node:os';
import { AVERAGE, CENTER, MeshBVH, SAH } from 'three-mesh-bvh';
import type { ChunkBatch } from '../../engine/scene/ChunkBatch';
import { loadBenchShip } from './headlessEngine';

const W = 1280,
  H = 720;
const STRATEGIES: Record<string, number> = { center: CENTER, average: AVERAGE, sah: SAH };

interface Variant {
  name: string;
  strategy: number;
  leaf: number;
  bvhs: MeshBVH[];
  nodeBytes: number;
  indirectBytes: number;
  buildMs: number;
  /** CPU ms of the slowest single chunk's build (what a pick on a chunk without a BVH waits for). */
  worstChunkMs: number;
  pickUs: number[];
  snapUs: number[];
}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function median(a: number[]): number {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)];
}

async function main(): Promise<void> {
  const parts = Number(process.argv[2] ?? 10000);
  const rounds = Number(process.argv[3] ?? 5);
  const names = process.argv.slice(4).length ? process.argv.slice(4) : ['center:10', 'sah:10', 'sah:16'];
  const engine = await loadBenchShip(parts, W, H);
  const inner = engine.inspect();
  const chunks = inner.model!.chunks as ChunkBatch[];
  const triangles = chunks.reduce((n, c) => n + c.triangles, 0);

  const variants: Variant[] = names.map((n) => {
    const [s, l] = n.split(':');
    if (!(s in STRATEGIES) || !(Number(l) > 0)) throw new Error(`bad variant ${n} (strategy:leafSize)`);
    return {
      name: n,
      strategy: STRATEGIES[s],
      leaf: Number(l),
      bvhs: [],
      nodeBytes: 0,
      indirectBytes: 0,
      buildMs: 0,
      worstChunkMs: 0,
      pickUs: [],
      snapUs: [],
    };
  });
  for (const v of variants) {
    const t = cpuMs();
    for (const c of chunks) {
      if (c.triangles === 0) {
        v.bvhs.push(null as unknown as MeshBVH);
        continue;
      }
      const tc = cpuMs();
      const b = new MeshBVH(c.pickGeometry, {
        indirect: true,
        range: { start: 0, count: c.chunk.indices.length },
        strategy: v.strategy,
        targetLeafSize: v.leaf,
      } as ConstructorParameters<typeof MeshBVH>[1]);
      v.worstChunkMs = Math.max(v.worstChunkMs, cpuMs() - tc);
      v.bvhs.push(b);
      const raw = b as unknown as { _roots: ArrayBuffer[]; _indirectBuffer: Uint16Array | Uint32Array | null };
      v.nodeBytes += raw._roots.reduce((n, r) => n + r.byteLength, 0);
      v.indirectBytes += raw._indirectBuffer?.byteLength ?? 0;
    }
    v.buildMs = cpuMs() - t;
  }
  // The snapping tables hold the BVH too: rebuilt per variant outside the timed part.
  const install = (v: Variant) => {
    chunks.forEach((c, i) => {
      const raw = c as unknown as { bvh: MeshBVH | null; snapCache: unknown; snapTables(): unknown };
      raw.bvh = v.bvhs[i];
      raw.snapCache = null;
      if (c.triangles > 0) raw.snapTables();
    });
  };

  const views: [number, number][] = [
    [160, 10],
    [200, 25],
    [90, 0],
  ];
  const rays: { view: number; x: number; y: number }[] = [];
  for (let v = 0; v < views.length; v++)
    for (let i = 0; i < 48; i++)
      for (let j = 0; j < 27; j++)
        rays.push({ view: v, x: W * (0.2 + (0.6 * (i + 0.5)) / 48), y: H * (0.2 + (0.6 * (j + 0.5)) / 27) });
  let view = -1;
  const look = (v: number) => {
    if (v === view) return;
    view = v;
    engine.orbitTo(views[view][0], views[view][1], 0);
    engine.fitToWindow();
  };
  const pickAll = (out?: string[]): void => {
    for (const r of rays) {
      look(r.view);
      const h = engine.pick(r.x, r.y);
      out?.push(h.type === 'hit' ? `${h.nodeId}@${h.point.map((p) => p.toFixed(3)).join(',')}` : 'miss');
    }
  };
  // Snapping on every 8th ray (a snap gathers up to its triangle cap near the ray, so it costs more).
  const snapAll = (out?: string[]): void => {
    for (let i = 0; i < rays.length; i += 8) {
      const r = rays[i];
      look(r.view);
      const s = engine.snapAt(r.x, r.y);
      // The snapped point and its kind; the reported screen distance may come from another candidate of the
      // same point (the candidates are gathered nearest tree node first, up to a cap).
      const capped = (engine as unknown as { snapper: { lastCounts: { triangles: number } } }).snapper.lastCounts
        .triangles;
      out?.push(
        `${s.type === 'snap' ? `${s.snapType}@${s.point.map((p) => p.toFixed(3)).join(',')}` : s.type} ${capped}`,
      );
    }
  };

  // Same picks from every tree. Snaps gather candidates nearest tree node first up to a cap (SnapManager
  // MAX_TRIANGLES), so where the cap is reached another tree may hand the kernel other triangles: counted.
  let reference: string[] | null = null;
  let snapReference: string[] | null = null;
  const snapNotes: string[] = [];
  for (const v of variants) {
    install(v);
    const got: string[] = [];
    const snaps: string[] = [];
    pickAll(got);
    snapAll(snaps);
    if (!reference || !snapReference) {
      reference = got;
      snapReference = snaps;
      continue;
    }
    const diff = got.filter((g, i) => g !== reference![i]).length;
    if (diff) {
      const at = got.findIndex((g, i) => g !== reference![i]);
      throw new Error(
        `${v.name}: ${diff} of ${got.length} picks differ from ${variants[0].name}, first #${at}: ${got[at]} against ${reference[at]}`,
      );
    }
    const point = (s: string) => s.split(' ')[0];
    const cap = (s: string) => Number(s.split(' ')[1]);
    const differ = snaps.map((s, i) => [s, snapReference![i]]).filter(([a, b]) => point(a) !== point(b));
    const capped = differ.filter(([a, b]) => Math.max(cap(a), cap(b)) >= 2000).length;
    snapNotes.push(
      `${v.name}: ${differ.length} of ${snaps.length} snapped points differ from ${variants[0].name} (${capped} of them with the candidate cap reached)`,
    );
  }
  const hits = reference!.filter((r) => r !== 'miss').length;

  const loads: number[] = [];
  for (let r = 0; r < rounds; r++) {
    loads.push(os.loadavg()[0]);
    for (let k = 0; k < variants.length; k++) {
      const v = variants[(k + r) % variants.length];
      install(v);
      const t = cpuMs();
      pickAll();
      v.pickUs.push(((cpuMs() - t) * 1000) / rays.length);
      const t2 = cpuMs();
      snapAll();
      v.snapUs.push(((cpuMs() - t2) * 1000) / Math.ceil(rays.length / 8));
    }
  }
  console.log(
    `${parts} parts, ${chunks.length} chunks, ${triangles} triangles; ${rays.length} rays (${hits} hits), ` +
      `${rounds} rounds; load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`,
  );
  console.log(
    'variant      nodes B/tri  indirect B/tri  total B/tri  build CPU ms  largest chunk ms  pick CPU µs/ray min / median  snap CPU µs min / median',
  );
  for (const v of variants)
    console.log(
      `${v.name.padEnd(12)} ${(v.nodeBytes / triangles).toFixed(2).padStart(11)}  ${(v.indirectBytes / triangles)
        .toFixed(2)
        .padStart(14)}  ${((v.nodeBytes + v.indirectBytes) / triangles).toFixed(2).padStart(11)}  ${v.buildMs
        .toFixed(0)
        .padStart(12)}  ${v.worstChunkMs.toFixed(1).padStart(16)}  ${Math.min(...v.pickUs).toFixed(1)} / ${median(
        v.pickUs,
      ).toFixed(1)}  ${Math.min(...v.snapUs).toFixed(0)} / ${median(v.snapUs).toFixed(0)}`,
    );
  for (const n of snapNotes) console.log(n);
  engine.dispose();
}

await main();
