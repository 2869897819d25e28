/** Engine test fixtures: the two-panel box scene, a side-view screen mapping and a loaded Engine facade. */
import { Engine, type EngineRenderer } from '../../../engine/Engine';
import type { EngineEvent, EngineObjectTable } from '../../../engine/EngineApi';
import { boxMesh, fakeFetch, packageBytes } from './sceneFixtures';

/** Objects: 0 panel A (MAIN OBJECT) with plates 1, 2; 3 panel B with stiffener 4 and plate 5 behind plate 1. */
export const twoPanelTable: EngineObjectTable = {
  ids: ['panelA', 'p1', 'p2', 'panelB', 's4', 'p5'],
  types: ['MAIN OBJECT', 'PLATE', 'PLATE', 'MAIN OBJECT', 'STIFFENER', 'PLATE'],
  parents: new Int32Array([-1, 0, 0, -1, 3, 3]),
};
/** Boxes of 1000 mm for objects 1, 2, 4 and 5. */
export const twoPanelMeshes = [
  boxMesh(1, [0, 0, 0], [1000, 1000, 1000]),
  boxMesh(2, [2000, 0, 0], [3000, 1000, 1000]),
  boxMesh(4, [4000, 0, 0], [5000, 1000, 1000]),
  boxMesh(5, [0, 2000, 0], [1000, 3000, 1000]),
];
/** 12 triangles per chunk: every box is its own chunk. */
export const twoPanelBytes = packageBytes(twoPanelMeshes, 6, 12);

export const W = 1000,
  H = 500;
/** Side view (along +Y) fitted to x 0..5000 (5.5 mm per px): screen x of world X, screen y of world Z. */
export const sx = (X: number) => ((X - 2500) / 5500) * W + W / 2;
export const sy = (Z: number) => H / 2 - ((Z - 500) / 5500) * W;

/**
 * An Engine on a W×H canvas with a no-op renderer (plus `renderer` overrides), `table` applied and the
 * package `bytes` loaded, turned to the side view along +Y and fitted; `events` collects what it emits.
 */
export async function loadedSideView(
  bytes: Uint8Array,
  table: EngineObjectTable,
  renderer: Partial<EngineRenderer> = {},
) {
  const events: EngineEvent[] = [];
  const r: EngineRenderer = { setPixelRatio() {}, setSize() {}, render() {}, dispose() {}, ...renderer };
  const engine = new Engine({ createRenderer: () => r, fetchFn: fakeFetch(bytes) });
  await engine.init({ canvas: {} as OffscreenCanvas, width: W, height: H, pixelRatio: 1 });
  engine.subscribe((e) => void events.push(e));
  engine.setObjectTable(table);
  await engine.loadModel('/m.sc', {});
  engine.orbitTo(90, 0, 0);
  engine.fitToWindow();
  return { engine, events };
}
