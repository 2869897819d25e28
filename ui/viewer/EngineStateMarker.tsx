/**
 * The engine state a person sees change, as data attributes of one hidden element (data-testid
 * 'engine-state'), so that browser tests wait for a state instead of for time: the camera view
 * (data-camera 'longitude,latitude' in degrees, 1 decimal; data-camera-width, mm; data-camera-target 'x,y,z' mm,
 * 1 decimal), whether the initial
 * view of viewer.md §4 is set (data-initial-view), the undo / redo action names (viewer.md §4 "View action
 * history"), the selection size and a counter of selection changes (every click gives one, hit or miss),
 * the point under the cursor and the snapped point while measuring (data-cursor, data-snap: 'x,y,z' mm,
 * empty off the model or when nothing snaps) and the number of annotations drawn.
 * Its own component, so the camera's updates re-render only this element.
 */
import { useSnapshot } from 'valtio';
import { toolsStore } from '../stores/tools';
import { viewerStore } from '../stores/viewer';

/** 'longitude,latitude' of a view, degrees with 1 decimal (the form tests compare). */
export function cameraAngles(view: { longitude: number; latitude: number } | null): string {
  return view ? `${view.longitude.toFixed(1)},${view.latitude.toFixed(1)}` : '';
}

/** The hidden engine-state element; place it once inside the viewer. */
export function EngineStateMarker() {
  const { view, cursor, snap, annotationCount } = useSnapshot(toolsStore);
  const { undoName, redoName, selection, selectionSeq, initialView } = useSnapshot(viewerStore);
  return (
    <div
      hidden
      data-testid="engine-state"
      data-camera={cameraAngles(view)}
      data-camera-width={view ? Math.round(view.width) : ''}
      data-camera-target={view ? [view.target.x, view.target.y, view.target.z].map((v) => v.toFixed(1)).join(',') : ''}
      data-initial-view={initialView}
      data-undo={undoName ?? ''}
      data-redo={redoName ?? ''}
      data-selection-count={selection.length}
      data-selection-seq={selectionSeq}
      data-cursor={cursor ? cursor.join(',') : ''}
      data-snap={snap?.type === 'snap' ? snap.point.join(',') : ''}
      data-annotations={annotationCount}
    />
  );
}
