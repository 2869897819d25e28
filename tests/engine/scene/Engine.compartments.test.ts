import { describe, expect, it } from 'vitest';
import type { EngineEvent, EngineObjectTable, PointerInput } from '../../../engine/EngineApi';
import { pointerInput } from '../interaction/pointerInput';
import { COMPARTMENT_OPACITY } from '../../../engine/scene/ModelScene';
import { drawnSegments } from '../../../engine/scene/edgeStrips';
import { loadedSideView, sx, sy } from './engineFixtures';
import { boxMesh, packageBytes } from './sceneFixtures';

// 0 panel (MAIN OBJECT) with plates 1, 2; 3 a compartment in front of plate 1 (camera at -Y);
// 4 a compartment with no steel behind it; 5 a small 20 mm bracket.
const table: EngineObjectTable = {
  ids: ['panel', 'p1', 'p2', 'c3', 'c4', 'b5'],
  types: ['MAIN OBJECT', 'PLATE', 'PLATE', 'COMPARTMENT', 'COMPARTMENT', 'BRACKET'],
  parents: new Int32Array([-1, 0, 0, -1, -1, 0]),
};
const bytes = packageBytes(
  [
    boxMesh(1, [0, 0, 0], [1000, 1000, 1000]),
    boxMesh(2, [2000, 0, 0], [3000, 1000, 1000]),
    boxMesh(3, [0, -2000, 0], [1000, -1000, 1000]),
    boxMesh(4, [4000, -2000, 0], [5000, -1000, 1000]),
    boxMesh(5, [2500, -500, 500], [2520, -480, 520]),
  ],
  6,
);

async function loaded() {
  const { engine, events } = await loadedSideView(bytes, table);
  const internals = engine.inspect();
  return { engine, events, internals };
}

const ptr = (kind: PointerInput['kind'], x: number, y: number, over: Partial<PointerInput> = {}): PointerInput =>
  pointerInput(kind, x, y, { buttons: kind === 'move' ? 0 : 1, ...over });
const visEvents = (events: EngineEvent[]) =>
  events.filter((e): e is Extract<EngineEvent, { type: 'visibility-changed' }> => e.type === 'visibility-changed');

describe('visibility-changed events', () => {
  it('are emitted for hide, undo, redo, tree and API changes, with the nodes and the hidden count', async () => {
    const { engine, events } = await loaded();
    engine.setSelection([1]);
    engine.hideSelected();
    expect(visEvents(events).pop()).toEqual({
      type: 'visibility-changed',
      hiddenCount: 1,
      nodeIds: [1],
      visible: false,
    });
    engine.undo();
    expect(visEvents(events).pop()).toEqual({
      type: 'visibility-changed',
      hiddenCount: 0,
      nodeIds: [1],
      visible: true,
    });
    engine.redo();
    expect(visEvents(events).pop()).toEqual({
      type: 'visibility-changed',
      hiddenCount: 1,
      nodeIds: [1],
      visible: false,
    });
    engine.setTreeVisibility([0], false); // the panel and its parts 1, 2, 5
    expect(visEvents(events).pop()).toEqual({
      type: 'visibility-changed',
      hiddenCount: 4,
      nodeIds: [0],
      visible: false,
    });
    const n = visEvents(events).length;
    engine.setVisibility([0], false); // nothing changes: no event
    expect(visEvents(events).length).toBe(n);
    engine.setVisibility([2], true);
    expect(visEvents(events).pop()).toMatchObject({ hiddenCount: 3, nodeIds: [2], visible: true });
    engine.dispose();
  });
});

describe('compartments', () => {
  it('are translucent by default and drawn in the translucent pass only where a chunk holds one', async () => {
    const { engine, internals } = await loaded();
    const m = internals.model!;
    expect(m.state.opacity(3)).toBeCloseTo(COMPARTMENT_OPACITY, 2);
    expect(m.state.opacity(1)).toBe(1);
    internals.loop.frame();
    const chunk = m.chunks[0];
    expect(chunk.hasTranslucent).toBe(true);
    expect(chunk.translucentMesh.visible).toBe(true);
    // The pass has its own index of just the two compartments (12 triangles each), not the whole chunk.
    expect(chunk.translucentMesh.geometry.index!.count).toBe(2 * 12 * 3);
    expect(chunk.pickGeometry.index!.count).toBe(5 * 12 * 3);
    engine.setObjectOpacity([3, 4], 1);
    internals.loop.frame();
    expect(chunk.translucentMesh.visible).toBe(false);
    engine.dispose();
  });
  it('never hide steel from picks: steel behind a compartment wins, a lone compartment is still pickable', async () => {
    const { engine } = await loaded();
    expect(engine.pick(sx(500), sy(500))).toMatchObject({ type: 'hit', nodeId: 1 });
    expect(engine.pick(sx(4500), sy(500))).toMatchObject({ type: 'hit', nodeId: 4 });
    engine.setVisibility([1], false);
    expect(engine.pick(sx(500), sy(500))).toMatchObject({ type: 'hit', nodeId: 3 });
    engine.dispose();
  });
});

describe('small-object culling', () => {
  it('skips objects under a pixel and edges of objects under EDGE_MIN_PX, and draws them again when zoomed in', async () => {
    const { engine, internals } = await loaded();
    const m = internals.model!;
    internals.loop.frame();
    // 5.5 mm per px: the 35 mm bracket (6 px) is drawn, its edges (< 12 px) are not.
    const total = m.triangles;
    expect(m.trianglesDrawn).toBe(total);
    // Segments drawn by the chunk's edge strips (12 per box).
    const segments = () => {
      const g = m.chunks[0].edges!.geometry;
      return drawnSegments(g.index!.array, 0, Math.min(g.index!.count, g.drawRange.count), true).length;
    };
    expect(segments()).toBe(12 * 4);
    m.detailMinPx = 8; // now the bracket (6 px) falls under the threshold
    engine.fitToWindow(); // same view; marks the frame dirty
    internals.loop.frame();
    expect(m.trianglesDrawn).toBe(total - 12);
    for (let i = 0; i < 12; i++)
      engine.wheel({ x: sx(2510), y: sy(510), deltaX: 0, deltaY: -100, ctrlKey: false, shiftKey: false });
    internals.loop.frame();
    expect(segments()).toBe(12 * 5);
    engine.dispose();
  });
});

describe('live distance label while measuring', () => {
  it('follows the snapped cursor after the start click and disappears when the line is done', async () => {
    const { engine } = await loaded();
    const measure = engine.inspect().measure;
    engine.startMeasure();
    engine.pointer(ptr('down', sx(0) + 2, sy(1000) + 2));
    engine.pointer(ptr('up', sx(0) + 2, sy(1000) + 2));
    expect(measure.liveDistanceText).toBe('');
    engine.pointer(ptr('move', sx(3000) - 2, sy(0) - 2, { time: 1000 }));
    expect(measure.liveDistanceText).toBe(`${Math.hypot(3000, 1000).toFixed(1)} mm`);
    expect(measure.liveLabel.count).toBe(1);
    engine.pointer(ptr('down', sx(3000) - 2, sy(0) - 2, { time: 1100 }));
    engine.pointer(ptr('up', sx(3000) - 2, sy(0) - 2, { time: 1100 }));
    expect(measure.liveDistanceText).toBe('');
    expect(measure.liveLabel.count).toBe(0);
    engine.dispose();
  });
});
