/**
 * The render engine: implements the EngineApi facade (engine/EngineApi.ts) on an OffscreenCanvas in the
 * render worker (workers/render.worker.ts exposes it with Comlink). A thin dispatcher over its parts:
 * scene/ModelScene (streamed `.sc` chunks), scene/FrameLoop (on-demand frames and statistics),
 * interaction/CameraRig (orbit and walk cameras), interaction/SelectionController (selection, hover,
 * visibility, view history), and engineering tools in engine/tools (clipping, sections, measure,
 * snapping, annotations). Input follows viewer.md §4 and §9. After dispose() every method throws
 * `Engine disposed`.
 */
import { Color, HemisphereLight, Scene, Vector3, WebGLRenderer, type Camera } from 'three';
import type {
  AnnotationSettings,
  ClipBox,
  ClipPlaneKey,
  ClipState,
  CommentMarker,
  EngineApi,
  EngineEvent,
  EngineInitOptions,
  EngineListener,
  EngineModelDetails,
  EngineObjectTable,
  KeyInput,
  OrbitView,
  PointerInput,
  ProjectionAxis,
  RenderStats,
  SceneGraphNode,
  SectionAxis,
  SectionCreated,
  SelectionMode,
  SnapResult,
  SnapSettings,
  SurfaceObjectInput,
  ThicknessViewInput,
  ViewInsets,
  ThicknessViewResult,
  WheelInput,
} from './EngineApi';
import { CameraRig } from './interaction/CameraRig';
import { epochNow } from './interaction/clock';
import { InputRouter } from './interaction/InputRouter';
import { NavigationQuality } from './interaction/NavigationQuality';
import { SelectionController } from './interaction/SelectionController';
import { ViewActions } from './interaction/ViewActions';
import type { Vec3 } from './interaction/cameraMath';
import { isBoxValid, type Box3Tuple } from './model/types';
import { createStateUniforms, type ObjectStateUniforms } from './scene/chunkMaterial';
import { FrameLoop } from './scene/FrameLoop';
import type { OcclusionGl } from './render/chunkOcclusion';
import { LOD_BUILD_MS_PER_FRAME, ModelScene } from './scene/ModelScene';
import type { PaintGroup, PaintStyle } from './scene/objectPaint';
import { describeSceneTree, SCENE_NODE_IDS, sceneNodeObjects, sectionOfNodeId } from './scene/sceneGraph';
import { ModelLoader } from './scene/ModelLoader';
import { renderStats } from './scene/renderStats';
import { AnnotationManager } from './tools/AnnotationManager';
import { CommentMarkers } from './tools/CommentMarkers';
import { ComparisonGhosts } from './tools/ComparisonGhosts';
import { ClippingManager } from './tools/ClippingManager';
import type { CanvasFactory } from './tools/LabelLayer';
import { MeasureManager } from './tools/MeasureManager';
import { SectionManager } from './tools/SectionManager';
import { setEdgeStrips } from './scene/edgeStrips';
import { installStripDraw, setTriangleStrips, takeStripTriangleCorrection } from './scene/triangleStrips';
import { isSoftwareRenderer } from './scene/softwareRenderer';
import { SnapManager } from './tools/SnapManager';
import { ThicknessView } from './tools/ThicknessView';
import type { ToolHost } from './tools/ToolHost';

/** What the engine needs of a renderer (THREE.WebGLRenderer; tests in Node pass a stand-in). */
export interface EngineRenderer {
  setPixelRatio(ratio: number): void;
  setSize(width: number, height: number, updateStyle?: boolean): void;
  render(scene: Scene, camera: Camera): void;
  dispose(): void;
  /** THREE.WebGLRenderer's statistics of the last render, when available. */
  info?: { render: { calls: number; triangles: number }; autoReset?: boolean };
  /** Local clipping (per-material planes) switch; set on by the engine. */
  localClippingEnabled?: boolean;
  /** The WebGL context (THREE.WebGLRenderer): a WebGL2 one enables occlusion culling of chunks. */
  getContext?(): unknown;
}

