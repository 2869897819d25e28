/**
 * Browser side of `npm run bench -- viewer`, bundled by ./runViewerBench.ts and run in
 * headless Chromium. `window.keelsonBench(url)` measures the Keelson engine (engine/Engine.ts, run on the
 * page's main thread so the page can time it) and `window.keelsonBaseline(url)` the baseline a developer
 * would otherwise write: three.js with one Mesh per part (Float32 positions, normals, Uint32 indices) and
 * Raycaster picking without a BVH. Both read the same `.sc` package and are measured the same way.
 */
import {
  Color,
  DirectionalLight,
  DoubleSide,
  FrontSide,
  type Material,
  HemisphereLight,
  Matrix4,
  Mesh,
  MeshLambertMaterial,
  OrthographicCamera,
  Raycaster,
  Scene,
  Vector2,
  Vector3,
  WebGLRenderer,
} from 'three';
import { Engine } from '../../engine/Engine';
import {
  DETAIL_MIN_PX,
  EDGE_MIN_PX,
  LOD_MAX_PX,
  NAV_DETAIL_MIN_PX,
  NAV_LOD_MAX_PX,
} from '../../engine/scene/ModelScene';
import type { EngineEvent, PointerInput } from '../../engine/EngineApi';
import { decodeScenePackage } from '../../engine/package/reader';
import { partGeometries } from './partGeometry';
import { fitBoxToView, orbitBasis } from '../../engine/interaction/cameraMath';

const W = 1280,
  H = 720;
const ORBIT_FRAMES = 20;
const STILL_FRAMES = 5;
/** Interactive detail settings [NAV_DETAIL_MIN_PX, NAV_LOD_MAX_PX] shot with BENCH_SHOTS (the engine's first). */
const SHOT_SETTINGS: [number, number][] = [
  [NAV_DETAIL_MIN_PX, NAV_LOD_MAX_PX],
  [2, 2],
  [8, 8],
];

/** Figures of one implementation on one ship (ms, bytes). */
export interface BenchFigures {
  firstFrameMs: number;
  firstFrameAtPercent: number;
  loadedMs: number;
  orbitMedianMs: number;
  orbitP95Ms: number;
  /** Full-quality frame at the orbit's end view after the pointer is released (median); baseline: its orbit frame. */
  stillMedianMs: number;
  pickMs: number;
  boxMs: number;
  heapMB: number;
  bytesPerTriangle: number;
  /** GPU geometry at load (before any LOD level), bytes per triangle. */
  loadBytesPerTriangle: number;
  /** bytesPerTriangle plus the picking BVHs (Keelson: three-mesh-bvh nodes and indirect buffers; baseline: none). */
  bvhBytesPerTriangle: number;
  triangles: number;
  /** Triangles in the draw ranges of the last orbit frame (interactive detail, after culling), Keelson only. */
  drawnTriangles?: number;
  /** Triangles in the draw ranges of the still (full-quality) frame after release, Keelson only. */
  stillTriangles?: number;
  /** Draw calls of the last orbit frame and of the still frame (THREE.WebGLRenderer.info), Keelson only. */
  orbitDrawCalls?: number;
  stillDrawCalls?: number;
  /** Chunks in the view / dropped as hidden by occlusion culling in the last orbit frame and the still frame, Keelson only. */
  chunksInView?: number;
  orbitChunksOccluded?: number;
  stillChunksOccluded?: number;
  /** PNG data URLs of the start view at rest and with interactive detail (BENCH_SHOTS), Keelson only. */
  shots?: Record<string, string>;
  /** Orbit median (ms) with single factors switched off, Keelson only (BENCH_VARIANTS=1). */
  variants?: Record<string, number>;
  /** Time until the idle builder is done — every chunk's picking BVH, the box-selection hierarchy and its warm-up (ModelScene.idleDone) — ms from the start, Keelson only. */
  readyMs?: number;
}

function canvas(): HTMLCanvasElement {
  document.body.innerHTML = '';
  const c = document.createElement('canvas');
  c.width = W;
  c.height = H;
  c.style.width = `${W}px`;
  c.style.height = `${H}px`;
  document.body.appendChild(c);
  return c;
}

