/**
 * Viewer commands as data (ARCHITECTURE.md house rule 6): every viewer action is registered once with its
 * id, name, shortcut, whether it records an undoable view action, when it is shown and enabled, and how it
 * runs. The toolbar, the keyboard (ui/viewer/useViewerKeys.ts) and the context menu (viewer.md §2) all call
 * `runCommand`, so the three share one path.
 *
 * Shortcuts of viewer.md §2: Ctrl+Alt+S toggles the scene-graph panel, Ctrl+Alt+R the rendering statistics.
 * Undo / Redo use the platform's usual Ctrl+Z / Ctrl+Y.
 */
import type { MeasureState, ProjectionAxis, SelectionMode, ViewInsets } from '../../engine/EngineApi';
import { measureViewInsets } from '../logic/viewInsets';
import { clipSectionEntries, type MenuSection } from '../stores/viewerFeatures';

type Async<T> = T | Promise<T>;

/** The engine methods commands call (the Comlink remote of EngineClient satisfies it). */
export interface CommandEngine {
  hideSelected(): Async<void>;
  undo(): Async<void>;
  redo(): Async<void>;
  fitToWindow(insets?: ViewInsets): Async<void>;
  viewAlong(axis: ProjectionAxis): Async<void>;
  setWalkMode(on: boolean): Async<void>;
  setSelectionMode(mode: SelectionMode): Async<void>;
  startMeasure(): Async<void>;
  cancelMeasure(): Async<void>;
  setClipping(active: boolean): Async<void>;
}

/** The state commands read and toggle: the viewer mirror, the features' counts, and the hidden mirror. */
export interface CommandState {
  viewer: {
    phase: string;
    selection: readonly { nodeId: number }[];
    selectionMode: SelectionMode;
    undoName: string | null;
    redoName: string | null;
    walkMode: boolean;
    showSceneGraph: boolean;
    showStats: boolean;
  };
  features: {
    selectedAnnotations: number;
    selectedMarkers: number;
    sections: readonly MenuSection[];
    handlers: {
      deselectAnnotations?: () => void;
      deleteAnnotations?: () => void;
      deselectMarkers?: () => void;
      clipToSection?: (name: string) => void;
    };
  };
  /** The engineering tools: measure operator state, clipping flags, the section dialog. */
  tools: {
    measureState: MeasureState;
    clip: { active: boolean };
    sectionDialogOpen: boolean;
  };
  /** Records objects as hidden in the tree mirror (the engine hid them already). */
  markHidden(objects: number[], hidden: boolean): void;
}

/** One registered viewer action. */
export interface ViewerCommand {
  id: string;
  /** Static name (tooltips, docs); `label` gives the text shown for the current state. */
  name: string;
  /** Keyboard shortcut such as 'Ctrl+Alt+S', or null. */
  shortcut: string | null;
  /** True when running it records an action in the view action history (viewer.md §4). */
  undoable: boolean;
  /** Label for the current state (e.g. 'Undo Hide objects', 'Deselect 2 annotation(s)'). */
  label(state: CommandState): string;
  /** Whether the entry is shown at all (viewer.md §2 rules such as 'only when objects are selected'). */
  visible(state: CommandState): boolean;
  /** Whether it can run now (shown but disabled otherwise). */
  enabled(state: CommandState): boolean;
  /** Runs the action; `arg` is the submenu choice where a command has one (a section name). */
  run(engine: CommandEngine, state: CommandState, arg?: string): Async<void>;
}

const engineReady = (s: CommandState) => s.viewer.phase === 'loading' || s.viewer.phase === 'ready';
const always = () => true;

function define(
  c: Omit<ViewerCommand, 'label' | 'visible'> & Partial<Pick<ViewerCommand, 'label' | 'visible'>>,
): ViewerCommand {
  return { label: () => c.name, visible: always, ...c };
}

/** The Projection submenu axes in the spec's order (viewer.md §2). */
export const PROJECTION_AXES: readonly ProjectionAxis[] = ['X', 'Y', 'Z', '-X', '-Y', '-Z'];

