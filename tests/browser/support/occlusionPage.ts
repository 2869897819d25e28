/**
 * Browser side of tests/browser/occlusion.culling.test.ts, bundled by the test with esbuild: the render
 * engine (engine/Engine.ts) on a page canvas in real Chromium (SwiftShader WebGL2), drawn frame by frame
 * so the test can compare pixels with occlusion culling on and off. Not part of the app.
 */
import { Engine } from '../../../engine/Engine';
import { BufferAttribute, BufferGeometry, type Line } from 'three';
import type { ChunkBatch } from '../../../engine/scene/ChunkBatch';
import { stripToList } from '../../engine/scene/stripToList';
import type { ClipBox } from '../../../engine/EngineApi';
import { DETAIL_MIN_PX, EDGE_MIN_PX } from '../../../engine/scene/ModelScene';

let engine: Engine | null = null;
let gl: WebGL2RenderingContext | null = null;
let width = 0,
  height = 0;

const raf = () => new Promise<number>((r) => requestAnimationFrame(r));

function parts() {
  if (!engine || !gl) throw new Error('occlusionPage: open() first');
  const inspection = engine.inspect();
  const model = inspection.model;
  if (!model) throw new Error('occlusionPage: no model loaded');
  return { engine, gl, model, loop: inspection.loop, invalidate: inspection.invalidate };
}

/** Creates the engine on a `w` × `h` canvas and loads the package at `url`. Returns the chunk count. */
async function open(url: string, w: number, h: number): Promise<number> {
  const c = document.createElement('canvas');
  c.width = width = w;
  c.height = height = h;
  document.body.appendChild(c);
  engine = new Engine();
  // Strips even on SwiftShader: the pixel test compares them with the package's pairs.
  await engine.init({ canvas: c as unknown as OffscreenCanvas, width: w, height: h, pixelRatio: 1, edgeStrips: true });
  gl = c.getContext('webgl2');
  await engine.loadModel(url, {});
  return parts().model.chunks.length;
}

/** Orbit view (degrees), fitted. */
function view(longitude: number, latitude: number): void {
  const { engine } = parts();
  engine.orbitTo(longitude, latitude, 0);
  engine.fitToWindow();
}

/** Which occlusion culling draws: none, WebGL2 queries (render/chunkOcclusion.ts) or the CPU depth buffer (render/softOcclusion.ts). */
type Culling = 'off' | 'queries' | 'cpu';

function useCulling(mode: Culling): void {
  const { model } = parts();
  model.occlusionEnabled = mode === 'queries';
  model.softOcclusionEnabled = mode === 'cpu';
}

/**
 * Draws with the given occlusion culling until the engine asks for no more frames (LOD levels built,
 * occlusion answers in), a frame per animation frame, then draws once more and reads the canvas in the
 * same task. Returns the pixels (RGBA, bottom row first, base64), the chunks dropped as hidden, the
 * frames it took and the triangles of hidden objects left out of the chunks drawn (CPU culling only).
 */
async function settle(
  mode: Culling,
): Promise<{ pixels: string; occluded: number[]; frames: number; rowTriangles: number }> {
  const { model, loop, invalidate, gl } = parts();
  useCulling(mode);
  let frames = 0;
  do {
    invalidate();
    loop.frame();
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
    frames++;
    await raf();
  } while ((model.lodPending || model.occlusionPending) && frames < 40);
  invalidate();
  loop.frame();
  const px = new Uint8Array(width * height * 4);
  gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, px);
  const occluded = model.chunks.flatMap((_, i) => (model.isChunkOccluded(i) ? [i] : []));
  let s = '';
  for (let i = 0; i < px.length; i += 8192) s += String.fromCharCode(...px.subarray(i, i + 8192));
  return { pixels: btoa(s), occluded, frames, rowTriangles: model.trianglesRowOccluded };
}