const raf = () => new Promise<number>((r) => requestAnimationFrame(r));
function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * (s.length - 1) + 0.5))];
}
/** Forces the GPU to finish (1-pixel readback), so frame times include the rendering itself. */
function sync(gl: WebGL2RenderingContext): void {
  gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
}
function heapMB(): number {
  (globalThis as { gc?: () => void }).gc?.();
  const m = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory;
  return m ? m.usedJSHeapSize / 1e6 : NaN;
}
/** Screen points for picking: a grid over the middle of the canvas. */
const PICK_POINTS = Array.from({ length: 9 }, (_, i) => [
  W * (0.3 + 0.2 * (i % 3)),
  H * (0.3 + 0.2 * Math.floor(i / 3)),
]);

function ptr(kind: PointerInput['kind'], x: number, y: number, over: Partial<PointerInput> = {}): PointerInput {
  return {
    kind,
    x,
    y,
    button: 0,
    buttons: 1,
    ctrlKey: false,
    shiftKey: false,
    altKey: false,
    metaKey: false,
    pointerId: 1,
    pointerType: 'mouse',
    time: performance.now(),
    ...over,
  };
}

/** Measures the Keelson engine on the package at `url`. */
async function keelsonBench(
  url: string,
  opts: { variants?: boolean; shots?: boolean; loadOnly?: boolean; triangleStrips?: boolean } = {},
): Promise<BenchFigures> {
  const c = canvas();
  const engine = new Engine();
  await engine.init({
    canvas: c as unknown as OffscreenCanvas,
    width: W,
    height: H,
    pixelRatio: 1,
    triangleStrips: opts.triangleStrips,
  });
  const gl = c.getContext('webgl2') as WebGL2RenderingContext;
  let firstFrame = -1,
    firstFrameBytes = 0,
    loadedBytes = 0,
    total = 1;
  let selection: number[] = [];
  engine.subscribe((e: EngineEvent) => {
    if (e.type === 'load-progress') {
      loadedBytes = e.progress.loadedBytes;
      total = e.progress.totalBytes ?? total;
    }
    if (e.type === 'first-frame' && firstFrame < 0) {
      firstFrame = performance.now();
      firstFrameBytes = loadedBytes;
    }
    if (e.type === 'selection-changed') selection = e.items.map((i) => i.nodeId);
  });
  const t0 = performance.now();
  // The table is not needed for drawing or picking (node ids are reported without it).
  await engine.loadModel(url, {});
  const loadedMs = performance.now() - t0;
  // Let the idle BVH builder finish (it runs chunk by chunk between frames).
  await new Promise((r) => setTimeout(r, 50));
  const stats0 = engine.getRenderStats();
  // ... and the box-selection hierarchy and its warm-up after them (scene/ModelLoader.ts).
  while (engine.getRenderStats().chunkCount > 0 && !engine.inspect().model!.idleDone) {
    await new Promise((r) => setTimeout(r, 20));
  }
  const readyMs = performance.now() - t0;
  if (opts.loadOnly) {
    // Opening only (the goals bench's largest ship): load, first frame, idle structures, heap; no gestures.
    const heap = heapMB();
    const st = engine.getRenderStats();
    engine.dispose();
    return {
      ...loadOnlyFigures(),
      firstFrameMs: firstFrame - t0,
      firstFrameAtPercent: (100 * firstFrameBytes) / total,
      loadedMs,
      readyMs,
      heapMB: heap,
      loadBytesPerTriangle: st.geometryBytes / st.modelTriangles,
      triangles: st.modelTriangles,
    };
  }

  // Orbit: the same camera path as the baseline (from 160°/10°, fitted, 1.2° per frame = a 4 px drag step);
  // frame time = step + render + GPU finish, drawn synchronously (the engine's FrameLoop.frame) like the baseline.
  // The frames are drawn during a pointer drag, i.e. with the engine's interactive detail (ModelScene.interactive).
  const { loop } = engine.inspect();
  const model = engine.inspect().model!;
  const orbit = async (n: number): Promise<number[]> => {
    const frames: number[] = [];
    engine.orbitTo(160, 10, 0);
    engine.fitToWindow();
    loop.frame();
    // The engine keeps drawing after a view change until every chunk has its LOD level (built in the
    // frames' spare time, up to half a frame each); here the view settles before the measured frames.
    for (let i = 0; i < 50 && model.lodPending; i++) {
      engine.fitToWindow();
      loop.frame();
    }
    engine.pointer(ptr('down', W / 2, H / 2));
    let settle = true;
    for (let i = 0; i < n; i++) {
      if (i === 1 && settle) {
        // The drag's first frame switched to interactive detail: let its LOD levels be built (frames the
        // engine draws by itself meanwhile), then measure from the second step on.
        for (let k = 0; k < 50 && model.lodPending; k++) loop.frame();
        settle = false;
      }
      const t = performance.now();
      engine.pointer(ptr('move', W / 2 + 4 * (i + 1) + (i === 0 ? 0 : 0), H / 2));
      loop.frame();
      sync(gl);
      frames.push(performance.now() - t);
      await raf();
    }
    engine.pointer(ptr('up', W / 2 + 4 * n, H / 2, { buttons: 0 }));
    return frames;
  };
  const { nav } = engine.inspect();
  const redraw = engine.inspect();
  const shots: Record<string, string> = {};
  if (opts.shots) {
    // The start view at rest and with interactive detail (same view), for choosing NAV_* by eye.
    engine.orbitTo(160, 10, 0);
    engine.fitToWindow();
    for (let k = 0; k < 50 && (k === 0 || model.lodPending); k++) loop.frame();
    shots.rest = c.toDataURL('image/png');
    for (const [d, l] of SHOT_SETTINGS) {
      model.navDetailMinPx = d;
      model.navLodMaxPx = l;
      nav.begin('drag');
      for (let k = 0; k < 50 && (k === 0 || model.lodPending); k++) {
        redraw.invalidate();
        loop.frame();
      }
      shots[`moving-detail${d}-lod${l}`] = c.toDataURL('image/png');
      nav.end('drag');
    }
    model.navDetailMinPx = NAV_DETAIL_MIN_PX;
    model.navLodMaxPx = NAV_LOD_MAX_PX;
  }
  const variants: Record<string, number> = {};
  if (opts.variants) {
    // One factor at a time: median of a few frames each.
    const med = async () => quantile(await orbit(4), 0.5);
    await med(); // warm-up (shader compilation, first LOD levels)
    variants['all optimisations (interactive detail while dragging)'] = await med();
    model.occlusionEnabled = true;
    variants['with occlusion culling of chunks (off by default)'] = await med();
    model.occlusionEnabled = false;
    model.softOcclusionEnabled = false;
    variants['without CPU occlusion culling of chunks (as before this round)'] = await med();
    model.softOcclusionEnabled = true;
    for (const [d, l] of SHOT_SETTINGS.slice(1)) {
      model.navDetailMinPx = d;
      model.navLodMaxPx = l;
      variants[`interactive detail with objects under ${d} px skipped, LOD cells up to ${l} px`] = await med();
    }
    model.navDetailMinPx = NAV_DETAIL_MIN_PX;
    model.navLodMaxPx = NAV_LOD_MAX_PX;
    // The remaining variants draw full quality while dragging (as before interactive detail): the engine's
    // navigation state reads as idle, so each frame is drawn like a still one.
    Object.defineProperty(nav, 'active', { get: () => false, configurable: true });
    variants['full quality while dragging (as before: edges, 1 px culling, 1.5 px LOD cells)'] = await med();
    const heads = engine.inspect().cams.headLights;
    heads[1].visible = true;
    variants['walk camera head light on too (as before this round)'] = await med();
    heads[1].visible = false;
    const plain = new MeshLambertMaterial({
      color: 0xb6bcc4,
      side: FrontSide,
      flatShading: true,
      polygonOffset: true,
      polygonOffsetFactor: 1,
      polygonOffsetUnits: 1,
    });
    // The full-detail mesh draws by groups (one per part of its index buffer), so its material is a list.
    const own = model.chunks.map((c) => [c.mesh.material, c.lodMesh.material] as const);
    for (const c of model.chunks) {
      c.mesh.material = [plain];
      c.lodMesh.material = plain;
    }
    variants['plain Lambert (no state-table texture fetches)'] = await med();
    model.chunks.forEach((c, i) => {
      [c.mesh.material, c.lodMesh.material] = own[i];
    });
    model.lodMaxPx = 0;
    variants['no LOD'] = await med();
    model.detailMinPx = 0;
    variants['no LOD, no small-object culling'] = await med();
    model.edgeMinPx = 0;
    variants['no LOD or culling, all edges'] = await med();
    for (const c of model.chunks) if (c.edges) c.edges.visible = false;
    model.chunks.forEach((c) => c.edges?.layers.disable(0));
    variants['no LOD or culling, no edges'] = await med();
    for (const c of model.chunks)
      for (const m of c.mesh.material as Material[]) {
        m.side = DoubleSide;
        m.needsUpdate = true;
      }
    variants['no LOD or culling, no edges, double-sided'] = await med();
    for (const c of model.chunks)
      for (const m of c.mesh.material as Material[]) {
        m.side = FrontSide;
        m.needsUpdate = true;
      }
    model.chunks.forEach((c) => c.edges?.layers.enable(0));
    model.detailMinPx = DETAIL_MIN_PX;
    model.lodMaxPx = LOD_MAX_PX;
    model.edgeMinPx = EDGE_MIN_PX;
    delete (nav as { active?: boolean }).active;
  }
  const frames = await orbit(ORBIT_FRAMES);
  const drawnTriangles = model.trianglesDrawn;
  const orbitDrawCalls = engine.getRenderStats().drawCalls;
  const orbitChunksOccluded = model.chunksOccluded;
  const chunksInView = model.chunksDrawn + model.chunksOccluded;
  // Still frames: full quality at the orbit's end view after the release (each one redrawn and finished).
  const still: number[] = [];
  for (let i = 0; i < STILL_FRAMES; i++) {
    const t = performance.now();
    redraw.invalidate();
    loop.frame();
    sync(gl);
    still.push(performance.now() - t);
    await raf();
  }
  const stillTriangles = model.trianglesDrawn;
  const stillDrawCalls = engine.getRenderStats().drawCalls;
  const stillChunksOccluded = model.chunksOccluded;
  // Bytes after orbiting: the LOD indices built for the view count too.
  const stats1 = engine.getRenderStats();
  const geometryAtLoad = model.geometryBytes,
    bvhBytes = model.bvhBytes;
  engine.fitToWindow();
  loop.frame();

  // Pick latency: pointer events to selection.
  const picks: number[] = [];
  for (const [x, y] of PICK_POINTS) {
    const t = performance.now();
    engine.pointer(ptr('down', x, y));
    engine.pointer(ptr('up', x, y));
    picks.push(performance.now() - t);
  }
  // Box selection: right-to-left (touch) over the middle third of the canvas.
  const tb = performance.now();
  engine.pointer(ptr('down', (W * 2) / 3, H / 3, { shiftKey: true }));
  engine.pointer(ptr('move', W / 2, H / 2, { shiftKey: true }));
  engine.pointer(ptr('up', W / 3, (H * 2) / 3, { shiftKey: true }));
  const boxMs = performance.now() - tb;
  const boxCount = selection.length;
  const heap = heapMB();
  engine.dispose();
  return {
    firstFrameMs: firstFrame - t0,
    firstFrameAtPercent: (100 * firstFrameBytes) / total,
    loadedMs,
    orbitMedianMs: quantile(frames, 0.5),
    orbitP95Ms: quantile(frames, 0.95),
    stillMedianMs: quantile(still, 0.5),
    pickMs: quantile(picks, 0.5),
    boxMs,
    heapMB: heap,
    bytesPerTriangle: stats1.geometryBytes / stats1.modelTriangles,
    loadBytesPerTriangle: geometryAtLoad / stats1.modelTriangles,
    bvhBytesPerTriangle: (stats1.geometryBytes + bvhBytes) / stats1.modelTriangles,
    triangles: stats0.modelTriangles + 0 * boxCount,
    drawnTriangles,
    stillTriangles,
    orbitDrawCalls,
    stillDrawCalls,
    chunksInView,
    orbitChunksOccluded,
    stillChunksOccluded,
    variants,
    shots,
    readyMs,
  };
}

