import { describe, expect, it } from 'vitest';
import {
  handleEngineEvent,
  loadPercent,
  resetViewer,
  setNodesVisible,
  setObjects,
  viewerStore,
} from '../../ui/stores/viewer';

describe('viewer store mirror (viewer.md §4)', () => {
  it('computes load percent from chunks, then bytes, else null', () => {
    expect(loadPercent({ loadedBytes: 10, totalBytes: 100, chunksLoaded: 3, chunkCount: 4 })).toBe(75);
    expect(loadPercent({ loadedBytes: 10, totalBytes: 40, chunksLoaded: 0, chunkCount: null })).toBe(25);
    expect(loadPercent({ loadedBytes: 10, totalBytes: null, chunksLoaded: 1, chunkCount: null })).toBeNull();
    expect(loadPercent(null)).toBeNull();
  });
  it('mirrors selection, progress and readiness and records hidden nodes', () => {
    resetViewer();
    setObjects('M', [
      {
        index: 0,
        id: 'a',
        guid: null,
        name: 'Panel',
        type: 'MAIN OBJECT',
        element: 'Panel',
        parent: -1,
        block: null,
        bounds: null,
      },
      {
        index: 1,
        id: 'b',
        guid: null,
        name: 'Plate',
        type: 'PLATE',
        element: 'Plate',
        parent: 0,
        block: null,
        bounds: null,
      },
    ]);
    expect(viewerStore.tree?.label(viewerStore.tree.roots[0])).toBe('Structures (M)');
    handleEngineEvent({
      type: 'load-progress',
      progress: { loadedBytes: 1, totalBytes: 2, chunksLoaded: 0, chunkCount: null },
    });
    expect(viewerStore.progress?.loadedBytes).toBe(1);
    handleEngineEvent({ type: 'selection-changed', items: [{ keelsonId: 'b', nodeId: 1, objectType: 'PLATE' }] });
    expect(viewerStore.selection.map((s) => s.nodeId)).toEqual([1]);
    handleEngineEvent({ type: 'model-ready', bounds: [0, 0, 0, 1, 1, 1], triangles: 2 });
    expect(viewerStore.phase).toBe('ready');
    const v0 = viewerStore.hiddenVersion;
    const tree = viewerStore.tree!;
    setNodesVisible([0, 1], false);
    expect([tree.isHidden(0), tree.isHidden(1)]).toEqual([true, true]);
    setNodesVisible([1], true);
    expect([tree.isHidden(0), tree.isHidden(1)]).toEqual([true, false]);
    expect(viewerStore.hiddenVersion).toBe(v0 + 2);
    // Undo / redo inside the engine reach the mirror through visibility-changed.
    handleEngineEvent({ type: 'visibility-changed', hiddenCount: 0, nodeIds: [0], visible: true });
    expect(tree.hiddenObjects).toBe(0);
    resetViewer();
    expect(viewerStore.tree).toBeNull();
    expect(viewerStore.phase).toBe('initializing');
  });
  it('mirrors history names, walk mode, the selection box and the context menu position', () => {
    resetViewer();
    handleEngineEvent({ type: 'history-changed', undoName: 'Hide objects', redoName: null });
    expect([viewerStore.undoName, viewerStore.redoName]).toEqual(['Hide objects', null]);
    handleEngineEvent({ type: 'box-changed', box: { x0: 1, y0: 2, x1: 30, y1: 40, mode: 'inside' } });
    expect(viewerStore.box?.x1).toBe(30);
    handleEngineEvent({ type: 'walk-mode-changed', on: true });
    expect(viewerStore.walkMode).toBe(true);
    expect(viewerStore.box).toBeNull();
    handleEngineEvent({ type: 'context-menu', x: 12, y: 34 });
    expect(viewerStore.contextMenu).toEqual({ x: 12, y: 34 });
    resetViewer();
    expect([viewerStore.undoName, viewerStore.walkMode, viewerStore.contextMenu]).toEqual([null, false, null]);
  });
});

describe('tree rebuild with sections', () => {
  it("adds '{axis}-sections' and keeps hidden objects", async () => {
    const { setTreeOptions } = await import('../../ui/stores/viewer');
    resetViewer();
    setObjects('M', [
      {
        index: 0,
        id: 'a',
        guid: null,
        name: 'Panel',
        type: 'MAIN OBJECT',
        element: 'Panel',
        parent: -1,
        block: null,
        bounds: null,
      },
      {
        index: 1,
        id: 'b',
        guid: null,
        name: 'Plate',
        type: 'PLATE',
        element: 'Plate',
        parent: 0,
        block: null,
        bounds: null,
      },
    ]);
    setNodesVisible([1], false);
    setTreeOptions({ sections: [{ name: 'Y=1000', axis: 'Y' }] });
    const tree = viewerStore.tree!;
    expect(tree.roots.map((t) => tree.label(t))).toEqual(['Structures (M)', 'Y-sections']);
    expect(tree.isHidden(1)).toBe(true);
    expect(tree.isHidden(0)).toBe(false);
    // Custom trees change on their own: the sections stay, and the hidden plate is hidden in its folder too.
    setTreeOptions({ customTrees: [{ id: 7, name: 'Mine', folders: [], objects: [1] }] });
    const withCustom = viewerStore.tree!;
    expect(withCustom.roots.map((t) => withCustom.label(t))).toEqual([
      'Structures (M)',
      'Custom-model-tree',
      'Y-sections',
    ]);
    expect(withCustom.checkState(withCustom.nodeOfTag(7))).toBe('off');
    resetViewer();
  });
});
