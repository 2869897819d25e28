/**
 * Box selection of a loaded model (ModelScene.boxSelect: the query over the hierarchy of object bounds)
 * selects exactly what the scan of every object selects (tests/engine/interaction/boxSelectScan.ts), on a
 * real OCX file and a generated ship, imported and packaged as the server does: several orbit views, random
 * rectangles, both drag directions, both selection modes, some objects hidden. Also: the hierarchy built
 * in idle slices after loading is the one a box uses (with the chunks' used-vertex bits, and without them
 * before the idle builder ran), a chunk arriving later rebuilds it, and the engine's idle builder completes
 * it after loading, then runs the warm-up boxes (interaction/boxWarmUp.ts) without selecting anything.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { Scene } from 'three';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CameraRig } from '../../../engine/interaction/CameraRig';
import type { BoxSelectMode } from '../../../engine/interaction/boxSelect';
import { BOX_WARM_UP_BOXES } from '../../../engine/interaction/boxWarmUp';
import { importOcxFile } from '../../../engine/node/ocx/importFile';
import { decodeScenePackage } from '../../../engine/package/reader';
import { concatFrames, encodeScenePackage } from '../../../engine/package/writer';
import { createStateUniforms } from '../../../engine/scene/chunkMaterial';
import { ModelScene } from '../../../engine/scene/ModelScene';
import { OBJECT_FLAGS } from '../../../engine/scene/ObjectStateTable';
import { writeShipOcx } from '../../../tools/generator';
import { scanBoxSelect } from '../interaction/boxSelectScan';
import { IDLE_BUSY_WAIT_MS } from '../../../engine/scene/ModelLoader';
import { pointerInput } from '../interaction/pointerInput';
import { W as FIXTURE_W, loadedSideView, twoPanelBytes, twoPanelTable } from './engineFixtures';

const W = 1280,
  H = 720;

/** Imports an OCX file and loads its package into a ModelScene with the object table. */
async function loadScene(file: string): Promise<ModelScene> {
  const model = await importOcxFile(file, { threads: 0 });
  const bytes = concatFrames(
    encodeScenePackage(model.meshes, {
      bounds: model.info.bounds,
      objectCount: model.objects.length,
      tolerances: model.info.tolerances,
    }),
  );
  const { header, chunks } = decodeScenePackage(bytes);
  const table = {
    ids: model.objects.map((o) => o.id),
    types: model.objects.map((o) => o.type),
    parents: Int32Array.from(model.objects, (o) => o.parent),
  };
  const m = new ModelScene(header, table, createStateUniforms());
  for (const c of chunks) m.addChunk(c);
  m.loading = false;
  return m;
}

/** The view-projection of the orbit camera at (lon, lat), fitted to the model, as the engine gives it. */
function orbitView(m: ModelScene, lon: number, lat: number) {
  const cams = new CameraRig(new Scene());
  cams.setViewport(W, H);
  cams.orbit.setOrbit(lon, lat);
  cams.orbit.fit(m.visibleBounds()!);
  return { matrix: [...cams.viewProjection().elements], width: W, height: H };
}

/** The scan's answer mapped to the selectable nodes of the mode, as ModelScene.boxSelect reports it. */
function scanned(
  m: ModelScene,
  rect: { x0: number; y0: number; x1: number; y1: number },
  mode: BoxSelectMode,
  view: ReturnType<typeof orbitView>,
  selectionMode: 'structural-details' | 'main-objects',
): number[] {
  const ids = scanBoxSelect(
    {
      objectCount: m.nodeCount,
      bounds: m.objectBounds,
      eligible: (i) => !m.state.isHidden(i),
      forEachPiece: (i, fn) => m.forEachPiece(i, fn),
    },
    rect,
    mode,
    view,
    // The model's own dequantisation of its triangles, independent of the pieces the query reads.
    (i, fn) => m.forEachTriangle(i, fn),
  );
  return [...new Set(ids.map((i) => m.selectableNode(i, selectionMode)))].sort((a, b) => a - b);
}

const px = (max: number) => fc.integer({ min: -50, max: max + 50 });
const rect = fc.record({ x0: px(W), y0: px(H), x1: px(W), y1: px(H) });
const mode = fc.constantFrom<BoxSelectMode>('inside', 'touch');
const selectionMode = fc.constantFrom<'structural-details' | 'main-objects'>('structural-details', 'main-objects');