/** BenchFigures of a load-only run: the gesture and frame figures not measured (NaN). */
function loadOnlyFigures(): BenchFigures {
  const n = Number.NaN;
  return {
    firstFrameMs: n,
    firstFrameAtPercent: n,
    loadedMs: n,
    orbitMedianMs: n,
    orbitP95Ms: n,
    stillMedianMs: n,
    pickMs: n,
    boxMs: n,
    heapMB: n,
    bytesPerTriangle: n,
    loadBytesPerTriangle: n,
    bvhBytesPerTriangle: n,
    triangles: n,
  };
}

/** Measures the baseline: one Mesh per part, Float32 geometry, Raycaster without BVH. */
async function baselineBench(url: string, opts: { keep?: boolean } = {}): Promise<BenchFigures> {
  const c = canvas();
  const renderer = new WebGLRenderer({ canvas: c, antialias: true });
  renderer.setSize(W, H, false);
  const gl = renderer.getContext() as WebGL2RenderingContext;
  const t0 = performance.now();
  const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
  const { header, chunks } = decodeScenePackage(bytes);
  const scene = new Scene();
  scene.background = new Color(0xeef1f5);
  scene.add(new HemisphereLight(0xffffff, 0x6f7782, 2.2));
  const material = new MeshLambertMaterial({ color: 0xb6bcc4 });
  const meshes: Mesh[] = [];
  let geometryBytes = 0,
    triangles = 0;
  // Parts as a glTF export would give them: per part its own Float32 vertices, normals and Uint32 indices.
  for (const { object, geometry, vertexCount, indexCount } of partGeometries(chunks)) {
    geometry.computeVertexNormals();
    const m = new Mesh(geometry, material);
    m.userData.object = object;
    meshes.push(m);
    scene.add(m);
    geometryBytes += vertexCount * 24 + indexCount * 4;
    triangles += indexCount / 3;
  }
  const cam = new OrthographicCamera(-1, 1, 1, -1, 1, 1e7);
  const head = new DirectionalLight(0xffffff, 2.6);
  cam.add(head);
  scene.add(cam);
  const b = header.bounds;
  const centre = new Vector3((b[0] + b[3]) / 2, (b[1] + b[4]) / 2, (b[2] + b[5]) / 2);
  const radius = Math.hypot(b[3] - b[0], b[4] - b[1], b[5] - b[2]) / 2;
  const place = (lon: number, lat: number) => {
    const basis = orbitBasis(lon, lat);
    const fit = fitBoxToView(b, basis, W / H);
    cam.left = -fit.width / 2;
    cam.right = fit.width / 2;
    cam.top = fit.width / (W / H) / 2;
    cam.bottom = -cam.top;
    cam.position.set(
      centre.x + basis.back[0] * radius * 3,
      centre.y + basis.back[1] * radius * 3,
      centre.z + basis.back[2] * radius * 3,
    );
    cam.up.set(basis.up[0], basis.up[1], basis.up[2]);
    cam.lookAt(centre);
    cam.far = radius * 6;
    cam.updateProjectionMatrix();
    cam.updateMatrixWorld(true);
  };
  place(160, 10);
  renderer.render(scene, cam);
  sync(gl);
  const firstFrameMs = performance.now() - t0;

  const frames: number[] = [];
  for (let i = 0; i < Math.min(ORBIT_FRAMES, 10); i++) {
    const t = performance.now();
    place(160 + (i + 1) * 1.2, 10);
    renderer.render(scene, cam);
    sync(gl);
    frames.push(performance.now() - t);
    await raf();
  }
  place(160, 10);
  const rc = new Raycaster();
  const picks: number[] = [];
  for (const [x, y] of PICK_POINTS.slice(0, 3)) {
    const t = performance.now();
    rc.setFromCamera(new Vector2((x / W) * 2 - 1, 1 - (y / H) * 2), cam);
    rc.intersectObjects(meshes, false);
    picks.push(performance.now() - t);
  }
  // Box selection as commonly written: project every vertex of every part (touch = any vertex inside).
  const tb = performance.now();
  const vp = new Matrix4().multiplyMatrices(cam.projectionMatrix, cam.matrixWorldInverse);
  const v = new Vector3();
  const x0 = -1 / 3,
    x1 = 1 / 3,
    y0 = -1 / 3,
    y1 = 1 / 3;
  let boxed = 0;
  for (const m of meshes) {
    const p = m.geometry.getAttribute('position');
    for (let k = 0; k < p.count; k++) {
      v.fromBufferAttribute(p, k).applyMatrix4(vp);
      if (v.x >= x0 && v.x <= x1 && v.y >= y0 && v.y <= y1) {
        boxed++;
        break;
      }
    }
  }
  const boxMs = performance.now() - tb;
  const heap = heapMB() + 0 * boxed;
  if (opts.keep) {
    // Kept for bench/viewer/stillFrames.ts: one more frame of the same scene at orbit longitude `lon` (°).
    const frame = (lon: number) => {
      place(lon, 10);
      renderer.render(scene, cam);
      sync(gl);
    };
    Object.assign(globalThis, { keelsonBaselineFrame: frame });
  } else {
    for (const m of meshes) m.geometry.dispose();
    renderer.dispose();
  }
  return {
    firstFrameMs,
    firstFrameAtPercent: 100,
    loadedMs: firstFrameMs,
    orbitMedianMs: quantile(frames, 0.5),
    orbitP95Ms: quantile(frames, 0.95),
    // The baseline has one quality: its still frame is its orbit frame.
    stillMedianMs: quantile(frames, 0.5),
    pickMs: quantile(picks, 0.5),
    boxMs,
    heapMB: heap,
    bytesPerTriangle: geometryBytes / triangles,
    loadBytesPerTriangle: geometryBytes / triangles,
    bvhBytesPerTriangle: geometryBytes / triangles,
    triangles,
  };
}

