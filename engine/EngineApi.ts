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

/** Events the engine emits to the UI. */
export type EngineEvent =
  | { type: 'load-progress'; progress: LoadProgress }
  | { type: 'first-frame' }
  | { type: 'model-ready'; bounds: [number, number, number, number, number, number]; triangles: number }
  | { type: 'selection-changed'; items: SelectionItem[] }
  | { type: 'hover-changed'; nodeId: number | null }
  | { type: 'camera-changed'; view: OrbitView }
  | { type: 'context-menu'; x: number; y: number }
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
  /** Frees GPU and worker memory; the engine refuses work afterwards. */
  dispose(): void;
}
