/**
 * The labels combobox of the comment editor (viewer.md §5): free text with a case-insensitive substring
 * match against the labels in use; Tab or Enter creates the typed label; with no match the list says
 * 'No labels found matching "{text}". Press Tab or Enter to create new.' Chosen labels show as chips.
 */
import { useId, useState } from 'react';
import { addLabel, labelColour, matchLabels, MAX_LABEL_LENGTH, noLabelsText } from '../logic/commentsText';

export function LabelsCombobox({
  value,
  known,
  onChange,
}: {
  value: readonly string[];
  known: readonly string[];
  onChange: (labels: string[]) => void;
}) {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const listId = useId();
  const options = matchLabels(
    known.filter((k) => !value.some((v) => v.toLowerCase() === k.toLowerCase())),
    text,
  );
  const choose = (label: string) => {
    onChange(addLabel(value, known, label));
    setText('');
  };
  return (
    <div className="relative">
      <div className="flex flex-wrap items-center gap-1 rounded-md border border-slate-300 bg-white px-1.5 py-1 focus-within:border-brand-500">
        {value.map((l) => (
          <span
            key={l}
            className="flex items-center gap-1 rounded-full px-2 py-0.5 text-[11px] text-slate-800"
            style={{ backgroundColor: labelColour(l) }}
          >
            {l}
            <button
              type="button"
              aria-label={`Remove label ${l}`}
              className="text-slate-600 hover:text-ink"
              onClick={() => onChange(value.filter((x) => x !== l))}
            >
              ×
            </button>
          </span>
        ))}
        <input
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          aria-label="Labels"
          placeholder="Labels"
          maxLength={MAX_LABEL_LENGTH}
          className="min-w-20 flex-1 px-1 py-0.5 text-sm outline-none"
          value={text}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
          }}
          onKeyDown={(e) => {
            if ((e.key === 'Enter' || e.key === 'Tab') && text.trim()) {
              e.preventDefault();
              choose(text);
            } else if (e.key === 'Backspace' && !text && value.length) onChange(value.slice(0, -1));
            else if (e.key === 'Escape') setOpen(false);
          }}
        />
      </div>
      {open && (text.trim() !== '' || options.length > 0) && (
        <div
          id={listId}
          role="listbox"
          className="panel absolute top-full right-0 left-0 z-30 mt-1 max-h-40 overflow-auto p-1 text-sm"
        >
          {options.length === 0 ? (
            <p className="px-2 py-1 text-xs text-slate-500" data-testid="labels-no-match">
              {noLabelsText(text)}
            </p>
          ) : (
            options.map((o) => (
              <div
                key={o}
                role="option"
                tabIndex={-1}
                aria-selected={false}
                className="w-full cursor-pointer rounded px-2 py-1 text-left hover:bg-slate-100"
                onMouseDown={(e) => {
                  e.preventDefault();
                  choose(o);
                }}
              >
                {o}
              </div>
            ))
          )}
        </div>
      )}
    </div>
  );
}
