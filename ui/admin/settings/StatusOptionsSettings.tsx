/**
 * Admin settings, object status options (application.md §2 "Settings tab" item 3, §4 "Status options
 * editing", §5 "Status option name"): the editable options, each with a name field (maxlength 20), a colour
 * picker and a delete button; 'Add object status'; Edit / 'Stop editing', disabled with the tooltip 'There are
 * validation errors' while the form is invalid; the confirm dialogs when objects use the option. State and
 * server calls live in ui/stores/statusOptions.ts.
 */
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { useEffect, useRef } from 'react';
import { useSnapshot } from 'valtio';
import { STATUS_NAME_MAX_LENGTH } from '../../../api/contract';
import {
  addStatusOptionDraft,
  cancelPending,
  commitColor,
  commitName,
  confirmPending,
  type EditedOption,
  hasValidationErrors,
  loadStatusOptionsEditor,
  nameError,
  removeOption,
  setOptionColor,
  setOptionName,
  statusOptionsStore,
  toggleStatusEditing,
} from '../../stores/statusOptions';

/** Titles, buttons and texts of the confirm dialogs (application.md §4 "Status options editing"). */
const CONFIRM = {
  rename: {
    title: 'Change status name',
    button: 'Change name',
    text: 'The status and the objects with it get the new label.',
  },
  color: { title: 'Change status color', button: 'Change color', text: 'The objects with the status change colour.' },
  delete: {
    title: 'Delete status option',
    button: 'Delete option',
    text: 'Objects with it lose the status and are marked as having an invalid status.',
  },
} as const;

function ColorInput({ option, disabled }: { option: EditedOption; disabled: boolean }) {
  const ref = useRef<HTMLInputElement>(null);
  // React's onChange fires on every move of the picker; the option is sent once the native 'change' fires.
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const commit = () => void commitColor(option.key);
    el.addEventListener('change', commit);
    return () => el.removeEventListener('change', commit);
  }, [option.key]);
  return (
    <input
      ref={ref}
      type="color"
      aria-label={`Color of ${option.savedName || option.name}`}
      className="h-8 w-10 cursor-pointer rounded border border-slate-300 bg-white p-0.5 disabled:cursor-default"
      value={option.color}
      disabled={disabled}
      onChange={(e) => setOptionColor(option.key, e.target.value)}
    />
  );
}

export function StatusOptionsSettings() {
  const s = useSnapshot(statusOptionsStore);
  useEffect(() => {
    void loadStatusOptionsEditor().catch(() => undefined);
  }, []);
  const invalid = hasValidationErrors();
  const pending = s.confirm ? s.options.find((o) => o.key === s.confirm?.key) : undefined;

  return (
    <section className="panel p-6" aria-labelledby="status-options-title" data-testid="status-options">
      <div className="mb-4 flex items-center justify-between">
        <h2 id="status-options-title" className="text-base font-semibold text-ink">
          Object status options
        </h2>
        <span title={invalid ? 'There are validation errors' : undefined}>
          <button type="button" className="btn-secondary" disabled={invalid} onClick={toggleStatusEditing}>
            {s.editing ? 'Stop editing' : 'Edit'}
          </button>
        </span>
      </div>
      {!s.loaded ? (
        <p className="text-sm text-slate-500">Loading…</p>
      ) : (
        <ul className="space-y-2">
          {s.options.map((o) => {
            const err = s.editing ? nameError(o.key) : null;
            return (
              <li key={o.key} data-status-option={o.savedName || o.name} className="flex items-start gap-3">
                <ColorInput option={o} disabled={!s.editing} />
                <div className="flex-1">
                  {s.editing ? (
                    <input
                      type="text"
                      aria-label="Status name"
                      maxLength={STATUS_NAME_MAX_LENGTH}
                      className="field-input w-full"
                      value={o.name}
                      aria-invalid={err !== null}
                      onChange={(e) => setOptionName(o.key, e.target.value)}
                      onBlur={() => void commitName(o.key)}
                      onKeyDown={(e) => {
                        if (e.key === 'Enter') void commitName(o.key);
                      }}
                    />
                  ) : (
                    <span className="block py-1.5 text-sm text-slate-800">{o.name}</span>
                  )}
                  {err && <p className="mt-1 text-xs text-rose-600">{err}</p>}
                </div>
                {s.editing && (
                  <button
                    type="button"
                    className="btn-ghost text-rose-600"
                    aria-label={`Delete ${o.savedName || o.name}`}
                    onClick={() => void removeOption(o.key)}
                  >
                    Delete
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {s.editing && (
        <button type="button" className="btn-secondary mt-4" onClick={() => void addStatusOptionDraft()}>
          Add object status
        </button>
      )}
      <Dialog open={s.confirm !== null} onClose={cancelPending} className="relative z-40">
        <div className="fixed inset-0 bg-slate-900/20" aria-hidden="true" />
        <div className="fixed inset-0 flex items-center justify-center p-4">
          <DialogPanel data-testid="status-confirm-dialog" className="panel w-full max-w-sm p-5">
            {s.confirm && (
              <>
                <DialogTitle className="mb-2 text-base font-semibold text-ink">
                  {CONFIRM[s.confirm.kind].title}
                </DialogTitle>
                <p className="mb-4 text-sm text-slate-700">
                  {s.confirm.count} {s.confirm.count === 1 ? 'object has' : 'objects have'} the status "
                  {pending?.savedName}". {CONFIRM[s.confirm.kind].text}
                </p>
                <div className="flex justify-end gap-2">
                  <button type="button" className="btn-secondary" onClick={cancelPending}>
                    Cancel
                  </button>
                  <button type="button" className="btn-primary" onClick={() => void confirmPending()}>
                    {CONFIRM[s.confirm.kind].button}
                  </button>
                </div>
              </>
            )}
          </DialogPanel>
        </div>
      </Dialog>
    </section>
  );
}
