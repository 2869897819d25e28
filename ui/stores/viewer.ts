/**
 * The viewer's read-only mirror of engine state (ARCHITECTURE.md house rule 1): load phase and progress,
 * selection, selection mode and panel toggles. The UI changes engine state only through the facade
 * (getEngine()), and the engine's events update this store.
 */
import { proxy, ref } from 'valtio';
import type { ModelObjectsResponse } from '../../api/contract';
import type { EngineEvent, LoadProgress, SelectionItem, SelectionMode } from '../../engine/EngineApi';
import { ModelTree } from '../logic/ModelTree';
import type { EngineClient } from '../engine/EngineClient';

/** Load phases of viewer.md §4 "Loading". */
export type ViewerPhase = 'initializing' | 'preparing' | 'loading' | 'ready' | 'error';

export const viewerStore = proxy({
  phase: 'initializing' as ViewerPhase,
  /** Error text when phase is 'error'. */
  error: null as string | null,
  progress: null as LoadProgress | null,
  firstFrame: false,
  selection: [] as SelectionItem[],
  selectionMode: 'structural-details' as SelectionMode,
  showTree: true,
  revision: null as number | null,
  /** The object table and its tree; kept out of valtio's tracking (ref) because they are large. */
  objects: null as null | ModelObjectsResponse['objects'],
  tree: null as ModelTree | null,
  /** Hidden node ids (ref: mutated in place; hiddenVersion changes on every update). */
  hidden: ref(new Set<number>()) as Set<number>,
  hiddenVersion: 0,
});

/**
 * Shows or hides nodes through the engine and records them in the mirror (viewer.md §2 tree checkboxes).
 * @param nodes node ids (object-table indices), typically a node with all its descendants
 */
export function setNodesVisible(nodes: number[], visible: boolean): void {
  const hidden = viewerStore.hidden;
  for (const n of nodes) visible ? hidden.delete(n) : hidden.add(n);
  viewerStore.hiddenVersion++;
  void engine?.api.setVisibility(nodes, visible);
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
  viewerStore.progress = null;
  viewerStore.firstFrame = false;
  viewerStore.selection = [];
  viewerStore.revision = null;
  viewerStore.objects = null;
  viewerStore.tree = null;
  viewerStore.hidden = ref(new Set<number>());
  viewerStore.hiddenVersion++;
}

/** Installs the object table and builds the tree (ref: not proxied). */
export function setObjects(modelName: string, objects: ModelObjectsResponse['objects']): void {
  viewerStore.objects = ref(objects);
  viewerStore.tree = ref(new ModelTree(modelName, objects));
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
  if (viewerStore.phase === 'ready') return;
  viewerStore.phase = 'ready';
  const api = engine?.api;
  if (api) void Promise.resolve(api.orbitTo(160, 10, 0)).then(() => api.fitToWindow()).catch(() => {});
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
      viewerStore.selection = e.items;
      break;
    case 'error':
      viewerStore.error = e.message;
      break;
    default:
      break;
  }
}
