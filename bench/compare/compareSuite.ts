/**
 * `npm run bench -- compare`: revision comparison of two generated ships of BENCH_PARTS parts (default
 * 100000): the ship and the same ship with known edits (tools/generator/shipEdits.ts: 100 thicknesses, 100
 * materials, 100 stiffeners moved 50 mm, 50 plates removed, 50 plates added). Both are imported and written as
 * revision directories (not timed), then one comparison runs in a child process (bench/compare/compareChild.ts)
 * so that its peak memory is its own: time to read both revisions (objects, properties, .sc shape figures),
 * time of the diff, peak live heap and peak RSS, and the size of the answer. Every edited part must be found
 * (a miss fails the suite); the other changes found must be knock-on effects the importer really makes —
 * stiffeners re-seated on a plate whose thickness changed or that was removed (profiles stand on their plate's
 * material side), with nothing but cg and boundingBox changed — or the suite fails.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CompareTask, RevisionLocation } from '../../api/compare/computeComparison';
import type { RevisionDiff } from '../../api/compare/diffRevisions';
import { importOcxFile } from '../../engine/node/ocx/importFile';
import { writeRevisionFiles } from '../../engine/node/package/writeRevision';
import { tsxExecArgv } from '../../engine/node/tsxExecArgv';
import type { ModelObject, PropertyRecord } from '../../engine/model/types';
import { type ShipEdit, writeShipOcx } from '../../tools/generator';
import type { BenchRow } from '../run';

const here = path.dirname(fileURLToPath(import.meta.url));

async function revision(
  dir: string,
  number: number,
  parts: number,
  edits: ShipEdit[],
): Promise<{ loc: RevisionLocation; objects: ModelObject[]; properties: PropertyRecord[]; importMs: number }> {
  const file = path.join(dir, `r${number}.3docx`);
  await writeShipOcx(file, { targetParts: parts, seed: 1, edits });
  const t = performance.now();
  const model = await importOcxFile(file);
  const importMs = performance.now() - t;
  await rm(file);
  const revDir = path.join(dir, `rev-${number}`);
  await mkdir(revDir);
  const w = await writeRevisionFiles(model, revDir, 'SHIP');
  return {
    loc: { number, dir: revDir, scFile: w.scFile },
    objects: model.objects,
    properties: model.properties,
    importMs,
  };
}

/** Known edits spread over the ship: every k-th plate, stiffener of the base revision. */
function editsFor(objects: ModelObject[], properties: PropertyRecord[]): ShipEdit[] {
  const plates = objects.filter((o) => o.type === 'PLATE' && typeof properties[o.index].PLTH === 'number');
  const flat = plates.filter((o) => o.name.includes('DECK'));
  const stiffeners = objects.filter((o) => o.type === 'STIFFENER');
  const every = <T>(list: T[], n: number, offset: number) =>
    Array.from({ length: n }, (_, i) => list[Math.floor(((i + offset / 7) * list.length) / n) % list.length]);
  const edits: ShipEdit[] = [];
  const used = new Set<string>();
  const take = (o: ModelObject) => (used.has(o.name) ? null : (used.add(o.name), o));
  for (const o of every(plates, 100, 1)) {
    if (!take(o)) continue;
    edits.push({ kind: 'thickness', part: o.name, thicknessMm: (properties[o.index].PLTH as number) * 1000 + 2 });
  }
  for (const o of every(plates, 100, 3)) {
    if (!take(o)) continue;
    edits.push({ kind: 'material', part: o.name, grade: properties[o.index].MAT === 'D36' ? 'A36' : 'D36' });
  }
  for (const o of every(stiffeners, 100, 2))
    if (take(o)) edits.push({ kind: 'move', part: o.name, offset: [0, 0, 0.05] });
  for (const o of every(flat, 50, 5)) if (take(o)) edits.push({ kind: 'remove', part: o.name });
  every(flat, 50, 6).forEach((o, i) => {
    edits.push({ kind: 'add', copyOf: o.name, name: `P:ADDED${i}/DECK`, id: `pladd${i}`, offset: [0.1, 0, 0] });
  });
  return edits;
}

/** The compare suite's rows. @throws Error when the child fails or finds other counts than the edits make. */
export async function compareSuite(): Promise<BenchRow[]> {
  const parts = Number(process.env.BENCH_PARTS ?? 100_000);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'keelson-bench-compare-'));
  try {
    const a = await revision(dir, 1, parts, []);
    const edits = editsFor(a.objects, a.properties);
    const b = await revision(dir, 2, parts, edits);
    const task: CompareTask = { projectName: 'SHIP', from: a.loc, to: b.loc };
    const answer = path.join(dir, 'answer.json');
    const child = spawnSync(
      process.execPath,
      ['--expose-gc', ...tsxExecArgv(), path.join(here, 'compareChild.ts'), JSON.stringify(task), answer],
      { encoding: 'utf8', maxBuffer: 1 << 20 },
    );
    if (child.status !== 0) throw new Error(`compare child failed: ${child.stderr}`);
    const r = JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, number>;
    // A cached answer is this one JSON file: reading and parsing it is what a repeated request costs.
    const t = performance.now();
    const d = JSON.parse(await readFile(answer, 'utf8')) as RevisionDiff;
    const cachedMs = performance.now() - t;
    const found = new Set(
      [...d.steelObjectsChanged, ...d.steelObjectsAdded, ...d.steelObjectsRemoved].map((x) => x.name),
    );
    const edited = edits.map((e) => (e.kind === 'add' ? e.name : e.part));
    const missed = edited.filter((nm) => !found.has(nm));
    if (missed.length)
      throw new Error(`compare missed ${missed.length} edited parts: ${missed.slice(0, 5).join(', ')}`);
    const editedSet = new Set(edited);
    const knockOn = d.steelObjectsChanged.filter((x) => !editedSet.has(x.name));
    const odd = knockOn.filter(
      (x) => x.type !== 'STIFFENER' || x.changedProperties.some((p) => p.name !== 'cg' && p.name !== 'boundingBox'),
    );
    if (odd.length) throw new Error(`compare found unexpected changes: ${JSON.stringify(odd.slice(0, 3))}`);
    const row = (c: string, value: number, unit: string): BenchRow => ({ suite: 'compare', case: c, value, unit });
    const partsOf = (o: ModelObject[]) => o.filter((x) => ['PLATE', 'STIFFENER', 'BRACKET'].includes(x.type)).length;
    return [
      row('parts in the earlier revision', partsOf(a.objects), 'parts'),
      row('parts in the later revision', partsOf(b.objects), 'parts'),
      row('import of one revision (not part of the comparison)', a.importMs, 'ms'),
      row('read both revisions (objects, properties, .sc shapes)', r.loadMs, 'ms'),
      row('diff (pairing, properties, geometry)', r.diffMs, 'ms'),
      row('comparison total', r.totalMs, 'ms'),
      row('comparison CPU time (user + system; the figure a busy machine does not inflate)', r.cpuMs, 'ms'),
      row('live heap after the comparison (both revisions held)', r.heapPeakMb, 'MB'),
      row('peak RSS of the comparison process', r.maxRssMb, 'MB'),
      row('edits (thickness, material, moved stiffener, removed, added plate)', edits.length, 'parts'),
      row('edited parts found', edited.length - missed.length, 'parts'),
      row('knock-on: stiffeners re-seated on an edited plate', knockOn.length, 'parts'),
      row('answer size', r.answerBytes / 1e6, 'MB'),
      row('cached answer: read + parse', cachedMs, 'ms'),
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
