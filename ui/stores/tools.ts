/**
 * The viewer's mirror of the engineering tools (viewer.md §2 toolbar toggles and clipping
 * controls, §3 snap and annotation settings, §4 measuring and clipping): clipping box and flags, measure
 * operator state and completed measurements, the point under the cursor, the camera view (frame scale),
 * the model's frames (mm) and bounds, the persisted snap and annotation settings, and the open dialogs.
 * The engine's events update it (handleToolEvent); the UI changes engine state through the facade only.
 */
import { proxy, ref } from 'valtio';
import type {
  AnnotationSettings,
  ClipBox,
  EngineEvent,
  MeasureState,
  MeasurementItem,
  OrbitView,
  SnapResult,
} from '../../engine/EngineApi';
import type { Box3Tuple, FrameTables } from '../../engine/model/types';
import {
  ANNOTATION_SETTINGS_STORE,
  DEFAULT_ANNOTATION_SETTINGS,
  DEFAULT_SNAP_OPTIONS,
  SNAP_SETTINGS_STORE,
  loadPersisted,
  savePersisted,
  type SnapOptions,
} from '../logic/persisted';
import { getEngine } from './viewer';
import { featuresStore, registerFeatureHandlers } from './viewerFeatures';

const storage = (): Storage | null => (typeof localStorage === 'undefined' ? null : localStorage);

export const toolsStore = proxy({
  /** Reference planes of the model, mm (ref: not proxied). */
  frames: null as FrameTables | null,
  /** Model bounds, mm [minX, minY, minZ, maxX, maxY, maxZ]. */
  bounds: null as Box3Tuple | null,
  clip: { box: null as ClipBox | null, active: false, visible: false },
  measureState: 'off' as MeasureState,
  measurements: [] as MeasurementItem[],
  /** Point under the cursor, mm, or null off the model. */
  cursor: null as [number, number, number] | null,
  snap: null as SnapResult | null,
  view: null as OrbitView | null,
  snapSettings: loadPersisted(storage(), SNAP_SETTINGS_STORE, DEFAULT_SNAP_OPTIONS) as SnapOptions,
  annotationSettings: loadPersisted(storage(), ANNOTATION_SETTINGS_STORE, {
    ...DEFAULT_ANNOTATION_SETTINGS,
  }) as AnnotationSettings,
  annotationCount: 0,
  sectionDialogOpen: false,
});

export type ToolsState = typeof toolsStore;

/** Clears the per-model state for a new viewer session (settings stay). */
export function resetTools(): void {
  toolsStore.frames = null;
  toolsStore.bounds = null;
  toolsStore.clip = { box: null, active: false, visible: false };
  toolsStore.measureState = 'off';
  toolsStore.measurements = [];
  toolsStore.cursor = null;
  toolsStore.snap = null;
  toolsStore.view = null;
  toolsStore.annotationCount = 0;
  toolsStore.sectionDialogOpen = false;
  featuresStore.selectedAnnotations = 0;
}

/** Installs the model's reference planes given by the API in metres (converted to mm). */
export function setFramesFromApi(
  frames: Record<'x' | 'y' | 'z', { id: string; name: string; coordinate: number; number: number | null }[]>,
): FrameTables {
  const mm = (list: (typeof frames)['x']) => list.map((p) => ({ ...p, coordinate: p.coordinate * 1000 }));
  const tables: FrameTables = { x: mm(frames.x), y: mm(frames.y), z: mm(frames.z) };
  toolsStore.frames = ref(tables);
  return tables;
}

/** Installs the model bounds given by the API in metres [minX, minY, minZ, maxX, maxY, maxZ] (converted to mm). */
export function setBoundsFromApi(bounds: readonly number[]): void {
  toolsStore.bounds = bounds.map((v) => v * 1000) as Box3Tuple;
}

/** Records the camera view (frame scale); the engine's camera-changed events keep it current. */
export function setView(view: OrbitView): void {
  toolsStore.view = view;
}

/** Closes the 'Create section' dialog. */
export function closeSectionDialog(): void {
  toolsStore.sectionDialogOpen = false;
}

/** Applies a tool event of the engine to the mirror (other events are ignored). */
export function handleToolEvent(e: EngineEvent): void {
  switch (e.type) {
    case 'model-ready':
      toolsStore.bounds = e.bounds;
      break;
    case 'clip-changed':
      toolsStore.clip = { box: e.box, active: e.active, visible: e.visible };
      break;
    case 'measure-changed':
      toolsStore.measureState = e.state;
      toolsStore.measurements = e.measurements;
      break;
    case 'annotations-changed':
      toolsStore.annotationCount = e.count;
      featuresStore.selectedAnnotations = e.selected;
      break;
    case 'cursor':
      toolsStore.cursor = e.point;
      break;
    case 'snap-changed':
      toolsStore.snap = e.snap;
      break;
    case 'camera-changed':
      toolsStore.view = e.view;
      break;
    default:
      break;
  }
}

/** Snap settings menu: sets one option, persists it and tells the engine. */
export function setSnapOption(key: keyof SnapOptions, on: boolean): void {
  toolsStore.snapSettings = { ...toolsStore.snapSettings, [key]: on };
  savePersisted(storage(), SNAP_SETTINGS_STORE, toolsStore.snapSettings);
  void getEngine()?.api.setSnapSettings({ [key]: on });
}

/** Annotation settings: merges `patch`, persists and tells the engine (labels update). */
export function setAnnotationSettings(patch: Partial<AnnotationSettings>): void {
  toolsStore.annotationSettings = { ...toolsStore.annotationSettings, ...patch };
  savePersisted(storage(), ANNOTATION_SETTINGS_STORE, toolsStore.annotationSettings);
  void getEngine()?.api.setAnnotationSettings(patch);
}

/**
 * Gives a freshly loaded engine the persisted settings and registers the annotation handlers of the
 * context menu ('Deselect N annotation(s)', 'Delete N annotation(s)'). Returns the unregister function.
 */
export function connectToolsToEngine(): () => void {
  const api = getEngine()?.api;
  if (api) {
    void api.setSnapSettings({ ...toolsStore.snapSettings });
    void api.setAnnotationSettings({ ...toolsStore.annotationSettings });
  }
  return registerAnnotationHandlers();
}

function registerAnnotationHandlers(): () => void {
  return registerFeatureHandlers({
    deselectAnnotations: () => void getEngine()?.api.deselectAnnotations(),
    deleteAnnotations: () => void getEngine()?.api.deleteSelectedAnnotations(),
  });
}
