/**
 * Revision comparison on the shared NAPA files that are revisions of one another (M2 / M2_v300rc3, M4 /
 * M4_v300rc3, M8 / M8_v300rc3) through import → revision files → computeComparison. The v300rc3 exports
 * carry new GUIDs for every part, so parts pair by name and type. The expectations were read off the files
 * by hand (properties of both revisions side by side) and are stable from run to run.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RevisionLocation, computeComparison } from '../../api/compare/computeComparison';
import type { CompareResponse } from '../../api/contract/compare';
import { importOcxFile } from '../../engine/node/ocx/importFile';
import { writeRevisionFiles } from '../../engine/node/package/writeRevision';
import { SAMPLES } from './helpers';

let dir = '';
let n = 0;
async function revision(sample: string): Promise<RevisionLocation> {
  const number = ++n;
  const model = await importOcxFile(path.join(SAMPLES, `${sample}.3docx`));
  const revDir = path.join(dir, `rev-${number}`);
  await mkdir(revDir);
  const w = await writeRevisionFiles(model, revDir, 'NAPA');
  return { number, dir: revDir, scFile: w.scFile };
}
async function pair(m: string): Promise<{ a: RevisionLocation; b: RevisionLocation; c: CompareResponse }> {
  const a = await revision(`NAPA-OCX_${m}`);
  const b = await revision(`NAPA-OCX_${m}_v300rc3`);
  return { a, b, c: await computeComparison({ projectName: m, from: a, to: b }) };
}
const counts = (c: CompareResponse, type: string) => c.summary.perType.find((p) => p.type === type)!;
const record = (c: CompareResponse, name: string) => c.steelObjectsChanged.find((r) => r.name === name)!;
const prop = (c: CompareResponse, name: string, p: string) =>
  record(c, name).changedProperties.find((x) => x.name === p)!;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'keelson-compare-napa-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('NAPA revision pairs', () => {
  it('M2: the one plate was renamed and turned from the Z=0 plane to X=0: removed and added, nothing paired', async () => {
    const { c } = await pair('M2');
    expect(c.steelObjectsRemoved.map((r) => [r.type, r.name])).toEqual([['PLATE', 'P:P1/PANEL_Z']]);
    expect(c.steelObjectsAdded.map((r) => [r.type, r.name])).toEqual([['PLATE', 'P:P1/PANEL']]);
    expect(c.steelObjectsChanged).toEqual([]);
    expect(c.ambiguous).toEqual([]);
    // 10 mm plate of 8.198 t at (6.576, 4.503, 0) → 8 mm plate of 6.558 t at (0, 4.5025, 6.576).
    expect(c.summary.before).toEqual({ revision: 1, weight: 8.197707, cg: [6.57576, 4.50255, 0] });
    expect(c.summary.after).toEqual({ revision: 2, weight: 6.55817, cg: [0, 4.5025, 6.57568] });
  }, 60_000);

  it('M4: all nine parts pair by name; the plate and two stiffeners are unchanged, one stiffener changed profile', async () => {
    const { a, b, c } = await pair('M4');
    expect(c.steelObjectsAdded).toEqual([]);
    expect(c.steelObjectsRemoved).toEqual([]);
    expect(counts(c, 'PLATE')).toMatchObject({ changed: 0, unchanged: 1 });
    expect(counts(c, 'STIFFENER')).toMatchObject({ changed: 6, unchanged: 2 });
    expect(c.steelObjectsChanged.every((r) => r.matchedBy === 'name' && r.type === 'STIFFENER')).toBe(true);
    expect(prop(c, 'S:AKYLFBGOMT/PANELP', 'profile')).toMatchObject({
      code: 'PROFILE',
      from: 'CH200X10 (Tube)',
      to: 'C200 (RoundBar)',
    });
    expect(prop(c, 'S:AKYLFBGOMT/PANELP', 'weight')).toMatchObject({ from: 0.862753, to: 4.531288, unit: 't' });
    // The T-bar moved 190 mm towards the plate's centre in y (its CoG), the flat bar 50 mm in x (its box).
    expect(prop(c, 'S:C64GEAA2J1/PANELP', 'cg')).toMatchObject({
      from: [4.99675, 7.03397, 4.1487],
      to: [4.99675, 6.84396, 4.1487],
    });
    expect((prop(c, 'S:TMSHT9ZLOL/PANELP', 'boundingBox').to as number[])[0]).toBe(7.85);
    expect(c.steelObjectsChanged.every((r) => r.geometryChanged)).toBe(true);
    // Stable: the same pair compares the same way again.
    const again = await computeComparison({ projectName: 'M4', from: a, to: b });
    expect({ ...again, computedAt: '' }).toEqual({ ...c, computedAt: '' });
  }, 60_000);

  it('M8: 14 collar plates added, 14 stiffeners removed, a bracket renamed, brackets enlarged, bulkheads moved to mid-thickness', async () => {
    const { a, b, c } = await pair('M8');
    expect(c.ambiguous).toEqual([]);
    expect(c.steelObjectsAdded.filter((r) => r.type === 'PLATE').map((r) => r.name)).toEqual(
      Array.from({ length: 14 }, (_, i) => `CP:${i + 1}-1/WEB`),
    );
    const removed = c.steelObjectsRemoved.filter((r) => r.type === 'STIFFENER').map((r) => r.name.split('/')[1]);
    expect(removed.filter((x) => x === 'DECK')).toHaveLength(7);
    expect(removed.filter((x) => x === 'BOTTOM')).toHaveLength(7);
    expect(c.steelObjectsRemoved.filter((r) => r.type === 'BRACKET').map((r) => r.name)).toEqual([
      'B:ZS8W4WNINL/BOTTOM',
    ]);
    expect(c.steelObjectsAdded.filter((r) => r.type === 'BRACKET').map((r) => r.name)).toEqual(['B:H9YTXIXV8W/BOTTOM']);
    expect(counts(c, 'PLATE')).toMatchObject({ added: 14, removed: 0, changed: 41, unchanged: 22 });
    expect(counts(c, 'STIFFENER')).toMatchObject({ added: 0, removed: 14, changed: 27, unchanged: 18 });
    expect(counts(c, 'BRACKET')).toMatchObject({ added: 1, removed: 1, changed: 56, unchanged: 55 });
    // The deck brackets grew from 0.0560 to 0.0567 m² (and their weight with them).
    expect(prop(c, 'B:1K383ZN95W/DECK', 'area')).toMatchObject({ from: 0.055969, to: 0.0567, unit: 'm2' });
    // The centreline bulkhead's moulded surface moved from its starboard face to mid-thickness (4.5 mm).
    const lbh = record(c, 'P:P1/LBH_WT_S');
    expect(lbh.changedProperties.map((p) => p.name)).toEqual(['boundingBox']);
    expect(lbh.changedProperties[0]).toMatchObject({
      from: [0, -3.009, 1.2, 4.8, -3, 4.2],
      to: [0, -3.0045, 1.2, 4.8, -2.9955, 4.2],
    });
    expect(lbh.geometryChanged).toBe(true);
    // Reversed, the same differences mirror: added ↔ removed, same pairs changed.
    const back = await computeComparison({ projectName: 'M8', from: b, to: a });
    expect(back.steelObjectsRemoved.map((r) => r.stId).sort()).toEqual(c.steelObjectsAdded.map((r) => r.stId).sort());
    expect(back.steelObjectsAdded.map((r) => r.stId).sort()).toEqual(c.steelObjectsRemoved.map((r) => r.stId).sort());
    expect(back.steelObjectsChanged.map((r) => r.fromIndex).sort()).toEqual(
      c.steelObjectsChanged.map((r) => r.index).sort(),
    );
  }, 120_000);
});
