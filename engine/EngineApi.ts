/**
 * The one facade of the render engine (ARCHITECTURE.md "engine/", house rule 1). The UI reaches the
 * engine only through these methods (over Comlink, from ui/engine/EngineClient.ts) and these events.
 * Only plain data and typed arrays cross this boundary (house rule 3).
 *
 * Units: world lengths in mm; screen positions in CSS pixels relative to the canvas' top-left corner.
 */
import type { FrameTables, ObjectType, PropertyRecord } from './model/types';
import type { SectionAxis, SectionResult } from './section/types';
import type { SurfaceObject } from './annotate/surfaceObject';
import type { Measurement } from './snap/measure';
import type { SnapResult, SnapSettings } from './snap/snap';
import type { PaintGroup, PaintStyle } from './scene/objectPaint';
import type { ThicknessViewInput, ThicknessViewResult } from './tools/ThicknessView';

export type {
  SectionAxis,
  SectionResult,
  Measurement,
  SnapResult,
  SnapSettings,
  PaintGroup,
  PaintStyle,
  ThicknessViewInput,
  ThicknessViewResult,
};

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
  /**
   * Time of the event, epoch ms (performance.timeOrigin + event.timeStamp; engine/interaction/clock.ts): the
   * engine's clock, whatever realm the event came from.
   */
  time: number;
}