/** Checks the query against the scan for random rectangles in a few views, with and without hidden objects. */
function checkAgainstScan(m: ModelScene, runs: number): number {
  let selected = 0;
  for (const [lon, lat] of [
    [160, 10],
    [270, 0],
    [45, 60],
  ]) {
    const view = orbitView(m, lon, lat);
    fc.assert(
      fc.property(rect, mode, selectionMode, (r, md, sm) => {
        const got = m.boxSelect(r, md, view, sm);
        expect(got).toEqual(scanned(m, r, md, view, sm));
        selected += got.length;
      }),
      { numRuns: runs, seed: lon },
    );
  }
  // The middle third, right to left, as the bench drags it: a large selection taken mostly whole.
  const view = orbitView(m, 160, 10);
  const third = { x0: (W * 2) / 3, y0: H / 3, x1: W / 3, y1: (H * 2) / 3 };
  expect(m.boxSelect(third, 'touch', view, 'structural-details')).toEqual(
    scanned(m, third, 'touch', view, 'structural-details'),
  );
  // Every third object hidden: hidden objects are never selected, even inside a subtree taken whole.
  const hidden = Array.from({ length: Math.ceil(m.nodeCount / 3) }, (_, k) => k * 3);
  m.setVisibility(hidden, false);
  const all = { x0: -10, y0: -10, x1: W + 10, y1: H + 10 };
  const got = m.boxSelect(all, 'inside', view, 'structural-details');
  expect(got).toEqual(scanned(m, all, 'inside', view, 'structural-details'));
  expect(got.some((n) => (m.state.flags[n] & OBJECT_FLAGS.hidden) !== 0)).toBe(false);
  expect(m.boxSelect(third, 'touch', view, 'structural-details')).toEqual(
    scanned(m, third, 'touch', view, 'structural-details'),
  );
  m.setVisibility(hidden, true);
  return selected;
}

describe('ModelScene.boxSelect (hierarchy query) equals the scan of every object', () => {
  let dir = '';
  let ship: ModelScene;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'keelson-boxselect-'));
    const file = path.join(dir, 'ship.3docx');
    await writeShipOcx(file, { targetParts: 1500, seed: 3 });
    ship = await loadScene(file);
  }, 60_000);
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('on a real OCX file (NAPA-OCX_M8)', async () => {
    const m = await loadScene(path.resolve(__dirname, '../../../../shared/models/ocx/NAPA-OCX_M8.3docx'));
    expect(m.nodeCount).toBeGreaterThan(100);
    // First without the chunks' used-vertex bits (a box before the idle builder: triangles only), then with.
    expect(checkAgainstScan(m, 25)).toBeGreaterThan(0);
    expect(m.boxTreeReady).toBe(false);
    expect(m.buildBoxTree(Infinity)).toBe(true);
    expect(checkAgainstScan(m, 25)).toBeGreaterThan(0);
  });

  it('on a generated ship, with the hierarchy built in idle slices', () => {
    expect(ship.nodeCount).toBeGreaterThan(1000);
    // Tiny slices, as the idle builder runs them: several calls until complete.
    let slices = 1;
    while (!ship.buildBoxTree(0)) slices++;
    expect(slices).toBeGreaterThan(1);
    expect(ship.boxTreeReady).toBe(true);
    expect(checkAgainstScan(ship, 25)).toBeGreaterThan(0);
  });

  it('a chunk added after the hierarchy was built makes the next box rebuild it', () => {
    // The ship's chunks again (read-only typed arrays), all but the last one first.
    const chunks = ship.chunks.map((c) => c.chunk);
    expect(chunks.length).toBeGreaterThan(1);
    const m = new ModelScene(ship.header, ship.objectTable, createStateUniforms());
    for (const c of chunks.slice(0, -1)) m.addChunk(c);
    m.loading = false;
    expect(m.buildBoxTree(Infinity)).toBe(true);
    m.addChunk(chunks[chunks.length - 1]);
    expect(m.boxTreeReady).toBe(false);
    const view = orbitView(m, 160, 10);
    const all = { x0: 0, y0: 0, x1: W, y1: H };
    const got = m.boxSelect(all, 'touch', view, 'structural-details');
    expect(got).toEqual(scanned(m, all, 'touch', view, 'structural-details'));
    expect(got).toEqual(ship.boxSelect(all, 'touch', view, 'structural-details'));
    // The box finished the hierarchy only; the new chunk's used-vertex bits come from the idle builder.
    expect(m.boxTreeReady).toBe(false);
    expect(m.buildBoxTree(Infinity)).toBe(true);
    expect(m.boxSelect(all, 'touch', view, 'structural-details')).toEqual(got);
  });

  it('has no warm-up without a view (walk mode) and none before the hierarchy is complete', () => {
    const m = new ModelScene(ship.header, ship.objectTable, createStateUniforms());
    for (const c of ship.chunks) m.addChunk(c.chunk);
    m.loading = false;
    const view = orbitView(m, 160, 10);
    // Before the hierarchy: nothing runs (the idle builder builds it first).
    expect(m.warmBoxSelect(view)).toBe(true);
    expect(m.idleDone).toBe(false);
    expect(m.buildBoxTree(Infinity)).toBe(true);
    expect(m.warmBoxSelect(null)).toBe(true);
    expect(m.idleDone).toBe(m.chunks.every((c) => c.hasBvh));
  });
});

