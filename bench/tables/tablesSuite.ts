/**
 * `npm run bench -- tables`: table reads (viewer.md §7 "Tables") on a generated ship of BENCH_PARTS parts
 * (default 100000) with compartments and blocks, imported and written as a revision directory and read back
 * as the server reads it (api/projects/RevisionCache.ts loadRevisionData; not timed). Per table: the first
 * read (computed from the object table and property store, then serialised as the reply) and a repeated read
 * (memoised per revision: serialisation only), and the reply's size. Baseline in the same run: serialising
 * the object table, the reply the viewer already receives when it opens the model. Reported, not asserted.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as v from 'valibot';
import { TableSchema } from '../../api/contract';
import { loadRevisionData } from '../../api/projects/RevisionCache';
import { readTable, tableNames, tableTypes, type TableContext } from '../../api/tables/tableCatalogue';
import { importOcxFile } from '../../engine/node/ocx/importFile';
import { writeRevisionFiles } from '../../engine/node/package/writeRevision';
import { writeShipOcx } from '../../tools/generator';
import type { BenchRow } from '../run';

const ms = (t: number) => performance.now() - t;

/** The suite's rows. */
export async function tablesSuite(): Promise<BenchRow[]> {
  const parts = Number(process.env.BENCH_PARTS ?? 100_000);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'keelson-bench-tables-'));
  try {
    const file = path.join(dir, 'ship.3docx');
    await writeShipOcx(file, { targetParts: parts, seed: 1, compartments: true });
    const model = await importOcxFile(file);
    await rm(file);
    const revDir = path.join(dir, 'rev-1');
    await mkdir(revDir);
    await writeRevisionFiles(model, revDir, 'SHIP');
    const data = await loadRevisionData(revDir);
    const rows: BenchRow[] = [
      { suite: 'tables', case: 'objects in the revision', value: data.objects.length, unit: 'objects' },
    ];

    let t = performance.now();
    const baseline = JSON.stringify(data.objects);
    rows.push({ suite: 'tables', case: 'baseline: serialise the object table', value: ms(t), unit: 'ms' });
    rows.push({ suite: 'tables', case: 'baseline: object table size', value: baseline.length / 1e6, unit: 'MB' });

    const ctx: TableContext = {
      data,
      comparedFrom: async () => [],
      comparison: () => Promise.reject(new Error('none')),
    };
    for (const type of await tableTypes(ctx))
      for (const name of await tableNames(ctx, type)) {
        t = performance.now();
        const first = JSON.stringify(await readTable(ctx, name));
        const firstMs = ms(t);
        t = performance.now();
        JSON.stringify(await readTable(ctx, name));
        const againMs = ms(t);
        const table = JSON.parse(first);
        t = performance.now();
        v.parse(TableSchema, table);
        const parseMs = ms(t);
        rows.push(
          { suite: 'tables', case: `${name}: first read (${table.rows.length} rows)`, value: firstMs, unit: 'ms' },
          { suite: 'tables', case: `${name}: repeated read`, value: againMs, unit: 'ms' },
          { suite: 'tables', case: `${name}: viewer parses the reply`, value: parseMs, unit: 'ms' },
          { suite: 'tables', case: `${name}: reply size`, value: first.length / 1e6, unit: 'MB' },
        );
      }
    return rows;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
