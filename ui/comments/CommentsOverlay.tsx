/**
 * The comments panel's parts over the viewer: opens the model's comments once the viewer has its revision
 * and clears them when the viewer is left (viewer.md §2), the placement hint 'Place marker on geometry or
 * right-click to cancel.', and the confirmation dialog ('Discard comment?', 'Discard modification?',
 * 'Delete this thread?', 'Delete this reply?').
 */
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { answerConfirm, closeComments, commentsStore, openComments, toggleCommentsPanel } from '../stores/comments';
import { currentProjectStore } from '../stores/currentProject';
import { viewerStore } from '../stores/viewer';
import { StrokeIcon } from '../components/StrokeIcon';

/** The overlay text while placing a marker (viewer.md §2). */
export const PLACE_MARKER_TEXT = 'Place marker on geometry or right-click to cancel.';

function useCommentsSession(): void {
  const { phase } = useSnapshot(viewerStore);
  const { info } = useSnapshot(currentProjectStore);
  const name = info?.projectInfo.projectName ?? null;
  const revision = info?.revision ?? null;
  useEffect(() => {
    const current = currentProjectStore.info;
    if (phase !== 'ready' || !current || name === null || revision === null) return;
    return openComments(current);
  }, [phase, name, revision]);
  useEffect(() => () => closeComments(), []);
}

export function CommentsOverlay() {
  useCommentsSession();
  const { placingMarker, confirm } = useSnapshot(commentsStore);
  return (
    <>
      {placingMarker && (
        <div
          role="status"
          className="panel pointer-events-none absolute top-16 left-1/2 z-20 -translate-x-1/2 px-4 py-2 text-sm text-ink"
        >
          {PLACE_MARKER_TEXT}
        </div>
      )}
      <Dialog open={confirm !== null} onClose={() => void answerConfirm(false)} className="relative z-50">
        <div className="fixed inset-0 bg-slate-900/20" aria-hidden="true" />
        <div className="fixed inset-0 flex items-center justify-center p-4">
          <DialogPanel data-testid="comment-confirm" className="panel w-full max-w-xs p-5">
            <DialogTitle className="mb-4 text-base font-semibold text-ink">{confirm?.question}</DialogTitle>
            <div className="flex justify-end gap-2">
              <button type="button" className="btn-secondary" onClick={() => void answerConfirm(false)}>
                No
              </button>
              <button
                type="button"
                className="btn bg-rose-600 text-white hover:bg-rose-700"
                onClick={() => void answerConfirm(true)}
              >
                Yes
              </button>
            </div>
          </DialogPanel>
        </div>
      </Dialog>
    </>
  );
}

/** The toolbar's Comments toggle (viewer.md §2 "Top right: toggle buttons for the model tree, commenting ..."). */
export function CommentsToggle() {
  const { visible } = useSnapshot(commentsStore);
  return (
    <button
      type="button"
      className={`btn-ghost ${visible ? 'bg-brand-50 text-brand-700' : ''}`}
      aria-pressed={visible}
      onClick={toggleCommentsPanel}
      title="Comments"
    >
      <StrokeIcon>
        <path d="M3 4h14v9H8l-4 3v-3H3z" />
      </StrokeIcon>
      Comments
    </button>
  );
}
