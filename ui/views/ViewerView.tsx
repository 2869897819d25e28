/**
 * Main viewer view '/{modelName}?revision=N' (application.md §2, viewer.md §1, §2, §4 "Loading"): appends
 * the model to 'Recent', polls the instance status until 'Ok' with the spec's waiting message, reads the
 * project revision info and the object table, starts the render engine, streams the scene package with a
 * loading overlay, then shows the toolbar, the model tree and the properties panel, and the engineering
 * tools: section dialog and section nodes, clipping controls, measure panel, snap and
 * annotation settings, mouse coordinates and the frame scale.
 */
import { useEffect, useRef } from 'react';
import { useLocation, useSearch } from 'wouter';
import { useSnapshot } from 'valtio';
import { authHeaders } from '../api/client';
import { getMaintenanceStatus, getModelObjects, getProjectInfo, getPropertyColumns, sceneUrl } from '../api/calls';
import { CommentsOverlay } from '../comments/CommentsOverlay';
import { RightPanels } from '../comments/RightPanels';
import { EngineClient } from '../engine/EngineClient';
import { parseRevisionParam } from '../logic/format';
import { addRecent } from '../logic/recent';
import { authStore } from '../stores/auth';
import { handleCommentsEngineEvent } from '../stores/comments';
import { currentProjectStore } from '../stores/currentProject';
import { storeError } from '../stores/errors';
import { connectSections, handleSectionsEvent, loadSavedSections, resetSections } from '../stores/sections';
import { showToast } from '../stores/toasts';
import { connectToolsToEngine, handleToolEvent, resetTools, setFramesFromApi, toolsStore } from '../stores/tools';
import { connectSurfaceObjects } from '../stores/surfaceObjects';
import {
  handleEngineEvent,
  loadPercent,
  markModelReady,
  resetViewer,
  setEngine,
  setObjects,
  viewerStore,
} from '../stores/viewer';
import { ClippingControls } from '../viewer/ClippingControls';
import { ContextMenu } from '../viewer/ContextMenu';
import { DeleteSectionDialog } from '../viewer/DeleteSectionDialog';
import { MeasurePanel } from '../viewer/MeasurePanel';
import { FrameScale, MouseCoordinates } from '../viewer/MouseCoordinates';
import { SectionDialog } from '../viewer/SectionDialog';
import { ModelTreePanel } from '../viewer/ModelTreePanel';
import { PropertiesPanel } from '../viewer/PropertiesPanel';
import { RenderStatsOverlay } from '../viewer/RenderStatsOverlay';
import { SceneGraphPanel } from '../viewer/SceneGraphPanel';
import { SelectionBoxOverlay } from '../viewer/SelectionBoxOverlay';
import { ViewerToolbar } from '../viewer/ViewerToolbar';
import { useViewerKeys } from '../viewer/useViewerKeys';

/** The waiting message of viewer.md §1 (spelling as in the product). */
export const VIEWER_WAITING_MESSAGE = 'the viewer services are being initalized, please wait...';

/** Instance status polling interval and the longest wait, ms. */
const STATUS_POLL_MS = 1000;
const STATUS_MAX_WAIT_MS = 10 * 60_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function LoadingOverlay() {
  const { phase, progress, error, firstFrame } = useSnapshot(viewerStore);
  if (phase === 'ready') return null;
  const percent = loadPercent(progress as never);
  // Once the first chunks are drawn the model is usable: a slim progress pill replaces the overlay.
  if (phase === 'loading' && firstFrame) {
    return (
      <div
        role="status"
        className="panel absolute bottom-4 left-1/2 z-20 flex w-72 -translate-x-1/2 items-center gap-3 px-4 py-2 text-xs text-slate-600"
      >
        <span>Loading model…</span>
        <div className="h-1.5 flex-1 overflow-hidden rounded bg-slate-200">
          <div className="h-full bg-brand-500" style={{ width: `${percent ?? 50}%` }} />
        </div>
        <span data-testid="load-progress" className="font-mono">
          {percent !== null ? `${Math.floor(percent)} %` : ''}
        </span>
      </div>
    );
  }
  if (phase === 'error') {
    return (
      <div className="absolute inset-0 z-20 flex items-center justify-center bg-slate-100/90">
        <div className="panel max-w-md p-6 text-center">
          <h2 className="mb-2 font-semibold text-rose-700">The model could not be opened</h2>
          <p className="text-sm text-slate-600">{error}</p>
        </div>
      </div>
    );
  }
  return (
    <div className="absolute inset-0 z-20 flex items-center justify-center bg-slate-100/80">
      <div className="panel w-96 p-6 text-center" role="status" aria-live="polite">
        <div
          className="mx-auto mb-4 h-8 w-8 animate-spin rounded-full border-4 border-brand-100 border-t-brand-500"
          aria-hidden="true"
        />
        {phase === 'initializing' ? (
          <p data-testid="viewer-waiting" className="text-sm text-slate-700">
            {VIEWER_WAITING_MESSAGE}
          </p>
        ) : (
          <>
            <p className="text-sm text-slate-700">Loading model…</p>
            <div className="mt-3 h-2 overflow-hidden rounded bg-slate-200">
              <div className="h-full bg-brand-500 transition-[width]" style={{ width: `${percent ?? 5}%` }} />
            </div>
            <p data-testid="load-progress" className="mt-2 font-mono text-xs text-slate-500">
              {percent !== null
                ? `${Math.floor(percent)} %`
                : progress
                  ? `${(progress.loadedBytes / 1048576).toFixed(1)} MB`
                  : ''}
            </p>
          </>
        )}
      </div>
    </div>
  );
}

