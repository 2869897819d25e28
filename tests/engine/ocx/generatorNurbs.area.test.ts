/**
 * Agreement with the writer's figures: on curved plates: the ship generator
 * (tools/generator) writes, for every plate on a NURBS hull surface, the exact NetArea of the surface
 * patch. The importer's area of each such plate must agree within 1 %. A plate outside at the default
 * chordal tolerance (1 mm) is accepted only when its deviation is the tolerance's own (a sliver a few
 * centimetres wide, where 1 mm of chord sag along its length is over 1 % of its area): at a 0.2 mm
 * tolerance it must then be within 1 % as well. (Before the lift fix in engine/geometry/surfaceMesh.ts,
 * outline points just outside the chordal surface mesh stayed in the projection plane: 1–30 % too large.)
 */
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeShipOcx } from '../../../tools/generator/index';
import { importOcxFile } from '../../../engine/node/ocx/importFile';
import type { ImportResult } from '../../../engine/model/types';

let dir = '';
let file = '';
let nurbsPlates: string[] = [];
let result: ImportResult;

/** Ids of the plates whose own UnboundedGeometry is a NURBSSurface, read from the generated text. */
function nurbsPlateIds(text: string): string[] {
  const ids: string[] = [];
  const re = /<ocx:Plate id="([^"]+)"/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    const end = text.indexOf('</ocx:Plate>', m.index);
    if (text.slice(m.index, end).includes('<ocx:UnboundedGeometry><ocx:NURBSSurface')) ids.push(m[1]);
  }
  return ids;
}

/** Relative deviation of computed from file area per plate id. */
function deviations(r: ImportResult, ids: string[]): Map<string, number> {
  const want = new Set(ids);
  const out = new Map<string, number>();
  for (const p of r.properties) {
    if (typeof p.STID !== 'string' || !want.has(p.STID)) continue;
    out.set(p.STID, Math.abs((p.AREA_GEOM as number) - (p.AREA as number)) / (p.AREA as number));
  }
  return out;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'keelson-nurbs-area-'));
  file = path.join(dir, 'ship.3docx');
  await writeShipOcx(file, { targetParts: 1000, seed: 1, name: 'NURBS-AREA' });
  nurbsPlates = nurbsPlateIds(await readFile(file, 'utf8'));
  result = await importOcxFile(file);
}, 60_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("curved plates of a generated ship against the generator's exact NetArea", () => {
  it('the ship has NURBS hull plates, each with a NetArea and a computed area', () => {
    expect(nurbsPlates.length).toBeGreaterThan(50);
    const dev = deviations(result, nurbsPlates);
    expect(dev.size).toBe(nurbsPlates.length);
    for (const d of dev.values()) expect(Number.isFinite(d)).toBe(true);
  });

  it('every NURBS plate is within 1 % (or within 1 % at a 0.2 mm chordal tolerance)', async () => {
    const dev = deviations(result, nurbsPlates);
    const outside = [...dev].filter(([, d]) => d > 0.01).map(([id]) => id);
    expect(outside.length).toBeLessThanOrEqual(Math.ceil(0.02 * nurbsPlates.length));
    if (outside.length) {
      const fine = deviations(await importOcxFile(file, { chordalMm: 0.2 }), outside);
      for (const id of outside)
        expect({ id, dev: fine.get(id)! }).toEqual({ id, dev: expect.toSatisfy((d: number) => d <= 0.01) });
    }
  }, 60_000);
});
