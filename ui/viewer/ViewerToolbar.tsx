/**
 * Viewer toolbars (viewer.md §2 "Viewer screen layout"): top left the selection mode selector (Structural
 * Details / Main Objects); top right 'Fit to window' and the model tree toggle.
 */
import { useId } from 'react';
import { useSnapshot } from 'valtio';
import type { SelectionMode } from '../../engine/EngineApi';
import { getEngine, viewerStore } from '../stores/viewer';

const MODES: Array<{ value: SelectionMode; label: string }> = [
  { value: 'structural-details', label: 'Structural Details' },
  { value: 'main-objects', label: 'Main Objects' },
];

export function ViewerToolbar() {
  const { selectionMode, showTree, phase } = useSnapshot(viewerStore);
  const id = useId();
  const engineReady = phase === 'loading' || phase === 'ready';
  return (
    <>
      <div className="panel absolute top-3 left-3 z-10 flex items-center gap-2 px-3 py-1.5">
        <label htmlFor={id} className="text-xs font-medium text-slate-500">
          Selection mode
        </label>
        <select
          id={id}
          className="rounded border border-slate-300 bg-white px-2 py-1 text-sm"
          value={selectionMode}
          onChange={(e) => {
            const mode = e.target.value as SelectionMode;
            viewerStore.selectionMode = mode;
            void getEngine()?.api.setSelectionMode(mode);
          }}
        >
          {MODES.map((m) => (
            <option key={m.value} value={m.value}>
              {m.label}
            </option>
          ))}
        </select>
      </div>
      <div className="panel absolute top-3 right-3 z-10 flex items-center gap-1 p-1">
        <button type="button" className="btn-ghost" disabled={!engineReady} onClick={() => void getEngine()?.api.fitToWindow()} title="Fit to window">
          <svg viewBox="0 0 20 20" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden="true">
            <path d="M3 7V3h4M17 7V3h-4M3 13v4h4M17 13v4h-4" />
          </svg>
          Fit to window
        </button>
        <button
          type="button"
          className={`btn-ghost ${showTree ? 'bg-brand-50 text-brand-700' : ''}`}
          aria-pressed={showTree}
          onClick={() => (viewerStore.showTree = !showTree)}
          title="Model tree"
        >
          <svg viewBox="0 0 20 20" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden="true">
            <path d="M4 4h5M7 4v12M7 10h6M7 16h6" />
          </svg>
          Model tree
        </button>
      </div>
    </>
  );
}
