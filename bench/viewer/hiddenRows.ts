/**
 * How much of a still frame is drawn for objects that the frame's own CPU occlusion already proves hidden,
 * in Node: `node --import tsx bench/viewer/hiddenRows.ts [parts] [lon] [lat]` (package
 * bench/out/ship-<parts>.sc, made by the viewer bench; default 10000 parts at the viewer bench's 160°/10°
 * fitted view). After the full-quality frame it tests every drawn chunk's object rows against the coarse
 * depth buffer of that frame (render/softOcclusion.ts, the same test that drops whole chunks) and prints
 * the full-detail triangles and edge segments of rows whose box is hidden. A measurement of what a
 * per-object cull inside the chunks could save; the engine draws them today.
 */
import type { BufferGeometry } from 'three';
import type { SceneChunk } from '../../engine/package/types';
import type { CoarseDepthBuffer } from '../../engine/render/coarseDepth';
import { rowBoxes } from '../../engine/render/softOcclusion';
import { drawnSegments } from '../../engine/scene/edgeStrips';
import { loadBenchShip } from './headlessEngine';

/** The engine internals read here (private fields, reached at run time for this measurement only). */
interface Internals {
  softOcclusion: { buffer: CoarseDepthBuffer };
  chunks: Array<{
    chunk: SceneChunk;
    mesh: { visible: boolean; geometry: BufferGeometry };
    lodMesh: { visible: boolean };
    edges: { visible: boolean; geometry: BufferGeometry } | null;
    edgeOrder: { keptEnd: Uint32Array; index: Uint16Array; strips: boolean } | null;
  }>;
}

async function main(): Promise<void> {
  const [parts, lon, lat] = [10000, 160, 10].map((d, i) => Number(process.argv[2 + i] ?? d));
  const engine = await loadBenchShip(parts, 1280, 720);
  const { model, loop } = engine.inspect();
  engine.orbitTo(lon, lat, 0);
  engine.fitToWindow();
  loop.frame();
  for (let i = 0; i < 60 && model?.lodPending; i++) loop.frame();
  for (let i = 0; i < 3; i++) {
    engine.inspect().invalidate();
    loop.frame();
  }
  const m = model as unknown as Internals;
  const buf = m.softOcclusion.buffer;
  let trisShown = 0,
    trisHidden = 0,
    segsShown = 0,
    segsHidden = 0,
    lodChunks = 0;
  for (const c of m.chunks) {
    if (c.lodMesh.visible) lodChunks++;
    if (!c.mesh.visible && !c.lodMesh.visible) continue;
    const rb = rowBoxes(c.chunk);
    const shown = (r: number) => rb[r * 6] <= rb[r * 6 + 3] && buf.boxVisible(rb, r * 6);
    if (c.mesh.visible) {
      const o = c.chunk.objects;
      const count = Math.min(c.mesh.geometry.drawRange.count, c.chunk.indices.length);
      for (let r = 0; r * 5 < o.length; r++) {
        const t = Math.max(0, Math.min(o[r * 5 + 3] + o[r * 5 + 4], count) - o[r * 5 + 3]) / 3;
        if (shown(r)) trisShown += t;
        else trisHidden += t;
      }
    }
    const eo = c.edgeOrder;
    if (!c.edges?.visible || !eo) continue;
    const count = c.edges.geometry.drawRange.count;
    for (let r = 0, prev = 0; r < eo.keptEnd.length && prev < count; r++) {
      const end = Math.min(eo.keptEnd[r], count);
      const n = end > prev ? drawnSegments(eo.index, prev, end, eo.strips).length : 0;
      if (shown(r)) segsShown += n;
      else segsHidden += n;
      prev = Math.max(prev, end);
    }
  }
  const pct = (a: number, b: number) => `${((100 * a) / Math.max(1, a + b)).toFixed(1)} %`;
  console.log(
    `${parts} parts at ${lon}°/${lat}° (chunks drawn at LOD: ${lodChunks}; their edges are counted, not their triangles):`,
  );
  console.log(
    `full-detail triangles of hidden rows ${trisHidden} of ${trisShown + trisHidden} (${pct(trisHidden, trisShown)})`,
  );
  console.log(
    `edge segments of hidden rows ${segsHidden} of ${segsShown + segsHidden} (${pct(segsHidden, segsShown)})`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
