import { afterEach, describe, expect, it, vi } from 'vitest';
import { Plane, Vector3 } from 'three';
import { decodeScenePackage } from '../../../engine/package/reader';
import { createStateUniforms } from '../../../engine/scene/chunkMaterial';
import { ModelScene } from '../../../engine/scene/ModelScene';
import type { PointerInput } from '../../../engine/EngineApi';
import { pointerInput } from '../interaction/pointerInput';
import { NAV_IDLE_MS } from '../../../engine/interaction/NavigationQuality';
import { boxMesh, packageBytes } from './sceneFixtures';
import { W, H, loadedSideView, twoPanelBytes, twoPanelTable } from './engineFixtures';

/** One big box (object 0, 2 m) and ten small ones (objects 1..10, 20 mm: 35 mm diagonal) in one chunk. */
function scene(): ModelScene {
  const meshes = [boxMesh(0, [0, 0, 0], [2000, 2000, 2000])];
  for (let i = 1; i <= 10; i++) meshes.push(boxMesh(i, [i * 100, 3000, 0], [i * 100 + 20, 3020, 20]));
  const { header, chunks } = decodeScenePackage(packageBytes(meshes, 11));
  const m = new ModelScene(header, null, createStateUniforms());
  for (const c of chunks) m.addChunk(c);
  m.loading = false;
  return m;
}
/** A view-projection that keeps everything inside the clip volume (every chunk is drawn). */
const everything = [1e-5, 0, 0, 0, 0, 1e-5, 0, 0, 0, 0, 1e-5, 0, 0, 0, 0, 1];
/** 10 mm per pixel: the small boxes are 3.5 px (drawn at rest, under NAV_DETAIL_MIN_PX), the big one 346 px. */
const px = () => 10;
const edgesShown = (m: ModelScene) => m.chunks.some((c) => c.edges?.visible);

describe('ModelScene.cull with interactive detail', () => {
  it('draws no edges and fewer triangles while interactive, full detail again at rest', () => {
    const m = scene();
    m.cull(everything, px);
    const still = m.trianglesDrawn;
    expect(still).toBe(m.triangles);
    expect(edgesShown(m)).toBe(true);
    expect(m.interactiveDrawn).toBe(false);

    m.interactive = true;
    m.cull(everything, px);
    expect(edgesShown(m)).toBe(false);
    expect(m.trianglesDrawn).toBeLessThan(still);
    expect(m.trianglesDrawn).toBeGreaterThanOrEqual(12); // the big box stays
    expect(m.interactiveDrawn).toBe(true);

    m.interactive = false;
    m.cull(everything, px);
    expect(m.trianglesDrawn).toBe(still);
    expect(edgesShown(m)).toBe(true);
  });

  it('keeps full detail while clipping (caps need closed solids)', () => {
    const m = scene();
    m.setClippingPlanes([new Plane(new Vector3(-1, 0, 0), 5000)]);
    m.interactive = true;
    m.cull(everything, px);
    expect(m.trianglesDrawn).toBe(m.triangles);
    expect(edgesShown(m)).toBe(true);
    expect(m.interactiveDrawn).toBe(false);
  });
});

function ptr(kind: PointerInput['kind'], x: number, y: number, over: Partial<PointerInput> = {}): PointerInput {
  return pointerInput(kind, x, y, { buttons: 1, ...over });
}

describe('Engine switches to interactive detail while navigating', () => {
  afterEach(() => vi.useRealTimers());

  /** A loaded engine whose renderer records whether each frame was drawn with interactive detail. */
  async function engineWithFrames() {
    const frames: boolean[] = [];
    let model: ModelScene | null = null;
    const { engine } = await loadedSideView(twoPanelBytes, twoPanelTable, {
      render: () => void frames.push(model!.interactiveDrawn),
    });
    model = engine.inspect().model;
    // Let the frames the load scheduled (on real timers) run, then drive the frame loop with fake ones.
    await new Promise((r) => setTimeout(r, 60));
    vi.useFakeTimers();
    frames.length = 0;
    return { engine, frames };
  }

  it('on drag start and back to full quality at once on release', async () => {
    const { engine, frames } = await engineWithFrames();
    engine.pointer(ptr('down', W / 2, H / 2));
    engine.pointer(ptr('move', W / 2 + 2, H / 2)); // within the click threshold: not a drag yet
    vi.advanceTimersByTime(40);
    expect(frames.every((f) => !f)).toBe(true);
    engine.pointer(ptr('move', W / 2 + 20, H / 2));
    vi.advanceTimersByTime(40);
    expect(frames[frames.length - 1]).toBe(true);
    engine.pointer(ptr('up', W / 2 + 20, H / 2, { buttons: 0 }));
    const n = frames.length;
    vi.advanceTimersByTime(20); // one frame interval
    expect(frames.length).toBeGreaterThan(n);
    expect(frames[frames.length - 1]).toBe(false);
  });

  it('a shift-drag selection box keeps full quality', async () => {
    const { engine, frames } = await engineWithFrames();
    engine.pointer(ptr('down', 100, 100, { shiftKey: true }));
    engine.pointer(ptr('move', 300, 300, { shiftKey: true }));
    engine.setVisibility([1], false); // something to redraw
    vi.advanceTimersByTime(40);
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.some((f) => f)).toBe(false);
    engine.pointer(ptr('up', 300, 300, { shiftKey: true, buttons: 0 }));
  });

  it('for wheel zoom until NAV_IDLE_MS after the last wheel event', async () => {
    const { engine, frames } = await engineWithFrames();
    engine.wheel({ x: W / 2, y: H / 2, deltaX: 0, deltaY: -100, shiftKey: false, ctrlKey: false } as Parameters<
      typeof engine.wheel
    >[0]);
    vi.advanceTimersByTime(40);
    expect(frames[frames.length - 1]).toBe(true);
    vi.advanceTimersByTime(NAV_IDLE_MS - 80);
    const n = frames.length;
    expect(engine.navigating).toBe(true);
    vi.advanceTimersByTime(80);
    expect(engine.navigating).toBe(false);
    expect(frames.length).toBeGreaterThan(n);
    expect(frames[frames.length - 1]).toBe(false);
  });

  it('during an animated projection view, with a full-quality last frame', async () => {
    const { engine, frames } = await engineWithFrames();
    engine.viewAlong('Z');
    vi.advanceTimersByTime(300);
    expect(frames.some((f) => f)).toBe(true);
    vi.advanceTimersByTime(1000);
    expect(frames[frames.length - 1]).toBe(false);
  });
});
