/**
 * Viewer commands as data (house rule 6; viewer.md §2 context menu and shortcuts, §4 view action history).
 */
import { describe, expect, it, vi } from 'vitest';
import {
  PROJECTION_AXES,
  VIEWER_COMMANDS,
  commandForKey,
  executeCommand,
  getCommand,
  matchShortcut,
  type CommandEngine,
  type CommandState,
} from '../../ui/viewer/commands';
import { clipSectionEntries } from '../../ui/stores/viewerFeatures';

function fakeEngine(): CommandEngine & Record<string, ReturnType<typeof vi.fn>> {
  return {
    hideSelected: vi.fn(async () => {}),
    undo: vi.fn(),
    redo: vi.fn(),
    fitToWindow: vi.fn(),
    viewAlong: vi.fn(),
    setWalkMode: vi.fn(),
    setSelectionMode: vi.fn(),
    startMeasure: vi.fn(),
    cancelMeasure: vi.fn(),
    setClipping: vi.fn(),
  };
}

function state(
  over: Partial<CommandState['viewer']> = {},
  features: Partial<CommandState['features']> = {},
): CommandState & { hiddenCalls: Array<[number[], boolean]> } {
  const hiddenCalls: Array<[number[], boolean]> = [];
  return {
    viewer: {
      phase: 'ready',
      selection: [],
      selectionMode: 'structural-details',
      undoName: null,
      redoName: null,
      walkMode: false,
      showSceneGraph: false,
      showStats: false,
      ...over,
    },
    features: { selectedAnnotations: 0, selectedMarkers: 0, sections: [], handlers: {}, ...features },
    tools: { measureState: 'off', clip: { active: false }, sectionDialogOpen: false },
    markHidden: (o, h) => hiddenCalls.push([o, h]),
    hiddenCalls,
  };
}

const key = (
  k: string,
  mods: Partial<{ ctrlKey: boolean; altKey: boolean; shiftKey: boolean; metaKey: boolean; code: string }> = {},
) => ({
  key: k,
  ctrlKey: false,
  altKey: false,
  shiftKey: false,
  metaKey: false,
  ...mods,
});

