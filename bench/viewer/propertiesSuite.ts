/**
 * The `properties` suite (viewer.md §5 "Property merging"): merging the properties of a selection of every
 * part of a generated ship of BENCH_PARTS parts (default 100,000; tools/generator, imported with
 * importOcxFile, not timed), as the properties worker does it (ui/logic/propertyMerge.ts: property columns
 * merged by object-table index), against the naive baseline in the same run: one property list per object
 * (what GET .../model/properties returns, built untimed) merged through a map by code (mergeProperties, the
 * panel's former merge, which also fetched the objects one call each and stopped at 50). Also the worker's
 * one-off cost per revision — parsing the property-columns answers (JSON + valibot) — and the structured
 * clone of a request and a result across the worker boundary. Timings are reported, not asserted.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as v from 'valibot';
import { PropertyColumnsResponseSchema } from '../../api/contract';
import { PROPERTY_CATALOGUE } from '../../engine/model/properties';
import { importOcxFile } from '../../engine/node/ocx/importFile';
import { writeShipOcx } from '../../tools/generator';
import { PropertyMerger, type PropertyColumn } from '../../ui/logic/propertyMerge';
import { mergeProperties, type PropertyItem } from '../../ui/logic/propertyRows';
import type { BenchRow } from '../run';

/** Median time of `runs` calls, ms (after one warm-up call). */
function median(runs: number, fn: () => unknown): number {
  fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** Merges every part of a generated BENCH_PARTS-part ship by index and by per-object lists. */
export async function propertiesSuite(): Promise<BenchRow[]> {
  const parts = Number(process.env.BENCH_PARTS ?? 100_000);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'keelson-bench-props-'));
  const row = (c: string, value: number, unit: string): BenchRow => ({ suite: 'properties', case: c, value, unit });
  try {
    const file = path.join(dir, 'ship.3docx');
    await writeShipOcx(file, { targetParts: parts, seed: 1 });
    const model = await importOcxFile(file);
    const n = model.objects.length;
    const codes = PROPERTY_CATALOGUE.map((d) => d.name);
    // the two property-columns answers the worker reads (at most 32 codes each), as the server sends them
    const answers = [codes.slice(0, 32), codes.slice(32)].map((cs) =>
      JSON.stringify({
        codes: cs,
        columns: Object.fromEntries(cs.map((c) => [c, model.properties.map((rec) => rec?.[c] ?? null)])),
      }),
    );
    let columns: Record<string, PropertyColumn> = {};
    const parseMs = median(3, () => {
      columns = Object.assign({}, ...answers.map((a) => v.parse(PropertyColumnsResponseSchema, JSON.parse(a)).columns));
    });
    const merger = new PropertyMerger();
    merger.setModel(
      model.objects.map((o) => o.type),
      model.objects.map((o) => o.block),
      columns,
    );
    const all = Int32Array.from({ length: n }, (_, i) => i);
    let result = merger.merge({ indices: all, type: null });
    const byIndexMs = median(5, () => (result = merger.merge({ indices: all, type: null })));
    const platesMs = median(5, () => merger.merge({ indices: all, type: 'PLATE' }));
    const cloneMs = median(5, () => structuredClone({ request: { indices: all, type: null }, result }));

    // baseline: one list per object as the properties call returns it, merged by a map of codes
    const lists = model.objects.map((_, i) =>
      PROPERTY_CATALOGUE.flatMap((d): PropertyItem[] => {
        const value = model.properties[i]?.[d.name];
        return value === undefined || value === null
          ? []
          : [{ name: d.name, description: d.description, unit: d.unit, isSummable: d.isSummable, value }];
      }),
    );
    let baseline: PropertyItem[] = [];
    const baselineMs = median(5, () => (baseline = mergeProperties(lists)));
    const w = result.properties.find((p) => p.code === 'W')?.value;
    const wBase = baseline.find((p) => p.name === 'W')?.value;
    if (typeof w !== 'number' || typeof wBase !== 'number' || Math.abs(w - wBase) > 1e-6 * Math.abs(w))
      throw new Error(`the two merges disagree on the total weight (${w} vs ${wBase})`);
    return [
      row('parts selected', n, 'parts'),
      row('property-columns answers (2 calls)', answers.reduce((s, a) => s + a.length, 0) / 1e6, 'MB'),
      row('worker: parse the columns once per revision (JSON + valibot)', parseMs, 'ms'),
      row('merge by index (worker), every part', byIndexMs, 'ms'),
      row('merge by index (worker), plates only (type filter)', platesMs, 'ms'),
      row('structured clone of request + result (worker boundary)', cloneMs, 'ms'),
      row('baseline: per-object lists merged by a map of codes', baselineMs, 'ms'),
      row('ratio baseline / by index', baselineMs / byIndexMs, '×'),
      row('total weight of the selection', w, 't'),
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
