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
import { Color, DirectionalLight, HemisphereLight, Matrix4, Scene, WebGLRenderer, type Camera } from 'three';
import type {
  EngineApi, EngineEvent, EngineInitOptions, EngineListener, EngineObjectTable, KeyInput, OrbitView, PointerInput, ProjectionAxis,
  RenderStats, SceneGraphNode, SelectionMode, WheelInput,
} from './EngineApi';
import { boxSelectMode } from './interaction/boxSelect';
import { CAMERA_CONSTANTS, PROJECTION_ORBITS, wheelSteps, wheelTilt, type Vec3 } from './interaction/cameraMath';
import { OrbitCamera } from './interaction/OrbitCamera';
import { PointerGesture, selectionAfterClick, type GestureAction } from './interaction/PointerGesture';
import { TouchGesture } from './interaction/TouchGesture';
import { VIEW_ACTION_NAMES, ViewHistory, VisibilityDebouncer } from './interaction/viewHistory';
import { WalkCamera } from './interaction/WalkCamera';
import { WALK_DELTA_MM, walkPoseFromOrbit, walkStepForKey } from './interaction/walkMode';
import { createStateUniforms } from './scene/chunkMaterial';
import { ModelScene } from './scene/ModelScene';
import { describeSceneGraph, findSceneNode } from './scene/sceneGraph';
import { streamScenePackage } from './scene/streamScenePackage';
import { isBoxValid, type Box3Tuple } from './model/types';

