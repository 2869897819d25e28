/**
 * Every OCX sample in ../shared/models/ocx imports; part counts per type match
 * OCX_GUIDE §6.1; every mesh is finite and non-empty; plate area and weight from the geometry agree
 * with the file's NetArea and DryWeight within 2 % (except parts listed in engine/ocx/expectedDeviations.ts
 * or engine/ocx/openImporterGaps.ts, which tests/engine/ocx/fidelity.corpus.test.ts holds to their tables).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { importOcxFile } from '../../../engine/node/ocx/importFile';
import type { ImportResult } from '../../../engine/model/types';
import { exclusionsOf } from '../../../engine/ocx/expectedDeviations';
import { gapKeysOf } from '../../../engine/ocx/openImporterGaps';

const DIR = path.resolve(__dirname, '../../../../shared/models/ocx');
const FILES = readdirSync(DIR)
  .filter((f) => f.endsWith('.3docx'))
  .sort();

/** OCX_GUIDE §6.1: Panel, Plate (in panels + free-standing), Stiffener, Bracket, Pillar, EdgeReinforcement, Seam, cut-outs. */
const EXPECTED: Record<string, [number, number, number, number, number, number, number, number]> = {
  'NAPA-TR03_TC10.3docx': [24, 24, 7, 0, 0, 0, 0, 7],
  'NAPA-TR03_TC11.3docx': [4, 4, 38, 0, 0, 0, 0, 0],
  'NAPA-TR03_TC12.3docx': [1, 10, 0, 0, 0, 0, 11, 10],
  'NAPA-TR03_TC13.3docx': [1, 1, 0, 0, 0, 0, 0, 9],
  'AVEVA-E3D-Model01.3docx': [1, 1, 0, 0, 0, 0, 0, 0],
  'NAPA-OCX_M1.3docx': [1, 1, 0, 0, 0, 0, 0, 0],
  'NAPA-OCX_M2.3docx': [1, 1, 0, 0, 0, 0, 0, 0],
  'NAPA-OCX_M2_v300rc3.3docx': [1, 1, 0, 0, 0, 0, 0, 0],
  'NAPA-OCX_M3.3docx': [1, 1, 7, 0, 0, 0, 0, 0],
  'NAPA-OCX_M4.3docx': [1, 1, 8, 0, 0, 0, 0, 0],
  'NAPA-OCX_M4_v300rc3.3docx': [1, 1, 8, 0, 0, 0, 0, 0],
  'NAPA-OCX_M5.3docx': [1, 1, 0, 0, 0, 1, 0, 0],
  'NAPA-OCX_M6.3docx': [1, 1, 0, 0, 0, 1, 0, 1],
  'NAPA-OCX_M7.3docx': [1, 1, 0, 0, 0, 0, 0, 0],
  'NAPA-OCX_M8.3docx': [35, 63, 54, 112, 2, 5, 0, 1],
  'NAPA-OCX_M8_v300rc3.3docx': [35, 77, 40, 112, 2, 5, 0, 1],
  // other writers' TR03 exports (../shared/models/ocx/README.md; cut-outs counted from the files' elements)
  '3DEXPERIENCE-TR03_TC10.3docx': [25, 25, 7, 0, 0, 0, 0, 7],
  '3DEXPERIENCE-TR03_TC11.3docx': [4, 4, 36, 0, 0, 0, 0, 0],
  'AVEVA-TR03_TC11.3docx': [4, 4, 36, 0, 0, 0, 0, 0],
  'AVEVA-TR03_TC12.3docx': [1, 5, 0, 0, 0, 0, 3, 10],
  'CADMATIC-TR03_TC10.3docx': [26, 27, 7, 0, 0, 0, 17, 7],
  'CADMATIC-TR03_TC11.3docx': [4, 4, 36, 0, 0, 0, 0, 0],
  'PROSTEP-TR03_TC10.3docx': [25, 25, 4, 0, 0, 0, 0, 7],
  'PROSTEP-TR03_TC11.3docx': [4, 4, 34, 0, 0, 0, 0, 0],
};