/** Canvas bands covered by the viewer's controls, CSS px from each edge (Fit to window keeps the model out of them). */
export interface ViewInsets {
  top: number;
  right: number;
  bottom: number;
  left: number;
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
  /**
   * Node id: an object's node id (≥ 0), or a negative id of the spec's group nodes, sections and section
   * curve groups (engine/scene/sceneGraph.ts); −1 is a '… N more' summary row.
   */
  id: number;
  /** viewer.md §3 "Scene tree node names": 'Models', 'STR {model}', 'Structures', 'X=…', '{id} {name}'... */
  name: string;
  /** Type label: the object type (PLATE...) or the group's kind ('Structure model', 'Section', 'SectionCurve'...). */
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

/** The six planes of the clipping box (viewer.md §3 "clipping box (xMin..zMax)"). */
export type ClipPlaneKey = 'xMin' | 'xMax' | 'yMin' | 'yMax' | 'zMin' | 'zMax';

/** Clipping box, mm (the API and the inputs show metres: value / 1000, viewer.md §9 "Clipping"). */
export interface ClipBox {
  xMin: number;
  xMax: number;
  yMin: number;
  yMax: number;
  zMin: number;
  zMax: number;
}

/** Clipping state: `active` = the model is cut; `visible` = the six planes are shown (opacity 0.6, else 0). */
export interface ClipState {
  box: ClipBox;
  active: boolean;
  visible: boolean;
}

/** Model details the tools need beyond the object table (sections, annotations, snap infos). */
export interface EngineModelDetails {
  /** Model (project) name: the scene tree's 'STR {model}' / 'ARR {model}' nodes. */
  modelName?: string;
  /** Object names by node id (annotations, section results, scene tree). */
  names?: string[];
  /** Property records by node id as the API gives them (PLTH thickness in m, PURP purpose...); sparse allowed. */
  properties?: (PropertyRecord | null | undefined)[];
  /** Reference planes, coordinates in mm (frame numbers for snap infos 101–103 and the section grid). */
  frames?: FrameTables;
}

/** One failed step of a section (viewer.md §4 "Section drawing"): entity = compartments, structures, cad components, grid, annotations. */
export interface SectionStepError {
  entity: 'grid' | 'compartments' | 'structures' | 'cad components' | 'annotations';
  message: string;
}

/** createSection's answer: the plain result for the UI tree and export, and the failed steps. */
export interface SectionCreated {
  name: string;
  /** False when a step failed (the UI shows 'Failed to create a section {sectionName} for {entities}'). */
  ok: boolean;
  errors: SectionStepError[];
  result: SectionResult;
}

/** A completed measurement kept in the scene (ids count up from 1). */
export interface MeasurementItem extends Measurement {
  id: number;
}

/** Measure operator state: off, waiting for the start click, waiting for the end click. */
export type MeasureState = 'off' | 'start' | 'end';

/** Annotation settings (viewer.md §3): text height mm (default 200) and the kind toggles (default off). */
export interface AnnotationSettings {
  textHeight: number;
  compartments: boolean;
  plates: boolean;
  parameters: boolean;
  stiffeners: boolean;
  openings: boolean;
  brackets: boolean;
}

/**
 * Surface object of viewer.md §3 (lengths in m, angles in degrees) as engine/annotate/surfaceObject.ts
 * derives it and POST .../geometry/surface-objects returns it: one shape, declared there; the contract's
 * SurfaceObjectSchema is held to it by a type-level check in api/routes/geometry.ts.
 */
export type {
  SurfaceObject as SurfaceObjectInput,
  SurfaceParameter as SurfaceParameterInput,
} from './annotate/surfaceObject';

/** A comment thread's 3D marker (viewer.md §3 "Comment model: ... optional 3D marker"): point in mm. */
export interface CommentMarker {
  /** The thread's id. */
  id: string;
  point: [number, number, number];
  /** The active thread's marker is drawn larger and in another colour. */
  active: boolean;
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
  /**
   * Visibility changed inside the engine (hideSelected, undo, redo, setTreeVisibility). `nodeIds` and
   * `visible` (added for the UI's tree mirror) name the nodes that changed and how, when the engine gives them.
   */
  | { type: 'visibility-changed'; hiddenCount: number; nodeIds?: number[]; visible?: boolean }
  | { type: 'error'; message: string }
  | { type: 'clip-changed'; box: ClipBox; active: boolean; visible: boolean }
  | { type: 'measure-changed'; state: MeasureState; measurements: MeasurementItem[] }
  | { type: 'sections-changed'; sections: { name: string; visible: boolean; ok: boolean }[] }
  | { type: 'annotations-changed'; count: number; selected: number }
  /** Point under the cursor (mm; throttled to 50 ms), null off the model. */
  | { type: 'cursor'; point: [number, number, number] | null }
  /** Snapped point while measuring (or after snapAt), null when nothing snaps. */
  | { type: 'snap-changed'; snap: SnapResult | null }
  /** Comment marker placement ended: the confirmed point (mm), or null when cancelled (right click). */
  | { type: 'comment-marker-placed'; point: [number, number, number] | null }
  /** A comment marker was clicked (its thread opens). */
  | { type: 'comment-marker-clicked'; id: string };

/** Listener for engine events (a Comlink proxy when called across the worker boundary). */
export type EngineListener = (event: EngineEvent) => void;

/** Options for starting the engine on a transferred OffscreenCanvas. */
export interface EngineInitOptions {
  canvas: OffscreenCanvas;
  /** Canvas size in CSS pixels and the device pixel ratio. */
  width: number;
  height: number;
  pixelRatio: number;
  /**
   * Feature edges as 16-bit line strips (true: about half the edge bytes) or as index pairs (false). Default:
   * strips, unless the WebGL renderer is a software rasteriser (SwiftShader, llvmpipe, softpipe), which draws
   * restart-separated strips markedly slower than pairs.
   */
  edgeStrips?: boolean;
  /**
   * Surfaces' long strips (≥ 8 triangles) as triangle strips joined by degenerate triangles, the rest as a
   * list in the same buffer (true, the default: about 2 indices per triangle instead of 3 on the bench ships;
   * on a software rasteriser full-quality frames take about a quarter longer), or every triangle as a list
   * (false). Strips need the engine's draw wrapper on the context (scene/triangleStrips.ts); without it the
   * lists are drawn.
   */
  triangleStrips?: boolean;
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
  /**
   * Fits the visible model into the view (viewer.md §2 "Fit to window") at the current orbit and tilt,
   * inside the part of the canvas the `insets` (CSS px along each edge covered by the UI's toolbars) leave
   * free. @throws Error for an inset that is negative or not finite.
   */
  fitToWindow(insets?: ViewInsets): void;
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
  /**
   * Thickness view (application.md §4 "Coloring", §9 "Plate overlay"): draws, over the model at opacity
   * 0.5, each given plate's or bracket's real thickness extruded from its moulded surface to its material
   * side, and each profile's own solid, in the given colours (engine/tools/ThicknessView.ts); null removes
   * it. @returns parts drawn and skipped. @throws Error when the arrays are not parallel.
   */
  setThicknessView(input: ThicknessViewInput | null): ThicknessViewResult;
  /** Sets the opacity (0..1) of nodes and their descendants (1 = opaque). */
  setObjectOpacity(nodeIds: number[], opacity: number): void;
  /**
   * Paints many objects in one call (comparison, colouring; engine/scene/objectPaint.ts): each group's
   * style on exactly its node ids (typed arrays: transfer them), then `rest` on every other node when not
   * null. A null colour is the type colour, a null opacity the default (compartments see-through), so
   * `paintObjects([], { rgb: null, opacity: null })` restores the model's own appearance.
   * @throws Error when a colour is not three bytes 0..255 or an opacity is outside 0..1.
   */
  paintObjects(groups: PaintGroup[], rest: PaintStyle | null): void;
  /**
   * Draws removed parts as ghosts (engine/tools/ComparisonGhosts.ts): streams the earlier revision's `.sc`
   * from `url` (with `headers`) and draws the objects `objectIndices` (that revision's object-table indices)
   * translucent red, not pickable; replaces ghosts shown before. Resolves with how many had geometry.
   * @throws Error 'Loading model failed: ...' when the package cannot be read.
   */
  showComparisonGhosts(url: string, headers: Record<string, string>, objectIndices: Uint32Array): Promise<number>;
  /** Removes the ghosts (no-op without). */
  clearComparisonGhosts(): void;
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
  /** The scene tree for the scene-graph panel, named per viewer.md §3 "Scene tree node names" (engine/scene/sceneGraph.ts). */
  getSceneGraph(): SceneGraphNode;
  /**
   * Scene-graph panel visibility toggle of one node (objects and model nodes through the objects'
   * visibility, with their descendants; sections and their curve groups). @throws Error for an unknown id.
   */
  setSceneNodeVisible(id: number, visible: boolean): void;
  /** Rendering statistics. */
  getRenderStats(): RenderStats;

