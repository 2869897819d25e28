/**
 * Surface-object parameters for the annotations (viewer.md §3 "Annotation settings" parameters toggle,
 * §7 "Geometry", §9 "Drawing"): while the toggle is on, the objects chosen by
 * surfaceObjectTargets (selection, else visible plates/brackets/holes up to a cap) are fetched from
 * POST .../geometry/surface-objects — after a 250 ms pause, a newer request aborting an older one — and
 * handed to the engine (setSurfaceObjects), which draws the dimension lines; off, the engine gets [].
 */
import { subscribeKey } from 'valtio/utils';
import { getSurfaceObjects } from '../api/calls';
import { surfaceObjectTargets } from '../logic/surfaceTargets';
import { toolsStore } from './tools';
import { getEngine, viewerStore } from './viewer';

/** Pause after a selection or visibility change before asking the server, ms. */
export const SURFACE_OBJECTS_DEBOUNCE_MS = 250;

/**
 * Starts following the toggle, the selection and the visibility for the open model. Returns the stop
 * function (aborts a running request).
 */
export function connectSurfaceObjects(modelName: string, revision: number): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: AbortController | null = null;
  let lastKey = '';

  const update = async () => {
    timer = null;
    const on = toolsStore.annotationSettings.parameters;
    const tree = viewerStore.tree;
    const names = on
      ? surfaceObjectTargets(viewerStore.selection, viewerStore.objects, (i) => tree?.isHidden(i) ?? false)
      : [];
    const key = names.join('\n');
    if (key === lastKey) return;
    lastKey = key;
    running?.abort();
    running = null;
    const api = getEngine()?.api;
    if (names.length === 0) {
      void api?.setSurfaceObjects([]);
      return;
    }
    const ctl = new AbortController();
    running = ctl;
    try {
      const r = await getSurfaceObjects(modelName, revision, names, ctl.signal);
      if (ctl.signal.aborted) return;
      void getEngine()?.api.setSurfaceObjects(r.surfaceObjects);
    } catch {
      // Best effort: a failed call leaves the previous dimensions; the next change asks again.
      if (!ctl.signal.aborted) lastKey = '';
    } finally {
      if (running === ctl) running = null;
    }
  };
  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void update(), SURFACE_OBJECTS_DEBOUNCE_MS);
  };
  const unsubs = [
    subscribeKey(toolsStore, 'annotationSettings', schedule),
    subscribeKey(viewerStore, 'selection', schedule),
    subscribeKey(viewerStore, 'hiddenVersion', schedule),
  ];
  schedule();
  return () => {
    if (timer) clearTimeout(timer);
    running?.abort();
    for (const u of unsubs) u();
  };
}
