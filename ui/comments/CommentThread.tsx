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
        // biome-ignore lint/a11y/useSemanticElements: the card holds buttons, so it cannot itself be a button
        <div
          role="button"
          tabIndex={0}
          aria-expanded={open}
          className="cursor-pointer p-2"
          onClick={(e) => {
            // Buttons and menus inside the card (the state menu renders in a portal, whose React events
            // still bubble here) act on their own.
            const t = e.target as HTMLElement;
            if (t !== e.currentTarget && t.closest('button, [role="menu"], [role="tooltip"]')) return;
            toggleThread(thread.id);
          }}
          onKeyDown={(e) => {
            if (e.target === e.currentTarget && (e.key === 'Enter' || e.key === ' ')) {
              e.preventDefault();
              toggleThread(thread.id);
            }
          }}
        >
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
