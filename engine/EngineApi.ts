/**
 * The one facade of the render engine (ARCHITECTURE.md "engine/", house rule 1). The UI reaches the
 * engine only through these methods (over Comlink, from ui/engine/EngineClient.ts) and these events.
 * Only plain data and typed arrays cross this boundary (house rule 3).
 *
 * Units: world lengths in mm; screen positions in CSS pixels relative to the canvas' top-left corner.
 */
import type { ObjectType } from './model/types';

/** A selection item, ARCHITECTURE.md "Names": the model object's id, the engine's node id, its type. */
export interface SelectionItem {
  keelsonId: string;
  nodeId: number;
  objectType: ObjectType;
}

/** Selection mode of viewer.md §2 ("Structural Details or Main Objects"). */
export type SelectionMode = 'structural-details' | 'main-objects';

/** Compact object table the engine needs to map picks to items and main objects (parallel arrays by node id). */
export interface EngineObjectTable {
  ids: string[];
  types: ObjectType[];
  /** Parent node id per node, -1 for roots. */
  parents: Int32Array;
}

/** Pointer input forwarded from the canvas element (viewer.md §4, §9 thresholds apply in the engine). */
export interface PointerInput {
  kind: 'down' | 'move' | 'up' | 'leave' | 'cancel';
  x: number;
  y: number;
  button: number;
  buttons: number;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  metaKey: boolean;
  pointerId: number;
  pointerType: 'mouse' | 'pen' | 'touch';
  /** performance.now() of the event, ms. */
  time: number;
}

/** Wheel input: deltaY > 0 zooms out by one 0.8 step per notch (viewer.md §9). */
export interface WheelInput {
  x: number;
  y: number;
  deltaX: number;
  deltaY: number;
  ctrlKey: boolean;
  shiftKey: boolean;
}

/** Orbit camera view, viewer.md §3 "orbit view": angles in degrees, lengths in mm. */
export interface OrbitView {
  longitude: number;
  latitude: number;
  distance: number;
  target: { x: number; y: number; z: number };
  /** Visible width of the orthographic view, mm (clamped 100..2,000,000). */
  width: number;
  height: number;
}

/** Loading progress of the scene package stream. */
export interface LoadProgress {
  loadedBytes: number;
  totalBytes: number | null;
  chunksLoaded: number;
  chunkCount: number | null;
}

/** Key input forwarded from the canvas (walk mode, viewer.md §9). `buttons` is the mouse buttons bitmask held. */
export interface KeyInput {
  kind: 'down' | 'up';
  key: string;
  buttons: number;
}

/** Box selection rectangle while dragging (CSS px); the UI draws it with fill opacity 0.2 (viewer.md §4). */
export interface SelectionBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** 'inside' (dragged left-to-right: contained objects) or 'touch' (right-to-left: touched objects). */
  mode: 'inside' | 'touch';
}

/** Projection submenu axes (viewer.md §2, §9). */
export type ProjectionAxis = 'X' | 'Y' | 'Z' | '-X' | '-Y' | '-Z';

/** A node of the scene-graph panel (viewer.md §2 "Scene-graph panel"): the three.js scene as drawn. */
export interface SceneGraphNode {
  /** three.js Object3D id (stable while the scene lives). */
  id: number;
  /** Object name ('' when unnamed). */
  name: string;
  /** Type label (three.js type, e.g. 'Mesh', 'LineSegments', 'Group'). */
  type: string;
  visible: boolean;
  children: SceneGraphNode[];
  /** Property table rows (Name plus node properties), display strings. */
  properties: { name: string; value: string }[];
}

/** Rendering statistics (Ctrl+Alt+R): last frame's CPU time, frames per second, draw calls, triangles, GPU geometry bytes. */
export interface RenderStats {
  frameTimeMs: number;
  fps: number;
  drawCalls: number;
  triangles: number;
  geometryBytes: number;
  /** Triangles of the loaded model and chunks drawn after culling / all chunks. */
  modelTriangles: number;
  chunksDrawn: number;
  chunkCount: number;
}

/** Events the engine emits to the UI. */
export type EngineEvent =
  | { type: 'load-progress'; progress: LoadProgress }
  | { type: 'first-frame' }
  | { type: 'model-ready'; bounds: [number, number, number, number, number, number]; triangles: number }
  | { type: 'selection-changed'; items: SelectionItem[] }
  | { type: 'hover-changed'; nodeId: number | null }
  | { type: 'camera-changed'; view: OrbitView }
  | { type: 'context-menu'; x: number; y: number }
  | { type: 'box-changed'; box: SelectionBox | null }
  | { type: 'history-changed'; undoName: string | null; redoName: string | null }
  | { type: 'walk-mode-changed'; on: boolean }
  | { type: 'visibility-changed'; hiddenCount: number }
  | { type: 'error'; message: string };

