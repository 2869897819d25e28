/**
 * The assignees picker of a thread's editor (viewer.md §2, §5): the candidates of
 * GET /api/keelson-instance/users/all shown as 'description (userName)', filtered by the typed text;
 * chosen assignees show as removable chips.
 */
import { useId, useState } from 'react';
import type { AssigneeCandidate, CommentUser } from '../../api/contract';
import { assigneeOption, authorName } from '../logic/commentsText';

export function AssigneesPicker({
  value,
  candidates,
  onChange,
}: {
  value: readonly CommentUser[];
  candidates: readonly AssigneeCandidate[];
  onChange: (list: CommentUser[]) => void;
}) {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const listId = useId();
  const q = text.trim().toLowerCase();
  const options = candidates.filter(
    (c) => !value.some((v) => v.userName === c.userName) && assigneeOption(c).toLowerCase().includes(q),
  );
  return (
    <div className="relative">
      <div className="flex flex-wrap items-center gap-1 rounded-md border border-slate-300 bg-white px-1.5 py-1 focus-within:border-brand-500">
        {value.map((a) => (
          <span key={a.userName} className="flex items-center gap-1 rounded bg-slate-100 px-1.5 py-0.5 text-[11px]">
            {authorName(a)}
            <button
              type="button"
              aria-label={`Remove assignee ${authorName(a)}`}
              className="text-slate-500 hover:text-ink"
              onClick={() => onChange(value.filter((x) => x.userName !== a.userName))}
            >
              ×
            </button>
          </span>
        ))}
        <input
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          aria-label="Assignees"
          placeholder="Assignees"
          maxLength={254}
          className="min-w-20 flex-1 px-1 py-0.5 text-sm outline-none"
          value={text}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
          }}
        />
      </div>
      {open && options.length > 0 && (
        <div
          id={listId}
          role="listbox"
          className="panel absolute top-full right-0 left-0 z-30 mt-1 max-h-40 overflow-auto p-1 text-sm"
        >
          {options.map((c) => (
            <div
              key={c.userName}
              role="option"
              tabIndex={-1}
              aria-selected={false}
              className="w-full cursor-pointer rounded px-2 py-1 text-left hover:bg-slate-100"
              onMouseDown={(e) => {
                e.preventDefault();
                onChange([...value, { userName: c.userName, description: c.description }]);
                setText('');
              }}
            >
              {assigneeOption(c)}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
