/**
 * Viewer toolbars (viewer.md §2 "Viewer screen layout"): top left the selection mode selector (Structural
 * Details / Main Objects); top right 'Fit to window' and the model tree toggle; bottom left the walk mode
 * toggle (viewer.md §2 "Toolbar toggles"). Every button runs a registered command (ui/viewer/commands.ts).
 */
import { useId } from 'react';
import { useSnapshot } from 'valtio';
import type { SelectionMode } from '../../engine/EngineApi';
import { viewerStore } from '../stores/viewer';
import { featuresStore } from '../stores/viewerFeatures';
import { getCommand, type CommandState } from './commands';
import { runCommand, snapshotCommandState } from './runCommand';

const MODES: SelectionMode[] = ['structural-details', 'main-objects'];

function useCommandState(): CommandState {
  const viewer = useSnapshot(viewerStore);
  const features = useSnapshot(featuresStore);
  return snapshotCommandState(viewer as CommandState['viewer'], features as CommandState['features']);
}

/** Tooltip of a command: its name and shortcut. */
function title(id: string): string {
  const c = getCommand(id);
  return c.shortcut ? `${c.name} (${c.shortcut})` : c.name;
}

export function ViewerToolbar() {
  const state = useCommandState();
  const { selectionMode, showTree, walkMode } = state.viewer as typeof viewerStore;
  const id = useId();
  const fit = getCommand('fit-to-window');
  const walk = getCommand('walk-mode');
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
          onChange={(e) => void runCommand(`selection-mode-${e.target.value}`)}
        >
          {MODES.map((m) => (
            <option key={m} value={m}>
              {getCommand(`selection-mode-${m}`).name}
            </option>
          ))}
        </select>
      </div>
      <div className="panel absolute top-3 right-3 z-10 flex items-center gap-1 p-1">
        <button type="button" className="btn-ghost" disabled={!fit.enabled(state)} onClick={() => void runCommand(fit.id)} title={title(fit.id)}>
          <svg viewBox="0 0 20 20" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden="true">
            <path d="M3 7V3h4M17 7V3h-4M3 13v4h4M17 13v4h-4" />
          </svg>
          {fit.name}
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
      <div className="panel absolute bottom-3 left-3 z-10 flex items-center gap-1 p-1">
        <button
          type="button"
          className={`btn-ghost ${walkMode ? 'bg-brand-50 text-brand-700' : ''}`}
          aria-pressed={walkMode}
          disabled={!walk.enabled(state)}
          onClick={() => void runCommand(walk.id)}
          title={walkMode ? 'Walk mode: w/s/a/d with the left button, x/c/q/e with the right button' : title(walk.id)}
        >
          <svg viewBox="0 0 20 20" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden="true">
            <circle cx="11" cy="3.5" r="1.5" />
            <path d="M10 7l-3 3 2 2M10 7l2 4 3 1M9 12l-2 5M12 11l1 6" />
          </svg>
          {walk.name}
        </button>
      </div>
    </>
  );
}
