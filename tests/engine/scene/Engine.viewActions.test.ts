import { describe, expect, it } from 'vitest';
import type { Engine } from '../../../engine/Engine';
import type { EngineEvent, PointerInput } from '../../../engine/EngineApi';
import { pointerInput } from '../interaction/pointerInput';
import { H, loadedSideView, sx, sy, twoPanelBytes as bytes, twoPanelTable as table } from './engineFixtures';

const ready = () => loadedSideView(bytes, table, { info: { render: { calls: 7, triangles: 48 } } });

function ptr(kind: PointerInput['kind'], x: number, y: number, over: Partial<PointerInput> = {}): PointerInput {
  return pointerInput(kind, x, y, { buttons: 1, ...over });
}

function boxDrag(engine: Engine, x0: number, y0: number, x1: number, y1: number, over: Partial<PointerInput> = {}) {
  engine.pointer(ptr('down', x0, y0, { shiftKey: true, ...over }));
  engine.pointer(ptr('move', (x0 + x1) / 2, (y0 + y1) / 2, { shiftKey: true, ...over }));
  engine.pointer(ptr('move', x1, y1, { shiftKey: true, ...over }));
  engine.pointer(ptr('up', x1, y1, { shiftKey: true, ...over }));
}

const selected = (events: EngineEvent[]) => {
  const e = events.filter((x) => x.type === 'selection-changed').pop();
  return e && e.type === 'selection-changed' ? e.items.map((i) => i.nodeId) : undefined;
};
const history = (events: EngineEvent[]) => events.filter((e) => e.type === 'history-changed').pop();

describe('box selection through the engine', () => {
  it('left-to-right selects contained objects, right-to-left touched ones, and reports the box while dragging', async () => {
    const { engine, events } = await ready();
    boxDrag(engine, sx(-200), sy(1200), sx(2500), sy(-200));
    expect(selected(events)).toEqual([1, 5]); // 2 is only half inside; 5 hides behind 1 but is contained
    const boxes = events.filter((e) => e.type === 'box-changed');
    expect(boxes[0]).toMatchObject({ type: 'box-changed', box: { mode: 'inside', x0: sx(-200) } });
    expect(boxes[boxes.length - 1]).toEqual({ type: 'box-changed', box: null });
    boxDrag(engine, sx(2500), sy(1200), sx(-200), sy(-200));
    expect(selected(events)).toEqual([1, 2, 5]);
    expect(
      events.filter((e) => e.type === 'box-changed').some((e) => e.type === 'box-changed' && e.box?.mode === 'touch'),
    ).toBe(true);
  });
  it('maps to main objects, adds with Ctrl, skips hidden objects, and is ignored in walk mode', async () => {
    const { engine, events } = await ready();
    engine.setSelectionMode('main-objects');
    boxDrag(engine, sx(3800), sy(1200), sx(5200), sy(-200));
    expect(selected(events)).toEqual([3]);
    engine.setSelectionMode('structural-details');
    boxDrag(engine, sx(1800), sy(1200), sx(3200), sy(-200), { ctrlKey: true });
    expect(selected(events)).toEqual([3, 2]);
    engine.setVisibility([1], false);
    boxDrag(engine, sx(-200), sy(1200), sx(1200), sy(-200));
    expect(selected(events)).toEqual([5]);
    engine.setWalkMode(true);
    const n = events.filter((e) => e.type === 'selection-changed').length;
    boxDrag(engine, sx(-200), sy(1200), sx(5200), sy(-200));
    expect(events.filter((e) => e.type === 'selection-changed').length).toBe(n);
  });
});

