import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countShipParts, generateShipOcx, writeShipOcx } from '../../bench/generator/generateShip';
import { plateMass, polygonAreaCentroid } from '../../bench/generator/ocxWriter';

const SCHEMA = path.resolve(__dirname, '../../../shared/models/ocx/OCX_Schema_3.1.0.xsd');
const hasXmllint = spawnSync('xmllint', ['--version']).status === 0;

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
  it.skipIf(!hasXmllint)('writes a small ship that validates against OCX_Schema_3.1.0.xsd (needs xmllint)', async () => {
    const file = path.join(dir, 'small.3docx');
    const stats = await writeShipOcx(file, { targetParts: 400, seed: 7, name: 'Small & test' });
    expect(stats.parts).toBe(stats.plates + stats.stiffeners + stats.brackets);
    expect(stats.brackets).toBeGreaterThan(0);
    const out = spawnSync('xmllint', ['--noout', '--schema', SCHEMA, file], { encoding: 'utf8' });
    expect(out.stderr.trim().split('\n').pop()).toBe(`${file} validates`);
    expect(out.status).toBe(0);
    const xml = await readFile(file, 'utf8');
    for (const el of ['<ocx:BulbFlat>', '<ocx:TBar>', '<ocx:FlatBar>', '<ocx:XRefPlanes>', '<ocx:YRefPlanes>', '<ocx:ZRefPlanes>', '<ocx:MaterialCatalogue', '<unitsml:UnitsML', 'SHELL: Bilge strake', 'TRANSVERSAL_BULKHEAD', 'WEB_FRAME: Floor frame', '<ocx:Bracket '])
      expect(xml).toContain(el);
    expect(xml.match(/<ocx:Plate /g)?.length).toBe(stats.plates);
    expect(xml.match(/<ocx:Stiffener /g)?.length).toBe(stats.stiffeners);
    expect(stats.bytes).toBe(Buffer.byteLength(xml));
  });
  if (!hasXmllint) it('skips schema validation: xmllint is not installed (apt-get install libxml2-utils)', () => expect(hasXmllint).toBe(false));

  it('scales part counts with targetParts', () => {
    const small = countShipParts({ targetParts: 1000 });
    const big = countShipParts({ targetParts: 8000 });
    // Frames come in blocks (a block adds ~150 parts at once), so the match is within a block or 5 %.
    for (const [s, target] of [[small, 1000], [big, 8000]] as const) expect(Math.abs(s.parts - target)).toBeLessThanOrEqual(Math.max(0.05 * target, 200));
    expect(big.frames).toBeGreaterThan(small.frames * 5);
    expect(big.stiffeners).toBeGreaterThan(small.stiffeners * 5);
  });

  it('is deterministic for a seed and differs between seeds', async () => {
    const a = await text({ targetParts: 300, seed: 3 });
    const b = await text({ targetParts: 300, seed: 3 });
    const c = await text({ targetParts: 300, seed: 4 });
    expect(a).toBe(b);
    expect(a).not.toBe(c);
  });

  it('writes physical properties consistent with geometry (NetArea × thickness × density = DryWeight)', async () => {
    const xml = await text({ targetParts: 300, seed: 1 });
    const plate = /<ocx:Plate [^>]*><ocx:PhysicalProperties><ocx:DryWeight numericvalue="([^"]+)"[^>]*\/><ocx:CenterOfGravity coordinates="([^"]+)"[^>]*\/><\/ocx:PhysicalProperties><ocx:NetArea numericvalue="([^"]+)"[^>]*\/>.*?<ocx:Thickness numericvalue="([^"]+)"/g;
    let n = 0;
    for (const m of xml.matchAll(plate)) {
      const [w, area, t] = [Number(m[1]), Number(m[3]), Number(m[4])];
      expect(Math.abs(area * (t / 1000) * 7850 - w)).toBeLessThanOrEqual(w * 1e-4 + 1e-3);
      n++;
    }
    expect(n).toBeGreaterThan(50);
    const sq = polygonAreaCentroid([[0, 0, 0], [2, 0, 0], [2, 0, 3], [0, 0, 3]]);
    expect(sq.area).toBeCloseTo(6);
    expect(sq.centroid).toEqual([1, 0, 1.5]);
    expect(plateMass([[0, 0, 0], [1, 0, 0], [0, 1, 0]], 10).mass).toBeCloseTo(0.5 * 0.01 * 7850);
  });

  it('CLI refuses a missing --out and writes a file with --parts', () => {
    const cli = path.resolve(__dirname, '../../bench/generator/cli.ts');
    const bad = spawnSync(process.execPath, ['--import', 'tsx', cli, '--parts', '10'], { encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('generate: Missing --out FILE');
    const file = path.join(dir, 'cli.3docx');
    const ok = execFileSync(process.execPath, ['--import', 'tsx', cli, '--out', file, '--parts', '200', '--seed', '2'], { encoding: 'utf8' });
    expect(ok).toMatch(new RegExp(`^Wrote ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: \\d+ parts`));
  });
});
