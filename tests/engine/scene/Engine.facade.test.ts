import { describe, expect, it } from 'vitest';
import { Engine, type EngineRenderer } from '../../../engine/Engine';
import type { EngineEvent, PointerInput } from '../../../engine/EngineApi';
import { pointerInput } from '../interaction/pointerInput';
import { H, W, sx, twoPanelBytes as bytes, twoPanelTable as table } from './engineFixtures';
import { fakeFetch } from './sceneFixtures';

async function loaded(options: { fetchStatus?: number; data?: Uint8Array } = {}) {
  const events: EngineEvent[] = [];
  const renders: number[] = [];
  const seen: { url: string; headers: Record<string, string> }[] = [];
  const renderer: EngineRenderer = {
    setPixelRatio() {},
    setSize() {},
    render: () => void renders.push(1),
    dispose() {},
  };
  const engine = new Engine({
    createRenderer: () => renderer,
    fetchFn: fakeFetch(options.data ?? bytes, { status: options.fetchStatus, pieces: 7, seen }),
  });
  await engine.init({ canvas: {} as OffscreenCanvas, width: W, height: H, pixelRatio: 1 });
  engine.subscribe((e) => void events.push(e));
  engine.setObjectTable(table);
  const load = engine.loadModel('/api/models/ship.sc', { authorization: 'Bearer t' });
  return { engine, events, renders, seen, load };
}

function ptr(kind: PointerInput['kind'], x: number, y: number, over: Partial<PointerInput> = {}): PointerInput {
  return pointerInput(kind, x, y, { buttons: 1, ...over });
}

function click(engine: Engine, x: number, y: number, over: Partial<PointerInput> = {}) {
  engine.pointer(ptr('down', x, y, over));
  engine.pointer(ptr('up', x, y, over));
}

function sideView(engine: Engine) {
  engine.orbitTo(90, 0, 0); // View along Y: screen x = world X, screen up = Z
  engine.fitToWindow();
}

const lastSelection = (events: EngineEvent[]) => {
  const e = events.filter((x) => x.type === 'selection-changed').pop();
  return e && e.type === 'selection-changed' ? e.items : undefined;
};

describe('Engine loading', () => {
  it('streams the package with the headers and reports progress, first frame and model-ready', async () => {
    const { engine, events, renders, seen, load } = await loaded();
    await load;
    expect(seen[0]).toEqual({ url: '/api/models/ship.sc', headers: { authorization: 'Bearer t' } });
    const ready = events.find((e) => e.type === 'model-ready');
    expect(ready).toEqual({ type: 'model-ready', bounds: [0, 0, 0, 5000, 3000, 1000], triangles: 48 });
    const progress = events.filter((e) => e.type === 'load-progress');
    expect(progress.length).toBeGreaterThan(0);
    const last = progress[progress.length - 1];
    expect(last.type === 'load-progress' && last.progress).toEqual({
      loadedBytes: bytes.length,
      totalBytes: bytes.length,
      chunksLoaded: 4,
      chunkCount: 4,
    });
    await new Promise((r) => setTimeout(r, 60));
    expect(renders.length).toBeGreaterThan(0);
    expect(events.some((e) => e.type === 'first-frame')).toBe(true);
    // The initial orbit of viewer.md §4.
    expect(engine.getView()).toMatchObject({ longitude: 160, latitude: 10 });
  });
  it('rejects and emits error on an HTTP failure', async () => {
    const { events, load } = await loaded({ fetchStatus: 404 });
    await expect(load).rejects.toThrow(/HTTP 404/);
    expect(events.find((e) => e.type === 'error')).toMatchObject({ message: expect.stringMatching(/HTTP 404/) });
  });
  it("rejects a truncated package with the reader's message", async () => {
    const { events, load } = await loaded({ data: bytes.slice(0, bytes.length - 10) });
    await expect(load).rejects.toThrow(/truncated/i);
    expect(events.some((e) => e.type === 'error')).toBe(true);
  });
});