describe('the engine builds the box-selection hierarchy when idle', () => {
  it('after loading, the idle builder completes it (after the BVHs) without a box gesture', async () => {
    const { engine } = await loadedSideView(twoPanelBytes, twoPanelTable);
    const m = engine.inspect().model!;
    expect(m.chunks.length).toBeGreaterThan(1);
    for (let k = 0; k < 200 && !(m.boxTreeReady && m.chunks.every((c) => c.hasBvh)); k++)
      await new Promise((r) => setTimeout(r, 5));
    expect(m.chunks.every((c) => c.hasBvh)).toBe(true);
    expect(m.boxTreeReady).toBe(true);
    engine.dispose();
  });

  it('waits while the camera is dragged, and goes on when the drag ends', async () => {
    const { engine } = await loadedSideView(twoPanelBytes, twoPanelTable);
    const m = engine.inspect().model!;
    const progress = () => [m.chunks.filter((c) => c.hasBvh).length, m.boxTreeReady, m.idleDone];
    // A drag past the click threshold: navigation from the first move on.
    engine.pointer(pointerInput('down', 400, 300));
    engine.pointer(pointerInput('move', 440, 320, { time: 16 }));
    expect(engine.navigating).toBe(true);
    const before = progress();
    expect(before[2]).toBe(false);
    await new Promise((r) => setTimeout(r, 3 * IDLE_BUSY_WAIT_MS));
    expect(progress()).toEqual(before);
    engine.pointer(pointerInput('up', 440, 320, { time: 32 }));
    expect(engine.navigating).toBe(false);
    for (let k = 0; k < 400 && !m.idleDone; k++) await new Promise((r) => setTimeout(r, 5));
    expect(m.idleDone).toBe(true);
    engine.dispose();
  });

  it('then warms the box kernel with boxes of both modes in the view, selecting and emitting nothing', async () => {
    const boxes: { mode: BoxSelectMode; width: number; hierarchy: boolean }[] = [];
    const spy = vi.spyOn(ModelScene.prototype, 'boxSelect').mockImplementation(function (this: ModelScene, ...a) {
      boxes.push({ mode: a[1], width: a[2].width, hierarchy: this.boxTreeReady });
      return realBoxSelect.apply(this, a);
    });
    try {
      const { engine, events } = await loadedSideView(twoPanelBytes, twoPanelTable);
      const m = engine.inspect().model!;
      for (let k = 0; k < 400 && !m.idleDone; k++) await new Promise((r) => setTimeout(r, 5));
      expect(m.idleDone).toBe(true);
      expect(boxes).toHaveLength(BOX_WARM_UP_BOXES);
      expect(new Set(boxes.map((b) => b.mode))).toEqual(new Set(['inside', 'touch']));
      // In the engine's view (its canvas width), only once the hierarchy and the used-vertex bits were in.
      expect(boxes.every((b) => b.width === FIXTURE_W && b.hierarchy)).toBe(true);
      expect(events.some((e) => e.type === 'selection-changed')).toBe(false);
      expect(m.state.countFlag(OBJECT_FLAGS.selected)).toBe(0);
      // Done: no more boxes however long the engine idles.
      await new Promise((r) => setTimeout(r, 50));
      expect(boxes).toHaveLength(BOX_WARM_UP_BOXES);
      engine.dispose();
    } finally {
      spy.mockRestore();
    }
  });
});

const realBoxSelect = ModelScene.prototype.boxSelect;
