/**
 * BCF packages are read off the server's request thread (api/comments/bcf/bcfImportRunner.ts,
 * workers/bcfImport.worker.ts): the worker thread gives exactly what the server thread gives — threads,
 * attachments, warnings, unmatched components — on every buildingSMART sample package, refuses what the
 * server thread refuses with the same message, and the calling thread goes on with other work meanwhile.
 * Real worker threads (piscina), real sample packages.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BcfImportRunner,
  inProcessBcfImportRunner,
  workerBcfImportRunner,
} from '../../api/comments/bcf/bcfImportRunner';
import { type ObjectIndexData, objectIndexData } from '../../api/comments/bcf/viewpoint';
import { importOcxFile } from '../../engine/node/ocx/importFile';

const BCF_DIR = path.resolve(__dirname, '../../../shared/models/bcf');
const PACKAGES = readdirSync(BCF_DIR)
  .filter((f) => f.endsWith('.bcf') || f.endsWith('.bcfzip'))
  .sort();

let index: ObjectIndexData;
let worker: BcfImportRunner;
const here = inProcessBcfImportRunner();

beforeAll(async () => {
  const model = await importOcxFile(path.resolve(__dirname, '../../../shared/models/ocx/NAPA-OCX_M1.3docx'));
  index = objectIndexData(model.objects);
  worker = workerBcfImportRunner(1, 512);
}, 60_000);
afterAll(async () => {
  await worker?.close();
});

describe('BCF import in a worker thread', () => {
  it('reads every sample package as the server thread does', async () => {
    expect(PACKAGES.length).toBeGreaterThan(5);
    for (const f of PACKAGES) {
      const bytes = () => new Uint8Array(readFileSync(path.join(BCF_DIR, f)));
      // the task's bytes are moved to the thread: each side gets its own copy
      const [a, b] = [await here.run({ bytes: bytes(), index }), await worker.run({ bytes: bytes(), index })];
      expect(b, f).toEqual(a);
    }
  }, 120_000);

  it('refuses what the server thread refuses, with the same message', async () => {
    const bytes = () => new TextEncoder().encode('not a zip');
    expect(await worker.run({ bytes: bytes(), index })).toEqual({
      refused: 'The file is not a BCF package (a zip archive)',
    });
    expect(await here.run({ bytes: bytes(), index })).toEqual(await worker.run({ bytes: bytes(), index }));
    // a small upload is a view into Node's shared pool of Buffers: copied to the thread, not moved away
    const pooled = Buffer.from('not a zip either');
    const neighbour = Buffer.from('a neighbour in the pool');
    expect(pooled.buffer).toBe(neighbour.buffer);
    expect(await worker.run({ bytes: pooled, index })).toMatchObject({ refused: expect.any(String) });
    expect(neighbour.toString()).toBe('a neighbour in the pool');
  });

  it('the calling thread runs other work while a package is read (the server thread does not)', async () => {
    const bytes = () => new Uint8Array(readFileSync(path.join(BCF_DIR, PACKAGES[0])));
    let ticked = false;
    setImmediate(() => (ticked = true));
    await worker.run({ bytes: bytes(), index });
    expect(ticked).toBe(true);
    ticked = false;
    setImmediate(() => (ticked = true));
    await here.run({ bytes: bytes(), index });
    expect(ticked).toBe(false);
  });
});