/** Listener for engine events (a Comlink proxy when called across the worker boundary). */
export type EngineListener = (event: EngineEvent) => void;

/** Options for starting the engine on a transferred OffscreenCanvas. */
export interface EngineInitOptions {
  canvas: OffscreenCanvas;
  /** Canvas size in CSS pixels and the device pixel ratio. */
  width: number;
  height: number;
  pixelRatio: number;
}

/** The engine facade. Every method may be called across the worker boundary. */
export interface EngineApi {
  /** Starts three.js on the canvas. Must be called once, first. */
  init(options: EngineInitOptions): Promise<void>;
  /** Registers the event listener (replaces any previous one). */
  subscribe(listener: EngineListener): void;
  /** Gives the engine the object table of the model about to load. */
  setObjectTable(table: EngineObjectTable): void;
  /**
   * Streams the `.sc` package from `url` (fetch with `headers`, e.g. the bearer token) and draws chunks as
   * they arrive. Resolves when the whole package is loaded; rejects with an Error naming the failure.
   */
  loadModel(url: string, headers: Record<string, string>): Promise<void>;
  /** Resizes the drawing buffer (CSS px and device pixel ratio). */
  resize(width: number, height: number, pixelRatio: number): void;
  /** Pointer, wheel and double-click input from the canvas element. */
  pointer(input: PointerInput): void;
  wheel(input: WheelInput): void;
  doubleClick(x: number, y: number): void;
  /** Fits the visible model into the view (viewer.md §2 "Fit to window"). */
  fitToWindow(): void;
  /** Sets the orbit angles (degrees), e.g. the initial orbit (160, 10) of viewer.md §4. */
  orbitTo(longitude: number, latitude: number, animateMs?: number): void;
  /** Current camera view. */
  getView(): OrbitView;
  /** Shows or hides nodes; hidden nodes are not drawn or picked. */
  setVisibility(nodeIds: number[], visible: boolean): void;
  /** Replaces the selection (highlighted nodes). Emits selection-changed. */
  setSelection(nodeIds: number[]): void;
  /** Selection mode (viewer.md §2). */
  setSelectionMode(mode: SelectionMode): void;
  /** Picks at a canvas position: the node id under it, or a miss. */
  pick(x: number, y: number): { type: 'hit'; nodeId: number; point: [number, number, number] } | { type: 'miss' };
  /** Sets the colour (sRGB bytes 0..255) of nodes and their descendants; null restores the type colour. */
  setObjectColor(nodeIds: number[], rgb: [number, number, number] | null): void;
  /** Sets the opacity (0..1) of nodes and their descendants (1 = opaque). */
  setObjectOpacity(nodeIds: number[], opacity: number): void;
  /** Projection submenu: animated orbit (700 ms) to the axis' longitude/latitude (viewer.md §9). */
  viewAlong(axis: ProjectionAxis): void;
  /**
   * Walk mode (viewer.md §4): on saves the view and switches to a perspective camera aligned to Z; off
   * restores the saved view and orthographic projection. Emits walk-mode-changed.
   */
  setWalkMode(on: boolean): void;
  /** Keyboard input for walk mode (w/s/a/d, x/c/q/e with the right button; 400 mm per press). */
  key(input: KeyInput): void;
  /** Context menu 'Hide objects': hides the selection, clears it, records an undoable action. */
  hideSelected(): void;
  /**
   * Tree checkbox changes: shows or hides nodes at once and records one 'Show objects' / 'Hide objects'
   * action per 200 ms burst of changes (viewer.md §4).
   */
  setTreeVisibility(nodeIds: number[], visible: boolean): void;
  /** Undo / redo of view actions. Emit history-changed. */
  undo(): void;
  redo(): void;
  /** Names of the current undo and redo actions (null when none). */
  getHistory(): { undoName: string | null; redoName: string | null };
  /** The scene graph for the scene-graph panel (three.js objects; chunk meshes are leaves). */
  getSceneGraph(): SceneGraphNode;
  /** Scene-graph panel visibility toggle of one three.js node. @throws Error for an unknown id. */
  setSceneNodeVisible(id: number, visible: boolean): void;
  /** Rendering statistics. */
  getRenderStats(): RenderStats;
  /** Frees GPU and worker memory; the engine refuses work afterwards. */
  dispose(): void;
}