/** Dependencies that tests replace; the worker uses the defaults. */
export interface EngineDeps {
  createRenderer?: (options: EngineInitOptions) => EngineRenderer;
  fetchFn?: typeof fetch;
  /** The engine's clock, ms; on the clock of PointerInput.time (default: epoch ms, interaction/clock.ts). */
  now?: () => number;
  /** Canvas for label textures (default: OffscreenCanvas when available). */
  canvas?: CanvasFactory;
}

/** The renderer's context when it is WebGL2 (occlusion queries), else null (Node stand-ins, WebGL1). */
function occlusionContext(renderer: EngineRenderer | null): OcclusionGl | null {
  const gl = renderer?.getContext?.();
  return typeof WebGL2RenderingContext !== 'undefined' && gl instanceof WebGL2RenderingContext ? gl : null;
}

/** Background colour of the 3D canvas (light, engineering look). */
const BACKGROUND = 0xeef1f5;
/** camera-changed events at most this often, ms. */
const CAMERA_EVENT_INTERVAL_MS = 100;

/**
 * A read-only look at the engine's parts, for tests and benches that construct an Engine themselves
 * (not part of EngineApi: the render worker's facade does not offer it). Live: `model` is the model
 * scene loaded now, or null. Reading state and drawing a frame are what it is for; the UI never uses it.
 */
export interface EngineInspection {
  readonly model: ModelScene | null;
  readonly cams: CameraRig;
  readonly loop: FrameLoop;
  readonly nav: NavigationQuality;
  readonly clip: ClippingManager;
  readonly measure: MeasureManager;
  readonly annotations: AnnotationManager;
  /** Uniforms shared by every chunk material (uModelOpacity: the model's opacity while the clip box is shown). */
  readonly uniforms: ObjectStateUniforms;
  /** Asks for a frame, as any change of state does. */
  invalidate(): void;
}

/** The engine facade (see EngineApi for the method contracts). */
export class Engine implements EngineApi {
  private renderer: EngineRenderer | null = null;
  private readonly scene = new Scene();
  private readonly uniforms = createStateUniforms();
  private readonly cams: CameraRig;
  private readonly input: InputRouter;
  private readonly loop: FrameLoop;
  private readonly sel: SelectionController;
  private readonly clip: ClippingManager;
  private readonly snapper: SnapManager;
  private readonly measure: MeasureManager;
  private readonly sections: SectionManager;
  private readonly annotations: AnnotationManager;
  private readonly markers: CommentMarkers;
  private readonly ghosts: ComparisonGhosts;
  private readonly thickness: ThicknessView;
  private canvas: OffscreenCanvas | null = null;
  private readonly loader: ModelLoader;
  private readonly views: ViewActions;
  /** Interactive detail while the camera is navigated (drags, wheel, walk keys; animations per frame). */
  private readonly nav: NavigationQuality;
  private model: ModelScene | null = null;
  private table: EngineObjectTable | null = null;
  /** Model name and object names of the details (the scene-graph panel's node names). */
  private modelName = '';
  private objectNames: readonly string[] | undefined;
  private listener: EngineListener | null = null;
  private disposed = false;
  private firstFrameSent = false;
  private cameraChanged = false;
  private lastCameraEvent = -Infinity;
  private readonly now: () => number;
  private readonly eyeOnBox = new Vector3();

