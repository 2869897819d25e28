/**
 * The thickness view through the engine facade (application.md §4 "Coloring", §9 "Plate overlay
 * (thickness view) | opacity 0.5, scale 1000"): the slab of the moulded face extruded by PLTH × 1000 mm
 * to the material side, on hand-made parts and on real models.
 */
import path from 'node:path';
import type { BufferGeometry, Material, Mesh } from 'three';
import { describe, expect, it } from 'vitest';
import { Engine, type EngineRenderer } from '../../../engine/Engine';
import type { EngineObjectTable } from '../../../engine/EngineApi';
import { importOcxFile } from '../../../engine/node/ocx/importFile';
import { sideDirection, THICKNESS_OVERLAY_OPACITY } from '../../../engine/tools/ThicknessView';
import { boxMesh, fakeFetch, packageBytes } from '../scene/sceneFixtures';

/** Panel 0; plate 1: a deck plate z 0..12 mm; plate 2: a longitudinal bulkhead y 500..510; stiffener 3. */
const table: EngineObjectTable = {
  ids: ['panel', 'deck', 'bhd', 'stf'],
  types: ['MAIN OBJECT', 'PLATE', 'PLATE', 'STIFFENER'],
  parents: new Int32Array([-1, 0, 0, 0]),
};
const meshes = [
  boxMesh(1, [0, 0, 0], [2000, 1000, 12]),
  boxMesh(2, [0, 500, 0], [2000, 510, 1000]),
  boxMesh(3, [0, 0, 12], [2000, 10, 200]),
];

async function engine() {
  const r: EngineRenderer = { setPixelRatio() {}, setSize() {}, render() {}, dispose() {} };
  const e = new Engine({ createRenderer: () => r, fetchFn: fakeFetch(packageBytes(meshes, 4)) });
  await e.init({ canvas: {} as OffscreenCanvas, width: 400, height: 300, pixelRatio: 1 });
  e.setObjectTable(table);
  await e.loadModel('/m.sc', {});
  return e;
}

const overlay = (e: Engine) =>
  (e.inspect().model!.root.parent!.children.find((c) => c.name === 'Thickness view') as Mesh | undefined) ?? null;

describe('thickness view', () => {
  it('material side directions of viewer.md §3', () => {
    expect(sideDirection('TOP', [0, 0, 1], [0, 0, 0])).toEqual([0, 0, 1]);
    expect(sideDirection('SB', [0, 1, 0], [0, 0, 0])).toEqual([0, -1, 0]);
    // IN on a side shell at y = +8000 (port) points to the centre plane
    expect(sideDirection('IN', [0, 1, 0], [0, 8000, 0])?.map((v) => v + 0)).toEqual([0, -1, 0]);
    expect(sideDirection('OUT', [0, 0, 1], [0, 0, 0])).toEqual([0, 0, -1]);
    expect(sideDirection('UNDEFINED', [0, 0, 1], [0, 0, 0])).toBeNull();
  });

  it('extrudes PLTH × 1000 mm from the moulded face to the material side, at opacity 0.5', async () => {
    const e = await engine();
    // deck: material TOP, 20 mm (the solid is 12 mm): the slab reaches z = 20 from the bottom face z = 0.
    // bulkhead: material SB, 10 mm: moulded face y = 510 (faces +y), slab toward −y to y = 500.
    const r = e.setThicknessView({
      nodeIds: Uint32Array.of(1, 2, 3),
      thickness: Float32Array.of(0.02, 0.01, 0),
      sides: ['TOP', 'SB', ''],
      rgb: Uint8Array.of(255, 0, 0, 0, 255, 0, 0, 0, 255),
    });
    expect(r).toEqual({ drawn: 3, skipped: 0 });
    const mesh = overlay(e)!;
    expect((mesh.material as Material).opacity).toBe(THICKNESS_OVERLAY_OPACITY);
    const g = mesh.geometry as BufferGeometry;
    const p = g.getAttribute('position');
    const c = g.getAttribute('color');
    const zs = new Set<number>(),
      ys = new Set<number>();
    for (let i = 0; i < p.count; i++) {
      if (c.getX(i) === 1) zs.add(Math.round(p.getZ(i)));
      if (c.getY(i) === 1) ys.add(Math.round(p.getY(i)));
    }
    expect([...zs].sort((a, b) => a - b)).toEqual([0, 20]);
    expect([...ys].sort((a, b) => a - b)).toEqual([500, 510]);
    // the profile is overlaid with its own solid: 12 triangles of its box
    let blue = 0;
    for (let i = 0; i < p.count; i++) if (c.getZ(i) === 1) blue++;
    expect(blue).toBe(36);
    // clipped with the model
    e.setClipping(true);
    expect((mesh.material as Material).clippingPlanes).toHaveLength(6);
    e.setClipping(false);
    expect((mesh.material as Material).clippingPlanes).toBeNull();
    e.setThicknessView(null);
    expect(overlay(e)).toBeNull();
    e.dispose();
  });

  it('MID is centred on the mid layer; UNDEFINED and in-plane sides are skipped', async () => {
    const e = await engine();
    const r = e.setThicknessView({
      nodeIds: Uint32Array.of(1, 2),
      thickness: Float32Array.of(0.004, 0.01),
      sides: ['MID', 'UNDEFINED'],
      rgb: new Uint8Array(6).fill(200),
    });
    expect(r).toEqual({ drawn: 1, skipped: 1 });
    const p = (overlay(e)!.geometry as BufferGeometry).getAttribute('position');
    const zs = new Set<number>();
    for (let i = 0; i < p.count; i++) zs.add(Math.round(p.getZ(i) * 10) / 10);
    expect([...zs].sort((a, b) => a - b)).toEqual([4, 8]);
    expect(
      e.setThicknessView({
        nodeIds: Uint32Array.of(1),
        thickness: Float32Array.of(0.01),
        sides: ['FORE'],
        rgb: new Uint8Array(3),
      }),
    ).toEqual({
      drawn: 0,
      skipped: 1,
    });
    e.dispose();
  });
});

