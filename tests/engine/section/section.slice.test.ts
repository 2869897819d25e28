/**
 * Section kernel: raw slicing and chaining on hand-made solids, and a transverse
 * section of NAPA-OCX_M8 at X = 2400 mm checked against values reasoned from the plate bounds.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { importOcxFile } from '../../../engine/node/ocx/importFile';
import type { ImportResult, ModelObject, PartMesh } from '../../../engine/model/types';
import { SectionIndex } from '../../../engine/section/SectionIndex';
import { chainSegments, polygonArea, polylineLength, sliceTriangles } from '../../../engine/section/slice';
import { classifyRelation, computeSection } from '../../../engine/section/section';
import { drawPriority, plateLabel, sectionName } from '../../../engine/section/types';
import { concatFrames, encodeScenePackage } from '../../../engine/package/writer';
import { decodeScenePackage } from '../../../engine/package/reader';

/** A closed box mesh [x0..x1]×[y0..y1]×[z0..z1] (12 triangles, 8 shared vertices). */
function box(object: number, b: number[]): PartMesh {
  const [x0, y0, z0, x1, y1, z1] = b;
  const positions = new Float32Array([
    x0,
    y0,
    z0,
    x1,
    y0,
    z0,
    x1,
    y1,
    z0,
    x0,
    y1,
    z0,
    x0,
    y0,
    z1,
    x1,
    y0,
    z1,
    x1,
    y1,
    z1,
    x0,
    y1,
    z1,
  ]);
  const q = [
    [0, 3, 2, 1],
    [4, 5, 6, 7],
    [0, 1, 5, 4],
    [1, 2, 6, 5],
    [2, 3, 7, 6],
    [3, 0, 4, 7],
  ];
  const indices = new Uint32Array(q.flatMap(([a, b2, c, d]) => [a, b2, c, a, c, d]));
  return { object, positions, normals: null, indices, edges: null };
}

describe('slicing and chaining', () => {
  it('cuts a box into one closed rectangle with the right perimeter and area', () => {
    const m = box(0, [0, 0, 0, 1000, 200, 10]);
    const segs: number[] = [];
    sliceTriangles(m.positions, m.indices, 0, m.indices.length, 0, 400, segs);
    const loops = chainSegments(segs);
    expect(loops).toHaveLength(1);
    expect(loops[0].closed).toBe(true);
    expect(polylineLength(loops[0].points, true)).toBeCloseTo(2 * (200 + 10), 6);
    expect(polygonArea(loops[0].points, 0)).toBeCloseTo(2000, 6);
    for (let i = 0; i < loops[0].points.length; i += 3) expect(loops[0].points[i]).toBe(400);
  });
  it('stays closed when the plane passes exactly through vertices (octahedron cut at its equator)', () => {
    const positions = new Float32Array([100, 0, 0, 0, 100, 0, -100, 0, 0, 0, -100, 0, 0, 0, 100, 0, 0, -100]);
    const indices = new Uint32Array([0, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0, 4, 1, 0, 5, 2, 1, 5, 3, 2, 5, 0, 3, 5]);
    const segs: number[] = [];
    sliceTriangles(positions, indices, 0, indices.length, 2, 0, segs);
    const loops = chainSegments(segs);
    expect(loops.length).toBe(1);
    expect(loops[0].closed).toBe(true);
    expect(loops[0].points.length).toBe(12);
    expect(polygonArea(loops[0].points, 2)).toBeCloseTo(20000, 6);
  });
  it('treats a face lying exactly on the plane as being on its positive side (no segments)', () => {
    const m = box(0, [0, 0, 0, 1000, 200, 10]);
    const segs: number[] = [];
    sliceTriangles(m.positions, m.indices, 0, m.indices.length, 2, 0, segs);
    expect(chainSegments(segs)).toEqual([]);
  });
  it('chains shuffled open segments into one open polyline and drops zero-length ones', () => {
    const segs = [1, 0, 0, 2, 0, 0, 0, 0, 0, 1, 0, 0, 2, 0, 0, 2, 1, 0, 5, 5, 5, 5, 5, 5 + 1e-5];
    const p = chainSegments(segs);
    expect(p).toHaveLength(1);
    expect(p[0].closed).toBe(false);
    expect(polylineLength(p[0].points, false)).toBeCloseTo(3, 9);
  });
  it('joins ends within the closed tolerance (1 mm) and closes the loop', () => {
    const segs = [0, 0, 0, 100, 0, 0, 100, 0, 0.5, 100, 100, 0, 100, 100, 0, 0, 0, 0.6];
    const p = chainSegments(segs);
    expect(p).toHaveLength(1);
    expect(p[0].closed).toBe(true);
  });
  it('drops the points on the line between their neighbours when asked (sections), and only those', () => {
    // A 100 × 10 rectangle whose long sides were cut at every 25 mm (the plane crossing triangle edges),
    // one point 2 µm off its line (kept), a spike going back on itself (kept: not between its neighbours).
    const ring = [
      [0, 0, 0],
      [25, 0, 0],
      [50, 0.002, 0],
      [75, 0, 0],
      [100, 0, 0],
      [100, 10, 0],
      [50, 10, 0],
      [60, 10, 0],
      [0, 10, 0],
    ];
    const segs = ring.flatMap((p, i) => [...p, ...ring[(i + 1) % ring.length]]);
    const [all] = chainSegments(segs);
    expect(all.points.length / 3).toBe(9);
    const [kept] = chainSegments(segs, 1, 1e-3, 1e-3);
    expect(kept.closed).toBe(true);
    expect(Array.from(kept.points)).toEqual([
      0, 0, 0, 50, 0.002, 0, 100, 0, 0, 100, 10, 0, 50, 10, 0, 60, 10, 0, 0, 10, 0,
    ]);
    // An open straight run keeps its two ends; the first point of a closed one is kept even on a line.
    const [run] = chainSegments([0, 0, 0, 1, 0, 0, 1, 0, 0, 2, 0, 0, 2, 0, 0, 3, 0, 0], 1, 1e-3, 1e-3);
    expect(Array.from(run.points)).toEqual([0, 0, 0, 3, 0, 0]);
    const square = [
      [5, 0, 0],
      [10, 0, 0],
      [10, 10, 0],
      [0, 10, 0],
      [0, 0, 0],
    ];
    const [sq] = chainSegments(
      square.flatMap((p, i) => [...p, ...square[(i + 1) % square.length]]),
      1,
      1e-3,
      1e-3,
    );
    expect(sq.points.length / 3).toBe(5);
  });
});