  constructor(private readonly deps: EngineDeps = {}) {
    // Input time stamps arrive on the same epoch clock (interaction/clock.ts), so holds and debounces compare.
    this.now = deps.now ?? epochNow;
    this.scene.background = new Color(BACKGROUND);
    // Sky light from +Z (world up) tells decks from sides; head lights ride with the cameras (CameraRig).
    const sky = new HemisphereLight(0xffffff, 0x6f7782, 2.2);
    sky.position.set(0, 0, 1);
    this.scene.add(sky);
    this.cams = new CameraRig(this.scene);
    // When a navigation ends the next frame is drawn at full quality at once.
    this.nav = new NavigationQuality(
      () => this.invalidate(),
      () => this.now(),
    );
    const boxView = () =>
      this.cams.walking
        ? null
        : { matrix: this.cams.viewProjection().elements, width: this.cams.width, height: this.cams.height };
    this.loader = new ModelLoader({ fetchFn: deps.fetchFn, now: this.now, boxView, navigating: () => this.navigating });
    this.loop = new FrameLoop(
      {
        tick: (t) => this.cams.orbit.tick(t) && ((this.cameraChanged = true), true),
        canDraw: () => this.renderer !== null,
        draw: () => this.draw(),
        after: (t) => this.afterFrame(t),
      },
      this.now,
    );
    const host: ToolHost = {
      scene: this.scene,
      cameras: this.cams,
      model: () => this.model,
      invalidate: () => this.invalidate(),
      emit: (e) => this.emit(e),
      now: () => this.now(),
    };
    this.sel = new SelectionController({
      ...host,
      boxView,
    });
    this.clip = new ClippingManager(host);
    this.snapper = new SnapManager(host, this.clip);
    this.measure = new MeasureManager(
      host,
      (x, y) => this.snapper.snap(x, y),
      () => this.snapper.hideMarker(),
      deps.canvas,
    );
    this.sections = new SectionManager(host, deps.canvas);
    this.annotations = new AnnotationManager(host, deps.canvas, this.clip.acceptsPoint);
    this.markers = new CommentMarkers(
      host,
      (x, y) => this.snapper.snap(x, y),
      () => this.snapper.hideMarker(),
    );
    this.ghosts = new ComparisonGhosts(host, deps.fetchFn);
    this.thickness = new ThicknessView(host);
    this.clip.onChange = () => {
      this.visibilityChanged();
      this.ghosts.setClipping(this.clip.state().active ? this.clip.planes : null);
      this.thickness.clippingChanged();
    };
    this.input = new InputRouter({
      cams: this.cams,
      sel: this.sel,
      clip: this.clip,
      measure: this.measure,
      annotations: this.annotations,
      markers: this.markers,
      pick: (x, y) => ((h) => (h.type === 'hit' ? h : null))(this.pick(x, y)),
      emit: (e) => this.emit(e),
      cameraMoved: () => this.cameraMoved(),
      nav: this.nav,
      now: () => this.now(),
      alive: () => !this.disposed,
    });
    this.views = new ViewActions({
      cams: this.cams,
      model: () => this.model,
      pickPoint: (x, y) => ((h) => (h.type === 'hit' ? h.point : null))(this.pick(x, y)),
      emit: (e) => this.emit(e),
      cameraMoved: () => this.cameraMoved(),
      setBoxEnabled: (on) => (this.input.gesture.boxEnabled = on),
      nav: this.nav,
      now: () => this.now(),
    });
  }

  async init(options: EngineInitOptions): Promise<void> {
    this.alive();
    if (this.renderer) throw new Error('Engine already initialised');
    const { width, height, pixelRatio } = options;
    if (!(width > 0 && height > 0)) throw new Error(`Engine.init: canvas size ${width}×${height} is not positive`);
    // stencil: the clipping caps count surfaces in the stencil buffer (scene/ClipCaps.ts).
    const renderer = this.deps.createRenderer
      ? this.deps.createRenderer(options)
      : new WebGLRenderer({ canvas: options.canvas, antialias: true, stencil: true });
    const gl = renderer.getContext?.();
    setEdgeStrips(options.edgeStrips ?? !isSoftwareRenderer(gl as WebGL2RenderingContext | undefined));
    // Surfaces as strips where the strip draw is installed on the context; a renderer without a context (a
    // Node stand-in that draws nothing) builds them too, so its byte figures are a browser's.
    const stripDraw = gl ? installStripDraw(gl) : true;
    setTriangleStrips((options.triangleStrips ?? true) && stripDraw);
    renderer.localClippingEnabled = true;
    renderer.setPixelRatio(pixelRatio > 0 ? pixelRatio : 1);
    renderer.setSize(width, height, false);
    this.renderer = renderer;
    this.canvas = options.canvas;
    this.cams.setViewport(width, height);
    this.invalidate();
  }

