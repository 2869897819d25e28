/**
 * How much of a still frame is drawn for objects that the frame's own CPU occlusion already proves hidden,
 * in Node: `node --import tsx bench/viewer/hiddenRows.ts [parts] [lon] [lat]` (package
 * bench/out/ship-<parts>.sc, made by the viewer bench; default 10000 parts at the viewer bench's 160°/10°
 * fitted view). After the full-quality frame it tests every drawn chunk's object rows against the coarse
 * depth buffer of that frame (render/softOcclusion.ts, the same test that drops whole chunks) and prints
 * the full-detail triangles and edge segments of rows whose box is hidden: what drawing chunks whole
 * would spend on hidden objects. Then it draws the same frame the way the engine does (visible rows by
 * ranges, ModelScene.rowOcclusionEnabled) and prints the triangles, edge segments and draw calls left.
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
  rowOcclusionEnabled: boolean;
  trianglesDrawn: number;
  trianglesRowOccluded: number;
  softOcclusionMs: number;
  chunks: Array<{
    chunk: SceneChunk;
    rowMesh: { visible: boolean; geometry: BufferGeometry };
    rowEdges: { visible: boolean; geometry: BufferGeometry } | null;
    mesh: { visible: boolean; geometry: BufferGeometry };
    drawnTriangleList(): { index: Uint16Array; count: number } | null;
    lodMesh: { visible: boolean };
    edges: { visible: boolean; geometry: BufferGeometry } | null;
    edgeOrder: { keptEnd: Uint32Array; index: Uint16Array; strips: boolean } | null;
  }>;
}

async function main(): Promise<void> {
  const [parts, lon, lat] = [10000, 160, 10].map((d, i) => Number(process.argv[2 + i] ?? d));
  const engine = await loadBenchShip(parts, 1280, 720);
  const { model, loop } = engine.inspect();
  const m = model as unknown as Internals;
  m.rowOcclusionEnabled = false;
  engine.orbitTo(lon, lat, 0);
  engine.fitToWindow();
  loop.frame();
  for (let i = 0; i < 60 && model?.lodPending; i++) loop.frame();
  for (let i = 0; i < 3; i++) {
    engine.inspect().invalidate();
    loop.frame();
  }
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
      const count = c.drawnTriangleList()?.count ?? 0;
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
  // The same frame as the engine draws it: visible rows by ranges.
  const whole = m.trianglesDrawn;
  const wholeMs = m.softOcclusionMs;
  m.rowOcclusionEnabled = true;
  engine.inspect().invalidate();
  loop.frame();
  let draws = 0,
    segs = 0;
  for (const c of m.chunks) {
    draws += c.rowMesh.visible ? c.rowMesh.geometry.groups.length : c.mesh.visible || c.lodMesh.visible ? 1 : 0;
    draws += c.rowEdges?.visible ? c.rowEdges.geometry.groups.length : c.edges?.visible ? 1 : 0;
    const eo = c.edgeOrder;
    if (!eo) continue;
    const ranges = c.rowEdges?.visible
      ? c.rowEdges.geometry.groups.map((g) => [g.start, g.start + g.count])
      : c.edges?.visible
        ? [[0, c.edges.geometry.drawRange.count]]
        : [];
    for (const [a, b] of ranges) segs += drawnSegments(eo.index, a, Math.min(b, eo.index.length), eo.strips).length;
  }
  console.log(
    `drawn by visible rows: triangles ${m.trianglesDrawn} of ${whole} (${m.trianglesRowOccluded} left out), edge segments ${segs} of ${segsShown + segsHidden}, draw calls ${draws}`,
  );
  console.log(
    `CPU occlusion per frame: ${wholeMs.toFixed(1)} ms drawing chunks whole, ${m.softOcclusionMs.toFixed(1)} ms with the row test (Node)`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