describe('classification rules', () => {
  it('tells in-section, intersected and connecting apart', () => {
    expect(classifyRelation([4800, -3000, 1200, 4810, 3000, 4200], 0, 4805, 1, 'plates', 10)).toBe('inSection');
    expect(classifyRelation([0, -3000, 1200, 4800, 3000, 1210], 0, 2400, 1, 'plates', 10)).toBe('intersected');
    expect(classifyRelation([0, 0, 0, 2400, 40, 220], 0, 2400, 1, 'stiffeners')).toBe('connectingNegative');
    expect(classifyRelation([2400, 0, 0, 4800, 40, 220], 0, 2400.5, 1, 'stiffeners')).toBe('connectingPositive');
    expect(classifyRelation([2300, -2400, 1800, 2500, 2400, 3500], 0, 2400, 1, 'stiffeners')).toBe('inSection');
  });
  it('labels, names and priorities follow viewer.md §9 / §3', () => {
    expect(plateLabel(2999.6, 9)).toBe('3000 x 9');
    expect(plateLabel(1234.4, 12.5)).toBe('1234 x 12.5');
    expect(sectionName('X', '#10+0.1')).toBe('X=#10+0.1');
    expect(sectionName('Y', '-#l3')).toBe('Y=-#L3');
    expect([
      drawPriority('plates', 'intersected'),
      drawPriority('seams'),
      drawPriority('plates', 'inSection'),
      drawPriority('stiffeners', 'intersected'),
      drawPriority('stiffeners', 'inSection'),
      drawPriority('brackets'),
      drawPriority('compartments'),
      drawPriority('grid'),
    ]).toEqual([1.1, 1, 0.9, 0.8, 0.7, 0.6, 0.5, 0]);
  });
});

