/**
 * The render engine: implements the EngineApi facade (engine/EngineApi.ts) on an OffscreenCanvas in the
 * render worker (workers/render.worker.ts exposes it with Comlink). three.js draws the streamed `.sc`
 * chunks (scene/ModelScene, scene/ChunkBatch); the orbit camera, gestures, picking and selection follow
 * viewer.md §4 ("Loading", "Selection", "Camera") and §9 ("Camera and input").
 *
 * Rendering is on demand: every change marks the frame dirty and schedules one animation frame
 * (requestAnimationFrame where the worker has it, else a 16 ms timer); nothing is drawn while idle.
 * After dispose() every method throws `Engine disposed`.
 */
import { Color, DirectionalLight, HemisphereLight, Scene, WebGLRenderer } from 'three';
import type {
  EngineApi, EngineEvent, EngineInitOptions, EngineListener, EngineObjectTable, OrbitView, PointerInput, SelectionMode, WheelInput,
} from './EngineApi';
import { CAMERA_CONSTANTS, type Vec3 } from './interaction/cameraMath';
import { OrbitCamera } from './interaction/OrbitCamera';
import { PointerGesture, selectionAfterClick, type GestureAction } from './interaction/PointerGesture';
import { createEdgeMaterial, createStateUniforms, createSurfaceMaterial } from './scene/chunkMaterial';
import { ModelScene } from './scene/ModelScene';
import { streamScenePackage } from './scene/streamScenePackage';
import { isBoxValid, type Box3Tuple } from './model/types';

/** What the engine needs of a renderer (THREE.WebGLRenderer; tests in Node pass a stand-in). */
export interface EngineRenderer {
  setPixelRatio(ratio: number): void;
  setSize(width: number, height: number, updateStyle?: boolean): void;
  render(scene: Scene, camera: OrbitCamera['camera']): void;
  dispose(): void;
}

/** Dependencies that tests replace; the worker uses the defaults. */
export interface EngineDeps {
  createRenderer?: (options: EngineInitOptions) => EngineRenderer;
  fetchFn?: typeof fetch;
  now?: () => number;
}

/** Background colour of the 3D canvas (light, engineering look). */
const BACKGROUND = 0xeef1f5;
/** Hover picking runs at most this often, ms. */
const HOVER_INTERVAL_MS = 50;
/** camera-changed events at most this often, ms. */
const CAMERA_EVENT_INTERVAL_MS = 100;

/** The engine facade (see EngineApi for the method contracts). */
export class Engine implements EngineApi {
  private renderer: EngineRenderer | null = null;
  private readonly scene = new Scene();
  private readonly orbit = new OrbitCamera();
  private readonly uniforms = createStateUniforms();
  private readonly surface = createSurfaceMaterial(this.uniforms);
  private readonly edgeMaterial = createEdgeMaterial(this.uniforms);
  private readonly gesture = new PointerGesture();
  private model: ModelScene | null = null;
  private table: EngineObjectTable | null = null;
  private listener: EngineListener | null = null;
  private mode: SelectionMode = 'structural-details';
  private selection: number[] = [];
  private hover: number | null = null;
  private disposed = false;
  private dirty = false;
  private frameScheduled = false;
  private frameHandle: { cancel(): void } | null = null;
  private firstFrameSent = false;
  private cameraChanged = false;
  private lastCameraEvent = -Infinity;
  private lastHoverPick = -Infinity;
  private lastDoubleClick = -Infinity;
  private loadAbort: AbortController | null = null;
  private readonly now: () => number;

  constructor(private readonly deps: EngineDeps = {}) {
    this.now = deps.now ?? (() => (globalThis.performance ? globalThis.performance.now() : Date.now()));
    this.scene.background = new Color(BACKGROUND);
    // Sky light from +Z (world up) tells decks from sides; a head light riding with the camera keeps faces
    // towards the viewer lit whatever the orbit.
    const sky = new HemisphereLight(0xffffff, 0x6f7782, 2.2);
    sky.position.set(0, 0, 1);
    this.scene.add(sky);
    const head = new DirectionalLight(0xffffff, 2.6);
    head.position.set(0.5, 0.8, 1);
    this.orbit.camera.add(head);
    this.scene.add(this.orbit.camera);
  }

