/**
 * Viewer toolbars (viewer.md §2 "Viewer screen layout"): top left the selection mode selector (Structural
 * Details / Main Objects), the section tool ('2D section' dialog) and the measure toggle; top right 'Fit to
 * window', the model tree, comments and table-view toggles; bottom left the annotation and snap settings menus, the walk mode
 * toggle and the clipping toggle (viewer.md §2 "Toolbar toggles"). Every button runs a registered command
 * (ui/viewer/commands.ts).
 */
import { useId } from 'react';
import { useSnapshot } from 'valtio';
import type { SelectionMode } from '../../engine/EngineApi';
import { CommentsToggle } from '../comments/CommentsOverlay';
import { toolsStore } from '../stores/tools';
import { toggleTree, viewerStore } from '../stores/viewer';
import { featuresStore } from '../stores/viewerFeatures';
import { AnnotationSettingsMenu, SnapSettingsMenu } from './ToolMenus';
import { ComparisonMenu } from '../compare/ComparisonMenu';
import { ColouringMenu } from '../colouring/ColouringMenu';
import { getCommand, type CommandState } from './commands';
import { runCommand, snapshotCommandState } from './runCommand';
import { StrokeIcon } from '../components/StrokeIcon';
import { TableToggle } from '../tables/TablePanel';

const MODES: SelectionMode[] = ['structural-details', 'main-objects'];

function useCommandState(): CommandState {
  const viewer = useSnapshot(viewerStore);
  const features = useSnapshot(featuresStore);
  const tools = useSnapshot(toolsStore);
  return snapshotCommandState(
    viewer as CommandState['viewer'],
    features as CommandState['features'],
    tools as CommandState['tools'],
  );
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
  const measure = getCommand('measure');
  const section = getCommand('section-dialog');
  const clipping = getCommand('clipping');
  const measuring = state.tools.measureState !== 'off';
  const clipActive = state.tools.clip.active;
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
        <button
          type="button"
          className="btn-ghost"
          disabled={!section.enabled(state)}
          onClick={() => void runCommand(section.id)}
          title={section.name}
        >
          <StrokeIcon>
            <path d="M3 6l7-3 7 3-7 3-7-3ZM3 6v8l7 3 7-3V6M10 9v8" />
          </StrokeIcon>
          {section.name}
        </button>
        <button
          type="button"
          className={`btn-ghost ${measuring ? 'bg-brand-50 text-brand-700' : ''}`}
          aria-pressed={measuring}
          disabled={!measure.enabled(state)}
          onClick={() => void runCommand(measure.id)}
          title={measure.label(state)}
        >
          <StrokeIcon>
            <path d="M2 13l11-11 5 5L7 18l-5-5ZM5 10l2 2M8 7l2 2M11 4l2 2" />
          </StrokeIcon>
          {measure.name}
        </button>
      </div>
      <div className="panel absolute top-3 right-3 z-10 flex items-center gap-1 p-1">
        <button
          type="button"
          className="btn-ghost"
          disabled={!fit.enabled(state)}
          onClick={() => void runCommand(fit.id)}
          title={title(fit.id)}
        >
          <StrokeIcon>
            <path d="M3 7V3h4M17 7V3h-4M3 13v4h4M17 13v4h-4" />
          </StrokeIcon>
          {fit.name}
        </button>
        <button
          type="button"
          className={`btn-ghost ${showTree ? 'bg-brand-50 text-brand-700' : ''}`}
          aria-pressed={showTree}
          onClick={toggleTree}
          title="Model tree"
        >
          <StrokeIcon>
            <path d="M4 4h5M7 4v12M7 10h6M7 16h6" />
          </StrokeIcon>
          Model tree
        </button>
        <CommentsToggle />
        <TableToggle />
      </div>
      <div className="panel absolute bottom-3 left-3 z-10 flex items-center gap-1 p-1">
        <AnnotationSettingsMenu />
        <ColouringMenu />
        <SnapSettingsMenu />
        <ComparisonMenu />
        <button
          type="button"
          className={`btn-ghost ${walkMode ? 'bg-brand-50 text-brand-700' : ''}`}
          aria-pressed={walkMode}
          disabled={!walk.enabled(state)}
          onClick={() => void runCommand(walk.id)}
          title={walkMode ? 'Walk mode: w/s/a/d with the left button, x/c/q/e with the right button' : title(walk.id)}
        >
          <StrokeIcon>
            <circle cx="11" cy="3.5" r="1.5" />
            <path d="M10 7l-3 3 2 2M10 7l2 4 3 1M9 12l-2 5M12 11l1 6" />
          </StrokeIcon>
          {walk.name}
        </button>
        <button
          type="button"
          className={`btn-ghost ${clipActive ? 'bg-brand-50 text-brand-700' : ''}`}
          aria-pressed={clipActive}
          disabled={!clipping.enabled(state)}
          onClick={() => void runCommand(clipping.id)}
          title={clipping.name}
        >
          <StrokeIcon>
            <path d="M4 7l6-4 6 4v6l-6 4-6-4V7Z" strokeDasharray="2 2" />
            <path d="M2 11h16" />
          </StrokeIcon>
          {clipping.name}
        </button>
      </div>
    </>
  );
}