describe('view actions and history', () => {
  it('Hide objects hides the selection, clears it, and undo/redo show and hide them again', async () => {
    const { engine, events } = await ready();
    engine.hideSelected(); // nothing selected: no action
    expect(engine.getHistory()).toEqual({ undoName: null, redoName: null });
    engine.setSelection([1]);
    engine.hideSelected();
    expect(selected(events)).toEqual([]);
    expect(engine.pick(sx(500), H / 2)).toMatchObject({ nodeId: 5 });
    expect(history(events)).toEqual({ type: 'history-changed', undoName: 'Hide objects', redoName: null });
    engine.undo();
    expect(engine.pick(sx(500), H / 2)).toMatchObject({ nodeId: 1 });
    expect(history(events)).toEqual({ type: 'history-changed', undoName: null, redoName: 'Hide objects' });
    engine.redo();
    expect(engine.pick(sx(500), H / 2)).toMatchObject({ nodeId: 5 });
  });
  it('tree checkbox changes within 200 ms make one Show/Hide objects action; a new action drops the redo', async () => {
    const { engine, events } = await ready();
    engine.setTreeVisibility([1], false);
    engine.setTreeVisibility([5], false);
    expect(engine.pick(sx(500), H / 2)).toEqual({ type: 'miss' }); // applied at once
    await new Promise((r) => setTimeout(r, 260));
    expect(history(events)).toMatchObject({ undoName: 'Hide objects' });
    engine.undo();
    expect(engine.pick(sx(500), H / 2)).toMatchObject({ nodeId: 1 }); // both came back in one step
    expect(engine.getHistory()).toEqual({ undoName: null, redoName: 'Hide objects' });
    engine.setTreeVisibility([2], false);
    engine.undo(); // flushes the pending tree action first, then undoes it
    expect(engine.getHistory()).toEqual({ undoName: null, redoName: 'Hide objects' });
    engine.setTreeVisibility([2], false);
    engine.setTreeVisibility([2], true); // other kind: the hide closes, the show starts
    await new Promise((r) => setTimeout(r, 260));
    expect(engine.getHistory()).toEqual({ undoName: 'Show objects', redoName: null });
  });
});

describe('camera extras', () => {
  it('View along -Z animates to 90/90 over 700 ms', async () => {
    const { engine } = await ready();
    engine.viewAlong('-Z');
    await new Promise((r) => setTimeout(r, 900));
    expect(engine.getView()).toMatchObject({ longitude: 90, latitude: 90 });
    expect(() => engine.viewAlong('W' as never)).toThrow('unknown axis');
  });
  it('the tilt wheel turns the orbit by 3° per notch', async () => {
    const { engine } = await ready();
    engine.wheel({ x: 10, y: 10, deltaX: 100, deltaY: 0, ctrlKey: false, shiftKey: false });
    expect(engine.getView().longitude).toBeCloseTo(93);
    engine.wheel({ x: 10, y: 10, deltaX: 0, deltaY: -200, ctrlKey: false, shiftKey: true });
    expect(engine.getView().longitude).toBeCloseTo(87);
  });
  it('walk mode saves the view, walks 400 mm per key, and restores the view when left', async () => {
    const { engine, events } = await ready();
    const before = engine.getView();
    engine.setWalkMode(true);
    expect(events).toContainEqual({ type: 'walk-mode-changed', on: true });
    const start = engine.getView();
    engine.key({ kind: 'down', key: 'w', buttons: 0 });
    const moved = engine.getView();
    expect(Math.hypot(moved.target.x - start.target.x, moved.target.y - start.target.y)).toBeCloseTo(400);
    engine.key({ kind: 'down', key: 'c', buttons: 2 });
    expect(engine.getView().target.z - moved.target.z).toBeCloseTo(400);
    engine.setWalkMode(false);
    expect(engine.getView()).toEqual(before);
  });
  it('touch pinch zooms about the fingers', async () => {
    const { engine } = await ready();
    const w0 = engine.getView().width;
    const t = (kind: PointerInput['kind'], x: number, id: number) =>
      engine.pointer(ptr(kind, x, 250, { pointerType: 'touch', pointerId: id }));
    t('down', 400, 1);
    t('down', 600, 2);
    t('move', 300, 1);
    t('move', 700, 2); // 200 → 400 px apart: width halves
    expect(engine.getView().width).toBeCloseTo(w0 / 2, 3);
    t('up', 300, 1);
    t('up', 700, 2);
  });
});