  async init(options: EngineInitOptions): Promise<void> {
    this.alive();
    if (this.renderer) throw new Error('Engine already initialised');
    const { width, height, pixelRatio } = options;
    if (!(width > 0 && height > 0)) throw new Error(`Engine.init: canvas size ${width}×${height} is not positive`);
    const renderer = this.deps.createRenderer
      ? this.deps.createRenderer(options)
      : new WebGLRenderer({ canvas: options.canvas, antialias: true });
    renderer.setPixelRatio(pixelRatio > 0 ? pixelRatio : 1);
    renderer.setSize(width, height, false);
    this.renderer = renderer;
    this.orbit.setViewport(width, height);
    this.invalidate();
  }

  subscribe(listener: EngineListener): void {
    this.alive();
    this.listener = listener;
  }

  setObjectTable(table: EngineObjectTable): void {
    this.alive();
    if (table.types.length !== table.ids.length || table.parents.length !== table.ids.length) {
      throw new Error(`setObjectTable: arrays differ in length (ids ${table.ids.length}, types ${table.types.length}, parents ${table.parents.length})`);
    }
    this.table = table;
    // A table that arrives after the package header still applies to the loaded model.
    if (this.model) {
      this.model.setTable(table);
      this.invalidate();
    }
  }

  async loadModel(url: string, headers: Record<string, string>): Promise<void> {
    this.alive();
    this.loadAbort?.abort();
    const abort = new AbortController();
    this.loadAbort = abort;
    this.clearModel();
    let model: ModelScene | null = null;
    try {
      await streamScenePackage(url, headers, {
        signal: abort.signal,
        fetchFn: this.deps.fetchFn,
        now: this.now,
        onHeader: (header) => {
          model = new ModelScene(header, this.table, this.uniforms, this.surface, this.edgeMaterial);
          this.model = model;
          this.scene.add(model.root);
          this.orbit.setSceneBounds(header.bounds);
          // viewer.md §4: the camera orbits (160, 10) and the world is fitted; the header's bounds allow it
          // before any geometry arrives, so the first chunk lands in a useful view.
          this.orbit.setOrbit(160, 10);
          if (isBoxValid(header.bounds)) this.orbit.fit(header.bounds);
          this.cameraMoved();
        },
        onChunk: (chunk) => {
          if (!model) throw new Error('Scene package chunk before header');
          model.addChunk(chunk);
          this.invalidate();
        },
        onProgress: (progress) => this.emit({ type: 'load-progress', progress }),
      });
      if (abort.signal.aborted) throw new Error('Loading model cancelled');
      const m = model as ModelScene | null;
      if (!m) throw new Error('Loading model failed: no header');
      this.emit({ type: 'model-ready', bounds: [...m.header.bounds] as Box3Tuple, triangles: m.triangles });
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      if (abort.signal.aborted || this.disposed) throw new Error(this.disposed ? 'Engine disposed' : 'Loading model cancelled');
      this.emit({ type: 'error', message: err.message });
      throw err;
    } finally {
      if (this.loadAbort === abort) this.loadAbort = null;
    }
  }

  resize(width: number, height: number, pixelRatio: number): void {
    this.alive();
    if (!(width > 0 && height > 0)) return;
    this.renderer?.setPixelRatio(pixelRatio > 0 ? pixelRatio : 1);
    this.renderer?.setSize(width, height, false);
    this.orbit.setViewport(width, height);
    this.cameraMoved();
  }

  pointer(input: PointerInput): void {
    this.alive();
    for (const a of this.gesture.handle(input)) this.act(a, input.time);
  }