/** What the engine needs of a renderer (THREE.WebGLRenderer; tests in Node pass a stand-in). */
export interface EngineRenderer {
  setPixelRatio(ratio: number): void;
  setSize(width: number, height: number, updateStyle?: boolean): void;
  render(scene: Scene, camera: Camera): void;
  dispose(): void;
  /** THREE.WebGLRenderer's statistics of the last render, when available. */
  info?: { render: { calls: number; triangles: number }; autoReset?: boolean };
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
  private readonly gesture = new PointerGesture();
  private readonly touch = new TouchGesture();
  private touchTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly walk = new WalkCamera();
  private walkOn = false;
  private savedView: OrbitView | null = null;
  private readonly history = new ViewHistory<{ nodes: number[]; visible: boolean }>();
  private readonly treeDebounce = new VisibilityDebouncer(CAMERA_CONSTANTS.doubleClickDebounceMs);
  private treeTimer: ReturnType<typeof setTimeout> | null = null;
  private bvhTimer: ReturnType<typeof setTimeout> | null = null;
  private stats = { frameTimeMs: 0, drawCalls: 0, triangles: 0, chunksDrawn: 0, frameTimes: [] as number[] };
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
    const walkHead = new DirectionalLight(0xffffff, 2.6);
    walkHead.position.set(0.5, 0.8, 1);
    this.walk.camera.add(walkHead);
    this.scene.add(this.walk.camera);
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
    this.walk.setViewport(width, height);
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
          model = new ModelScene(header, this.table, this.uniforms);
          this.model = model;
          this.scene.add(model.root);
          this.orbit.setSceneBounds(header.bounds);
          const hb = header.bounds;
          this.walk.setSceneRadius(Math.max(1, Math.hypot(hb[3] - hb[0], hb[4] - hb[1], hb[5] - hb[2]) / 2));
          // viewer.md §4: the camera orbits (160, 10) and the world is fitted; the header's bounds allow it
          // before any geometry arrives, so the first chunk lands in a useful view.
          this.orbit.setOrbit(160, 10);
          if (isBoxValid(header.bounds)) this.orbit.fit(header.bounds);
          this.cameraMoved();
        },
        onChunk: (chunk) => {
          if (!model) throw new Error('Scene package chunk before header');
          model.addChunk(chunk);
          this.scheduleBvh();
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
    this.walk.setViewport(width, height);
    this.cameraMoved();
  }

  pointer(input: PointerInput): void {
    this.alive();
    if (input.pointerType === 'touch') {
      for (const a of this.touch.handle(input)) this.act(a, input.time);
      this.armTouchHold();
      return;
    }
    for (const a of this.gesture.handle(input)) this.act(a, input.time);
  }

  wheel(input: WheelInput): void {
    this.alive();
    if (this.walkOn) {
      // Walk mode: the wheel walks forward/back by the walk delta per notch.
      const steps = wheelSteps(input.deltaY);
      if (steps !== 0) this.walk.step({ forward: -steps * WALK_DELTA_MM, right: 0, up: 0, yaw: 0 });
      this.cameraMoved();
      return;
    }
    const tilt = wheelTilt(input.deltaX, input.deltaY, input.shiftKey);
    if (tilt !== 0) this.orbit.turnBy(tilt);
    else this.orbit.zoomAt(input.x, input.y, input.deltaY);
    this.cameraMoved();
  }

  doubleClick(x: number, y: number): void {
    this.alive();
    if (this.walkOn) return;
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
    return this.getViewNow();
  }

  /** The orbit view; in walk mode the walker's eye as target with its heading as longitude. */
  private getViewNow(): OrbitView {
    if (!this.walkOn) return this.orbit.getView();
    const v = this.orbit.getView();
    const p = this.walk.pose;
    return { ...v, longitude: -p.heading, latitude: p.pitch, target: { x: p.eye[0], y: p.eye[1], z: p.eye[2] } };
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
    const rc = this.walkOn ? this.walk.raycaster(x, y) : this.orbit.raycaster(x, y);
    const hit = m.raycast(rc.ray);
    return hit ? { type: 'hit', nodeId: hit.nodeId, point: hit.point } : { type: 'miss' };
  }

  setObjectColor(nodeIds: number[], rgb: [number, number, number] | null): void {
    this.alive();
    if (rgb && !(rgb.length === 3 && rgb.every((v) => Number.isInteger(v) && v >= 0 && v <= 255))) {
      throw new Error(`setObjectColor: colour ${JSON.stringify(rgb)} is not three bytes 0..255`);
    }
    this.model?.setColor(nodeIds, rgb);
    this.invalidate();
  }

  setObjectOpacity(nodeIds: number[], opacity: number): void {
    this.alive();
    if (!(opacity >= 0 && opacity <= 1)) throw new Error(`setObjectOpacity: opacity ${opacity} is not between 0 and 1`);
    this.model?.setOpacity(nodeIds, opacity);
    this.invalidate();
  }

  viewAlong(axis: ProjectionAxis): void {
    this.alive();
    const o = PROJECTION_ORBITS[axis];
    if (!o) throw new Error(`viewAlong: unknown axis "${axis}" (X, Y, Z, -X, -Y, -Z)`);
    if (this.walkOn) this.setWalkMode(false);
    this.orbitTo(o[0], o[1], CAMERA_CONSTANTS.projectionMs);
  }

  setWalkMode(on: boolean): void {
    this.alive();
    if (on === this.walkOn) return;
    if (on) {
      const v = this.orbit.getView();
      this.savedView = v;
      this.walk.setPose(walkPoseFromOrbit([v.target.x, v.target.y, v.target.z], v.longitude, v.width, v.width / v.height));
      this.emit({ type: 'box-changed', box: null });
    } else if (this.savedView) {
      this.orbit.setView(this.savedView);
      this.savedView = null;
    }
    this.walkOn = on;
    this.gesture.boxEnabled = !on;
    this.emit({ type: 'walk-mode-changed', on });
    this.cameraMoved();
  }

  key(input: KeyInput): void {
    this.alive();
    if (!this.walkOn || input.kind !== 'down') return;
    const step = walkStepForKey(input.key, input.buttons);
    if (!step) return;
    this.walk.step(step);
    this.cameraMoved();
  }

  hideSelected(): void {
    this.alive();
    const nodes = [...this.selection];
    if (nodes.length === 0 || !this.model) return;
    this.flushTreeAction();
    this.applyVisibility(nodes, false);
    this.applySelection([]);
    this.record(VIEW_ACTION_NAMES.hideObjects, nodes, false);
  }

  setTreeVisibility(nodeIds: number[], visible: boolean): void {
    this.alive();
    if (!this.model || nodeIds.length === 0) return;
    this.applyVisibility(nodeIds, visible);
    const flushed = this.treeDebounce.add(nodeIds, visible, this.now());
    if (flushed) this.record(flushed.visible ? VIEW_ACTION_NAMES.showObjects : VIEW_ACTION_NAMES.hideObjects, flushed.nodeIds, flushed.visible);
    if (this.treeTimer) clearTimeout(this.treeTimer);
    this.treeTimer = setTimeout(() => {
      this.treeTimer = null;
      if (!this.disposed) this.flushTreeAction();
    }, CAMERA_CONSTANTS.doubleClickDebounceMs);
  }

  undo(): void {
    this.alive();
    this.flushTreeAction();
    const a = this.history.undo();
    if (a) this.applyVisibility(a.payload.nodes, !a.payload.visible);
    this.emitHistory();
  }

  redo(): void {
    this.alive();
    this.flushTreeAction();
    const a = this.history.redo();
    if (a) this.applyVisibility(a.payload.nodes, a.payload.visible);
    this.emitHistory();
  }

  getHistory(): { undoName: string | null; redoName: string | null } {
    this.alive();
    return this.history.names();
  }

  getSceneGraph(): SceneGraphNode {
    this.alive();
    return describeSceneGraph(this.scene);
  }

  setSceneNodeVisible(id: number, visible: boolean): void {
    this.alive();
    const node = findSceneNode(this.scene, id);
    if (!node) throw new Error(`setSceneNodeVisible: no scene node with id ${id}`);
    node.visible = visible;
    this.invalidate();
  }

  getRenderStats(): RenderStats {
    this.alive();
    const t = this.stats.frameTimes;
    const now = this.now();
    const recent = t.filter((x) => now - x <= 1000);
    return {
      frameTimeMs: this.stats.frameTimeMs,
      fps: recent.length,
      drawCalls: this.stats.drawCalls,
      triangles: this.stats.triangles,
      geometryBytes: this.model?.geometryBytes ?? 0,
      modelTriangles: this.model?.triangles ?? 0,
      chunksDrawn: this.stats.chunksDrawn,
      chunkCount: this.model?.chunks.length ?? 0,
    };
  }

  dispose(): void {
    if (this.disposed) throw new Error('Engine disposed');
    this.loadAbort?.abort();
    this.frameHandle?.cancel();
    for (const t of [this.touchTimer, this.treeTimer, this.bvhTimer]) if (t) clearTimeout(t);
    this.clearModel();
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
        if (this.walkOn) this.walk.look(a.dx, a.dy, CAMERA_CONSTANTS.orbitDegPerPx);
        else this.orbit.orbitBy(a.dx, a.dy);
        this.cameraMoved();
        break;
      case 'pan':
        if (this.walkOn) break; // walk mode moves by keys; pan has no meaning there
        this.orbit.panBy(a.dx, a.dy);
        this.cameraMoved();
        break;
      case 'pinch':
        if (this.walkOn) this.walk.step({ forward: (1 - a.scale) * WALK_DELTA_MM * 4, right: 0, up: 0, yaw: 0 });
        else this.orbit.zoomByFactor(a.x, a.y, a.scale);
        this.cameraMoved();
        break;
      case 'box':
        this.emit({ type: 'box-changed', box: { x0: a.x0, y0: a.y0, x1: a.x1, y1: a.y1, mode: boxSelectMode(a.x0, a.x1) } });
        break;
      case 'drag-end':
        if (a.mode === 'box') {
          this.emit({ type: 'box-changed', box: null });
          if (!this.walkOn && a.x0 !== undefined && a.y0 !== undefined && a.x1 !== undefined && a.y1 !== undefined) {
            this.selectBox({ x0: a.x0, y0: a.y0, x1: a.x1, y1: a.y1 }, a.toggle === true);
          }
        }
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

  /** Box selection of viewer.md §4 (ignored in walk mode): replaces the selection, or adds with Ctrl. */
  private selectBox(rect: { x0: number; y0: number; x1: number; y1: number }, add: boolean): void {
    const m = this.model;
    if (!m || this.walkOn) return;
    const cam = this.orbit.camera;
    const vp = new Matrix4().multiplyMatrices(cam.projectionMatrix, cam.matrixWorldInverse);
    const ids = m.boxSelect(rect, boxSelectMode(rect.x0, rect.x1), { matrix: vp.elements, width: this.orbit.viewportWidth, height: this.orbit.viewportHeight }, this.mode);
    this.applySelection(add ? [...new Set([...this.selection, ...ids])] : ids);
  }

  private applyVisibility(nodeIds: number[], visible: boolean): void {
    const m = this.model;
    if (!m) return;
    m.setVisibility(nodeIds, visible);
    if (!visible && this.hover !== null && m.state.isHidden(this.hover)) this.setHover(null);
    this.invalidate();
  }

  private record(name: string, nodes: number[], visible: boolean): void {
    this.history.record(name, { nodes, visible });
    this.emitHistory();
  }

  private flushTreeAction(): void {
    const p = this.treeDebounce.take();
    if (p) this.record(p.visible ? VIEW_ACTION_NAMES.showObjects : VIEW_ACTION_NAMES.hideObjects, p.nodeIds, p.visible);
  }

  private emitHistory(): void {
    this.emit({ type: 'history-changed', ...this.history.names() });
  }

  /** Re-arms the touch hold timer: 1000 ms after a still finger went down, the context menu opens while held. */
  private armTouchHold(): void {
    if (this.touchTimer) clearTimeout(this.touchTimer);
    this.touchTimer = null;
    const due = this.touch.holdDueAt;
    if (due === null) return;
    this.touchTimer = setTimeout(() => {
      this.touchTimer = null;
      if (this.disposed) return;
      for (const a of this.touch.tick(this.now())) this.act(a, this.now());
    }, Math.max(0, due - this.now()));
  }

  /** Builds picking BVHs chunk by chunk in idle slices, so the worker never blocks on all of them at once. */
  private scheduleBvh(): void {
    if (this.bvhTimer || this.disposed) return;
    this.bvhTimer = setTimeout(() => {
      this.bvhTimer = null;
      const m = this.model;
      if (!m || this.disposed) return;
      const next = m.chunks.find((c) => !c.hasBvh);
      if (!next) return;
      next.buildBvh();
      this.scheduleBvh();
    }, 0);
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
    this.history.clear();
    this.treeDebounce.take();
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
      const cam = this.walkOn ? this.walk.camera : this.orbit.camera;
      if (this.model) {
        cam.updateMatrixWorld(true);
        const vp = new Matrix4().multiplyMatrices(cam.projectionMatrix, cam.matrixWorldInverse);
        this.stats.chunksDrawn = this.model.cull(vp.elements);
      }
      const t0 = this.now();
      this.renderer.render(this.scene, cam);
      const t1 = this.now();
      this.stats.frameTimeMs = t1 - t0;
      this.stats.frameTimes.push(t1);
      if (this.stats.frameTimes.length > 240) this.stats.frameTimes.splice(0, this.stats.frameTimes.length - 240);
      const info = this.renderer.info;
      if (info) {
        this.stats.drawCalls = info.render.calls;
        this.stats.triangles = info.render.triangles;
      }
      if (!this.firstFrameSent && this.model && this.model.chunks.length > 0) {
        this.firstFrameSent = true;
        this.emit({ type: 'first-frame' });
      }
    }
    if (this.cameraChanged && t - this.lastCameraEvent >= CAMERA_EVENT_INTERVAL_MS) {
      this.cameraChanged = false;
      this.lastCameraEvent = t;
      this.emit({ type: 'camera-changed', view: this.getViewNow() });
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
