/**
 * A comment's attachments (viewer.md §3 "Attachment"): snapshots (type VIEW) as thumbnails that restore
 * their view in the viewer when clicked; files (type FILE) by name and size, downloaded when clicked.
 */
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { AttachmentType, type Attachment } from '../../api/contract';
import { fileSizeText } from '../logic/commentsText';
import { commentsStore, loadThumbnail, openAttachmentFile, restoreSnapshot } from '../stores/comments';

function Thumb({ a }: { a: Attachment }) {
  const { thumbnails } = useSnapshot(commentsStore);
  useEffect(() => {
    if (a.hasThumbnail) void loadThumbnail(a.fileId);
  }, [a.fileId, a.hasThumbnail]);
  const url = thumbnails[a.fileId];
  return url ? (
    <img src={url} alt={a.fileName} className="h-16 w-24 rounded border border-slate-200 object-cover" />
  ) : (
    <span className="flex h-16 w-24 items-center justify-center rounded border border-slate-200 bg-slate-50 text-[10px] text-slate-500">
      {a.type === AttachmentType.View ? 'Snapshot' : 'File'}
    </span>
  );
}

export function AttachmentList({ attachments }: { attachments: readonly Attachment[] }) {
  if (!attachments.length) return null;
  return (
    <ul className="mt-2 flex flex-wrap gap-2" aria-label="Attachments">
      {attachments.map((a) => (
        <li key={a.fileId}>
          <button
            type="button"
            className="flex flex-col items-start gap-0.5 rounded p-0.5 text-left hover:bg-brand-50"
            title={a.type === AttachmentType.View ? 'Restore this view' : `Open ${a.fileName}`}
            data-testid={a.type === AttachmentType.View ? 'snapshot-attachment' : 'file-attachment'}
            onClick={(e) => {
              e.stopPropagation();
              if (a.type === AttachmentType.View) void restoreSnapshot(a);
              else void openAttachmentFile(a);
            }}
          >
            <Thumb a={a} />
            <span className="max-w-24 truncate text-[10px] text-slate-600">{a.fileName}</span>
            <span className="text-[10px] text-slate-400">{fileSizeText(a.fileSize)}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