/** One interactive (dragging) frame after moving the camera by `degrees` of longitude; returns the chunks dropped. */
function dragFrame(degrees: number): number[] {
  const { engine, model, loop, invalidate } = parts();
  const v = engine.getView();
  engine.inspect().nav.begin('drag');
  engine.orbitTo(v.longitude + degrees, v.latitude, 0);
  invalidate();
  loop.frame();
  engine.inspect().nav.end('drag');
  return model.chunks.flatMap((_, i) => (model.isChunkOccluded(i) ? [i] : []));
}

/** Objects (node ids) of chunk `i`. */
function chunkObjects(i: number): number[] {
  const o = parts().model.chunks[i].chunk.objects;
  const ids: number[] = [];
  for (let r = 0; r < o.length; r += 5) ids.push(o[r]);
  return ids;
}

/** Screen positions (canvas px, top-left origin) where `nodeId` is the nearest pick, sampled on a grid. */
function pixelsOf(nodeId: number, step: number): [number, number][] {
  const { engine } = parts();
  const out: [number, number][] = [];
  for (let y = step / 2; y < height; y += step)
    for (let x = step / 2; x < width; x += step) {
      const hit = engine.pick(x, y);
      if (hit.type === 'hit' && hit.nodeId === nodeId) out.push([x, y]);
    }
  return out;
}

function select(nodeIds: number[]): void {
  parts().engine.setSelection(nodeIds);
}

function hide(nodeIds: number[], hidden: boolean): void {
  parts().engine.setVisibility(nodeIds, !hidden);
}

function clip(box: ClipBox | null): void {
  const { engine } = parts();
  if (box) engine.setClipBox(box);
  engine.setClipping(box !== null);
}

/**
 * Draws every chunk's feature edges from the package's index pairs (THREE.LineSegments over
 * `chunk.edges`, the rows' segments) instead of the engine's line strips when `on`, and back when not:
 * the same object, material, position buffer and draw order, only the index buffer and draw mode differ.
 */
function edgesAsPairs(on: boolean): void {
  for (const c of parts().model.chunks) {
    const lines = c.edges as (Line & { isLineSegments?: boolean; stripGeometry?: BufferGeometry }) | null;
    if (!lines) continue;
    if (on && !lines.stripGeometry) {
      const eo = c.chunk.edgeObjects;
      let rowsEnd = 0;
      for (let i = 2; i < eo.length; i += 3) rowsEnd += eo[i] * 2;
      const g = new BufferGeometry();
      g.setAttribute('position', lines.geometry.getAttribute('position'));
      g.setIndex(new BufferAttribute(c.chunk.edges.slice(0, rowsEnd), 1));
      lines.stripGeometry = lines.geometry;
      lines.geometry = g;
      lines.isLineSegments = true;
      // The engine sets the strips' draw range each frame; the pairs draw all rows.
      lines.onBeforeRender = () => g.setDrawRange(0, Infinity);
    } else if (!on && lines.stripGeometry) {
      lines.geometry.dispose();
      lines.geometry = lines.stripGeometry;
      delete lines.stripGeometry;
      lines.isLineSegments = false;
      lines.onBeforeRender = () => {};
    }
  }
}

/**
 * The triangle list a chunk's strip buffer (scene/triangleStrips.ts) stands for, in its draw order: the
 * list part as it is, then each strip-part triangle (GL's parity rule, degenerate joins left out), with
 * the list's end of the strip part's rows. Without strips: the chunk's own list.
 */
function orderedList(c: ChunkBatch): { index: Uint16Array; stripStart: number; stripEnds: number[] } {
  const s = c.strips;
  if (!s) return { index: c.chunk.indices, stripStart: c.chunk.indices.length, stripEnds: [] };
  const out = Array.from(s.indices.subarray(0, s.stripStart));
  const stripEnds: number[] = [];
  for (let r = 0, from = 0; r < s.stripEnds.length; r++) {
    const to = s.stripEnds[r];
    stripToList(s.indices, s.stripStart + from, s.stripStart + to, out);
    stripEnds.push(out.length - s.stripStart);
    from = to;
  }
  return { index: Uint16Array.from(out), stripStart: s.stripStart, stripEnds };
}

