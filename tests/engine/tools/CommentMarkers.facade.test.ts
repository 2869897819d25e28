import { describe, expect, it } from 'vitest';
import type { EngineEvent, PointerInput } from '../../../engine/EngineApi';
import { pointerInput } from '../interaction/pointerInput';
import { loadedSideView, sx, sy, twoPanelBytes as bytes, twoPanelTable as table } from '../scene/engineFixtures';

const ptr = (kind: PointerInput['kind'], x: number, y: number, button = 0): PointerInput =>
  pointerInput(kind, x, y, { button, buttons: kind === 'move' ? 0 : 1 << button });
const of = <T extends EngineEvent['type']>(events: EngineEvent[], type: T) =>
  events.filter((e) => e.type === type) as Extract<EngineEvent, { type: T }>[];

async function loaded() {
  const { engine, events } = await loadedSideView(bytes, table);
  const click = (x: number, y: number, button = 0) => {
    engine.pointer(ptr('down', x, y, button));
    engine.pointer(ptr('up', x, y, button));
  };
  return { engine, events, click };
}

describe('comment markers through the facade (viewer.md §4 "Marker placement")', () => {
  it('places a marker on the snapped geometry point with a left click', async () => {
    const { engine, events, click } = await loaded();
    engine.startCommentMarkerPlacement();
    // A click on empty background keeps the operator armed.
    click(sx(1500), sy(500));
    expect(of(events, 'comment-marker-placed')).toHaveLength(0);
    // Near the top right corner of the first box (x 1000, z 1000): the end point snaps.
    click(sx(1000) - 3, sy(1000) + 3);
    const placed = of(events, 'comment-marker-placed');
    expect(placed).toHaveLength(1);
    const p = placed[0].point!;
    expect(p[0]).toBeCloseTo(1000, 0);
    expect(p[2]).toBeCloseTo(1000, 0);
    // Disarmed: a further click selects instead of placing.
    click(sx(500), sy(500));
    expect(of(events, 'comment-marker-placed')).toHaveLength(1);
    expect(
      of(events, 'selection-changed')
        .at(-1)
        ?.items.map((i) => i.keelsonId),
    ).toEqual(['p1']);
    engine.dispose();
  });
  it('cancels placement with a right click and opens no context menu', async () => {
    const { engine, events, click } = await loaded();
    engine.startCommentMarkerPlacement();
    click(sx(500), sy(500), 2);
    expect(of(events, 'comment-marker-placed').map((e) => e.point)).toEqual([null]);
    expect(of(events, 'context-menu')).toHaveLength(0);
    engine.cancelCommentMarkerPlacement();
    expect(of(events, 'comment-marker-placed')).toHaveLength(1);
    engine.dispose();
  });
  it('opens the thread of a clicked pin, unless the pins are hidden', async () => {
    const { engine, events, click } = await loaded();
    engine.setCommentMarkers([
      { id: 'thread-a', point: [2500, 500, 500], active: false },
      { id: 'thread-b', point: [4500, 500, 900], active: true },
    ]);
    click(sx(4500) + 4, sy(900) - 4);
    expect(of(events, 'comment-marker-clicked').map((e) => e.id)).toEqual(['thread-b']);
    // The pin takes the click: box 4 under it is not selected.
    expect(of(events, 'selection-changed')).toHaveLength(0);
    engine.setCommentMarkersVisible(false);
    click(sx(2500), sy(500));
    expect(of(events, 'comment-marker-clicked')).toHaveLength(1);
    expect(
      of(events, 'selection-changed')
        .at(-1)
        ?.items.map((i) => i.keelsonId),
    ).toEqual(['p2']);
    expect(() => engine.setCommentMarkers([{ id: 'x', point: [0, Number.NaN, 0], active: false }])).toThrow(
      /not three finite numbers/,
    );
    engine.dispose();
  });
  it('restores a saved orbit view', async () => {
    const { engine } = await loaded();
    const saved = engine.getView();
    engine.orbitTo(10, 40, 0);
    engine.wheel({ x: 100, y: 100, deltaX: 0, deltaY: 300, ctrlKey: false, shiftKey: false });
    expect(engine.getView().width).not.toBeCloseTo(saved.width, 3);
    engine.setView(saved);
    const now = engine.getView();
    expect(now.longitude).toBeCloseTo(saved.longitude, 6);
    expect(now.latitude).toBeCloseTo(saved.latitude, 6);
    expect(now.width).toBeCloseTo(saved.width, 6);
    expect(now.target).toEqual(saved.target);
    engine.dispose();
  });
});