describe('Engine picking, selection and visibility', () => {
  it('picks the object under the cursor with its world point, and misses in gaps', async () => {
    const { engine, load } = await loaded();
    await load;
    sideView(engine);
    const hit = engine.pick(sx(500), H / 2);
    expect(hit.type).toBe('hit');
    if (hit.type === 'hit') {
      expect(hit.nodeId).toBe(1);
      expect(hit.point[0]).toBeCloseTo(500, -1);
      expect(hit.point[1]).toBeCloseTo(0, 0); // the front face, y = 0
    }
    expect(engine.pick(sx(4500), H / 2)).toMatchObject({ type: 'hit', nodeId: 4 });
    expect(engine.pick(sx(1500), H / 2)).toEqual({ type: 'miss' });
  });
  it('clicks select, Ctrl toggles, a click on nothing clears', async () => {
    const { engine, events, load } = await loaded();
    await load;
    sideView(engine);
    click(engine, sx(500), H / 2);
    expect(lastSelection(events)).toEqual([{ keelsonId: 'p1', nodeId: 1, objectType: 'PLATE' }]);
    click(engine, sx(2500), H / 2, { ctrlKey: true });
    expect(lastSelection(events)?.map((i) => i.nodeId)).toEqual([1, 2]);
    click(engine, sx(500), H / 2, { ctrlKey: true });
    expect(lastSelection(events)?.map((i) => i.nodeId)).toEqual([2]);
    click(engine, sx(1500), H / 2);
    expect(lastSelection(events)).toEqual([]);
  });
  it('maps clicks to the owning MAIN OBJECT in main-objects mode and highlights its parts', async () => {
    const { engine, events, load } = await loaded();
    await load;
    sideView(engine);
    engine.setSelectionMode('main-objects');
    click(engine, sx(2500), H / 2);
    expect(lastSelection(events)).toEqual([{ keelsonId: 'panelA', nodeId: 0, objectType: 'MAIN OBJECT' }]);
  });
  it('a right click without movement asks for the context menu; a drag does not select', async () => {
    const { engine, events, load } = await loaded();
    await load;
    engine.pointer(ptr('down', 10, 10, { button: 2 }));
    engine.pointer(ptr('up', 11, 11, { button: 2 }));
    expect(events.filter((e) => e.type === 'context-menu')).toEqual([{ type: 'context-menu', x: 11, y: 11 }]);
    const before = events.filter((e) => e.type === 'selection-changed').length;
    const lon = engine.getView().longitude;
    engine.pointer(ptr('down', 100, 100));
    engine.pointer(ptr('move', 110, 100));
    engine.pointer(ptr('move', 120, 100));
    engine.pointer(ptr('up', 120, 100));
    expect(events.filter((e) => e.type === 'selection-changed').length).toBe(before);
    expect(engine.getView().longitude).toBeCloseTo(lon + 20 * 0.3, 6);
  });
  it('hidden objects are neither picked nor fitted; the object behind is picked instead', async () => {
    const { engine, load } = await loaded();
    await load;
    sideView(engine);
    engine.setVisibility([1], false);
    expect(engine.pick(sx(500), H / 2)).toMatchObject({ type: 'hit', nodeId: 5 });
    engine.setVisibility([3], false); // panel B hides s4 and p5
    expect(engine.pick(sx(500), H / 2)).toEqual({ type: 'miss' });
    engine.fitToWindow();
    const v = engine.getView();
    expect(v.target.x).toBeCloseTo(2500, 3); // only p2 (x 2000..3000) is left
    expect(v.width).toBeCloseTo(Math.max(1000, 1000 * (W / H)) * 1.1, 3);
    engine.setVisibility([0, 3], true);
    engine.fitToWindow();
    expect(engine.pick(sx(500), H / 2)).toMatchObject({ type: 'hit', nodeId: 1 });
  });
  it('setSelection emits items for known nodes only', async () => {
    const { engine, events, load } = await loaded();
    await load;
    engine.setSelection([4, 4, 99]);
    expect(lastSelection(events)).toEqual([{ keelsonId: 's4', nodeId: 4, objectType: 'STIFFENER' }]);
  });
  it('applies an object table that arrives after loading', async () => {
    const events: EngineEvent[] = [];
    const renderer: EngineRenderer = { setPixelRatio() {}, setSize() {}, render() {}, dispose() {} };
    const engine = new Engine({ createRenderer: () => renderer, fetchFn: fakeFetch(bytes) });
    await engine.init({ canvas: {} as OffscreenCanvas, width: W, height: H, pixelRatio: 1 });
    engine.subscribe((e) => void events.push(e));
    await engine.loadModel('/m.sc', {});
    engine.setSelection([2]);
    expect(lastSelection(events)).toEqual([]);
    engine.setObjectTable(table);
    engine.setSelection([2]);
    expect(lastSelection(events)).toEqual([{ keelsonId: 'p2', nodeId: 2, objectType: 'PLATE' }]);
    expect(() => engine.setObjectTable({ ids: ['a'], types: [], parents: new Int32Array(1) })).toThrow(
      /differ in length/,
    );
  });
  it('zooms by 0.8 per wheel notch', async () => {
    const { engine, load } = await loaded();
    await load;
    const w = engine.getView().width;
    engine.wheel({ x: W / 2, y: H / 2, deltaX: 0, deltaY: -100, ctrlKey: false, shiftKey: false });
    expect(engine.getView().width).toBeCloseTo(w * 0.8, 6);
  });
  it('refuses work after dispose', async () => {
    const { engine, load } = await loaded();
    await load;
    engine.dispose();
    expect(() => engine.pick(0, 0)).toThrow('Engine disposed');
    expect(() => engine.setSelection([])).toThrow('Engine disposed');
    await expect(engine.loadModel('/x.sc', {})).rejects.toThrow('Engine disposed');
  });
});
