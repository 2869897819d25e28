/**
 * A comment's timestamp (viewer.md §2 "Timestamp tooltip"): the time as 'ddd DD MMMM YYYY H:mm'; hovering
 * or focusing it for 300 ms opens a tooltip with the Created and Updated times and their relative time.
 */
import { useEffect, useRef, useState } from 'react';
import { formatCommentTime, relativeTime, TIMESTAMP_TOOLTIP_DELAY_MS } from '../logic/commentsText';

export function Timestamp({ created, updated }: { created: string; updated: string }) {
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const show = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setOpen(true), TIMESTAMP_TOOLTIP_DELAY_MS);
  };
  const hide = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    setOpen(false);
  };
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const now = Date.now();
  return (
    <button
      type="button"
      className="relative shrink-0 cursor-default text-[11px] text-slate-500"
      onMouseEnter={show}
      onMouseLeave={hide}
      onFocus={show}
      onBlur={hide}
      onClick={(e) => e.stopPropagation()}
      data-testid="comment-timestamp"
    >
      {formatCommentTime(updated || created)}
      {open && (
        <span
          role="tooltip"
          className="absolute top-5 right-0 z-30 w-max rounded-md bg-ink px-2.5 py-1.5 text-left text-xs whitespace-nowrap text-white shadow-lg"
        >
          <span className="block">
            Created: {formatCommentTime(created)} ({relativeTime(created, now)})
          </span>
          <span className="block">
            Updated: {formatCommentTime(updated || created)} ({relativeTime(updated || created, now)})
          </span>
        </span>
      )}
    </button>
  );
}
