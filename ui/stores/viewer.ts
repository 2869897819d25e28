/**
 * The viewer's read-only mirror of engine state (ARCHITECTURE.md house rule 1): load phase and progress,
 * selection, selection mode and panel toggles. The UI changes engine state only through the facade
 * (getEngine()), and the engine's events update this store.
 */
import { proxy, ref } from 'valtio';
import type { ModelObjectsResponse } from '../../api/contract';
import type { EngineEvent, LoadProgress, SelectionBox, SelectionItem, SelectionMode } from '../../engine/EngineApi';
import { ModelTree, type ModelTreeOptions } from '../logic/ModelTree';
import { measureViewInsets } from '../logic/viewInsets';
import type { EngineClient } from '../engine/EngineClient';

/**
 * Load phases of viewer.md §4 "Loading", plus 'closed': the viewer connection was closed (inactivity or a
 * lost server connection, viewer.md §4 "Connection") and the viewer shut down.
 */
export type ViewerPhase = 'initializing' | 'preparing' | 'loading' | 'ready' | 'error' | 'closed';

/** Why the viewer was shut down while open (viewer.md §4 "Connection", §8). */
export type ViewerClosedReason = 'inactivity' | 'connection-lost';

export const viewerStore = proxy({
  phase: 'initializing' as ViewerPhase,
  /** Error text when phase is 'error'. */
  error: null as string | null,
  /** Why the viewer is 'closed' (null in the other phases). */
  closedReason: null as ViewerClosedReason | null,
  progress: null as LoadProgress | null,
  firstFrame: false,
  selection: [] as SelectionItem[],
  /** Counts selection-changed events (every click gives one, hit or miss): tests wait on it. */
  selectionSeq: 0,
  selectionMode: 'structural-details' as SelectionMode,
  showTree: true,
  revision: null as number | null,
  /** The object table and its tree; kept out of valtio's tracking (ref) because they are large. */
  objects: null as null | ModelObjectsResponse['objects'],
  tree: null as ModelTree | null,
  /** Changes on every update of the hidden objects (kept in `tree`, mutated in place). */
  hiddenVersion: 0,
  /** Names of the view actions undo and redo would act on (viewer.md §4 "View action history"). */
  undoName: null as string | null,
  redoName: null as string | null,
  walkMode: false,
  /** True once the initial camera of viewer.md §4 (orbit (160, 10), fit to window) has been set. */
  initialView: false,
  /** Box selection rectangle while dragging (CSS px), or null. */
  box: null as SelectionBox | null,
  /** Open context menu position (CSS px relative to the canvas), or null. */
  contextMenu: null as { x: number; y: number } | null,
  showSceneGraph: false,
  showStats: false,
});

/** The parts of the store the viewer commands read and toggle (ui/viewer/commands.ts). */
export type ViewerState = typeof viewerStore;

/**
 * Tree checkboxes (viewer.md §2, §4): records the objects as shown or hidden in the mirror and tells the
 * engine, which records one 'Show objects' / 'Hide objects' action per 200 ms burst.
 * @param objects object-table indices (engine node ids), typically a tree node with all its descendants
 */
export function setNodesVisible(objects: number[], visible: boolean): void {
  markHidden(objects, !visible);
  void engine?.api.setTreeVisibility(objects, visible);
}

/** Records objects as hidden or shown in the mirror only (the engine already did it). */
export function markHidden(objects: Iterable<number>, hidden: boolean): void {
  if (!viewerStore.tree) return;
  viewerStore.tree.setHidden(objects, hidden);
  viewerStore.hiddenVersion++;
}

let engine: EngineClient | null = null;

/** The engine of the open viewer, or null. */
export function getEngine(): EngineClient | null {
  return engine;
}

/** Registers (or clears) the engine of the open viewer. */
export function setEngine(e: EngineClient | null): void {
  engine = e;
}

/** Resets the store for a new viewer session. */
export function resetViewer(): void {
  viewerStore.phase = 'initializing';
  viewerStore.error = null;
  viewerStore.closedReason = null;
  viewerStore.progress = null;
  viewerStore.firstFrame = false;
  viewerStore.selection = [];
  viewerStore.revision = null;
  viewerStore.objects = null;
  viewerStore.tree = null;
  viewerStore.hiddenVersion++;
  viewerStore.undoName = null;
  viewerStore.redoName = null;
  viewerStore.walkMode = false;
  viewerStore.initialView = false;
  viewerStore.box = null;
  viewerStore.contextMenu = null;
  viewerStore.showSceneGraph = false;
  viewerStore.showStats = false;
}

/** Moves to a load phase (viewer.md §4 "Loading"). */
export function setViewerPhase(phase: ViewerPhase): void {
  viewerStore.phase = phase;
}

/** The model could not be opened: phase 'error' with the message shown by the overlay. */
export function failViewer(message: string): void {
  viewerStore.phase = 'error';
  viewerStore.error = message;
}

