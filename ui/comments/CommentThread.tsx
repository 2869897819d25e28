/**
 * One expandable thread (viewer.md §2): collapsed, the thread's card with a message preview and '+N
 * replies'; expanded (the active thread), the card, its replies, an 'Add a reply' button and the reply
 * input. A thread scrolls into view when activated or updated.
 */
import { useEffect, useRef } from 'react';
import { useSnapshot } from 'valtio';
import type { Comment } from '../../api/contract';
import { commentsStore, startReply, toggleThread } from '../stores/comments';
import { CommentCard } from './CommentCard';
import { CommentEditor } from './CommentEditor';

export function CommentThread({ thread }: { thread: Comment }) {
  const { expanded, activeThreadId, editor, scrollRequest } = useSnapshot(commentsStore);
  const open = expanded.includes(thread.id);
  const active = activeThreadId === thread.id;
  const ref = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (scrollRequest.id === thread.id && scrollRequest.seq > 0)
      ref.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [scrollRequest, thread.id]);
  const editing = editor?.threadId === thread.id && (editor.mode !== 'edit' || editor.commentId === thread.id);
  const replyEditing = (id: string) => editor?.mode === 'edit' && editor.commentId === id;
  return (
    <li
      ref={ref}
      data-testid="comment-thread"
      data-thread-id={thread.id}
      data-active={active}
      className={`rounded-lg border bg-white ${active ? 'border-brand-500 shadow-sm' : 'border-slate-200'}`}
    >
      {editing && editor?.mode === 'edit' ? (
        <div className="p-2">
          <CommentEditor />
        </div>
      ) : (
        // A click anywhere on the card toggles it for the mouse; the chevron button does it for the keyboard
        // (the card holds buttons, so it cannot itself be one).
        // biome-ignore lint/a11y/noStaticElementInteractions: the chevron button is the keyboard path
        // biome-ignore lint/a11y/useKeyWithClickEvents: the chevron button is the keyboard path
        <div
          className="relative cursor-pointer p-2 pl-7"
          onClick={(e) => {
            // Buttons and menus inside the card (the state menu renders in a portal, whose React events
            // still bubble here) act on their own.
            const t = e.target as HTMLElement;
            if (t.closest('button, [role="menu"], [role="tooltip"]')) return;
            toggleThread(thread.id);
          }}
        >
          <button
            type="button"
            aria-expanded={open}
            aria-label={open ? 'Collapse thread' : 'Expand thread'}
            className="absolute top-2 left-1.5 rounded px-1 text-xs text-slate-500 hover:bg-slate-100 hover:text-ink"
            onClick={() => toggleThread(thread.id)}
          >
            {open ? '▾' : '▸'}
          </button>
          <CommentCard c={thread} expanded={open} />
        </div>
      )}
      {open && (
        <div className="border-t border-slate-100 px-2 pt-1 pb-2">
          <ul className="flex flex-col gap-1 border-l-2 border-slate-100 pl-2" aria-label="Replies">
            {thread.replies.map((r) => (
              <li key={r.id} className="py-1">
                {replyEditing(r.id) ? <CommentEditor /> : <CommentCard c={r} expanded />}
              </li>
            ))}
          </ul>
          {editor?.mode === 'reply' && editor.threadId === thread.id ? (
            <div className="mt-2">
              <CommentEditor />
            </div>
          ) : (
            <button
              type="button"
              className="btn-ghost mt-1 px-2 py-1 text-xs text-brand-700"
              disabled={editor !== null}
              onClick={() => startReply(thread.id)}
            >
              Add a reply
            </button>
          )}
        </div>
      )}
    </li>
  );
}
