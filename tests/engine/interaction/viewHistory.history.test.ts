import { describe, expect, it } from 'vitest';
import { ViewHistory, VisibilityDebouncer } from '../../../engine/interaction/viewHistory';

describe('view action history', () => {
  it("undo needs a current action, redo a later one, with the actions' names", () => {
    const h = new ViewHistory<number>();
    expect(h.canUndo).toBe(false);
    expect(h.undo()).toBeNull();
    expect(h.names()).toEqual({ undoName: null, redoName: null });
    h.record('Hide objects', 1);
    h.record('Show objects', 2);
    expect(h.names()).toEqual({ undoName: 'Show objects', redoName: null });
    expect(h.undo()).toEqual({ name: 'Show objects', payload: 2 });
    expect(h.names()).toEqual({ undoName: 'Hide objects', redoName: 'Show objects' });
    expect(h.undo()?.payload).toBe(1);
    expect(h.canUndo).toBe(false);
    expect(h.redo()?.payload).toBe(1);
    expect(h.redo()?.payload).toBe(2);
    expect(h.redo()).toBeNull();
  });
  it('a new action discards the undone ones', () => {
    const h = new ViewHistory<string>();
    h.record('Hide objects', 'a');
    h.record('Hide objects', 'b');
    h.undo();
    h.record('Show objects', 'c');
    expect(h.canRedo).toBe(false);
    expect(h.undo()?.payload).toBe('c');
    expect(h.undo()?.payload).toBe('a');
    expect(h.undo()).toBeNull();
  });
  it('drops the oldest beyond the limit and refuses nameless actions', () => {
    const h = new ViewHistory<number>(2);
    [1, 2, 3].forEach((n) => h.record('Hide objects', n));
    expect(h.undo()?.payload).toBe(3);
    expect(h.undo()?.payload).toBe(2);
    expect(h.undo()).toBeNull();
    expect(() => h.record('', 1)).toThrow('needs a name');
    expect(() => new ViewHistory(0)).toThrow('limit');
  });
});

describe('tree visibility debounce (200 ms)', () => {
  it('merges changes of one kind until 200 ms of quiet, and flushes when the kind changes', () => {
    const d = new VisibilityDebouncer(200);
    expect(d.add([1], false, 0)).toBeNull();
    expect(d.add([2], false, 150)).toBeNull();
    expect(d.due(300)).toBeNull(); // 150 ms after the last change
    expect(d.dueAt).toBe(350);
    expect(d.due(350)).toEqual({ visible: false, nodeIds: [1, 2] });
    expect(d.due(1000)).toBeNull();
    d.add([3], true, 1000);
    expect(d.add([4], false, 1050)).toEqual({ visible: true, nodeIds: [3] });
    expect(d.take()).toEqual({ visible: false, nodeIds: [4] });
  });
});
