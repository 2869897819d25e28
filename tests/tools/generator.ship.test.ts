import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compartmentFaces, planCompartments, volumeCentroid } from '../../tools/generator/arrangement';
import { countShipParts, generateShipOcx, writeShipOcx } from '../../tools/generator/generateShip';
import { area2, clipBox, hullDims, sectionAt, sectionPolygon } from '../../tools/generator/hullForm';
import { patchAreaCentroid, shellPatch } from '../../tools/generator/nurbs';
import { plateMass, polygonAreaCentroid } from '../../tools/generator/ocxWriter';
import { xmllintValidate } from '../support/xmllint';

const SCHEMA = path.resolve(__dirname, '../../../shared/models/ocx/OCX_Schema_3.1.0.xsd');
const validate = (file: string) => xmllintValidate(file, SCHEMA);

async function text(options: Parameters<typeof generateShipOcx>[0]): Promise<string> {
  let s = '';
  for await (const piece of generateShipOcx(options)) s += piece;
  return s;
}

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'keelson-gen-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('ship generator', () => {
  it('writes a small ship that validates against OCX_Schema_3.1.0.xsd, with curved plates, seams, holes, blocks and compartments', async () => {
    const file = path.join(dir, 'small.3docx');
    const stats = await writeShipOcx(file, { targetParts: 1500, seed: 7, name: 'Small & test' });
    const out = validate(file);
    expect(out.tail).toBe(`${file} validates`);
    expect(out.status).toBe(0);
    const xml = await readFile(file, 'utf8');
    expect(stats.parts).toBe(stats.plates + stats.stiffeners + stats.brackets);
    expect(xml.match(/<ocx:Plate /g)?.length).toBe(stats.plates);
    expect(xml.match(/<ocx:Stiffener /g)?.length).toBe(stats.stiffeners);
    expect(xml.match(/<ocx:Seam /g)?.length).toBe(stats.seams);
    expect(xml.match(/<ocx:Hole2DContour |<ocx:InnerContour>/g)?.length).toBe(stats.holes);
    expect(xml.match(/<ocx:OccurrenceGroup /g)?.length).toBe(stats.blocks);
    expect(xml.match(/<ocx:Compartment /g)?.length).toBe(stats.compartments);
    expect(stats.bytes).toBe(Buffer.byteLength(xml));
    expect(stats.curvedPlates).toBeGreaterThan(0.05 * stats.plates);
    expect(stats.seams).toBeGreaterThan(50);
    expect(xml.match(/<ocx:InnerContour>/g)?.length).toBeGreaterThan(5);
    expect(xml.match(/<ocx:Hole2DContour /g)?.length).toBeGreaterThan(5);
    for (const el of [
      '<ocx:NURBSSurface',
      '<ocx:HoleShapeCatalogue',
      '<ocx:SymmetricalHole',
      '<ocx:DesignView',
      'TRANSVERSAL_BULKHEAD: Collision',
      'WEB_FRAME: Floor frame',
      '<ocx:Bracket ',
    ])
      expect(xml).toContain(el);
    const purposes = new Set([...xml.matchAll(/ocx:compartmentPurpose="([^"]+)"/g)].map((m) => m[1]));
    for (const p of [
      'aft_peak_tank',
      'main_engine_room',
      'void',
      'cargo_compartment',
      'double_bottom_tank',
      'fore_peak_tank',
    ])
      expect(purposes).toContain(p);
    // Every DesignView reference points at a part that exists.
    const ids = new Set([...xml.matchAll(/<ocx:(?:Plate|Stiffener|Bracket|Seam) id="([^"]+)"/g)].map((m) => m[1]));
    const refs = [...xml.matchAll(/<ocx:(?:PlateRef|StiffenerRef|BracketRef|SeamRef) localRef="([^"]+)"/g)].map(
      (m) => m[1],
    );
    expect(refs.length).toBe(stats.parts + stats.seams);
    expect(refs.every((r) => ids.has(r))).toBe(true);
  });
  it.skipIf(process.env.BENCH_LARGE !== '1')(
    'writes a valid 10k-part ship (BENCH_LARGE=1)',
    async () => {
      const file = path.join(dir, 'large.3docx');
      const stats = await writeShipOcx(file, { targetParts: 10_000 });
      expect(Math.abs(stats.parts - 10_000)).toBeLessThanOrEqual(500);
      expect(validate(file).status).toBe(0);
    },
    120_000,
  );

  it('scales part counts with targetParts (within 5 %) and grows in length and breadth', () => {
    const small = countShipParts({ targetParts: 3000 });
    const big = countShipParts({ targetParts: 12000 });
    for (const [s, target] of [
      [small, 3000],
      [big, 12000],
    ] as const)
      expect(Math.abs(s.parts - target)).toBeLessThanOrEqual(0.05 * target);
    expect(big.lengthM).toBeGreaterThan(small.lengthM * 1.3);
    expect(big.breadthM).toBeGreaterThan(small.breadthM * 1.3);
    expect(big.depthM).toBeGreaterThan(small.depthM);
    expect(big.breadthM / big.lengthM).toBeGreaterThan(0.15);
    expect(big.breadthM / big.lengthM).toBeLessThan(0.23);
  });

  it('is deterministic for a seed and differs between seeds', async () => {
    const a = await text({ targetParts: 1200, seed: 3, compartments: false });
    const b = await text({ targetParts: 1200, seed: 3, compartments: false });
    const c = await text({ targetParts: 1200, seed: 4, compartments: false });
    expect(a).toBe(b);
    expect(a).not.toBe(c);
    expect(a).not.toContain('<ocx:Arrangement');
  });

  it('narrows the hull towards the ends: bow and stern sections are narrower and the keel rises aft', () => {
    const d = hullDims(200),
      mid = sectionAt(d, d.length / 2),
      bow = sectionAt(d, d.length * 0.95),
      stern = sectionAt(d, d.length * 0.03);
    expect(mid.hb).toBeCloseTo(d.breadth / 2);
    expect(bow.hb).toBeLessThan(mid.hb * 0.5);
    expect(bow.fb).toBeLessThan(bow.hb - bow.r);
    expect(stern.fb).toBeLessThan(mid.fb * 0.3);
    expect(stern.zk).toBeGreaterThan(0.1 * d.depth);
  });

  it('writes physical properties consistent with geometry (NetArea × thickness × density = DryWeight)', async () => {
    const xml = await text({ targetParts: 1200, seed: 1, compartments: false });
    const plate =
      /<ocx:Plate [^>]*><ocx:PhysicalProperties><ocx:DryWeight numericvalue="([^"]+)"[^>]*\/><ocx:CenterOfGravity coordinates="([^"]+)"[^>]*\/><\/ocx:PhysicalProperties><ocx:NetArea numericvalue="([^"]+)"[^>]*\/>.*?<ocx:Thickness numericvalue="([^"]+)"/g;
    let n = 0;
    for (const m of xml.matchAll(plate)) {
      const [w, area, t] = [Number(m[1]), Number(m[3]), Number(m[4])];
      expect(Math.abs(area * (t / 1000) * 7850 - w)).toBeLessThanOrEqual(w * 1e-4 + 1e-3);
      n++;
    }
    expect(n).toBeGreaterThan(300);
    const sq = polygonAreaCentroid([
      [0, 0, 0],
      [2, 0, 0],
      [2, 0, 3],
      [0, 0, 3],
    ]);
    expect(sq.area).toBeCloseTo(6);
    expect(sq.centroid).toEqual([1, 0, 1.5]);
    // A 600×400 symmetrical hole (0.2×0.4 rectangle + a 0.4 circle) centred in a 2×1 plate.
    const holed = plateMass(
      [
        [0, 0, 0],
        [2, 0, 0],
        [2, 0, 1],
        [0, 0, 1],
      ],
      10,
      [{ kind: 'catalogue', shape: 'LH600x400', origin: [1.5, 0, 0.5], primary: [1, 0, 0], secondary: [0, 0, 1] }],
    );
    const hole = 0.2 * 0.4 + Math.PI * 0.04;
    expect(holed.area).toBeCloseTo(2 - hole, 9);
    expect(holed.cog[0]).toBeCloseTo((2 * 1 - hole * 1.5) / (2 - hole), 9);
  });

  it('computes curved plate areas from the NURBS surface (exact bilge arc: a quarter cylinder)', () => {
    const d = hullDims(200),
      x0 = d.length / 2,
      r = d.bilgeRadius;
    const patch = shellPatch(d, x0, x0 + 3.2, 1, 2, 1, 2);
    const { area, centroid } = patchAreaCentroid(patch);
    expect(area).toBeCloseTo((Math.PI / 2) * r * 3.2, 3);
    expect(centroid[0]).toBeCloseTo(x0 + 1.6, 6);
    expect(centroid[2]).toBeCloseTo(r - (2 * r) / Math.PI, 3);
  });

  it('closes every compartment: volumes positive, a midbody hold equals its section × length', () => {
    const d = hullDims(200);
    const list = planCompartments(d);
    let total = 0;
    for (const c of list) {
      const { volume } = volumeCentroid(compartmentFaces(d, c));
      expect(Math.abs(volume)).toBeGreaterThan(1);
      total += Math.abs(volume);
    }
    expect(total).toBeLessThan(d.length * d.breadth * d.depth);
    expect(total).toBeGreaterThan(0.5 * d.length * d.breadth * d.depth);
    const hold = list.find((c) => c.purpose === 'cargo_compartment' && c.xi0 > d.midbodyStart && c.xi1 < d.midbodyEnd)!;
    const section = Math.abs(
      area2(clipBox(sectionPolygon(sectionAt(d, hold.xi0)), hold.y0, hold.y1, hold.z0, hold.z1)),
    );
    expect(Math.abs(volumeCentroid(compartmentFaces(d, hold)).volume)).toBeCloseTo(section * (hold.xi1 - hold.xi0), 6);
  });

  it('CLI refuses a missing --out and writes a file with --parts', () => {
    const cli = path.resolve(__dirname, '../../tools/generator/cli.ts');
    const bad = spawnSync(process.execPath, ['--import', 'tsx', cli, '--parts', '10'], { encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('generate: Missing --out FILE');
    const file = path.join(dir, 'cli.3docx');
    const ok = execFileSync(
      process.execPath,
      ['--import', 'tsx', cli, '--out', file, '--parts', '1000', '--seed', '2'],
      { encoding: 'utf8' },
    );
    expect(ok).toMatch(new RegExp(`^Wrote ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: \\d+ parts`));
  });
});
