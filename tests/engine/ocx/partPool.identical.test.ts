/**
 * Tessellation in worker threads is faster without changing results:
 * - the import with tessellation in worker threads (engine/node/ocx/partPool.ts) gives exactly the result of
 *   the single-thread import — object table, properties, meshes byte for byte, fidelity records,
 *   warnings in order, frames — on every sample and on a generated ship, with batches small enough
 *   that several workers finish out of order;
 * - a refused file is refused with the same message, and the pool serves the next import;
 * - the results equal the recorded baseline of the importer before the speed work
 *   (tests/engine/ocx/importBaseline.json: SHA-1 of the object table, properties, fidelity, warnings
 *   and mesh bytes per file, committed data: a missing or different expectation fails). After an
 *   intended change of the importer's output, re-record it with
 *   `UPDATE_OCX_BASELINE=1 npx vitest run --project unit tests/engine/ocx/partPool.identical.test.ts`
 *   (that run only writes the file; the comparison runs without the variable).
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importOcx } from '../../../engine/ocx/index';
import { importOcxFile } from '../../../engine/node/ocx/importFile';
import { partPool } from '../../../engine/node/ocx/partPool';
import type { ImportResult } from '../../../engine/model/types';

const DIR = path.resolve(__dirname, '../../../../shared/models/ocx');
const FILES = readdirSync(DIR)
  .filter((f) => f.endsWith('.3docx'))
  .sort();
const BASELINE = path.join(__dirname, 'importBaseline.json');
const SHIP = { targetParts: 1500, seed: 3, name: 'POOL-IDENTITY' };

let tmp = '';
let ship = '';

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'keelson-pool-'));
  ship = path.join(tmp, 'ship.3docx');
  const { writeShipOcx } = await import('../../../tools/generator/index');
  await writeShipOcx(ship, SHIP);
}, 120_000);

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/**
 * Two-pass import of a file with `threads` workers and small batches (several in flight per worker, some
 * processed on the calling thread, finishing out of order): `batch` records or bytes ÷ 1000 of part text.
 */
function importWith(file: string, threads: number, batch = 8): Promise<ImportResult> {
  const open = () => createReadStream(file, { highWaterMark: 64 * 1024 }) as AsyncIterable<Uint8Array>;
  return importOcx(open(), {
    fileName: path.basename(file),
    reopen: open,
    ...(threads
      ? { offload: partPool({ threads, batchRecords: batch, batchBytes: batch * 1000, inFlightPerWorker: 2 }) }
      : {}),
  });
}

/** SHA-1 (12 hex) of each part of a result, meshes by their bytes. */
function fingerprint(r: ImportResult): Record<string, string> {
  const h = (x: unknown) => createHash('sha1').update(JSON.stringify(x)).digest('hex').slice(0, 12);
  const mh = createHash('sha1');
  for (const m of r.meshes) {
    mh.update(String(m.object));
    for (const a of [m.positions, m.normals, m.indices, m.edges])
      mh.update(a ? new Uint8Array(a.buffer, a.byteOffset, a.byteLength) : 'null');
  }
  return {
    objects: h(r.objects),
    properties: h(r.properties),
    fidelity: h(r.fidelity),
    warnings: h(r.warnings),
    frames: h(r.frames),
    info: h(r.info),
    unsupported: h(r.unsupportedElements ?? null),
    meshes: mh.digest('hex').slice(0, 12),
    count: String(r.objects.length),
  };
}

