/** viewer.md §2 context menu entries, §4 box selection rectangle, §2 rendering statistics rows. */
import { describe, expect, it } from 'vitest';
import { contextMenuEntries, type MenuEntry } from '../../ui/viewer/ContextMenu';
import { boxStyle } from '../../ui/viewer/SelectionBoxOverlay';
import { statsRows } from '../../ui/viewer/RenderStatsOverlay';
import { findSceneNode, withNodeVisible } from '../../ui/viewer/SceneGraphPanel';
import type { CommandState } from '../../ui/viewer/commands';

function state(
  viewer: Partial<CommandState['viewer']> = {},
  features: Partial<CommandState['features']> = {},
): CommandState {
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
      ...viewer,
    },
    features: { selectedAnnotations: 0, selectedMarkers: 0, sections: [], handlers: {}, ...features },
    tools: { measureState: 'off', clip: { active: false }, sectionDialogOpen: false },
    markHidden: () => {},
  };
}
const text = (entries: MenuEntry[]): unknown[] =>
  entries.map((e) =>
    e.kind === 'separator'
      ? '—'
      : e.kind === 'submenu'
        ? { [e.label]: text(e.entries) }
        : e.enabled
          ? e.label
          : `(${e.label})`,
  );

describe('context menu entries (viewer.md §2)', () => {
  it('without a selection: Undo / Redo disabled, Fit to window, Projection submenu', () => {
    expect(text(contextMenuEntries(state()))).toEqual([
      '(Undo)',
      '(Redo)',
      '—',
      'Fit to window',
      {
        Projection: ['View along X', 'View along Y', 'View along Z', 'View along -X', 'View along -Y', 'View along -Z'],
      },
    ]);
  });
  it('with a selection, history, annotations, markers and sections', () => {
    const s = state(
      { selection: [{ nodeId: 1 }], undoName: 'Hide objects', redoName: 'Show objects' },
      {
        selectedAnnotations: 3,
        selectedMarkers: 1,
        sections: [
          { name: 'Z=5000', axis: 'Z', location: 5000, visible: true },
          { name: 'X=#10', axis: 'X', location: 0, visible: true },
          { name: 'Y=0', axis: 'Y', location: 0, visible: false },
        ],
        handlers: {
          deselectAnnotations: () => {},
          deleteAnnotations: () => {},
          deselectMarkers: () => {},
          clipToSection: () => {},
        },
      },
    );
    const t = text(contextMenuEntries(s));
    expect(t.slice(0, 8)).toEqual([
      'Hide objects',
      'Undo Hide objects',
      'Redo Show objects',
      '—',
      'Deselect 3 annotation(s)',
      'Delete 3 annotation(s)',
      'Deselect 1 comment marker(s)',
      '—',
    ]);
    expect(t.at(-1)).toEqual({ 'Clip to section': ['Section X=#10', 'Section Z=5000'] });
  });
});

describe('overlays', () => {
  it('draws the box from any corner, dashed for touch and solid for inside', () => {
    expect(boxStyle({ x0: 50, y0: 60, x1: 10, y1: 20, mode: 'touch' })).toEqual({
      left: 10,
      top: 20,
      width: 40,
      height: 40,
      borderStyle: 'dashed',
    });
    expect(boxStyle({ x0: 10, y0: 20, x1: 50, y1: 25, mode: 'inside' }).borderStyle).toBe('solid');
  });
  it('formats the statistics', () => {
    const rows = Object.fromEntries(
      statsRows({
        frameTimeMs: 4.26,
        fps: 59.6,
        drawCalls: 12,
        triangles: 1234567,
        geometryBytes: 3 * 1048576,
        modelTriangles: 2e6,
        chunksDrawn: 3,
        chunkCount: 9,
      }),
    );
    expect(rows).toMatchObject({
      'Frame time': '4.3 ms',
      FPS: '60',
      'Draw calls': '12',
      Triangles: '1,234,567',
      'Geometry memory': '3.0 MB',
      'Chunks drawn': '3 / 9',
    });
  });
  it('finds and updates scene nodes immutably', () => {
    const g = {
      id: 1,
      name: 'Scene',
      type: 'Scene',
      visible: true,
      properties: [],
      children: [{ id: 2, name: 'c', type: 'Mesh', visible: true, properties: [], children: [] }],
    };
    expect(findSceneNode(g, 2)?.type).toBe('Mesh');
    const h = withNodeVisible(g, 2, false);
    expect(h.children[0].visible).toBe(false);
    expect(g.children[0].visible).toBe(true);
    expect(findSceneNode(g, 9)).toBeNull();
  });
});
