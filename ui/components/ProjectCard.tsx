/**
 * A project card of the start view (application.md §2): 160×120 thumbnail from the newest revision's
 * base64 png, project name, revision information newest first; a converting project shows its progress
 * percentage and message with Cancel (for the user who started it, also while the file is still uploading)
 * or, after failure or cancellation, Remove (for its starter and administrators: others may not remove it).
 * With admin:view (`canDelete`) each revision of a project with more than one offers a delete icon, and
 * the project a delete action (application.md §2 "Start view"; the caller asks for confirmation).
 */
import type { HTMLAttributes } from 'react';
import { ConversionStatus, type Model } from '../../api/contract';
import { formatDate, sortRevisionsNewestFirst, thumbnailSrc } from '../logic/format';
import type { ConversionState } from '../logic/progress';

export interface ProjectCardProps {
  name: string;
  model: Model | null;
  conversion: ConversionState | null;
  currentUserEmail: string;
  onOpen: (name: string) => void;
  onCancel: (name: string) => void;
  onRemove: (name: string) => void;
  /** admin:view: revisions (when more than one) and the project can be deleted. */
  canDelete?: boolean;
  onDeleteRevision?: (name: string, revision: number) => void;
  onDeleteProject?: (name: string) => void;
}

export function ProjectCard({
  name,
  model,
  conversion,
  currentUserEmail,
  onOpen,
  onCancel,
  onRemove,
  canDelete = false,
  onDeleteRevision,
  onDeleteProject,
}: ProjectCardProps) {
  const revisions = model ? sortRevisionsNewestFirst(model.revisions) : [];
  const src = thumbnailSrc(revisions[0]?.image);
  const openable = revisions.length > 0;
  const failed =
    conversion && (conversion.status === ConversionStatus.Error || conversion.status === ConversionStatus.Canceled);
  const running = conversion && !failed;
  const mine = conversion?.startedBy ? conversion.startedBy.toLowerCase() === currentUserEmail.toLowerCase() : true;
  // The server lets the starter and admin:view remove a failed card; nobody else is offered Remove.
  const mayRemove = mine || canDelete;
  const revisionsDeletable = canDelete && revisions.length > 1 && !running;
  const percent = conversion ? Math.floor(conversion.percent) : 0;

  // An openable card acts as a link (Enter and Space open it; the card holds its own buttons, which an <a>
  // may not contain). One that cannot open yet is a plain box, not a disabled link: aria-disabled would
  // disable its Cancel and Remove for assistive technology too (it applies to the descendants).
  const linkProps: HTMLAttributes<HTMLDivElement> = openable
    ? {
        role: 'link',
        tabIndex: 0,
        'aria-label': `Open ${name}`,
        // The conversion progress (with its own buttons) does not open the project.
        onClick: (e) => !(e.target as HTMLElement).closest('[data-no-open]') && onOpen(name),
        onKeyDown: (e) => e.target === e.currentTarget && (e.key === 'Enter' || e.key === ' ') && onOpen(name),
      }
    : {};
  return (
    <div
      data-testid={`project-card-${name}`}
      className={`panel flex w-[26rem] gap-3 p-3 transition-shadow ${openable ? 'cursor-pointer hover:shadow-lg hover:ring-2 hover:ring-brand-100' : ''}`}
      {...linkProps}
    >
      <div className="flex h-[120px] w-[160px] shrink-0 items-center justify-center overflow-hidden rounded bg-slate-100">
        {src ? (
          <img
            src={src}
            width={160}
            height={120}
            alt={`${name} thumbnail`}
            className="h-[120px] w-[160px] object-cover"
          />
        ) : (
          <svg viewBox="0 0 64 48" className="h-12 w-16 text-slate-300" fill="currentColor" aria-hidden="true">
            <path d="M4 30h56l-8 14H12L4 30Zm26-26h4v24h-4V4Zm4 4 14 16H34V8Z" />
          </svg>
        )}
      </div>
      <div className="flex min-w-0 flex-1 flex-col">
        <div className="flex items-start gap-2">
          <h3 className="min-w-0 flex-1 truncate text-sm font-semibold text-ink" title={name}>
            {name}
          </h3>
          {canDelete && openable && !running && onDeleteProject && (
            <button
              type="button"
              data-no-open
              aria-label={`Delete project ${name}`}
              title="Delete project"
              className="rounded px-1 text-xs text-slate-400 hover:bg-rose-50 hover:text-rose-700"
              onClick={() => onDeleteProject(name)}
            >
              Delete
            </button>
          )}
        </div>
        {revisions.length > 0 && (
          <ul className="mt-1 max-h-24 space-y-1 overflow-auto text-xs text-slate-500">
            {revisions.map((r) => (
              <li key={r.revisionInfo.revisionNumber} title={r.revisionInfo.description}>
                <span className="font-medium text-slate-700">Rev. {r.revisionInfo.revisionNumber}</span>{' '}
                <span className="whitespace-nowrap">{formatDate(r.revisionInfo.lastUpdatedDate)}</span>
                {revisionsDeletable && onDeleteRevision && (
                  <button
                    type="button"
                    data-no-open
                    aria-label={`Delete revision ${r.revisionInfo.revisionNumber}`}
                    title="Delete revision"
                    className="ml-1 rounded px-1 text-slate-400 hover:bg-rose-50 hover:text-rose-700"
                    onClick={() => onDeleteRevision(name, r.revisionInfo.revisionNumber)}
                  >
                    ×
                  </button>
                )}
                {r.revisionInfo.description && (
                  <div className="truncate text-slate-400">{r.revisionInfo.description}</div>
                )}
              </li>
            ))}
          </ul>
        )}
        {conversion && (
          <div data-testid={`progress-${name}`} data-no-open className="mt-auto pt-2">
            <div className="flex items-center justify-between text-xs">
              <span className={`truncate ${failed ? 'text-rose-600' : 'text-slate-600'}`} title={conversion.message}>
                {failed
                  ? conversion.status === ConversionStatus.Error
                    ? 'Failed'
                    : 'Canceled'
                  : conversion.message || 'Converting'}
              </span>
              {running && <span className="font-mono font-semibold text-brand-700">{percent} %</span>}
            </div>
            {running && (
              <div
                className="mt-1 h-1.5 overflow-hidden rounded bg-slate-200"
                role="progressbar"
                aria-valuenow={percent}
                aria-valuemin={0}
                aria-valuemax={100}
              >
                <div className="h-full bg-brand-500 transition-[width]" style={{ width: `${percent}%` }} />
              </div>
            )}
            {failed && conversion.message && (
              <p className="mt-1 line-clamp-2 text-xs text-slate-500">{conversion.message}</p>
            )}
            <div className="mt-2 flex justify-end">
              {failed
                ? mayRemove && (
                    <button type="button" className="btn-secondary px-2 py-0.5 text-xs" onClick={() => onRemove(name)}>
                      Remove
                    </button>
                  )
                : mine && (
                    <button type="button" className="btn-secondary px-2 py-0.5 text-xs" onClick={() => onCancel(name)}>
                      Cancel
                    </button>
                  )}
            </div>
          </div>
        )}
      </div>
    </div>
  );
}
