/**
 * The '2D section' dialog (viewer.md §2 "Create section dialog", §5 "Section coordinate"): axis select
 * X / Y / Z, a coordinate field in the frame syntax upper-cased as typed with the spec's error text under it,
 * Create (enabled only when the input is non-empty and valid; Enter submits) and Cancel. Create adds the
 * section node and draws it (ui/stores/sections.ts).
 */
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { useId, useState, type FormEvent } from 'react';
import { useSnapshot } from 'valtio';
import type { SectionAxis } from '../../engine/EngineApi';
import { canCreateSection, validateFrameExpression } from '../../engine/reference/frameSyntax';
import { createSectionFromDialog } from '../stores/sections';
import { closeSectionDialog, toolsStore } from '../stores/tools';

const AXES: SectionAxis[] = ['X', 'Y', 'Z'];

export function SectionDialog() {
  const { sectionDialogOpen } = useSnapshot(toolsStore);
  const axisId = useId();
  const coordId = useId();
  const [axis, setAxis] = useState<SectionAxis>('X');
  const [text, setText] = useState('');
  const error = validateFrameExpression(text);
  const valid = canCreateSection(text);

  const close = () => {
    closeSectionDialog();
    setText('');
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!valid) return;
    const location = text.trim();
    close();
    void createSectionFromDialog(axis, location);
  };

  return (
    <Dialog open={sectionDialogOpen} onClose={close} className="relative z-40">
      <div className="fixed inset-0 bg-slate-900/20" aria-hidden="true" />
      <div className="fixed inset-0 flex items-start justify-center p-4 pt-24">
        <DialogPanel data-testid="section-dialog" className="panel w-full max-w-sm p-5">
          <DialogTitle className="mb-4 text-base font-semibold text-ink">2D section</DialogTitle>
          <form className="space-y-4" onSubmit={submit} noValidate>
            <div className="space-y-1">
              <label htmlFor={axisId} className="block text-sm font-medium text-slate-700">
                Axis
              </label>
              <select
                id={axisId}
                className="field-input"
                value={axis}
                onChange={(e) => setAxis(e.target.value as SectionAxis)}
              >
                {AXES.map((a) => (
                  <option key={a} value={a}>
                    {a}
                  </option>
                ))}
              </select>
            </div>
            <div className="space-y-1">
              <label htmlFor={coordId} className="block text-sm font-medium text-slate-700">
                Coordinate
              </label>
              <input
                id={coordId}
                autoFocus
                autoComplete="off"
                spellCheck={false}
                placeholder="#10 or 12.6 or #10+0.1"
                className={`field-input font-mono ${error ? 'border-rose-400 focus:border-rose-500 focus:ring-rose-100' : ''}`}
                value={text}
                onChange={(e) => setText(e.target.value.toUpperCase())}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${coordId}-error` : undefined}
              />
              {error && (
                <p
                  id={`${coordId}-error`}
                  role="alert"
                  data-testid="section-error"
                  className="text-xs whitespace-pre-line text-rose-600"
                >
                  {error}
                </p>
              )}
            </div>
            <div className="flex justify-end gap-2">
              <button type="button" className="btn-secondary" onClick={close}>
                Cancel
              </button>
              <button type="submit" className="btn-primary" disabled={!valid}>
                Create
              </button>
            </div>
          </form>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
