/**
 * Main viewer view '/{modelName}?revision=N' (application.md §2, viewer.md §1, §2, §4 "Loading"): appends
 * the model to 'Recent', polls the instance status until 'Ok' with the spec's waiting message, reads the
 * project revision info and the object table, starts the render engine, streams the scene package with a
 * loading overlay, then shows the toolbar, the model tree and the properties panel, and the engineering
 * tools: section dialog and section nodes, clipping controls, measure panel, snap and
 * annotation settings, mouse coordinates and the frame scale.
 */
import { useEffect, useRef } from 'react';
import { useSearch } from 'wouter';
import { useSnapshot } from 'valtio';
import { StatusColouringPanel } from '../approval/StatusColouringPanel';
import { CommentsOverlay } from '../comments/CommentsOverlay';
import { RightPanels } from '../comments/RightPanels';
import { parseRevisionParam } from '../logic/format';
import { loadPercent, viewerStore, type ViewerClosedReason } from '../stores/viewer';
import { closeViewerSession, openViewerSession, reconnectViewerSession } from '../stores/viewerSession';
import { ColouringLegend } from '../colouring/ColouringLegend';
import { ClippingControls } from '../viewer/ClippingControls';
import { ContextMenu } from '../viewer/ContextMenu';
import { DeleteSectionDialog } from '../viewer/DeleteSectionDialog';
import { EngineStateMarker } from '../viewer/EngineStateMarker';
import { MeasurePanel } from '../viewer/MeasurePanel';
import { ComparisonSummary } from '../compare/ComparisonSummary';
import { FrameScale, MouseCoordinates } from '../viewer/MouseCoordinates';
import { SectionDialog } from '../viewer/SectionDialog';
import { ModelTreePanel } from '../viewer/ModelTreePanel';
import { PropertiesPanel } from '../viewer/PropertiesPanel';
import { RenderStatsOverlay } from '../viewer/RenderStatsOverlay';
import { SceneGraphPanel } from '../viewer/SceneGraphPanel';
import { SelectionBoxOverlay } from '../viewer/SelectionBoxOverlay';
import { ViewerToolbar } from '../viewer/ViewerToolbar';
import { TablePanel } from '../tables/TablePanel';
import { useViewerKeys } from '../viewer/useViewerKeys';

/** The waiting message of viewer.md §1 (spelling as in the product). */
export const VIEWER_WAITING_MESSAGE = 'the viewer services are being initalized, please wait...';

/**
 * The viewer after it was shut down (viewer.md §4 "Connection"): after inactivity the user reconnects with
 * a button; after a lost server connection the view waits and reopens by itself when the server is back.
 */
function ClosedOverlay({ reason }: { reason: ViewerClosedReason | null }) {
  return (
    <div data-testid="viewer-closed" className="absolute inset-0 z-20 flex items-center justify-center bg-slate-100/90">
      <div className="panel w-96 p-6 text-center" role="status" aria-live="polite">
        {reason === 'inactivity' ? (
          <>
            <p className="mb-4 text-sm text-slate-700">The viewer connection was closed after a time without use.</p>
            <button type="button" className="btn-primary" onClick={reconnectViewerSession}>
              Reconnect
            </button>
          </>
        ) : (
          <>
            <div
              className="mx-auto mb-4 h-8 w-8 animate-spin rounded-full border-4 border-brand-100 border-t-brand-500"
              aria-hidden="true"
            />
            <p className="text-sm text-slate-700">
              The server cannot be reached. The model opens again when it is back.
            </p>
          </>
        )}
      </div>
    </div>
  );
}

function LoadingOverlay() {
  const { phase, progress, error, firstFrame, closedReason } = useSnapshot(viewerStore);
  if (phase === 'ready') return null;
  if (phase === 'closed') return <ClosedOverlay reason={closedReason} />;
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

export function ViewerView({ modelName }: { modelName: string }) {
  const search = useSearch();
  const requestedRevision = parseRevisionParam(search);
  const hostRef = useRef<HTMLDivElement>(null);
  const { showTree, phase: viewerPhase, closedReason, showSceneGraph, showStats, walkMode } = useSnapshot(viewerStore);
  useViewerKeys();

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    openViewerSession({ modelName, revision: requestedRevision, host });
    return closeViewerSession;
  }, [modelName, requestedRevision]);

  return (
    <div
      className="relative flex min-h-0 flex-1"
      data-viewer-phase={viewerPhase}
      data-viewer-closed={closedReason ?? undefined}
      data-walk-mode={walkMode}
    >
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
            <ComparisonSummary />
            <ColouringLegend />
            <StatusColouringPanel projectName={modelName} />
            <TablePanel modelName={modelName} />
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
        <EngineStateMarker />
      </div>
      <RightPanels tree={showTree ? <ModelTreePanel modelName={modelName} /> : null} />
    </div>
  );
}