/** The viewer was shut down (viewer.md §4 "Connection"): phase 'closed' with the reason. */
export function markViewerClosed(reason: ViewerClosedReason): void {
  viewerStore.phase = 'closed';
  viewerStore.closedReason = reason;
}

/** The revision of the open model (from the project info). */
export function setViewerRevision(revision: number): void {
  viewerStore.revision = revision;
}

/** Shows or hides the model tree panel (toolbar toggle, viewer.md §2). */
export function toggleTree(): void {
  viewerStore.showTree = !viewerStore.showTree;
}

/** Shows or hides the scene-graph panel (Ctrl+Alt+S or its close button). */
export function setShowSceneGraph(show: boolean): void {
  viewerStore.showSceneGraph = show;
}

/** Closes the context menu. */
export function closeContextMenu(): void {
  viewerStore.contextMenu = null;
}

/** Installs the object table and builds the tree (ref: not proxied). */
export function setObjects(
  modelName: string,
  objects: ModelObjectsResponse['objects'],
  options: ModelTreeOptions = {},
): void {
  viewerStore.objects = ref(objects);
  viewerStore.tree = ref(new ModelTree(modelName, objects, options));
  treeModelName = modelName;
  treeOptions = options;
}

let treeModelName = '';
let treeOptions: ModelTreeOptions = {};

/**
 * Rebuilds the tree with changed options (e.g. when sections appear: '{axis}-sections', or the custom
 * trees change, viewer.md §2), keeping the other options and the hidden objects. O(n) once per change,
 * never per render.
 */
export function setTreeOptions(options: ModelTreeOptions): void {
  const old = viewerStore.tree;
  const objects = viewerStore.objects;
  if (!old || !objects) return;
  treeOptions = { ...treeOptions, ...options };
  const tree = new ModelTree(treeModelName, objects, treeOptions);
  if (old.hiddenObjects > 0) {
    const hidden: number[] = [];
    for (let o = 0; o < objects.length; o++) if (old.isHidden(o)) hidden.push(o);
    tree.setHidden(hidden, true);
  }
  viewerStore.tree = ref(tree);
  viewerStore.hiddenVersion++;
}

/** Percent 0..100 of a load progress, or null when the size is unknown. */
export function loadPercent(p: LoadProgress | null): number | null {
  if (!p) return null;
  if (p.chunkCount) return Math.min(100, (100 * p.chunksLoaded) / p.chunkCount);
  if (p.totalBytes) return Math.min(100, (100 * p.loadedBytes) / p.totalBytes);
  return null;
}

/**
 * Marks the model as ready once (viewer.md §4: on model structure ready the camera orbits (160, 10) and
 * the world is fitted). Called on 'model-ready' and, as a fallback, when loadModel resolves.
 */
export function markModelReady(): void {
  // A viewer shut down (closed) stays so until it is opened again.
  if (viewerStore.phase === 'ready' || viewerStore.phase === 'closed') return;
  viewerStore.phase = 'ready';
  const api = engine?.api;
  if (api)
    void Promise.resolve(api.orbitTo(160, 10, 0))
      .then(() => api.fitToWindow(measureViewInsets()))
      .then(() => {
        if (engine?.api === api) viewerStore.initialView = true;
      })
      .catch(() => {});
}

/**
 * Applies an engine event to the mirror. 'model-ready' additionally sets the initial camera
 * (viewer.md §4: orbit (160, 10), then fit to window).
 */
export function handleEngineEvent(e: EngineEvent): void {
  switch (e.type) {
    case 'load-progress':
      viewerStore.progress = e.progress;
      break;
    case 'first-frame':
      viewerStore.firstFrame = true;
      break;
    case 'model-ready':
      markModelReady();
      break;
    case 'selection-changed':
      // Kept out of valtio's tracking (ref): a box may select thousands of items, each of which would
      // otherwise become a proxy here and be copied into every snapshot. The list is replaced, never edited.
      viewerStore.selection = ref(e.items);
      viewerStore.selectionSeq++;
      break;
    case 'error':
      viewerStore.error = e.message;
      break;
    case 'history-changed':
      viewerStore.undoName = e.undoName;
      viewerStore.redoName = e.redoName;
      break;
    case 'walk-mode-changed':
      viewerStore.walkMode = e.on;
      if (e.on) viewerStore.box = null;
      break;
    case 'box-changed':
      viewerStore.box = e.box;
      break;
    case 'context-menu':
      viewerStore.contextMenu = { x: e.x, y: e.y };
      break;
    case 'visibility-changed':
      // Undo / redo change visibility inside the engine; the event names the objects when it can.
      if (e.nodeIds && e.visible !== undefined) markHidden(e.nodeIds, !e.visible);
      break;
    default:
      break;
  }
}