  // ---- engineering tools ----
  /** Names, properties and reference planes (mm) of the loaded model, used by sections, annotations and snap infos. */
  setModelDetails(details: EngineModelDetails): void;
  /**
   * Clipping on/off (viewer.md §4 "Clipping"): on cuts the model by the box and shows the planes; off
   * restores the whole model and hides them. Emits clip-changed.
   */
  setClipping(active: boolean): void;
  /** Shows (opacity 0.6, model opacity reduced) or hides (opacity 0) the six planes; clipping stays. Emits clip-changed. */
  setClipVisible(visible: boolean): void;
  /** Sets the whole box (mm). Returns false (and changes nothing) when a min is not below its max or a value is not finite. */
  setClipBox(box: ClipBox): boolean;
  /** The box (mm) and flags. */
  getClipBox(): ClipState;
  /** Moves one plane (mm). Returns false when it would reach or pass its opposite (viewer.md §2 "Clipping controls"). */
  setClipPlaneValue(which: ClipPlaneKey, mm: number): boolean;
  /** Default box: model bounds + 100 mm, or the fallback box of viewer.md §9 when the bounds are degenerate. */
  resetClipBox(): void;
  /** 'Clip to section': activates clipping with a ±100 mm slab around `axis` = `mm` (other axes: default box). */
  clipToSection(axis: SectionAxis, mm: number): void;
  /**
   * Cuts the model at `axis` = `mm` and draws the section under `name` (viewer.md §4 "Section drawing").
   * Returns null when a section of that name is being drawn (skipped). A step that fails is recorded in
   * `errors` and `ok` is false. @throws Error when no model is loaded or `mm` is not finite.
   */
  createSection(axis: SectionAxis, mm: number, name: string): SectionCreated | null;
  /** Removes a drawn section (no-op for an unknown name). */
  removeSection(name: string): void;
  /** Shows or hides a drawn section. @throws Error for an unknown name. */
  setSectionVisible(name: string, visible: boolean): void;
  /** The section drawing as SVG or DXF text (mm). @throws Error for an unknown name. */
  exportSection(name: string, format: 'svg' | 'dxf'): string;
  /** Starts the measure operator (left click start, left click end, right click cancels). Emits measure-changed. */
  startMeasure(): void;
  /** Cancels the operator (completed measurements stay). */
  cancelMeasure(): void;
  /** Deletes completed measurements by id, or all with no ids. */
  deleteMeasurements(ids?: number[]): void;
  /** Snap settings (viewer.md §3 "Snap settings"); missing fields keep their value. */
  setSnapSettings(settings: Partial<SnapSettings>): void;
  /** Snaps at a canvas position (draws the marker). */
  snapAt(x: number, y: number): SnapResult;
  /** Annotation settings (viewer.md §3); labels update (an update already running is skipped). */
  setAnnotationSettings(settings: Partial<AnnotationSettings>): void;
  /** Surface objects (API shape, m) whose parameters draw as dimension lines when `parameters` is on. */
  setSurfaceObjects(objects: SurfaceObject[]): void;
  /** Context menu 'Deselect N annotation(s)': clears the annotation selection (a click on a label selects it, Ctrl toggles). */
  deselectAnnotations(): void;
  /** Context menu 'Delete N annotation(s)': deletes the selected annotations. */
  deleteSelectedAnnotations(): void;

  // ---- comments (viewer.md §2 "Comments panel", engine/tools/CommentMarkers.ts) ----
  /** Replaces the comment markers drawn in the scene. @throws Error for a non-finite point. */
  setCommentMarkers(markers: CommentMarker[]): void;
  /** Shows or hides the comment markers (the panel's Markers toggle). */
  setCommentMarkersVisible(visible: boolean): void;
  /**
   * Arms marker placement: the preview follows the snapped cursor, a left click on geometry confirms, a
   * right click cancels; emits 'comment-marker-placed'. Cancels a running measure.
   */
  startCommentMarkerPlacement(): void;
  /** Disarms marker placement (emits 'comment-marker-placed' with null when it was armed). */
  cancelCommentMarkerPlacement(): void;
  /** Restores an orbit view (a comment snapshot's camera, viewer.md §3 savedView); leaves walk mode first. */
  setView(view: OrbitView): void;
  /**
   * The current frame as an image (a comment snapshot): draws the scene and encodes the canvas.
   * @returns the encoded bytes (ownership passes to the caller) and the type ('image/png' or 'image/jpeg').
   * @throws Error before init().
   */
  captureImage(
    type: 'image/png' | 'image/jpeg',
  ): Promise<{ bytes: Uint8Array; type: string; width: number; height: number }>;
  /** Frees GPU and worker memory; the engine refuses work afterwards. */
  dispose(): void;
}