describe('NAPA-OCX_M8 transverse section at X = 2400 mm', () => {
  let r: ImportResult;
  let index: SectionIndex;
  const byName = (objs: ModelObject[], n: string) => objs.find((o) => o.name === n)!;
  beforeAll(async () => {
    r = await importOcxFile(path.resolve(__dirname, '../../../../shared/models/ocx/NAPA-OCX_M8.3docx'));
    index = SectionIndex.fromMeshes(r.meshes);
  });

  it('finds the plates the plane crosses, with length and thickness from their bounds', () => {
    const s = computeSection({ objects: r.objects, properties: r.properties, frames: r.frames, index }, 'X', 2400);
    // By the bounds: plates spanning x 0..4800 are crossed at 2400; their in-plane extents are the trace lengths
    // (side bulkheads: z 1200..4200 = 3000 mm; deck/bottom: y -3000..3000 = 6000 mm), thickness = the bounds' thin side.
    const crossed = r.objects.filter((o) => o.type === 'PLATE' && o.bounds && o.bounds[0] < 2399 && o.bounds[3] > 2401);
    const expected = crossed
      .map((o) => {
        const b = o.bounds!;
        const ey = b[4] - b[1],
          ez = b[5] - b[2];
        return `${o.name}|${Math.round(Math.max(ey, ez))} x ${Math.round(Math.min(ey, ez))}`;
      })
      .sort();
    expect(expected).toEqual([
      'P:P1/BOTTOM|6000 x 10',
      'P:P1/DECK|6000 x 10',
      'P:P1/LBH_WT_P|3000 x 10',
      'P:P1/LBH_WT_S|3000 x 9',
    ]);
    expect(s.steel.plates.intersected.map((c) => `${c.name}|${c.label}`).sort()).toEqual(expected);
    for (const c of s.steel.plates.intersected) expect(c.curves.every((cv) => cv.closed)).toBe(true);
    // The web frame lies in the plane (x 2400..2410, 10 mm thick): in section, outline plus its opening.
    const web = byName(r.objects, 'P:P1/WEB');
    const inSec = s.steel.plates.inSection.find((c) => c.stid === web.id)!;
    expect(inSec.curves.length).toBe(2);
    expect(s.steel.holes.inSection.length + s.steel.holes.intersected.length).toBeGreaterThan(0);
    // Deck longitudinals end at frame x = 2400: connecting from both sides, 7 deck + 7 bottom each.
    expect(s.steel.stiffeners.connectingNegative.length).toBe(14);
    expect(s.steel.stiffeners.connectingPositive.length).toBe(14);
    expect(s.steel.mainObjectsInSection.length).toBeGreaterThan(0);
    expect(s.steel.mainObjectsInSection).toContain(r.objects[r.objects.find((o) => o.name === 'P:P1/DECK')!.parent].id);
    expect(s.grid.length).toBeGreaterThan(0);
    for (const g of s.grid) expect(g.points[0]).toBe(2400);
  });

  it('answers the same through the BVH, the linear scan and the decoded .sc package', () => {
    const model = { objects: r.objects, properties: r.properties, index };
    const key = (s: ReturnType<typeof computeSection>) =>
      (['plates', 'stiffeners', 'brackets', 'holes', 'pillars'] as const)
        .flatMap((c) =>
          (['inSection', 'intersected', 'connectingNegative', 'connectingPositive'] as const).flatMap((rel) =>
            s.steel[c][rel].map((x) => `${c}:${rel}:${x.stid}:${x.curves.length}`),
          ),
        )
        .sort();
    for (const [axis, c] of [
      ['X', 1234],
      ['Y', 777],
      ['Z', 2500],
      ['Z', 4205],
    ] as const) {
      const a = computeSection(model, axis, c);
      const b = computeSection(model, axis, c, { linear: true });
      expect(key(a)).toEqual(key(b));
      expect(key(a).length).toBeGreaterThan(0);
    }
    const frames = encodeScenePackage(r.meshes, {
      bounds: r.info.bounds,
      objectCount: r.objects.length,
      tolerances: r.info.tolerances,
    });
    const scIndex = SectionIndex.fromChunks(decodeScenePackage(concatFrames(frames)).chunks);
    const viaSc = computeSection({ ...model, index: scIndex }, 'X', 2400);
    expect(viaSc.steel.plates.intersected.map((p) => `${p.name}|${p.label}`).sort()).toEqual(
      computeSection(model, 'X', 2400)
        .steel.plates.intersected.map((p) => `${p.name}|${p.label}`)
        .sort(),
    );
  });

  it('puts the deck in section for a horizontal cut inside it (Z = 4205)', () => {
    const s = computeSection({ objects: r.objects, properties: r.properties, index }, 'Z', 4205);
    expect(s.steel.plates.inSection.map((c) => c.name)).toContain('P:P1/DECK');
  });
});