describe('colour, opacity, scene graph and statistics', () => {
  it('writes colours and opacity into the state table only', async () => {
    const { engine } = await ready();
    const model = engine.inspect().model!;
    engine.setObjectColor([0], [255, 0, 0]); // panel A and its plates
    expect(Array.from(model.state.colors.subarray(4, 7))).toEqual([255, 0, 0]);
    engine.setObjectColor([1], null);
    expect(Array.from(model.state.colors.subarray(4, 7))).not.toEqual([255, 0, 0]);
    engine.setObjectOpacity([2], 0.5);
    expect(model.state.colors[2 * 4 + 3]).toBe(128);
    expect(model.state.translucentCount).toBe(1);
    expect(model.chunks.some((c) => c.translucentMesh.visible)).toBe(true);
    engine.setObjectOpacity([2], 1);
    expect(model.state.translucentCount).toBe(0);
    expect(() => engine.setObjectOpacity([2], 2)).toThrow('between 0 and 1');
    expect(() => engine.setObjectColor([2], [300, 0, 0])).toThrow('three bytes');
  });
  it("names the scene tree as viewer.md §3 says (Models, STR {model}, Structures, '{id} {name}', Sections) and toggles nodes", async () => {
    const { engine, events } = await ready();
    engine.setModelDetails({ modelName: 'SHIP', names: ['Panel A', 'P1', 'p2', 'Panel B', 'S4', 'P5'] });
    const g = engine.getSceneGraph();
    expect([g.name, g.type]).toEqual(['Models', 'Models']);
    expect(g.children.map((c) => c.name)).toEqual(['STR SHIP', 'Sections']);
    const structures = g.children[0].children[0];
    expect(structures.name).toBe('Structures');
    // Object nodes: the id is the first word; children follow the parent column.
    expect(structures.children.map((c) => c.name)).toEqual(['panelA Panel A', 'panelB Panel B']);
    expect(structures.children[0].children.map((c) => [c.id, c.name, c.type])).toEqual([
      [1, 'p1 P1', 'PLATE'],
      [2, 'p2', 'PLATE'],
    ]);
    const p1 = structures.children[0].children[0];
    expect(p1.properties[0]).toEqual({ name: 'Name', value: 'P1' });
    expect(p1.properties).toContainEqual({ name: 'Parent', value: 'panelA' });
    expect(p1.properties).toContainEqual({ name: 'Bounding box (mm)', value: '0, 0, 0 … 1000, 1000, 1000' });
    // No renderer internals anywhere in the tree.
    const names: string[] = [];
    const walk = (n: typeof g) => (names.push(n.name), n.children.forEach(walk));
    walk(g);
    expect(names.filter((n) => /chunk|light|camera|snap|annotation|measure/i.test(n))).toEqual([]);
    // Toggling an object node hides it with its children (through the objects' visibility).
    engine.setSceneNodeVisible(0, false);
    expect(events.filter((e) => e.type === 'visibility-changed').pop()).toMatchObject({
      nodeIds: [0, 2, 1],
      visible: false,
    });
    const after = engine.getSceneGraph().children[0].children[0].children[0];
    expect([after.visible, after.children.map((c) => c.visible)]).toEqual([false, [false, false]]);
    engine.setSceneNodeVisible(-4, true); // 'Structures': every structure object
    expect(engine.getSceneGraph().children[0].children[0].children[0].visible).toBe(true);
    // A section: 'X=500' with its SectionCurve groups.
    engine.createSection('X', 500, 'X=500');
    const sections = engine.getSceneGraph().children.find((c) => c.name === 'Sections')!;
    expect(sections.children.map((c) => [c.name, c.type])).toEqual([['X=500', 'Section']]);
    expect(sections.children[0].children.map((c) => [c.name, c.type])).toEqual([['Structures', 'SectionCurve']]);
    engine.setSceneNodeVisible(sections.children[0].id, false);
    expect(engine.getSceneGraph().children.find((c) => c.name === 'Sections')!.children[0].visible).toBe(false);
    expect(() => engine.setSceneNodeVisible(-1, true)).toThrow('No scene node');
    expect(() => engine.setSceneNodeVisible(99, true)).toThrow('No scene node');
  });
  it('reports render statistics with ≤ 16 bytes of geometry per triangle', async () => {
    const { engine } = await ready();
    await new Promise((r) => setTimeout(r, 60));
    const s = engine.getRenderStats();
    expect(s.modelTriangles).toBe(48);
    expect(s.drawCalls).toBe(7);
    expect(s.chunkCount).toBe(4);
    expect(s.chunksDrawn).toBe(4);
    expect(s.fps).toBeGreaterThan(0);
    expect(s.geometryBytes / s.modelTriangles).toBeLessThanOrEqual(16);
  });
});
