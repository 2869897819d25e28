/**
 * The comment editor (viewer.md §2 "Comment editor", §4 "Editing", §5): assignees picker (threads only),
 * labels combobox, the message ('Write a comment...' / 'Write a reply...'), the draft's attachments, and
 * the buttons attach snapshot, upload file, add or remove 3D marker, delete (editing), Submit (only with a
 * message and a change, not while submitting) and Cancel (asks 'Discard comment?' / 'Discard
 * modification?' when something changed).
 */
import { useEffect, useMemo, useRef } from 'react';
import { useSnapshot } from 'valtio';
import type { Comment } from '../../api/contract';
import { fileSizeText, markerText } from '../logic/commentsText';
import { maySubmit } from '../logic/commentsRules';
import { labelsInUse } from '../logic/commentsView';
import {
  askDelete,
  attachFile,
  attachSnapshot,
  cancelEditor,
  commentsStore,
  removeDraftAttachment,
  removeDraftMarker,
  setDraftAssignees,
  setDraftLabels,
  setDraftMessage,
  startMarkerPlacement,
  submitEditor,
} from '../stores/comments';
import { AssigneesPicker } from './AssigneesPicker';
import { LabelsCombobox } from './LabelsCombobox';
import { StrokeIcon } from '../components/StrokeIcon';

const TOOL = 'rounded p-1.5 text-slate-600 hover:bg-slate-100 hover:text-ink disabled:opacity-40';

export function CommentEditor() {
  const { editor, threads, assigneeCandidates, placingMarker } = useSnapshot(commentsStore);
  const fileRef = useRef<HTMLInputElement>(null);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const known = useMemo(() => labelsInUse(threads), [threads]);
  useEffect(() => textRef.current?.focus(), []);
  if (!editor) return null;
  const fields = {
    message: editor.message,
    labels: editor.labels,
    assignees: editor.assignees,
    markerLocation: editor.markerLocation,
    attachmentKeys: editor.attachments.map((a) => a.key),
  };
  const canSubmit = maySubmit(fields, editor.original, editor.submitting) && editor.uploading === 0;
  const editedThread = editor.mode === 'edit' ? threads.find((t) => t.id === editor.threadId) : undefined;
  const edited =
    editor.mode === 'edit'
      ? editedThread?.id === editor.commentId
        ? editedThread
        : editedThread?.replies.find((r) => r.id === editor.commentId)
      : undefined;
  return (
    <form
      className="flex flex-col gap-2 rounded-md border border-brand-100 bg-brand-50/50 p-2"
      data-testid="comment-editor"
      onSubmit={(e) => {
        e.preventDefault();
        if (canSubmit) void submitEditor();
      }}
    >
      {editor.isThread && (
        <AssigneesPicker value={editor.assignees} candidates={assigneeCandidates} onChange={setDraftAssignees} />
      )}
      <LabelsCombobox value={editor.labels} known={known} onChange={setDraftLabels} />
      <textarea
        ref={textRef}
        aria-label="Message"
        className="field-input min-h-20 resize-y py-1.5"
        placeholder={
          editor.mode === 'reply' || (editor.mode === 'edit' && !editor.isThread)
            ? 'Write a reply...'
            : 'Write a comment...'
        }
        maxLength={20_000}
        value={editor.message}
        onChange={(e) => setDraftMessage(e.target.value)}
      />
      {editor.attachments.length > 0 && (
        <ul className="flex flex-wrap gap-2" aria-label="Draft attachments">
          {editor.attachments.map((a) => (
            <li
              key={a.key}
              className="flex items-center gap-1 rounded border border-slate-200 bg-white p-1 text-[11px]"
            >
              {a.previewUrl ? (
                <img src={a.previewUrl} alt={a.fileName} className="h-8 w-12 rounded object-cover" />
              ) : null}
              <span className="max-w-28 truncate">{a.fileName}</span>
              <span className="text-slate-400">{fileSizeText(a.fileSize)}</span>
              <button
                type="button"
                aria-label={`Remove attachment ${a.fileName}`}
                className="px-1 text-slate-500 hover:text-rose-700"
                onClick={() => removeDraftAttachment(a.key)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {editor.markerLocation && (
        <p className="text-[11px] text-slate-600" data-testid="draft-marker">
          Marker at {markerText(editor.markerLocation)}
        </p>
      )}
      <div className="flex items-center gap-0.5">
        <button
          type="button"
          className={TOOL}
          title="Attach snapshot"
          aria-label="Attach snapshot"
          onClick={() => void attachSnapshot()}
        >
          <StrokeIcon>
            <path d="M3 6h3l1.5-2h5L14 6h3v10H3z" />
            <circle cx="10" cy="11" r="3" />
          </StrokeIcon>
        </button>
        <button
          type="button"
          className={TOOL}
          title="Upload file"
          aria-label="Upload file"
          onClick={() => fileRef.current?.click()}
        >
          <StrokeIcon>
            <path d="M10 13V3M6 7l4-4 4 4M4 13v4h12v-4" />
          </StrokeIcon>
        </button>
        <input
          ref={fileRef}
          type="file"
          className="hidden"
          data-testid="comment-file-input"
          onChange={(e) => {
            const f = e.target.files?.[0];
            e.target.value = '';
            if (f) void attachFile(f);
          }}
        />
        {editor.markerLocation ? (
          <button
            type="button"
            className={TOOL}
            title="Remove 3D marker"
            aria-label="Remove 3D marker"
            onClick={removeDraftMarker}
          >
            <StrokeIcon>
              <path d="M10 18s5-5 5-9a5 5 0 00-10 0c0 4 5 9 5 9zM3 3l14 14" />
            </StrokeIcon>
          </button>
        ) : (
          <button
            type="button"
            className={TOOL}
            title="Add 3D marker"
            aria-label="Add 3D marker"
            disabled={placingMarker}
            onClick={startMarkerPlacement}
          >
            <StrokeIcon>
              <path d="M10 18s5-5 5-9a5 5 0 00-10 0c0 4 5 9 5 9z" />
              <circle cx="10" cy="9" r="2" />
            </StrokeIcon>
          </button>
        )}
        {edited && (
          <button
            type="button"
            className={TOOL}
            title="Delete"
            aria-label="Delete"
            onClick={() => askDelete(edited as Comment)}
          >
            <StrokeIcon>
              <path d="M4 6h12M8 6V4h4v2M6 6l1 11h6l1-11" />
            </StrokeIcon>
          </button>
        )}
        {editor.uploading > 0 && <span className="ml-1 text-[11px] text-slate-500">Attaching…</span>}
        <span className="flex-1" />
        <button type="button" className="btn-secondary px-2 py-1 text-xs" onClick={cancelEditor}>
          Cancel
        </button>
        <button type="submit" className="btn-primary px-2 py-1 text-xs" disabled={!canSubmit}>
          Submit
        </button>
      </div>
    </form>
  );
}
