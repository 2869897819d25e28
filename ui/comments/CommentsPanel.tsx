/**
 * The comments panel (viewer.md §2 "Comments panel"): the header (Add Comment, Markers toggle, Filters,
 * Sort, Refresh; all disabled while loading), a spinner while loading, then the new-thread editor and the
 * thread list (filtered and sorted in the panel, ui/logic/commentsView.ts). Disabled while a marker is
 * being placed (viewer.md §4 "Marker placement").
 */
import { useMemo } from 'react';
import { useSnapshot } from 'valtio';
import type { Comment } from '../../api/contract';
import { visibleThreads } from '../logic/commentsView';
import { commentsStore, refreshComments, startNewThread, toggleMarkers } from '../stores/comments';
import { CommentEditor } from './CommentEditor';
import { CommentThread } from './CommentThread';
import { BcfMenu, FiltersMenu, SortMenu } from './FilterSortMenus';

export function CommentsPanel({ half }: { half: boolean }) {
  const { loading, threads, filters, sort, showMarkers, editor, placingMarker } = useSnapshot(commentsStore);
  const shown = useMemo(() => visibleThreads(threads as Comment[], filters, sort), [threads, filters, sort]);
  const busy = loading || placingMarker;
  return (
    <aside
      aria-label="Comments"
      data-testid="comments-panel"
      data-loading={loading}
      inert={placingMarker}
      className={`flex min-h-0 w-96 shrink-0 flex-col border-l border-slate-200 bg-white ${half ? 'flex-1 border-t' : ''} ${placingMarker ? 'opacity-60' : ''}`}
    >
      <div className="flex items-center gap-0.5 border-b border-slate-200 px-2 py-1.5">
        <h2 className="sr-only">Comments</h2>
        <span className="flex-1" />
        <button
          type="button"
          className="btn-ghost px-1.5 py-1 text-xs whitespace-nowrap"
          disabled={busy || editor !== null}
          onClick={startNewThread}
        >
          Add Comment
        </button>
        <button
          type="button"
          className={`btn-ghost px-2 py-1 text-xs ${showMarkers ? 'bg-brand-50 text-brand-700' : ''}`}
          aria-pressed={showMarkers}
          disabled={busy}
          onClick={toggleMarkers}
          title={showMarkers ? 'Hide 3D markers' : 'Show 3D markers'}
        >
          Markers
        </button>
        <FiltersMenu disabled={busy} />
        <SortMenu disabled={busy} />
        <BcfMenu disabled={busy} />
        <button
          type="button"
          className="btn-ghost px-1.5 py-1 text-xs whitespace-nowrap"
          disabled={busy}
          onClick={() => void refreshComments()}
        >
          Refresh
        </button>
      </div>
      {loading ? (
        <div className="flex flex-1 items-center justify-center" role="status" aria-label="Loading comments">
          <div className="h-7 w-7 animate-spin rounded-full border-4 border-brand-100 border-t-brand-500" />
        </div>
      ) : (
        <div className="min-h-0 flex-1 overflow-auto p-2">
          {editor?.mode === 'thread' && (
            <div className="mb-2">
              <CommentEditor />
            </div>
          )}
          {shown.length === 0 && editor?.mode !== 'thread' && (
            <p className="px-1 py-4 text-center text-sm text-slate-500">
              {threads.length ? 'No comments match the filters' : 'No comments yet'}
            </p>
          )}
          <ul className="flex flex-col gap-2" aria-label="Threads">
            {shown.map((t) => (
              <CommentThread key={t.id} thread={t} />
            ))}
          </ul>
        </div>
      )}
    </aside>
  );
}