/** Property codes the render engine reads (sections label plates with PLTH; compartments colour by PURP). */
const ENGINE_PROPERTY_CODES = ['PLTH', 'PURP', 'MAT', 'PROFILE', 'TGH', 'STYPE'] as const;

export function ViewerView({ modelName }: { modelName: string }) {
  const search = useSearch();
  const [, navigate] = useLocation();
  const requestedRevision = parseRevisionParam(search);
  const hostRef = useRef<HTMLDivElement>(null);
  const { showTree, phase: viewerPhase, showSceneGraph, showStats, walkMode } = useSnapshot(viewerStore);
  useViewerKeys();

  useEffect(() => {
    let cancelled = false;
    let client: EngineClient | null = null;
    const disconnect: Array<() => void> = [];
    resetViewer();
    resetTools();
    resetSections(modelName);
    addRecent(localStorage, modelName);
    currentProjectStore.modelName = modelName;
    currentProjectStore.info = null;
    // A fresh canvas per session: transferControlToOffscreen works once per element.
    const canvas = document.createElement('canvas');
    canvas.dataset.testid = 'viewer-canvas';
    canvas.className = 'block h-full w-full touch-none outline-none';
    canvas.tabIndex = 0;
    hostRef.current?.appendChild(canvas);

    const fail = (message: string, redirect: boolean) => {
      if (cancelled) return;
      viewerStore.phase = 'error';
      viewerStore.error = message;
      if (redirect) {
        storeError({ reason: 'Keelson calculation service unavailable', message });
        navigate('/error');
      }
    };

    (async () => {
      const user = authStore.user?.email ?? '';
      const started = Date.now();
      for (;;) {
        let status: string;
        try {
          status = (await getMaintenanceStatus(modelName, requestedRevision, user)).status;
        } catch (e) {
          return fail((e as Error).message, true);
        }
        if (cancelled) return;
        if (status === 'Ok') break;
        if (status !== 'Preparing' || Date.now() - started > STATUS_MAX_WAIT_MS)
          return fail(`Keelson calculation service unavailable for model ${modelName}`, true);
        await sleep(STATUS_POLL_MS);
        if (cancelled) return;
      }
      const info = await getProjectInfo(modelName, requestedRevision);
      if (cancelled) return;
      currentProjectStore.info = info;
      viewerStore.revision = info.revision;
      const table = await getModelObjects(modelName, info.revision);
      if (cancelled) return;
      setObjects(modelName, table.objects);
      const frames = setFramesFromApi(table.frames);
      toolsStore.bounds = table.info.bounds.map((v) => v * 1000) as typeof toolsStore.bounds;
      resetSections(modelName, info.revision);
      viewerStore.phase = 'loading';
      client = await EngineClient.create(canvas, (event) => {
        if (cancelled) return;
        if (event.type === 'error') showToast('error', event.message);
        handleEngineEvent(event);
        handleToolEvent(event);
        handleSectionsEvent(event);
        handleCommentsEngineEvent(event);
      });
      if (cancelled) return client.dispose();
      setEngine(client);
      await client.api.setObjectTable({
        ids: table.objects.map((o) => o.id),
        types: table.objects.map((o) => o.type) as never,
        parents: Int32Array.from(table.objects, (o) => o.parent),
      });
      await client.api.setSelectionMode(viewerStore.selectionMode);
      await client.api.loadModel(sceneUrl(modelName, info.revision), authHeaders());
      if (cancelled) return;
      markModelReady();
      // engineering tools: names and frames (mm) for sections, annotations and snap infos; settings; saved sections.
      // Thickness, purpose and profile for section labels, compartment colours and annotations.
      const cols = await getPropertyColumns(modelName, info.revision, [...ENGINE_PROPERTY_CODES]);
      if (cancelled) return;
      const properties = table.objects.map((_, i) => {
        const rec: Record<string, number | string> = {};
        for (const code of cols.codes) {
          const value = cols.columns[code]?.[i];
          if (value !== null && value !== undefined) rec[code] = value;
        }
        return rec;
      });
      await client.api.setModelDetails({ names: table.objects.map((o) => o.name), frames, properties });
      if (cancelled) return;
      disconnect.push(connectToolsToEngine(), connectSections(), connectSurfaceObjects(modelName, info.revision));
      toolsStore.view = await client.api.getView();
      await loadSavedSections().catch(() => {});
    })().catch((e: Error) => {
      if (cancelled) return;
      showToast('error', e.message || 'Scene model not found');
      fail(e.message || 'Scene model not found', false);
    });

    return () => {
      cancelled = true;
      for (const d of disconnect.splice(0)) d();
      setEngine(null);
      client?.dispose();
      canvas.remove();
      resetViewer();
      resetTools();
      resetSections();
    };
  }, [modelName, requestedRevision, navigate]);

  return (
    <div className="relative flex min-h-0 flex-1" data-viewer-phase={viewerPhase} data-walk-mode={walkMode}>
      <div className="relative min-w-0 flex-1 overflow-hidden bg-gradient-to-b from-slate-200 to-slate-300">
        <div ref={hostRef} className="absolute inset-0" />
        <SelectionBoxOverlay />
        <ViewerToolbar />
        {viewerPhase === 'ready' && (
          <>
            <FrameScale walkMode={walkMode} />
            <MouseCoordinates />
            <ClippingControls />
            <MeasurePanel />
          </>
        )}
        <SectionDialog />
        <DeleteSectionDialog />
        <PropertiesPanel modelName={modelName} />
        {showSceneGraph && <SceneGraphPanel />}
        {showStats && <RenderStatsOverlay />}
        <ContextMenu />
        <CommentsOverlay />
        <LoadingOverlay />
      </div>
      <RightPanels tree={showTree ? <ModelTreePanel modelName={modelName} /> : null} />
    </div>
  );
}