  wheel(input: WheelInput): void {
    this.alive();
    this.orbit.zoomAt(input.x, input.y, input.deltaY);
    this.cameraMoved();
  }

  doubleClick(x: number, y: number): void {
    this.alive();
    const t = this.now();
    if (t - this.lastDoubleClick < CAMERA_CONSTANTS.doubleClickDebounceMs) return;
    this.lastDoubleClick = t;
    // viewer.md §4: double-click resets the orbit target: to the point under the cursor, else the visible centre.
    const hit = this.pick(x, y);
    if (hit.type === 'hit') this.orbit.setTarget(hit.point);
    else {
      const b = this.model?.visibleBounds();
      if (!b) return;
      this.orbit.setTarget([(b[0] + b[3]) / 2, (b[1] + b[4]) / 2, (b[2] + b[5]) / 2] as Vec3);
    }
    this.cameraMoved();
  }

  fitToWindow(): void {
    this.alive();
    const m = this.model;
    if (!m) return;
    const box = m.visibleBounds() ?? (isBoxValid(m.header.bounds) ? m.header.bounds : null);
    if (!box) return;
    this.orbit.fit(box);
    this.cameraMoved();
  }

  orbitTo(longitude: number, latitude: number, animateMs: number = CAMERA_CONSTANTS.projectionMs): void {
    this.alive();
    if (!Number.isFinite(longitude) || !Number.isFinite(latitude)) throw new Error(`orbitTo: angles ${longitude}/${latitude} are not finite`);
    this.orbit.animateOrbit(longitude, latitude, animateMs, this.now());
    this.cameraMoved();
  }

  getView(): OrbitView {
    this.alive();
    return this.orbit.getView();
  }

  setVisibility(nodeIds: number[], visible: boolean): void {
    this.alive();
    const m = this.model;
    if (!m) return;
    m.setVisibility(nodeIds, visible);
    if (!visible && this.hover !== null && m.state.isHidden(this.hover)) this.setHover(null);
    this.invalidate();
  }

  setSelection(nodeIds: number[]): void {
    this.alive();
    const m = this.model;
    const unique = [...new Set(nodeIds)].filter((n) => (m ? m.hasNode(n) : false));
    this.applySelection(unique);
  }

  setSelectionMode(mode: SelectionMode): void {
    this.alive();
    if (mode !== 'structural-details' && mode !== 'main-objects') throw new Error(`Unknown selection mode "${mode}"`);
    this.mode = mode;
  }

  pick(x: number, y: number): { type: 'hit'; nodeId: number; point: [number, number, number] } | { type: 'miss' } {
    this.alive();
    const m = this.model;
    if (!m || m.chunks.length === 0) return { type: 'miss' };
    const hit = m.raycast(this.orbit.raycaster(x, y).ray);
    return hit ? { type: 'hit', nodeId: hit.nodeId, point: hit.point } : { type: 'miss' };
  }

  dispose(): void {
    if (this.disposed) throw new Error('Engine disposed');
    this.loadAbort?.abort();
    this.frameHandle?.cancel();
    this.clearModel();
    this.surface.dispose();
    this.edgeMaterial.dispose();
    this.renderer?.dispose();
    this.renderer = null;
    this.listener = null;
    this.disposed = true;
  }

