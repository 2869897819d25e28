/**
 * Block systems from the OCX DesignViews (engine/ocx/blockSystems.ts; viewer.md §3 "Block system"): the
 * system takes the view's own name (NAPA's 'OCX-MODEL8/A'; AVEVA's unnamed view: its one top group
 * 'PrtByStrType'; the generator's 'Production blocks'), each block lists exactly the parts its occurrences
 * reference, and the object rows' `block` agrees with the first system.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { importOcxFile } from '../../../engine/node/ocx/importFile';
import type { ImportResult } from '../../../engine/model/types';
import { keepObjects } from '../../../engine/model/keepObjects';
import { writeShipOcx } from '../../../tools/generator';

const DIR = path.resolve(__dirname, '../../../../shared/models/ocx');

/** Occurrence part refs per innermost group name, read from the file's text with plain regular expressions. */
function refsPerGroup(file: string): Map<string, Set<string>> {
  const text = readFileSync(file, 'utf8');
  const view = text.slice(text.indexOf('<ocx:DesignView'), text.indexOf('</ocx:DesignView>'));
  const out = new Map<string, Set<string>>();
  const stack: string[] = [];
  for (const m of view.matchAll(/<(\/?)ocx:(OccurrenceGroup|\w+Ref)\b([^>]*)>/g)) {
    if (m[2] === 'OccurrenceGroup') {
      if (m[1]) stack.pop();
      else stack.push(/name="([^"]*)"/.exec(m[3])![1]);
      continue;
    }
    const ref = /localRef="([^"]*)"/.exec(m[3])?.[1];
    if (!ref || m[2] === 'VesselRef' || !stack.length) continue;
    const g = stack[stack.length - 1];
    if (!out.has(g)) out.set(g, new Set());
    out.get(g)!.add(ref);
  }
  return out;
}

function idsOf(r: ImportResult, objects: number[]): Set<string> {
  return new Set(objects.map((i) => r.objects[i].id));
}

describe('block systems from design views', () => {
  it("NAPA M8: one system named after its view, the blocks' parts as referenced", async () => {
    const file = path.join(DIR, 'NAPA-OCX_M8.3docx');
    const r = await importOcxFile(file);
    expect(r.blockSystems?.map((s) => s.name)).toEqual(['OCX-MODEL8/A']);
    const system = r.blockSystems![0];
    const expected = refsPerGroup(file);
    // STR*STEEL only groups groups: the blocks are the inner groups.
    expect(system.blocks.map((b) => b.name).sort()).toEqual([...expected.keys()].sort());
    expect(system.blocks.map((b) => b.name)).not.toContain('STR*STEEL');
    for (const b of system.blocks) {
      const ids = idsOf(r, b.objects);
      expect(ids).toEqual(new Set([...expected.get(b.name)!].filter((id) => r.objects.some((o) => o.id === id))));
      for (const i of b.objects) expect(r.objects[i].block).toBe(b.name);
    }
    const inBlocks = system.blocks.reduce((n, b) => n + b.objects.length, 0);
    expect(r.objects.filter((o) => o.block !== null)).toHaveLength(inBlocks);
  });

  it("AVEVA TR03 TC11: the unnamed view takes its one top group's name", async () => {
    const file = path.join(DIR, 'AVEVA-TR03_TC11.3docx');
    const r = await importOcxFile(file);
    expect(r.blockSystems?.map((s) => s.name)).toEqual(['PrtByStrType']);
    expect(r.blockSystems![0].blocks.map((b) => b.name)).toEqual(['UNDEFINED: Miscellaneous']);
    const expected = refsPerGroup(file).get('UNDEFINED: Miscellaneous')!;
    const got = idsOf(r, r.blockSystems![0].blocks[0].objects);
    expect(got.size).toBeGreaterThan(0);
    for (const id of got) expect(expected.has(id)).toBe(true);
  });

  it('files without design views have no block system', async () => {
    const r = await importOcxFile(path.join(DIR, 'AVEVA-E3D-Model01.3docx'));
    expect(r.blockSystems).toBeUndefined();
    expect(r.objects.every((o) => o.block === null)).toBe(true);
  });

  const tmp: string[] = [];
  afterAll(async () => {
    for (const d of tmp) await rm(d, { recursive: true, force: true });
  });

  it("the generated ship: 'Production blocks' with B1, B2 ... holding every part of its panels", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'keelson-blocks-'));
    tmp.push(dir);
    const file = path.join(dir, 'ship.3docx');
    await writeShipOcx(file, { targetParts: 600, seed: 3 });
    const r = await importOcxFile(file);
    expect(r.blockSystems?.map((s) => s.name)).toEqual(['Production blocks']);
    const blocks = r.blockSystems![0].blocks;
    expect(blocks.length).toBeGreaterThan(1);
    expect(blocks.map((b) => b.name)).toEqual(blocks.map((_, i) => `B${i + 1}`));
    const expected = refsPerGroup(file);
    for (const b of blocks) expect(idsOf(r, b.objects)).toEqual(expected.get(b.name));

    // Keeping a subset re-indexes the blocks; dropping the arrangement removes them.
    const plates = keepObjects(r, (o) => o.type === 'PLATE');
    for (const b of plates.blockSystems![0].blocks)
      for (const i of b.objects) expect(plates.objects[i]).toMatchObject({ type: 'PLATE', block: b.name });
    expect(keepObjects(r, () => true, { dropBlocks: true }).blockSystems).toBeUndefined();
  });
});
