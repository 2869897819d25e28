/**
 * A comment card (viewer.md §2 "Comment card"): author (description or user name), 'rev. N' with
 * '(latest)', the timestamp with its tooltip, the attachment count, the marker icon (tooltip: location to
 * 3 decimals), the state button, 'To: assignees', label chips (hue from the label's hash, saturation 100 %,
 * lightness 87 %), the message (a preview while collapsed) and '+N replies'; the pencil and the delete
 * button for whoever may edit; 'changed in rev. N' when an object the thread refers to changed or vanished
 * in a later revision (api/routes/compare.ts comment-changes).
 */
import { useSnapshot } from 'valtio';
import type { Comment } from '../../api/contract';
import { mayChangeState, mayEdit } from '../logic/commentsRules';
import { assigneesLine, authorName, labelColour, markerText, repliesText, revisionLabel } from '../logic/commentsText';
import { hasPermission, authStore } from '../stores/auth';
import { askDelete, commentsStore, startEdit } from '../stores/comments';
import { AttachmentList } from './Attachments';
import { StateMenu } from './StateMenu';
import { Timestamp } from './Timestamp';
import { StrokeIcon } from '../components/StrokeIcon';

/** The signed-in user for the rules (e-mail and 'admin:view'). */
export function useRuleUser() {
  const { user } = useSnapshot(authStore);
  return user ? { email: user.email, adminView: hasPermission('admin:view') } : null;
}

export function LabelChips({ labels }: { labels: readonly string[] }) {
  if (!labels.length) return null;
  return (
    <span className="flex flex-wrap gap-1">
      {labels.map((l) => (
        <span
          key={l}
          className="rounded-full px-2 py-0.5 text-[11px] text-slate-800"
          style={{ backgroundColor: labelColour(l) }}
          data-testid="label-chip"
        >
          {l}
        </span>
      ))}
    </span>
  );
}

const ICON = 'inline-flex items-center gap-0.5 text-[11px] text-slate-500';

export function CommentCard({ c, expanded }: { c: Comment; expanded: boolean }) {
  const { revisions, activeThreadId, editor, changedIn } = useSnapshot(commentsStore);
  const user = useRuleUser();
  const isThread = c.type === 'Thread';
  const canEdit = mayEdit(c, user) && !editor;
  const replies = c.replies.filter((r) => r.type === 'Reply').length;
  if (c.type === 'StateChangeMessage')
    return (
      <p className="px-1 py-1 text-[11px] text-slate-500 italic" data-testid="state-change-message">
        {authorName(c.author)}: {c.message}
      </p>
    );
  return (
    <div className="flex flex-col gap-1" data-testid={isThread ? 'thread-card' : 'reply-card'}>
      <div className="flex items-baseline gap-2">
        <span className="truncate text-sm font-semibold text-ink" data-testid="comment-author">
          {authorName(c.author)}
        </span>
        <span className="flex-1" />
        <Timestamp created={c.timeStamp} updated={c.lastModificationTime} />
      </div>
      <div className="flex items-center gap-2">
        <span className="shrink-0 text-[11px] text-slate-500" data-testid="comment-revision">
          {revisionLabel(c.projectRevisionNumber, revisions)}
        </span>
        {isThread && changedIn[c.id] !== undefined && (
          <span
            className="shrink-0 rounded bg-amber-100 px-1 text-[11px] text-amber-800"
            title="An object this thread refers to changed or was removed in a later revision"
            data-testid="comment-changed"
          >
            changed in rev. {changedIn[c.id]}
          </span>
        )}
        {c.attachments.length > 0 && (
          <span className={ICON} title="Attachments" data-testid="attachment-count">
            <StrokeIcon className="h-3.5 w-3.5">
              <path d="M14 7l-6 6a2 2 0 01-3-3l7-7a3.5 3.5 0 015 5l-7 7" />
            </StrokeIcon>
            {c.attachments.length}
          </span>
        )}
        {c.markerLocation && (
          <span
            role="img"
            className={ICON}
            title={markerText(c.markerLocation)}
            data-testid="marker-icon"
            aria-label={`Marker at ${markerText(c.markerLocation)}`}
          >
            <svg viewBox="0 0 20 20" className="h-3.5 w-3.5" fill="currentColor" aria-hidden="true">
              <path d="M10 2a6 6 0 00-6 6c0 4.5 6 10 6 10s6-5.5 6-10a6 6 0 00-6-6zm0 8.5A2.5 2.5 0 1110 5a2.5 2.5 0 010 5.5z" />
            </svg>
          </span>
        )}
        {isThread && (
          <StateMenu threadId={c.id} state={c.state} enabled={mayChangeState(c, user, activeThreadId === c.id)} />
        )}
        <span className="flex-1" />
        {canEdit && expanded && (
          <>
            <button
              type="button"
              className="rounded p-0.5 text-slate-500 hover:bg-slate-100 hover:text-ink"
              title="Edit"
              aria-label={isThread ? 'Edit thread' : 'Edit reply'}
              onClick={(e) => {
                e.stopPropagation();
                startEdit(c);
              }}
            >
              <StrokeIcon className="h-3.5 w-3.5">
                <path d="M13 3l4 4-9 9H4v-4l9-9z" />
              </StrokeIcon>
            </button>
            <button
              type="button"
              className="rounded p-0.5 text-slate-500 hover:bg-rose-50 hover:text-rose-700"
              title="Delete"
              aria-label={isThread ? 'Delete thread' : 'Delete reply'}
              onClick={(e) => {
                e.stopPropagation();
                askDelete(c);
              }}
            >
              <StrokeIcon className="h-3.5 w-3.5">
                <path d="M4 6h12M8 6V4h4v2M6 6l1 11h6l1-11" />
              </StrokeIcon>
            </button>
          </>
        )}
      </div>
      {isThread && c.assignees.length > 0 && (
        <p className="text-[11px] text-slate-600" data-testid="comment-assignees">
          {assigneesLine(c.assignees)}
        </p>
      )}
      <LabelChips labels={c.labels} />
      <p
        className={`text-sm whitespace-pre-wrap text-slate-800 ${expanded ? '' : 'line-clamp-2'}`}
        data-testid="comment-message"
      >
        {c.message}
      </p>
      {expanded && <AttachmentList attachments={c.attachments} />}
      {isThread && !expanded && replies > 0 && (
        <p className="text-[11px] font-medium text-brand-600" data-testid="comment-replies">
          {repliesText(replies)}
        </p>
      )}
    </div>
  );
}
