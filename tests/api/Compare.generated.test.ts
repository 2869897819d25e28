/**
 * Revision comparison on generated ships (application.md §4 "Revision comparison"; viewer.md §3 "Steel
 * comparison record"): a ship and the same ship with known edits (tools/generator/shipEdits.ts) — a plate's
 * thickness, a plate's material, a stiffener moved by 50 mm, a stiffener moved by 0.1 mm (below the 0.5 mm
 * tolerance), a removed and an added plate — through the real pipeline (generate → import → revision files →
 * computeComparison). Every expected change is found and nothing else (besides what the converted model
 * really changes with it: stiffeners standing on a thickened plate move with its face); a re-export in another
 * writer's dialect (namespace, braced GUIDs, CRLF, vendor extensions) finds nothing.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CompareTask, computeComparison } from '../../api/compare/computeComparison';
import type { CompareResponse } from '../../api/contract/compare';
import { importOcxFile } from '../../engine/node/ocx/importFile';
import { writeRevisionFiles } from '../../engine/node/package/writeRevision';
import type { ModelObject, PropertyRecord } from '../../engine/model/types';
import { type ShipOptions, writeShipOcx } from '../../tools/generator';
import type { ShipEdit } from '../../tools/generator';

let dir = '';
let n = 0;
let base: { loc: CompareTask['from']; objects: ModelObject[]; properties: PropertyRecord[] };

async function revision(options: ShipOptions) {
  const number = ++n;
  const file = path.join(dir, `r${number}.3docx`);
  await writeShipOcx(file, { targetParts: 1200, seed: 5, ...options });
  const model = await importOcxFile(file);
  const revDir = path.join(dir, `rev-${number}`);
  await mkdir(revDir);
  const w = await writeRevisionFiles(model, revDir, 'SHIP');
  return { loc: { number, dir: revDir, scFile: w.scFile }, objects: model.objects, properties: model.properties };
}

const compare = async (options: ShipOptions): Promise<CompareResponse> =>
  computeComparison({ projectName: 'SHIP', from: base.loc, to: (await revision(options)).loc });

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'keelson-compare-'));
  base = await revision({});
}, 120_000);
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('comparison of generated revisions', () => {
  it('finds nothing between two generations of the same ship', async () => {
    const c = await compare({});
    expect(c.steelObjectsChanged).toEqual([]);
    expect(c.steelObjectsAdded).toEqual([]);
    expect(c.steelObjectsRemoved).toEqual([]);
    expect(c.ambiguous).toEqual([]);
    expect(c.summary.before.weight).toBe(c.summary.after.weight);
    const parts = base.objects.filter((o) => ['PLATE', 'STIFFENER', 'BRACKET'].includes(o.type)).length;
    expect(c.summary.perType.reduce((s, t) => s + t.unchanged, 0)).toBe(parts);
  }, 120_000);

  it('finds exactly the known edits: thickness, material, a moved stiffener, a removed and an added plate', async () => {
    const byType = (t: string) => base.objects.filter((o) => o.type === t);
    const plates = byType('PLATE').filter((o) => typeof base.properties[o.index].PLTH === 'number');
    const deck = plates.filter((o) => o.name.includes('MAIN-DECK'));
    const stiffeners = byType('STIFFENER');
    const thick = plates[10],
      grade = plates[20],
      gone = deck[1],
      copied = deck[3];
    const moved = stiffeners[5],
      nudged = stiffeners[40];
    const oldThickness = base.properties[thick.index].PLTH as number;
    const oldGrade = base.properties[grade.index].MAT as string;
    const newGrade = oldGrade === 'D36' ? 'A36' : 'D36';
    const edits: ShipEdit[] = [
      { kind: 'thickness', part: thick.name, thicknessMm: oldThickness * 1000 + 4 },
      { kind: 'material', part: grade.name, grade: newGrade },
      { kind: 'move', part: moved.name, offset: [0, 0, 0.05] },
      { kind: 'move', part: nudged.name, offset: [0, 0, 0.0001] },
      { kind: 'remove', part: gone.name },
      { kind: 'add', copyOf: copied.name, name: 'P:NEW/MAIN-DECK', id: 'plnew1', offset: [0.2, 0, 0] },
    ];
    const c = await compare({ edits });

    expect(c.steelObjectsRemoved).toEqual([
      { stId: gone.id, guid: gone.guid, name: gone.name, type: 'PLATE', fromIndex: gone.index },
    ]);
    expect(c.steelObjectsAdded).toHaveLength(1);
    expect(c.steelObjectsAdded[0]).toMatchObject({ stId: 'plnew1', name: 'P:NEW/MAIN-DECK', type: 'PLATE' });
    expect(c.ambiguous).toEqual([]);
    expect(c.steelObjectsChanged.map((r) => r.name).sort()).toEqual([thick.name, grade.name, moved.name].sort());
    const rec = (name: string) => c.steelObjectsChanged.find((r) => r.name === name)!;
    for (const r of c.steelObjectsChanged) {
      expect(r.matchedBy).toBe('guid');
      expect([r.from, r.to]).toEqual([c.fromRevision, c.toRevision]);
    }

    // Thickness: the thickness itself, the weight it carries, and the solid's shape and extent.
    const t = rec(thick.name);
    const tp = Object.fromEntries(t.changedProperties.map((p) => [p.name, p]));
    expect(tp.thickness).toMatchObject({ code: 'PLTH', unit: 'm', from: oldThickness });
    expect(tp.thickness.to).toBeCloseTo(oldThickness + 0.004, 9);
    expect((tp.weight.to as number) / (tp.weight.from as number)).toBeCloseTo((oldThickness + 0.004) / oldThickness, 2);
    expect(Object.keys(tp).every((k) => ['thickness', 'weight', 'cg', 'boundingBox'].includes(k))).toBe(true);
    expect(t.geometryChanged).toBe(true);

    // Material: nothing but the grade.
    expect(rec(grade.name).changedProperties).toEqual([
      { name: 'material', code: 'MAT', from: oldGrade, to: newGrade, unit: '' },
    ]);
    expect(rec(grade.name).geometryChanged).toBe(false);

    // Moved stiffener: centre of gravity and bounding box 50 mm higher, same profile, material, weight, length.
    const m = rec(moved.name);
    expect(m.changedProperties.map((p) => p.name)).toEqual(['cg', 'boundingBox']);
    const cg = m.changedProperties[0];
    expect((cg.to as number[])[2] - (cg.from as number[])[2]).toBeCloseTo(0.05, 5);
    expect((cg.to as number[])[0]).toBeCloseTo((cg.from as number[])[0], 6);
    expect(m.geometryChanged).toBe(true);

    // Counts and weights follow.
    const plateCounts = c.summary.perType.find((p) => p.type === 'PLATE')!;
    expect(plateCounts).toMatchObject({ added: 1, removed: 1, changed: 2, ambiguous: 0 });
    expect(c.summary.perType.find((p) => p.type === 'STIFFENER')).toMatchObject({ changed: 1, added: 0 });
    expect(c.summary.perType.find((p) => p.type === 'BRACKET')).toMatchObject({ changed: 0, added: 0, removed: 0 });
    const w = (o: ModelObject) => base.properties[o.index].W as number;
    const expected =
      c.summary.before.weight - w(gone) + w(copied) + ((tp.weight.to as number) - (tp.weight.from as number));
    expect(c.summary.after.weight).toBeCloseTo(expected, 4);
  }, 120_000);

  it('finds the stiffeners a thicker plate re-seats (profiles stand on the material side), moved by the thickness difference, and nothing else', async () => {
    // A panel of one plate carrying stiffeners: thickening the plate moves the stiffeners' steel with its face.
    const panels = new Map<number, { plates: ModelObject[]; stiffeners: ModelObject[] }>();
    for (const o of base.objects) {
      if (o.parent < 0) continue;
      const p = panels.get(o.parent) ?? { plates: [], stiffeners: [] };
      if (o.type === 'PLATE') p.plates.push(o);
      if (o.type === 'STIFFENER') p.stiffeners.push(o);
      panels.set(o.parent, p);
    }
    const panel = [...panels.values()].find(
      (p) =>
        p.plates.length === 1 &&
        p.stiffeners.length >= 2 &&
        typeof base.properties[p.plates[0].index].PLTH === 'number',
    )!;
    const plate = panel.plates[0];
    const thickness = base.properties[plate.index].PLTH as number;
    const c = await compare({ edits: [{ kind: 'thickness', part: plate.name, thicknessMm: thickness * 1000 + 3 }] });
    expect(c.steelObjectsChanged.map((r) => r.name).sort()).toEqual(
      [plate.name, ...panel.stiffeners.map((s) => s.name)].sort(),
    );
    for (const s of c.steelObjectsChanged.filter((r) => r.type === 'STIFFENER')) {
      expect(s.changedProperties.map((p) => p.name)).toEqual(['cg', 'boundingBox']);
      const [from, to] = [s.changedProperties[0].from as number[], s.changedProperties[0].to as number[]];
      expect(Math.hypot(to[0] - from[0], to[1] - from[1], to[2] - from[2])).toBeCloseTo(0.003, 6);
    }
  }, 120_000);

  it('finds nothing in a re-export in another writer’s dialect (CADMATIC: namespace, braced GUIDs, CRLF, extensions)', async () => {
    const c = await compare({ dialect: 'cadmatic' });
    expect(c.steelObjectsChanged).toEqual([]);
    expect(c.steelObjectsAdded).toEqual([]);
    expect(c.steelObjectsRemoved).toEqual([]);
  }, 120_000);
});