Object.assign(globalThis, { keelsonBench, keelsonBaseline: baselineBench });

/**
 * Profiling hook (bench/viewer/profileGestures.ts): loads the package like keelsonBench, waits for the
 * BVHs, fits the view and keeps the engine in `globalThis.keelsonEngine`; `keelsonGesture('box' | 'pick')`
 * then runs one gesture (the same events as keelsonBench) and returns its time (ms) and selection size.
 */
async function keelsonGestureSetup(url: string): Promise<void> {
  const c = canvas();
  const engine = new Engine();
  await engine.init({ canvas: c as unknown as OffscreenCanvas, width: W, height: H, pixelRatio: 1 });
  let selection = 0;
  engine.subscribe((e: EngineEvent) => {
    if (e.type === 'selection-changed') selection = e.items.length;
  });
  await engine.loadModel(url, {});
  const m = engine.inspect().model!;
  while (!m.idleDone) await new Promise((r) => setTimeout(r, 20));
  engine.fitToWindow();
  engine.inspect().loop.frame();
  const gesture = (kind: 'box' | 'pick', i: number) => {
    const t = performance.now();
    if (kind === 'pick') {
      const [x, y] = PICK_POINTS[i % PICK_POINTS.length];
      engine.pointer(ptr('down', x, y));
      engine.pointer(ptr('up', x, y));
    } else {
      engine.pointer(ptr('down', (W * 2) / 3, H / 3, { shiftKey: true }));
      engine.pointer(ptr('move', W / 2, H / 2, { shiftKey: true }));
      engine.pointer(ptr('up', W / 3, (H * 2) / 3, { shiftKey: true }));
    }
    const ms = performance.now() - t;
    // Without an object table the event names no items: count the highlight (first gesture only, not profiled away).
    return { ms, selected: selection || (i === 0 ? engine.inspect().model!.state.withFlag(2).length : -1) };
  };
  Object.assign(globalThis, { keelsonEngine: engine, keelsonGesture: gesture });
}

Object.assign(globalThis, { keelsonGestureSetup });