/** Plates listed as a proven file error or an open importer gap for a quantity skip the 2 % check of it. */
const listed = (file: string, part: string, q: 'AREA' | 'W') =>
  exclusionsOf(file).has(`${part}|${q}`) || gapKeysOf(file).has(`${part}|${q}`);

const results = new Map<string, ImportResult>();

beforeAll(async () => {
  for (const f of FILES) results.set(f, await importOcxFile(path.join(DIR, f)));
}, 120_000);

describe('OCX corpus import', () => {
  it('covers every sample of the corpus', () => {
    expect(FILES.length).toBeGreaterThanOrEqual(16);
    for (const f of FILES) expect(EXPECTED[f], `expected counts for ${f}`).toBeDefined();
  });

  it.each(FILES)('%s: part counts per type match OCX_GUIDE §6.1', (f) => {
    const r = results.get(f)!;
    const count = (...els: string[]) => r.objects.filter((o) => els.includes(o.element)).length;
    const got = [
      count('Panel'),
      count('Plate'),
      count('Stiffener'),
      count('Bracket'),
      count('Pillar'),
      count('EdgeReinforcement'),
      count('Seam'),
      count('Hole2DContour', 'InnerContour'),
    ];
    expect(got).toEqual(EXPECTED[f]);
    const types = (t: string) => r.objects.filter((o) => o.type === t).length;
    expect(types('MAIN OBJECT')).toBe(EXPECTED[f][0]);
    expect(types('STIFFENER')).toBe(EXPECTED[f][2] + EXPECTED[f][5]);
    expect(types('HOLE')).toBe(EXPECTED[f][7]);
  });

  it.each(FILES)('%s: object table is dense, parents first, properties parallel', (f) => {
    const r = results.get(f)!;
    expect(r.properties.length).toBe(r.objects.length);
    r.objects.forEach((o, i) => {
      expect(o.index).toBe(i);
      expect(o.parent).toBeLessThan(i);
      expect(r.properties[i].OTYPE).toBe(o.type);
      expect(r.properties[i].STID).toBe(o.id);
      if (o.type === 'PLATE') expect(o.parent === -1 || r.objects[o.parent].type === 'MAIN OBJECT').toBe(true);
      if (o.type === 'HOLE')
        expect(['PLATE', 'MAIN OBJECT', 'BRACKET', 'STIFFENER', 'PILLAR']).toContain(r.objects[o.parent].type);
    });
  });

  it.each(FILES)('%s: every part has finite, non-empty geometry', (f) => {
    const r = results.get(f)!;
    const byObject = new Map(r.meshes.map((m) => [m.object, m]));
    for (const o of r.objects) {
      if (o.type === 'MAIN OBJECT') continue;
      const m = byObject.get(o.index);
      expect(m, `${f} ${o.element} ${o.id} has a mesh`).toBeDefined();
      expect(m!.positions.length).toBeGreaterThan(0);
      for (const v of m!.positions) expect(Number.isFinite(v)).toBe(true);
      if (o.type === 'SEAM' || o.type === 'HOLE') {
        expect(m!.indices.length).toBe(0);
        expect(m!.edges!.length).toBeGreaterThan(0);
      } else {
        expect(m!.indices.length, `${o.id} triangles`).toBeGreaterThan(0);
        expect(m!.normals!.length).toBe(m!.positions.length);
        const nv = m!.positions.length / 3;
        for (const i of m!.indices) expect(i).toBeLessThan(nv);
      }
      expect(o.bounds).not.toBeNull();
    }
  });

  it.each(FILES)('%s: plate AREA_GEOM and W_GEOM agree with NetArea and DryWeight within 2 percent', (f) => {
    const r = results.get(f)!;
    let checked = 0,
      figures = 0;
    r.objects.forEach((o, i) => {
      if (o.type !== 'PLATE') return;
      const p = r.properties[i];
      expect(typeof p.AREA_GEOM).toBe('number');
      for (const [q, file, geom] of [
        ['AREA', p.AREA, p.AREA_GEOM],
        ['W', p.W, p.W_GEOM],
      ] as const) {
        // a figure of 0 (PROSTEP writes NetArea 0 on some plates) is no figure, as in fidelity.ts
        if (typeof file !== 'number' || typeof geom !== 'number' || file === 0) continue;
        figures++;
        const dev = Math.abs(geom / file - 1);
        const key = `${f}|${o.id}|${q}`;
        if (listed(f, o.id, q)) continue; // the fidelity ratchet holds it to its table
        expect(dev, `${key}: geometry ${geom} vs file ${file}`).toBeLessThan(0.02);
        checked++;
      }
    });
    expect(figures).toBeGreaterThan(0);
    // PROSTEP-TR03_TC10 has no plate figure that is not a proven error of the file
    if (f !== 'PROSTEP-TR03_TC10.3docx') expect(checked).toBeGreaterThan(0);
  });

  it('keeps frame tables sorted, in mm, with numbers parsed (TC12 has 532 reference planes)', () => {
    const r = results.get('NAPA-TR03_TC12.3docx')!;
    expect(r.frames.x.length + r.frames.y.length + r.frames.z.length).toBe(532);
    for (const f of FILES) {
      const fr = results.get(f)!.frames;
      expect(fr.x.length + fr.y.length + fr.z.length, f).toBeGreaterThan(0);
      for (const list of [fr.x, fr.y, fr.z])
        for (let i = 1; i < list.length; i++) expect(list[i].coordinate).toBeGreaterThanOrEqual(list[i - 1].coordinate);
    }
    const m1 = results.get('NAPA-OCX_M1.3docx')!.frames.x;
    expect(m1.find((p) => p.name === 'X10')).toMatchObject({ coordinate: 10000, number: 10 });
  });

  it('resolves materials, profiles, units and blocks', () => {
    const m8 = results.get('NAPA-OCX_M8.3docx')!;
    const stiff = m8.properties.find(
      (p) => p.OTYPE === 'STIFFENER' && typeof p.PROFILE === 'string' && p.PROFILE.includes('BulbFlat'),
    );
    expect(stiff?.PROFILE).toMatch(/^HP\S+ \(BulbFlat\)$/);
    const brk = m8.properties.find((p) => p.OTYPE === 'BRACKET')!;
    expect(brk.PLTH).toBeGreaterThan(0.005); // bracket thickness written in mm, stored in m
    expect(brk.PLTH).toBeLessThan(0.05);
    expect(m8.objects.some((o) => o.block !== null)).toBe(true);
    const plate = m8.properties.find((p) => p.OTYPE === 'PLATE')!;
    expect(plate).toMatchObject({ MAT: 'A', RHO: 7.85, E: 206000, NY: 0.3, SIGMA: 235 });
    const aveva = results.get('AVEVA-E3D-Model01.3docx')!;
    const ap = aveva.properties.find((p) => p.OTYPE === 'PLATE')!;
    expect(ap.AREA as number).toBeCloseTo(ap.AREA_GEOM as number, 2); // area-unit fix (mm used for m²)
    expect(ap.MAT).toBe('A');
    const panel = m8.properties.find((p) => p.OTYPE === 'MAIN OBJECT')!;
    expect(panel.W as number).toBeGreaterThan(0);
  });

  it('puts stiffeners of the TC11 box on the plate face and HP bulbs toward the flange direction', () => {
    const r = results.get('NAPA-TR03_TC11.3docx')!;
    const i = r.properties.findIndex((p) => String(p.PROFILE ?? '').includes('BulbFlat'));
    const p = r.properties[i];
    // the geometric COG lies within a few cm of the writer's COG
    const d = Math.hypot(
      (p.XCG_GEOM as number) - (p.XCG as number),
      (p.YCG_GEOM as number) - (p.YCG as number),
      (p.ZCG_GEOM as number) - (p.ZCG as number),
    );
    expect(d).toBeLessThan(0.06);
  });
});