const viewAlong = PROJECTION_AXES.map((axis) =>
  define({
    id: `view-along-${axis}`,
    name: `View along ${axis}`,
    shortcut: null,
    undoable: false,
    enabled: engineReady,
    run: (engine) => engine.viewAlong(axis),
  }),
);

const selectionModes: Array<[SelectionMode, string]> = [
  ['structural-details', 'Structural Details'],
  ['main-objects', 'Main Objects'],
];

/** Every viewer command, registered once. */
export const VIEWER_COMMANDS: readonly ViewerCommand[] = [
  define({
    id: 'hide-objects',
    name: 'Hide objects',
    shortcut: null,
    undoable: true,
    visible: (s) => s.viewer.selection.length > 0,
    enabled: (s) => engineReady(s) && s.viewer.selection.length > 0,
    run: async (engine, s) => {
      const nodes = s.viewer.selection.map((i) => i.nodeId);
      await engine.hideSelected();
      s.markHidden(nodes, true);
    },
  }),
  define({
    id: 'undo',
    name: 'Undo',
    shortcut: 'Ctrl+Z',
    undoable: false,
    label: (s) => (s.viewer.undoName ? `Undo ${s.viewer.undoName}` : 'Undo'),
    enabled: (s) => engineReady(s) && s.viewer.undoName !== null,
    run: (engine) => engine.undo(),
  }),
  define({
    id: 'redo',
    name: 'Redo',
    shortcut: 'Ctrl+Y',
    undoable: false,
    label: (s) => (s.viewer.redoName ? `Redo ${s.viewer.redoName}` : 'Redo'),
    enabled: (s) => engineReady(s) && s.viewer.redoName !== null,
    run: (engine) => engine.redo(),
  }),
  define({
    id: 'deselect-annotations',
    name: 'Deselect annotations',
    shortcut: null,
    undoable: false,
    label: (s) => `Deselect ${s.features.selectedAnnotations} annotation(s)`,
    visible: (s) => s.features.selectedAnnotations > 0,
    enabled: (s) => s.features.selectedAnnotations > 0 && !!s.features.handlers.deselectAnnotations,
    run: (_e, s) => s.features.handlers.deselectAnnotations?.(),
  }),
  define({
    id: 'delete-annotations',
    name: 'Delete annotations',
    shortcut: null,
    undoable: false,
    label: (s) => `Delete ${s.features.selectedAnnotations} annotation(s)`,
    visible: (s) => s.features.selectedAnnotations > 0,
    enabled: (s) => s.features.selectedAnnotations > 0 && !!s.features.handlers.deleteAnnotations,
    run: (_e, s) => s.features.handlers.deleteAnnotations?.(),
  }),
  define({
    id: 'deselect-markers',
    name: 'Deselect comment markers',
    shortcut: null,
    undoable: false,
    label: (s) => `Deselect ${s.features.selectedMarkers} comment marker(s)`,
    visible: (s) => s.features.selectedMarkers > 0,
    enabled: (s) => s.features.selectedMarkers > 0 && !!s.features.handlers.deselectMarkers,
    run: (_e, s) => s.features.handlers.deselectMarkers?.(),
  }),
  define({
    id: 'fit-to-window',
    name: 'Fit to window',
    shortcut: null,
    undoable: false,
    enabled: engineReady,
    // The model is fitted where it is seen: clear of the toolbars drawn over the canvas.
    run: (engine) => engine.fitToWindow(measureViewInsets()),
  }),
  ...viewAlong,
  define({
    id: 'clip-to-section',
    name: 'Clip to section',
    shortcut: null,
    undoable: false,
    visible: (s) => clipSectionEntries(s.features.sections).length > 0,
    enabled: (s) => engineReady(s) && !!s.features.handlers.clipToSection,
    run: (_e, s, name) => {
      if (!name) throw new Error('Clip to section needs a section name');
      s.features.handlers.clipToSection?.(name);
    },
  }),
  define({
    id: 'measure',
    name: 'Measure',
    shortcut: null,
    undoable: false,
    label: (s) => (s.tools.measureState === 'off' ? 'Measure' : 'Cancel measure'),
    enabled: engineReady,
    // viewer.md §4: the toggle starts the measure operator; a second click on it cancels it.
    run: (engine, s) => (s.tools.measureState === 'off' ? engine.startMeasure() : engine.cancelMeasure()),
  }),
  define({
    id: 'clipping',
    name: 'Clipping',
    shortcut: null,
    undoable: false,
    enabled: engineReady,
    run: (engine, s) => engine.setClipping(!s.tools.clip.active),
  }),
  define({
    id: 'section-dialog',
    name: '2D section',
    shortcut: null,
    undoable: false,
    enabled: engineReady,
    run: (_e, s) => {
      s.tools.sectionDialogOpen = true;
    },
  }),
  define({
    id: 'walk-mode',
    name: 'Walk mode',
    shortcut: null,
    undoable: false,
    enabled: engineReady,
    run: (engine, s) => engine.setWalkMode(!s.viewer.walkMode),
  }),
  define({
    id: 'toggle-scene-graph',
    name: 'Toggle scene graph',
    shortcut: 'Ctrl+Alt+S',
    undoable: false,
    enabled: always,
    run: (_e, s) => {
      s.viewer.showSceneGraph = !s.viewer.showSceneGraph;
    },
  }),
  define({
    id: 'toggle-render-stats',
    name: 'Toggle rendering statistics',
    shortcut: 'Ctrl+Alt+R',
    undoable: false,
    enabled: always,
    run: (_e, s) => {
      s.viewer.showStats = !s.viewer.showStats;
    },
  }),
  ...selectionModes.map(([mode, name]) =>
    define({
      id: `selection-mode-${mode}`,
      name,
      shortcut: null,
      undoable: false,
      enabled: always,
      run: async (engine, s) => {
        s.viewer.selectionMode = mode;
        await engine.setSelectionMode(mode);
      },
    }),
  ),
];

