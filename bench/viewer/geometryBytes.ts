/**
 * Where a bench ship's GPU geometry bytes go, in Node: the package is loaded through the engine (a renderer
 * that draws nothing), then the viewer bench's camera path is driven (bench/viewer/page.ts: start view
 * 160°/10° fitted and settled, a drag of 20 steps of 4 px with interactive detail, the release and a
 * still frame at full quality), and the bytes of every chunk are printed per buffer kind, at load and after
 * the views, in bytes per triangle: positions, triangle indices, feature edges, block texture, LOD indices,
 * and the triangles and edge segments drawn.
 * The LOD levels depend only on the camera and the canvas (1280 × 720), so the figures after the views are
 * the browser bench's (`geometry bytes per triangle` there) without a browser.
 *
 * Usage: `node --import tsx bench/viewer/geometryBytes.ts <parts>`; package bench/out/ship-<parts>.sc (made by
 * the viewer bench). The LOD levels are built within the engine's per-frame time budget, so under load a
 * few chunks may still lack theirs after the still frames (the browser bench's figure varies alike).
 */
import { drawnSegments } from '../../engine/scene/edgeStrips';
import type { Line, LineSegments } from 'three';
import { pointerInput as ptr } from '../../tests/engine/interaction/pointerInput';
import { loadBenchShip } from './headlessEngine';

const W = 1280,
  H = 720;

async function main(): Promise<void> {
  const parts = Number(process.argv[2] ?? 10000);
  const engine = await loadBenchShip(parts, W, H);
  const { model, loop } = engine.inspect();
  const chunks = model!.chunks;
  const triangles = chunks.reduce((n, c) => n + c.triangles, 0);
  const sum = (f: (c: (typeof chunks)[number]) => number) => chunks.reduce((n, c) => n + f(c), 0);
  const row = (what: string) => {
    const kinds = {
      positions: sum((c) => c.bytes.positions),
      indices: sum((c) => c.bytes.indices),
      edges: sum((c) => c.bytes.edges),
      blocks: sum((c) => c.bytes.blocks),
      lod: model!.lodBytes,
    };
    const all = Object.values(kinds).reduce((a, b) => a + b, 0);
    const per = Object.entries(kinds).map(([k, v]) => `${k} ${(v / triangles).toFixed(3)}`);
    console.log(`${what}: ${(all / triangles).toFixed(3)} B/triangle = ${per.join(' + ')}`);
  };
  console.log(
    `${parts} parts: ${triangles} triangles, ${sum((c) => c.vertexCount)} vertices (padding included), ${sum((c) => c.edgeCount)} edge segments in ${chunks.length} chunks`,
  );
  row('at load');
  engine.orbitTo(160, 10, 0);
  engine.fitToWindow();
  loop.frame();
  for (let i = 0; i < 50 && model!.lodPending; i++) {
    engine.fitToWindow();
    loop.frame();
  }
  engine.pointer(ptr('down', W / 2, H / 2));
  const steps = 20;
  for (let i = 0; i < steps; i++) {
    if (i === 1) for (let k = 0; k < 50 && model!.lodPending; k++) loop.frame();
    engine.pointer(ptr('move', W / 2 + 4 * (i + 1), H / 2));
    loop.frame();
  }
  const orbitTriangles = model!.trianglesDrawn;
  engine.pointer(ptr('up', W / 2 + 4 * steps, H / 2));
  for (let i = 0; i < 5; i++) {
    engine.inspect().invalidate();
    loop.frame();
  }
  // Segments drawn by each chunk's edge lines (strips split at the restart index; pairs as they are) and
  // by the rest of the edge level when present (earlier versions drew a level's dropped segments apart).
  let segments = 0;
  for (const c of chunks) {
    const lines = c.edges;
    if (!lines?.visible) continue;
    for (const l of [lines, ...lines.children] as Line[]) {
      if (!l.visible || !l.geometry.index) continue;
      const { start, count } = l.geometry.drawRange;
      const end = Math.min(l.geometry.index.count, start + count);
      segments += drawnSegments(l.geometry.index.array, start, end, !(l as LineSegments).isLineSegments).length;
    }
  }
  console.log(
    `drawn: last orbit frame ${orbitTriangles} triangles, still frame ${model!.trianglesDrawn} triangles and ${segments} edge segments`,
  );
  row('after orbit + still');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