  subscribe(listener: EngineListener): void {
    this.alive();
    this.listener = listener;
  }

  setObjectTable(table: EngineObjectTable): void {
    this.alive();
    if (table.types.length !== table.ids.length || table.parents.length !== table.ids.length) {
      throw new Error(
        `setObjectTable: arrays differ in length (ids ${table.ids.length}, types ${table.types.length}, parents ${table.parents.length})`,
      );
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
    this.clearModel();
    try {
      const m = await this.loader.load(url, headers, {
        header: (header) => {
          const model = new ModelScene(header, this.table, this.uniforms);
          this.model = model;
          this.scene.add(model.root);
          this.cams.setSceneBounds(header.bounds);
          this.clip.modelLoaded(isBoxValid(header.bounds) ? header.bounds : null);
          // viewer.md §4: the camera orbits (160, 10) and the world is fitted; the header's bounds allow it
          // before any geometry arrives, so the first chunk lands in a useful view.
          this.cams.orbit.setOrbit(160, 10);
          if (isBoxValid(header.bounds)) this.cams.orbit.fit(header.bounds);
          this.cameraMoved();
          return model;
        },
        chunk: () => {
          this.clip.chunksChanged();
          this.invalidate();
        },
        progress: (progress) => this.emit({ type: 'load-progress', progress }),
      });
      m.loading = false;
      this.invalidate();
      this.emit({ type: 'model-ready', bounds: [...m.header.bounds] as Box3Tuple, triangles: m.triangles });
    } catch (e) {
      const err = e as Error;
      if (this.disposed) throw new Error('Engine disposed');
      if (err.message !== 'Loading model cancelled') this.emit({ type: 'error', message: err.message });
      throw err;
    }
  }

  resize(width: number, height: number, pixelRatio: number): void {
    this.alive();
    if (!(width > 0 && height > 0)) return;
    this.renderer?.setPixelRatio(pixelRatio > 0 ? pixelRatio : 1);
    this.renderer?.setSize(width, height, false);
    this.cams.setViewport(width, height);
    this.cameraMoved();
  }

  pointer(input: PointerInput): void {
    this.alive();
    this.input.pointer(input);
  }
  wheel(input: WheelInput): void {
    this.alive();
    this.views.wheel(input);
  }
  doubleClick(x: number, y: number): void {
    this.alive();
    this.views.doubleClick(x, y);
  }
  fitToWindow(insets?: ViewInsets): void {
    this.alive();
    if (insets && !Object.values(insets).every((v) => Number.isFinite(v) && v >= 0))
      throw new Error(`fitToWindow: insets ${JSON.stringify(insets)} must be finite and ≥ 0 px`);
    this.views.fitToWindow(insets);
  }
  orbitTo(longitude: number, latitude: number, animateMs?: number): void {
    this.alive();
    this.views.orbitTo(longitude, latitude, animateMs);
  }
  viewAlong(axis: ProjectionAxis): void {
    this.alive();
    this.views.viewAlong(axis);
  }
  setWalkMode(on: boolean): void {
    this.alive();
    this.views.setWalkMode(on);
  }
  key(input: KeyInput): void {
    this.alive();
    this.views.key(input);
  }
  getView(): OrbitView {
    this.alive();
    return this.cams.getView();
  }
  setVisibility(nodeIds: number[], visible: boolean): void {
    this.alive();
    this.sel.setVisibility(nodeIds, visible);
    this.visibilityChanged();
  }
  setSelection(nodeIds: number[]): void {
    this.alive();
    this.sel.setSelection(nodeIds);
  }

  setSelectionMode(mode: SelectionMode): void {
    this.alive();
    if (mode !== 'structural-details' && mode !== 'main-objects') throw new Error(`Unknown selection mode "${mode}"`);
    this.sel.mode = mode;
  }

  pick(x: number, y: number): { type: 'hit'; nodeId: number; point: [number, number, number] } | { type: 'miss' } {
    this.alive();
    const m = this.model;
    if (!m || m.chunks.length === 0) return { type: 'miss' };
    const hit = m.raycast(this.cams.raycaster(x, y).ray, this.clip.accepts);
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

  setThicknessView(input: ThicknessViewInput | null): ThicknessViewResult {
    this.alive();
    return this.thickness.show(input);
  }

  setObjectOpacity(nodeIds: number[], opacity: number): void {
    this.alive();
    if (!(opacity >= 0 && opacity <= 1)) throw new Error(`setObjectOpacity: opacity ${opacity} is not between 0 and 1`);
    this.model?.setOpacity(nodeIds, opacity);
    this.invalidate();
  }

  paintObjects(groups: PaintGroup[], rest: PaintStyle | null): void {
    this.alive();
    this.model?.paint(groups, rest);
    this.invalidate();
  }

  showComparisonGhosts(url: string, headers: Record<string, string>, objectIndices: Uint32Array): Promise<number> {
    this.alive();
    return this.ghosts.show(url, headers, objectIndices);
  }

  clearComparisonGhosts(): void {
    this.alive();
    this.ghosts.clear();
  }

  hideSelected(): void {
    this.alive();
    this.sel.hideSelected();
    this.visibilityChanged();
  }
  setTreeVisibility(nodeIds: number[], visible: boolean): void {
    this.alive();
    this.sel.setTreeVisibility(nodeIds, visible);
    this.visibilityChanged();
  }
  undo(): void {
    this.alive();
    this.sel.undo();
    this.visibilityChanged();
  }
  redo(): void {
    this.alive();
    this.sel.redo();
    this.visibilityChanged();
  }

  getHistory(): { undoName: string | null; redoName: string | null } {
    this.alive();
    return this.sel.names();
  }

  getSceneGraph(): SceneGraphNode {
    this.alive();
    const m = this.model;
    return describeSceneTree({
      modelName: this.modelName,
      table: m?.objectTable ?? this.table,
      names: this.objectNames,
      hidden: (i) => m?.state.isHidden(i) ?? false,
      bounds: (i) => {
        const b = m?.objectBounds.subarray(i * 6, i * 6 + 6);
        return b && b[0] <= b[3] ? [...b] : null;
      },
      sections: this.sections.sceneParts(),
    });
  }

  setSceneNodeVisible(id: number, visible: boolean): void {
    this.alive();
    const section = sectionOfNodeId(id);
    if (section) this.sections.setSceneVisible(section.section, section.group, visible);
    else if (id === SCENE_NODE_IDS.sections) this.sections.setAllVisible(visible);
    else {
      // Object and model nodes go through the objects' visibility, so the model tree follows.
      const nodes = sceneNodeObjects(this.model?.objectTable ?? this.table, id);
      if (id === SCENE_NODE_IDS.root) this.sections.setAllVisible(visible);
      if (nodes.length) this.sel.setVisibility(nodes, visible);
    }
    this.invalidate();
  }

  getRenderStats(): RenderStats {
    this.alive();
    return renderStats(this.loop, this.model, this.now());
  }

  // ---- engineering tools (contracts in EngineApi) ----
  setModelDetails(details: EngineModelDetails): void {
    this.alive();
    if (details.modelName !== undefined) this.modelName = details.modelName;
    if (details.names) this.objectNames = details.names;
    this.sections.setDetails(details);
    this.annotations.setDetails(details);
    if (details.frames) this.snapper.frames = details.frames;
  }

  setClipping(active: boolean): void {
    this.alive();
    this.clip.setActive(active);
  }
  setClipVisible(visible: boolean): void {
    this.alive();
    this.clip.setVisible(visible);
  }
  setClipBox(box: ClipBox): boolean {
    this.alive();
    return this.clip.setBox(box);
  }
  getClipBox(): ClipState {
    this.alive();
    return this.clip.state();
  }
  setClipPlaneValue(which: ClipPlaneKey, mm: number): boolean {
    this.alive();
    return this.clip.setPlane(which, mm);
  }
  resetClipBox(): void {
    this.alive();
    this.clip.reset();
  }
  clipToSection(axis: SectionAxis, mm: number): void {
    this.alive();
    this.clip.clipToSection(axis, mm);
  }

  createSection(axis: SectionAxis, mm: number, name: string): SectionCreated | null {
    this.alive();
    return this.sections.create(axis, mm, name);
  }

  removeSection(name: string): void {
    this.alive();
    this.sections.remove(name);
  }
  setSectionVisible(name: string, visible: boolean): void {
    this.alive();
    this.sections.setVisible(name, visible);
  }
  exportSection(name: string, format: 'svg' | 'dxf'): string {
    this.alive();
    return this.sections.export(name, format);
  }
  startMeasure(): void {
    this.alive();
    this.measure.startMeasure();
  }
  cancelMeasure(): void {
    this.alive();
    this.measure.cancel();
  }
  deleteMeasurements(ids?: number[]): void {
    this.alive();
    this.measure.delete(ids);
  }
  setSnapSettings(settings: Partial<SnapSettings>): void {
    this.alive();
    this.snapper.setSettings(settings);
  }

  snapAt(x: number, y: number): SnapResult {
    this.alive();
    const r = this.snapper.snap(x, y);
    this.emit({ type: 'snap-changed', snap: r.type === 'snap' ? r : null });
    return r;
  }

  setAnnotationSettings(settings: Partial<AnnotationSettings>): void {
    this.alive();
    void this.annotations.setSettings(settings);
  }
  setSurfaceObjects(objects: SurfaceObjectInput[]): void {
    this.alive();
    void this.annotations.setSurfaceObjects(objects);
  }
  deselectAnnotations(): void {
    this.alive();
    this.annotations.deselect();
  }
  deleteSelectedAnnotations(): void {
    this.alive();
    this.annotations.deleteSelected();
  }

  // ---- comments (contracts in EngineApi) ----
  setCommentMarkers(markers: CommentMarker[]): void {
    this.alive();
    this.markers.setMarkers(markers);
  }
  setCommentMarkersVisible(visible: boolean): void {
    this.alive();
    this.markers.setVisible(visible);
  }
  startCommentMarkerPlacement(): void {
    this.alive();
    this.measure.cancel();
    this.markers.startPlacement();
  }
  cancelCommentMarkerPlacement(): void {
    this.alive();
    this.markers.cancelPlacement();
  }
  setView(view: OrbitView): void {
    this.alive();
    if (this.cams.walking) this.views.setWalkMode(false);
    this.cams.orbit.setView(view);
    this.cameraMoved();
  }
  async captureImage(
    type: 'image/png' | 'image/jpeg',
  ): Promise<{ bytes: Uint8Array; type: string; width: number; height: number }> {
    this.alive();
    const canvas = this.canvas;
    if (!this.renderer || !canvas) throw new Error('captureImage: the engine has no canvas (init() first)');
    // convertToBlob copies the drawing buffer when called, so drawing first in the same task is enough.
    // Every chunk in the view is drawn: occlusion answers of a view just reached may still be out.
    const m = this.model;
    const occlusion = m?.occlusionEnabled ?? true;
    if (m) m.occlusionEnabled = false;
    this.draw();
    if (m) m.occlusionEnabled = occlusion;
    const blob = await canvas.convertToBlob({ type, quality: 0.85 });
    return {
      bytes: new Uint8Array(await blob.arrayBuffer()),
      type: blob.type,
      width: canvas.width,
      height: canvas.height,
    };
  }

  dispose(): void {
    if (this.disposed) throw new Error('Engine disposed');
    this.loader.dispose();
    this.loop.dispose();
    this.nav.dispose();
    this.input.dispose();
    this.sel.dispose();
    this.clearModel();
    for (const tool of [
      this.clip,
      this.snapper,
      this.measure,
      this.sections,
      this.annotations,
      this.markers,
      this.ghosts,
      this.thickness,
    ])
      tool.dispose();
    this.renderer?.dispose();
    this.renderer = null;
    this.listener = null;
    this.disposed = true;
  }

  /** Visibility changed: annotation labels follow the visible objects. */
  private visibilityChanged(): void {
    if (this.annotations.count > 0) void this.annotations.update();
  }

  private clearModel(): void {
    this.model?.dispose();
    this.model = null;
    this.sel.reset();
    this.clip.modelLoaded(null);
    this.sections.reset();
    this.annotations.reset();
    this.thickness.clear();
    this.measure.cancel();
    this.ghosts.clear();
    this.firstFrameSent = false;
    this.invalidate();
  }

  /** The engine's parts for tests and benches (EngineInspection). */
  inspect(): EngineInspection {
    const engine = this;
    return {
      get model() {
        return engine.model;
      },
      cams: this.cams,
      loop: this.loop,
      nav: this.nav,
      clip: this.clip,
      measure: this.measure,
      annotations: this.annotations,
      uniforms: this.uniforms,
      invalidate: () => this.invalidate(),
    };
  }

  /** True while frames are drawn with interactive detail (camera navigated or animated; see ModelScene.interactive). */
  get navigating(): boolean {
    return this.nav.active || this.cams.orbit.animating;
  }

  /** Culls chunks to the view and renders (FrameLoop hook). */
  private draw(): { render: { calls: number; triangles: number } } | undefined {
    const cams = this.cams;
    if (this.model) {
      const eye = cams.camera.position;
      // Interactive detail while the camera is navigated or an animated view runs (its last step is full quality).
      this.model.interactive = this.nav.active || cams.orbit.animating;
      this.model.lodBuildMs = Math.max(LOD_BUILD_MS_PER_FRAME, this.loop.stats.frameTimeMs / 2);
      this.model.useOcclusion(occlusionContext(this.renderer));
      this.model.cull(cams.viewProjection().elements, (box) =>
        cams.worldPerPixel(box.clampPoint(eye, this.eyeOnBox).toArray() as Vec3),
      );
      // LOD levels are built a few per frame; draw again until every chunk has its level.
      // Likewise until the occlusion answers of this view are in (the frame after them is exact).
      if (this.model.lodPending || this.model.occlusionPending) this.invalidate();
      if (this.clip.state().active) this.clip.chunksChanged();
    }
    takeStripTriangleCorrection();
    this.renderer!.render(this.scene, cams.camera);
    const info = this.renderer!.info;
    // three.js counts a strip draw's indices / 3; a strip of n indices draws n − 2.
    if (info) info.render.triangles += takeStripTriangleCorrection();
    if (!this.firstFrameSent && this.model && this.model.chunks.length > 0) {
      this.firstFrameSent = true;
      this.emit({ type: 'first-frame' });
    }
    return info;
  }

  /** Throttled camera-changed (FrameLoop hook); true while more frames are needed. */
  private afterFrame(t: number): boolean {
    if (this.cameraChanged && t - this.lastCameraEvent >= CAMERA_EVENT_INTERVAL_MS) {
      this.cameraChanged = false;
      this.lastCameraEvent = t;
      this.emit({ type: 'camera-changed', view: this.cams.getView() });
    }
    return this.cams.orbit.animating || this.cameraChanged;
  }

  private cameraMoved(): void {
    this.cameraChanged = true;
    this.invalidate();
  }

  private invalidate(): void {
    this.loop.invalidate();
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
