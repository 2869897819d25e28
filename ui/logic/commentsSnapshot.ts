/**
 * A comment snapshot's view (viewer.md §3 "Attachment": savedView, visibleObjects, referredObjects,
 * clippingBox, workplane, and Keelson's colouring by quantities) between the viewer (mm, object-table node indices) and the API (m, object ids).
 * Pure conversions; ui/stores/comments.ts takes the snapshot and restores it through the engine.
 */
import type { AttachmentView, ClippingBox, ColouringView, SavedView } from '../../api/contract';
import type { ClipBox, OrbitView } from '../../engine/EngineApi';

const M = 1000;

/** Orbit view (mm) → savedView (m). */
export function toSavedView(v: OrbitView, perspective = false): SavedView {
  return {
    longitude: v.longitude,
    latitude: v.latitude,
    distance: v.distance / M,
    target: { x: v.target.x / M, y: v.target.y / M, z: v.target.z / M },
    width: v.width / M,
    height: v.height / M,
    ...(perspective ? { perspective: true } : {}),
  };
}

/** savedView (m) → orbit view (mm). */
export function fromSavedView(s: SavedView): OrbitView {
  return {
    longitude: s.longitude,
    latitude: s.latitude,
    distance: s.distance * M,
    target: { x: s.target.x * M, y: s.target.y * M, z: s.target.z * M },
    width: s.width * M,
    height: s.height * M,
  };
}

/** Clipping box mm → m. */
export const toClippingBox = (b: ClipBox): ClippingBox => ({
  xMin: b.xMin / M,
  xMax: b.xMax / M,
  yMin: b.yMin / M,
  yMax: b.yMax / M,
  zMin: b.zMin / M,
  zMax: b.zMax / M,
});

/** Clipping box m → mm. */
export const fromClippingBox = (b: ClippingBox): ClipBox => ({
  xMin: b.xMin * M,
  xMax: b.xMax * M,
  yMin: b.yMin * M,
  yMax: b.yMax * M,
  zMin: b.zMin * M,
  zMax: b.zMax * M,
});

/** Marker point mm (engine) → m (API), and back. */
export const pointToMetres = (p: readonly [number, number, number]) => ({ x: p[0] / M, y: p[1] / M, z: p[2] / M });
export const pointToMm = (p: { x: number; y: number; z: number }): [number, number, number] => [
  p.x * M,
  p.y * M,
  p.z * M,
];

/** What the viewer holds at snapshot time. `isHidden(node)` reads the tree mirror; ids by node index. */
export interface ViewerViewState {
  view: OrbitView;
  walking: boolean;
  ids: readonly string[];
  isHidden: (node: number) => boolean;
  hiddenCount: number;
  selectedNodes: readonly number[];
  clip: { box: ClipBox; active: boolean } | null;
  /** The colouring by quantities shown, or null (the model's own colours). */
  coloring?: ColouringView | null;
}

/**
 * The VIEW fields of a snapshot. visibleObjects lists the visible objects' ids when some are hidden and is
 * empty when every object is visible (the default view: a whole model's ids would only repeat the model);
 * referredObjects are the selected objects' ids. No workplane exists in the viewer (isWorkplaneEnabled false).
 */
export function snapshotView(s: ViewerViewState): AttachmentView {
  const visibleObjects: string[] = [];
  if (s.hiddenCount > 0) for (let i = 0; i < s.ids.length; i++) if (!s.isHidden(i)) visibleObjects.push(s.ids[i]);
  return {
    visibleObjects,
    referredObjects: s.selectedNodes.map((n) => s.ids[n]).filter((id) => id !== undefined),
    isClippingEnabled: !!s.clip?.active,
    isWorkplaneEnabled: false,
    savedView: toSavedView(s.view, s.walking),
    workplane: null,
    clippingBox: s.clip ? toClippingBox(s.clip.box) : null,
    ...(s.coloring ? { coloring: s.coloring } : {}),
  };
}

/** What restoring a snapshot does to the viewer: nodes to hide (the rest shown) and to select. */
export interface RestorePlan {
  /** Node indices to hide; every other node is shown. */
  hidden: number[];
  selected: number[];
  view: OrbitView | null;
  clip: { box: ClipBox; active: boolean } | null;
  /** Object ids of the snapshot that the model does not have (another revision), reported to the user. */
  missing: string[];
  /** The colouring to show (null: the model's own colours). */
  coloring: ColouringView | null;
}

/** Plans the restore of a snapshot view on a model with object `ids` (by node index). */
export function planRestore(a: AttachmentView, ids: readonly string[]): RestorePlan {
  const index = new Map<string, number>();
  ids.forEach((id, i) => index.set(id, i));
  const missing: string[] = [];
  const lookup = (list: readonly string[]) => {
    const out: number[] = [];
    for (const id of list) {
      const n = index.get(id);
      if (n === undefined) missing.push(id);
      else out.push(n);
    }
    return out;
  };
  let hidden: number[] = [];
  if (a.visibleObjects.length > 0) {
    const shown = new Set(lookup(a.visibleObjects));
    hidden = ids.map((_, i) => i).filter((i) => !shown.has(i));
  }
  const selected = lookup(a.referredObjects);
  return {
    hidden,
    selected,
    view: a.savedView ? fromSavedView(a.savedView) : null,
    clip: a.clippingBox ? { box: fromClippingBox(a.clippingBox), active: a.isClippingEnabled } : null,
    missing,
    coloring: a.coloring ?? null,
  };
}