  /** Executes one gesture action of the pointer state machine. */
  private act(a: GestureAction, time: number): void {
    switch (a.type) {
      case 'click': {
        const hit = this.pick(a.x, a.y);
        const node = hit.type === 'hit' && this.model ? this.model.selectableNode(hit.nodeId, this.mode) : null;
        this.applySelection(selectionAfterClick(this.selection, node, a.toggle));
        break;
      }
      case 'context-menu':
        this.emit({ type: 'context-menu', x: a.x, y: a.y });
        break;
      case 'drag-start':
        this.setHover(null);
        break;
      case 'orbit':
        this.orbit.orbitBy(a.dx, a.dy);
        this.cameraMoved();
        break;
      case 'pan':
        this.orbit.panBy(a.dx, a.dy);
        this.cameraMoved();
        break;
      case 'drag-end':
        this.cameraMoved();
        break;
      case 'hover': {
        if (time - this.lastHoverPick < HOVER_INTERVAL_MS) break;
        this.lastHoverPick = time;
        const hit = this.pick(a.x, a.y);
        this.setHover(hit.type === 'hit' && this.model ? this.model.selectableNode(hit.nodeId, this.mode) : null);
        break;
      }
      case 'hover-clear':
        this.setHover(null);
        break;
    }
  }

  private applySelection(nodeIds: number[]): void {
    this.selection = nodeIds;
    const m = this.model;
    if (m) m.highlightSelection(nodeIds);
    this.emit({ type: 'selection-changed', items: m ? m.selectionItems(nodeIds) : [] });
    this.invalidate();
  }

  private setHover(nodeId: number | null): void {
    if (nodeId === this.hover) return;
    this.hover = nodeId;
    this.model?.highlightHover(nodeId);
    this.emit({ type: 'hover-changed', nodeId });
    this.invalidate();
  }

  private clearModel(): void {
    this.model?.dispose();
    this.model = null;
    this.selection = [];
    this.hover = null;
    this.firstFrameSent = false;
    this.invalidate();
  }

  private cameraMoved(): void {
    this.cameraChanged = true;
    this.invalidate();
  }

  /** Marks the frame dirty and schedules one frame. */
  private invalidate(): void {
    this.dirty = true;
    this.schedule();
  }

  private schedule(): void {
    if (this.frameScheduled || this.disposed) return;
    this.frameScheduled = true;
    const g = globalThis as { requestAnimationFrame?: (cb: (t: number) => void) => number; cancelAnimationFrame?: (h: number) => void };
    if (typeof g.requestAnimationFrame === 'function' && typeof g.cancelAnimationFrame === 'function') {
      const h = g.requestAnimationFrame(() => this.frame());
      this.frameHandle = { cancel: () => g.cancelAnimationFrame!(h) };
    } else {
      const h = setTimeout(() => this.frame(), 16);
      this.frameHandle = { cancel: () => clearTimeout(h) };
    }
  }

  /** One animation frame: advance animations, draw if dirty, emit first-frame / camera-changed. */
  private frame(): void {
    this.frameScheduled = false;
    this.frameHandle = null;
    if (this.disposed) return;
    const t = this.now();
    if (this.orbit.tick(t)) {
      this.dirty = true;
      this.cameraChanged = true;
    }
    if (this.dirty && this.renderer) {
      this.dirty = false;
      this.renderer.render(this.scene, this.orbit.camera);
      if (!this.firstFrameSent && this.model && this.model.chunks.length > 0) {
        this.firstFrameSent = true;
        this.emit({ type: 'first-frame' });
      }
    }
    if (this.cameraChanged && t - this.lastCameraEvent >= CAMERA_EVENT_INTERVAL_MS) {
      this.cameraChanged = false;
      this.lastCameraEvent = t;
      this.emit({ type: 'camera-changed', view: this.orbit.getView() });
    }
    if (this.orbit.animating || this.cameraChanged || (this.dirty && this.renderer)) this.schedule();
  }

  private emit(event: EngineEvent): void {
    const l = this.listener;
    if (!l) return;
    try {
      // Across Comlink the listener is a proxy returning a promise; a closed page must not break the engine.
      const r = l(event) as unknown;
      if (r && typeof (r as Promise<void>).catch === 'function') (r as Promise<void>).catch(() => undefined);
    } catch {
      /* listener errors are the UI's; the engine carries on */
    }
  }

  private alive(): void {
    if (this.disposed) throw new Error('Engine disposed');
  }
}