/**
 * Draws every chunk's full-detail surfaces as TRIANGLES from the list the strip buffer stands for, in the
 * same order ('list', orderedList), from every other triangle of that list ('half': a picture that must
 * differ), or from the engine's strip buffer again ('strips'): the same mesh, material, position buffer and
 * draw order, only the index buffer and draw mode differ; the rows drawn are the engine's (the size prefix
 * of setDetail). The order matters: where surfaces of two objects coincide, the one drawn first shows.
 */
function surfaces(mode: 'strips' | 'list' | 'half'): void {
  for (const c of parts().model.chunks) {
    const mesh = c.mesh as typeof c.mesh & { stripGeometry?: BufferGeometry };
    if (mesh.stripGeometry) {
      mesh.geometry.dispose();
      mesh.geometry = mesh.stripGeometry;
      delete mesh.stripGeometry;
      mesh.onBeforeRender = () => {};
    }
    if (mode === 'strips') continue;
    const o = orderedList(c);
    const keep = (i: number) => mode === 'list' || Math.floor(i / 3) % 2 === 0;
    const index = o.index.filter((_, i) => keep(i));
    // Kept indices before position p of the ordered list.
    const kept = (p: number) => (mode === 'list' ? p : Math.ceil(p / 6) * 3);
    const g = new BufferGeometry();
    g.setAttribute('position', mesh.geometry.getAttribute('position'));
    g.setIndex(new BufferAttribute(index, 1));
    mesh.stripGeometry = mesh.geometry;
    mesh.geometry = g;
    // The engine's setDetail writes the draw groups of the geometry in place (now this one's), and three
    // takes the group objects when it lists the draws; they are corrected just before the first is drawn.
    g.addGroup(0, 0, 0);
    g.addGroup(0, 0, 0);
    mesh.onBeforeRender = () => {
      // The rows the engine draws: the size prefix whose triangle list is drawnTriangleList's.
      const n = c.drawnTriangleList()?.count ?? 0;
      const ends = (c as unknown as { order: { indexEnd: Uint32Array } }).order.indexEnd;
      let k = 0;
      while (k < ends.length && ends[k] <= n) k++;
      const s = c.strips;
      const listTo = s ? (k > 0 ? s.listEnds[k - 1] : 0) : n;
      const stripTo = s && k > 0 ? o.stripEnds[k - 1] : 0;
      const [first, second] = g.groups;
      first.start = 0;
      first.count = kept(listTo);
      if (second) {
        second.start = kept(o.stripStart);
        second.count = kept(o.stripStart + stripTo) - kept(o.stripStart);
      }
    };
  }
}

/**
 * Draws all objects and all their edges when `on`; when not, leaves out the small objects and edges as a
 * full-quality frame does. Never through LOD levels: they are index lists of their own, and this page compares
 * the full-detail surfaces' buffers.
 */
function fullDetail(on: boolean): void {
  const { model } = parts();
  model.lodMaxPx = 0;
  model.detailMinPx = on ? 0 : DETAIL_MIN_PX;
  model.edgeMinPx = on ? 0 : EDGE_MIN_PX;
}

/** Draws no feature edges when `on` (edges only of objects larger than any), every edge when not (as fullDetail). */
function hideEdges(on: boolean): void {
  parts().model.edgeMinPx = on ? Number.POSITIVE_INFINITY : 0;
}

function modelBounds(): number[] {
  return [...parts().model.header.bounds];
}

Object.assign(globalThis, {
  occlusionPage: {
    open,
    view,
    settle,
    dragFrame,
    chunkObjects,
    pixelsOf,
    select,
    hide,
    clip,
    modelBounds,
    edgesAsPairs,
    surfaces,
    fullDetail,
    hideEdges,
  },
});