describe('thickness view on real models', () => {
  // The importer builds each plate between its moulded surface and the material side (TOP, BOT, PS, SB,
  // FORE, AFT on TC12 and M8's plates and brackets, OUT and IN on the curved shell plates of M4, M7, TC13): the overlay drawn
  // from PLTH and MSIDE alone must cover the same steel (within the package's quantisation).
  for (const name of ['NAPA-TR03_TC12', 'NAPA-OCX_M8', 'NAPA-OCX_M4', 'NAPA-OCX_M7', 'NAPA-TR03_TC13']) {
    it(`${name}: every plate's and bracket's slab lies on the steel the importer drew`, async () => {
      const model = await importOcxFile(path.resolve(__dirname, `../../../../shared/models/ocx/${name}.3docx`));
      const r: EngineRenderer = { setPixelRatio() {}, setSize() {}, render() {}, dispose() {} };
      const e = new Engine({
        createRenderer: () => r,
        fetchFn: fakeFetch(packageBytes(model.meshes, model.objects.length)),
      });
      await e.init({ canvas: {} as OffscreenCanvas, width: 400, height: 300, pixelRatio: 1 });
      e.setObjectTable({
        ids: model.objects.map((o) => o.id),
        types: model.objects.map((o) => o.type),
        parents: Int32Array.from(model.objects, (o) => o.parent),
      });
      await e.loadModel('/m.sc', {});
      const bounds = e.inspect().model!.objectBounds;
      let checked = 0;
      const off: string[] = [];
      model.objects.forEach((o, i) => {
        const { PLTH, MSIDE } = model.properties[i];
        if ((o.type !== 'PLATE' && o.type !== 'BRACKET') || typeof PLTH !== 'number' || typeof MSIDE !== 'string')
          return;
        if (MSIDE === 'UNDEFINED') return;
        const res = e.setThicknessView({
          nodeIds: Uint32Array.of(i),
          thickness: Float32Array.of(PLTH),
          sides: [MSIDE],
          rgb: new Uint8Array(3),
        });
        if (res.drawn === 0) return;
        checked++;
        const p = (overlay(e)!.geometry as BufferGeometry).getAttribute('position');
        const min = [Infinity, Infinity, Infinity],
          max = [-Infinity, -Infinity, -Infinity];
        for (let k = 0; k < p.count; k++)
          [p.getX(k), p.getY(k), p.getZ(k)].forEach((v, a) => {
            min[a] = Math.min(min[a], v);
            max[a] = Math.max(max[a], v);
          });
        const b = bounds.subarray(i * 6, i * 6 + 6);
        const tol = 2 + PLTH * 100; // quantisation, and 10 % of the thickness
        const dev = Math.max(...[0, 1, 2].flatMap((a) => [Math.abs(min[a] - b[a]), Math.abs(max[a] - b[a + 3])]));
        if (dev > tol) off.push(`${o.id} ${MSIDE} ${(PLTH * 1000).toFixed(1)} mm: ${dev.toFixed(1)} mm`);
      });
      expect(checked).toBeGreaterThan(0);
      expect(off).toEqual([]);
      e.dispose();
    });
  }
});