const byId = new Map(VIEWER_COMMANDS.map((c) => [c.id, c]));

/** The command with `id`. @throws Error for an unknown id. */
export function getCommand(id: string): ViewerCommand {
  const c = byId.get(id);
  if (!c) throw new Error(`Unknown viewer command "${id}"`);
  return c;
}

/** Keyboard event fields a shortcut is matched against. */
export interface KeyLike {
  key: string;
  code?: string;
  ctrlKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  metaKey: boolean;
}

/**
 * True when `e` is the shortcut `shortcut` ('Ctrl+Alt+S': modifiers Ctrl, Alt, Shift, Meta plus one key).
 * Letters also match by physical key (code 'KeyS'), since Alt changes the typed character on some layouts.
 */
export function matchShortcut(shortcut: string, e: KeyLike): boolean {
  const parts = shortcut.split('+');
  const key = parts.pop()!.toLowerCase();
  const mods = new Set(parts.map((p) => p.toLowerCase()));
  if (
    mods.has('ctrl') !== e.ctrlKey ||
    mods.has('alt') !== e.altKey ||
    mods.has('shift') !== e.shiftKey ||
    mods.has('meta') !== e.metaKey
  )
    return false;
  if (e.key.toLowerCase() === key) return true;
  return key.length === 1 && /[a-z]/.test(key) && e.code === `Key${key.toUpperCase()}`;
}

/** The command whose shortcut `e` is, or null. */
export function commandForKey(e: KeyLike): ViewerCommand | null {
  for (const c of VIEWER_COMMANDS) if (c.shortcut && matchShortcut(c.shortcut, e)) return c;
  return null;
}

/**
 * Runs command `id` when it is enabled. Resolves to true when it ran, false when disabled.
 * @throws Error for an unknown id; rejects with the command's own error.
 */
export async function executeCommand(
  id: string,
  engine: CommandEngine,
  state: CommandState,
  arg?: string,
): Promise<boolean> {
  const c = getCommand(id);
  if (!c.enabled(state)) return false;
  await c.run(engine, state, arg);
  return true;
}