describe('tessellation in worker threads gives the single-thread result', () => {
  it.each(FILES)(
    '%s: identical with 2 worker threads',
    async (f) => {
      const one = await importWith(path.join(DIR, f), 0);
      const two = await importWith(path.join(DIR, f), 2);
      expect(one.objects.length).toBeGreaterThan(0);
      expect(fingerprint(two)).toEqual(fingerprint(one));
      expect(two.warnings).toEqual(one.warnings);
      expect(two.properties).toEqual(one.properties);
    },
    60_000,
  );

  it('a generated ship: identical with 1 and 2 worker threads, and through importOcxFile', async () => {
    const one = await importWith(ship, 0);
    expect(one.objects.length).toBeGreaterThan(1000);
    const fp = fingerprint(one);
    expect(fingerprint(await importWith(ship, 2, 40))).toEqual(fp);
    expect(fingerprint(await importWith(ship, 1, 300))).toEqual(fp);
    expect(fingerprint(await importOcxFile(ship, { threads: 2 }))).toEqual(fp);
    expect(fingerprint(await importOcxFile(ship, { threads: 0 }))).toEqual(fp);
  }, 120_000);

  it('a malformed file is refused with the same message; the pool then serves the next import', async () => {
    const text = readFileSync(ship, 'utf8');
    const cut = text.indexOf('<ocx:Panel', Math.floor(text.length / 2));
    expect(cut).toBeGreaterThan(0);
    const bad = path.join(tmp, 'bad.3docx');
    await writeFile(bad, `${text.slice(0, cut)}<ocx:Panel id="x" <<broken${text.slice(cut)}`);
    const msg = (p: Promise<unknown>) =>
      p.then(
        () => 'accepted',
        (e: Error) => `${e.name}: ${e.message}`,
      );
    const single = await msg(importWith(bad, 0));
    expect(single).toMatch(/Malformed XML/);
    expect(await msg(importWith(bad, 2))).toBe(single);
    const after = await importWith(path.join(DIR, 'NAPA-OCX_M8.3docx'), 2);
    expect(fingerprint(after)).toEqual(fingerprint(await importWith(path.join(DIR, 'NAPA-OCX_M8.3docx'), 0)));
  }, 120_000);

  it('a file with CR LF line ends, comments and unknown elements inside and between parts: identical, unknown elements counted in document order', async () => {
    let text = readFileSync(path.join(DIR, 'NAPA-OCX_M8.3docx'), 'utf8');
    const firstPanel = text.indexOf('>', text.indexOf('<ocx:Panel ')) + 1;
    text = `${text.slice(0, firstPanel)}<!-- a comment with </ocx:Panel> in it --><ocx:VendorThing a="1"/>${text.slice(firstPanel)}`;
    const vessel = text.indexOf('>', text.indexOf('<ocx:Vessel ')) + 1;
    text = `${text.slice(0, vessel)}<ocx:AnotherThing/><ocx:VendorThing/>${text.slice(vessel)}`.replace(/\n/g, '\r\n');
    const file = path.join(tmp, 'crlf.3docx');
    await writeFile(file, text);
    const one = await importWith(file, 0);
    expect(one.unsupportedElements ?? one.warnings.filter((w) => w.code === 'unsupported-element')).not.toEqual([]);
    expect(fingerprint(await importWith(file, 2))).toEqual(fingerprint(one));
    expect(fingerprint(await importOcxFile(file, { threads: 1 }))).toEqual(fingerprint(one));
    // an error inside a part on a CR LF line: the same line and column
    const bad = path.join(tmp, 'crlf-bad.3docx');
    const at = text.indexOf('<ocx:Plate ', Math.floor(text.length / 2));
    await writeFile(bad, `${text.slice(0, at)}<ocx:Plate id="q" & ${text.slice(at)}`);
    const msg = (p: Promise<unknown>) =>
      p.then(
        () => 'accepted',
        (e: Error) => `${e.name}: ${e.message}`,
      );
    const single = await msg(importWith(bad, 0));
    expect(single).toMatch(/Malformed XML.*line \d+, column \d+/);
    expect(await msg(importWith(bad, 2))).toBe(single);
  }, 120_000);

  it('an import aborted half-way through the threaded part pass rejects with AbortError; the pool then serves the next import', async () => {
    const ac = new AbortController();
    const open = () => createReadStream(ship, { highWaterMark: 16 * 1024 }) as AsyncIterable<Uint8Array>;
    const aborted = importOcx(open(), {
      reopen: open,
      signal: ac.signal,
      totalBytes: statSync(ship).size,
      offload: partPool({ threads: 2, batchBytes: 8000 }),
      onProgress: (f) => f > 0.4 && ac.abort(),
    });
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
    expect(fingerprint(await importWith(ship, 2, 40))).toEqual(fingerprint(await importWith(ship, 0)));
  }, 120_000);

  it('rejects a bad thread count', async () => {
    expect(() => partPool({ threads: 0 })).toThrow(/threads must be ≥ 1/);
    await expect(importOcxFile(path.join(DIR, 'NAPA-OCX_M1.3docx'), { threads: -1 })).rejects.toThrow(
      /threads must be a whole number/,
    );
  });
});

describe('results equal the baseline recorded before the speed work', () => {
  const UPDATE = process.env.UPDATE_OCX_BASELINE === '1';
  async function fingerprints(): Promise<Record<string, Record<string, string>>> {
    const now: Record<string, Record<string, string>> = {};
    for (const f of FILES) now[f] = fingerprint(await importWith(path.join(DIR, f), 0));
    now[`generated ${JSON.stringify(SHIP)}`] = fingerprint(await importWith(ship, 0));
    return now;
  }

  // the expectation is committed data: re-recorded only on request, by a run that checks nothing
  it.runIf(UPDATE)(
    're-records the baseline (UPDATE_OCX_BASELINE=1)',
    async () => {
      writeFileSync(BASELINE, `${JSON.stringify(await fingerprints(), null, 1)}\n`);
    },
    120_000,
  );

  it.skipIf(UPDATE)(
    'every sample and a generated ship',
    async () => {
      const now = await fingerprints();
      expect(existsSync(BASELINE), `${BASELINE} is missing: it is committed data, restore it from git`).toBe(true);
      const base = JSON.parse(readFileSync(BASELINE, 'utf8')) as typeof now;
      expect(Object.keys(base).sort()).toEqual(Object.keys(now).sort());
      for (const k of Object.keys(base)) expect({ file: k, ...now[k] }).toEqual({ file: k, ...base[k] });
    },
    120_000,
  );
});