describe('viewer commands registry', () => {
  it('registers each action once with a name, and the required actions exist', () => {
    const ids = VIEWER_COMMANDS.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of [
      'hide-objects',
      'undo',
      'redo',
      'fit-to-window',
      'walk-mode',
      'toggle-scene-graph',
      'toggle-render-stats',
      'selection-mode-main-objects',
      'selection-mode-structural-details',
    ])
      expect(getCommand(id).name).toBeTruthy();
    expect(PROJECTION_AXES.map((a) => getCommand(`view-along-${a}`).name)).toEqual([
      'View along X',
      'View along Y',
      'View along Z',
      'View along -X',
      'View along -Y',
      'View along -Z',
    ]);
    expect(getCommand('hide-objects').undoable).toBe(true);
    expect(getCommand('fit-to-window').undoable).toBe(false);
    expect(() => getCommand('nope')).toThrow(/Unknown viewer command "nope"/);
  });

  it("shows 'Hide objects' only with a selection; it hides through the engine and marks the mirror", async () => {
    const hide = getCommand('hide-objects');
    expect(hide.visible(state())).toBe(false);
    const s = state({ selection: [{ nodeId: 4 }, { nodeId: 9 }] });
    expect(hide.visible(s)).toBe(true);
    const engine = fakeEngine();
    expect(await executeCommand('hide-objects', engine, s)).toBe(true);
    expect(engine.hideSelected).toHaveBeenCalledTimes(1);
    expect(s.hiddenCalls).toEqual([[[4, 9], true]]);
    expect(await executeCommand('hide-objects', engine, state())).toBe(false);
    expect(engine.hideSelected).toHaveBeenCalledTimes(1);
  });

  it('labels Undo / Redo with the action name and disables them when there is none', async () => {
    const undo = getCommand('undo');
    const redo = getCommand('redo');
    expect(undo.label(state())).toBe('Undo');
    expect(undo.enabled(state())).toBe(false);
    const s = state({ undoName: 'Hide objects', redoName: 'Show objects' });
    expect(undo.label(s)).toBe('Undo Hide objects');
    expect(redo.label(s)).toBe('Redo Show objects');
    const engine = fakeEngine();
    await executeCommand('undo', engine, s);
    await executeCommand('redo', engine, s);
    expect(engine.undo).toHaveBeenCalledTimes(1);
    expect(engine.redo).toHaveBeenCalledTimes(1);
  });

  it('shows annotation, marker and section entries only when they exist', async () => {
    const names = (s: CommandState) => VIEWER_COMMANDS.filter((c) => c.visible(s)).map((c) => c.label(s));
    const none = names(state());
    expect(none.some((n) => /annotation|marker|Clip to section/.test(n))).toBe(false);
    const deselect = vi.fn();
    const s = state(
      {},
      {
        selectedAnnotations: 2,
        selectedMarkers: 1,
        sections: [
          { name: 'Y=2000', axis: 'Y', location: 2000, visible: true },
          { name: 'X=#10', axis: 'X', location: 100, visible: true },
          { name: 'Z=1', axis: 'Z', location: 1, visible: false },
        ],
        handlers: { deselectAnnotations: deselect },
      },
    );
    expect(names(s)).toEqual(
      expect.arrayContaining([
        'Deselect 2 annotation(s)',
        'Delete 2 annotation(s)',
        'Deselect 1 comment marker(s)',
        'Clip to section',
      ]),
    );
    expect(clipSectionEntries(s.features.sections)).toEqual(['X=#10', 'Y=2000']);
    await executeCommand('deselect-annotations', fakeEngine(), s);
    expect(deselect).toHaveBeenCalledTimes(1);
    // No handler registered yet: shown, but disabled.
    expect(getCommand('delete-annotations').enabled(s)).toBe(false);
  });

  it('runs projection, fit, walk mode and selection mode through the engine', async () => {
    const engine = fakeEngine();
    const s = state();
    await executeCommand('view-along--Z', engine, s);
    expect(engine.viewAlong).toHaveBeenCalledWith('-Z');
    await executeCommand('fit-to-window', engine, s);
    expect(engine.fitToWindow).toHaveBeenCalled();
    await executeCommand('walk-mode', engine, s);
    expect(engine.setWalkMode).toHaveBeenLastCalledWith(true);
    await executeCommand('walk-mode', engine, state({ walkMode: true }));
    expect(engine.setWalkMode).toHaveBeenLastCalledWith(false);
    await executeCommand('selection-mode-main-objects', engine, s);
    expect(s.viewer.selectionMode).toBe('main-objects');
    expect(engine.setSelectionMode).toHaveBeenCalledWith('main-objects');
    // Engine commands wait for the engine.
    expect(await executeCommand('fit-to-window', engine, state({ phase: 'initializing' }))).toBe(false);
  });

  it('toggles the panels with Ctrl+Alt+S and Ctrl+Alt+R', async () => {
    const s = state();
    const sg = commandForKey(key('s', { ctrlKey: true, altKey: true, code: 'KeyS' }));
    expect(sg?.id).toBe('toggle-scene-graph');
    await executeCommand(sg!.id, fakeEngine(), s);
    expect(s.viewer.showSceneGraph).toBe(true);
    // Alt may change the character (e.g. 'ß'): the physical key still matches.
    expect(commandForKey(key('ß', { ctrlKey: true, altKey: true, code: 'KeyS' }))?.id).toBe('toggle-scene-graph');
    expect(commandForKey(key('®', { ctrlKey: true, altKey: true, code: 'KeyR' }))?.id).toBe('toggle-render-stats');
    expect(commandForKey(key('s', { ctrlKey: true, code: 'KeyS' }))).toBeNull();
    expect(commandForKey(key('z', { ctrlKey: true, code: 'KeyZ' }))?.id).toBe('undo');
    expect(matchShortcut('Ctrl+Z', key('z', { ctrlKey: true, shiftKey: true }))).toBe(false);
    expect(commandForKey(key('w'))).toBeNull();
  });

  it('measure toggles start and cancel; clipping toggles; 2D section opens the dialog', async () => {
    const engine = fakeEngine();
    const s = state();
    expect(getCommand('measure').label(s)).toBe('Measure');
    await executeCommand('measure', engine, s);
    expect(engine.startMeasure).toHaveBeenCalledTimes(1);
    s.tools.measureState = 'start';
    expect(getCommand('measure').label(s)).toBe('Cancel measure');
    await executeCommand('measure', engine, s);
    expect(engine.cancelMeasure).toHaveBeenCalledTimes(1);
    expect(engine.startMeasure).toHaveBeenCalledTimes(1);
    await executeCommand('clipping', engine, s);
    expect(engine.setClipping).toHaveBeenLastCalledWith(true);
    s.tools.clip.active = true;
    await executeCommand('clipping', engine, s);
    expect(engine.setClipping).toHaveBeenLastCalledWith(false);
    expect(getCommand('section-dialog').name).toBe('2D section');
    await executeCommand('section-dialog', engine, s);
    expect(s.tools.sectionDialogOpen).toBe(true);
    expect(await executeCommand('measure', engine, state({ phase: 'initializing' }))).toBe(false);
  });
});
