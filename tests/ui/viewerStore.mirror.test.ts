import { describe, expect, it } from 'vitest';
import { handleEngineEvent, loadPercent, resetViewer, setNodesVisible, setObjects, viewerStore } from '../../ui/stores/viewer';

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
      { index: 0, id: 'a', guid: null, name: 'Panel', type: 'MAIN OBJECT', element: 'Panel', parent: -1, block: null, bounds: null },
      { index: 1, id: 'b', guid: null, name: 'Plate', type: 'PLATE', element: 'Plate', parent: 0, block: null, bounds: null },
    ]);
    expect(viewerStore.tree?.label(-1)).toBe('Structures (M)');
    handleEngineEvent({ type: 'load-progress', progress: { loadedBytes: 1, totalBytes: 2, chunksLoaded: 0, chunkCount: null } });
    expect(viewerStore.progress?.loadedBytes).toBe(1);
    handleEngineEvent({ type: 'selection-changed', items: [{ keelsonId: 'b', nodeId: 1, objectType: 'PLATE' }] });
    expect(viewerStore.selection.map((s) => s.nodeId)).toEqual([1]);
    handleEngineEvent({ type: 'model-ready', bounds: [0, 0, 0, 1, 1, 1], triangles: 2 });
    expect(viewerStore.phase).toBe('ready');
    const v0 = viewerStore.hiddenVersion;
    setNodesVisible([0, 1], false);
    expect([...viewerStore.hidden]).toEqual([0, 1]);
    setNodesVisible([1], true);
    expect([...viewerStore.hidden]).toEqual([0]);
    expect(viewerStore.hiddenVersion).toBe(v0 + 2);
    resetViewer();
    expect(viewerStore.hidden.size).toBe(0);
    expect(viewerStore.phase).toBe('initializing');
  });
});
