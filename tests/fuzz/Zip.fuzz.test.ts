/**
 * Zip upload fuzz in CI: seeded hostile archives (tests/fuzz/zipMutations.ts: bombs, lying sizes, path
 * traversal names, truncation, bad CRCs, unknown methods, thousands of entries, nested archives) extracted by
 * api/conversion/unzip.ts must give one file inside the extraction directory and under the cap, or a
 * ZipArchiveError leaving nothing behind; a share goes through the upload route, where a refused archive is a
 * 400 with the reason and leaves no upload, revision or file. `npm run bench -- fuzz` runs more.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UploadResponseSchema } from '../../api/contract';
import { bearer, makeApp, multipartFile, signUp, type TestApp } from '../api/helpers';
import { OCX_SAMPLES } from './ocxHarness';
import { describeZip, runZipFuzz, ZIP_FINDINGS, type ZipResult } from './zipHarness';
import { zipCase } from './zipMutations';
import { dataFiles } from '../support/serverClient';

const CASES = 100;
const SOURCES = {
  ocx: readFileSync(path.join(OCX_SAMPLES, 'NAPA-OCX_M1.3docx')),
  bombBytes: 8 << 20,
  maxEntries: 5000,
};
/** The extraction cap in the direct cases: the bombs unpack to 8 times this. */
const CAP = 1 << 20;
let results: ZipResult[] = [];

describe('zip upload fuzz', () => {
  it(`${CASES} hostile archives each extract one file inside the directory and under the cap, or are refused leaving nothing`, async () => {
    results = await runZipFuzz(
      Array.from({ length: CASES }, (_, i) => i + 1),
      SOURCES,
      CAP,
      // a hang bound, not a speed check
      60_000,
    );
    expect(results.filter((r) => ZIP_FINDINGS.includes(r.kind)).map(describeZip)).toEqual([]);
    const kinds = new Set(results.map((r) => r.kind));
    expect([...kinds].sort()).toEqual(['extracted', 'refused']);
    // the bombs were caught by the cap, not by luck
    expect(results.some((r) => r.ops[0] === 'bomb' && /unpacks to more than 1 MB/.test(r.message))).toBe(true);
  }, 600_000);
});

describe('hostile archives through the upload route', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await makeApp();
    admin = await signUp(t.app, 'admin@yard.com', { admin: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a refused archive is a 400 naming the reason and leaves no upload, revision or file', async () => {
    expect(results.length, 'the fuzz above ran first').toBe(CASES);
    // the bombs are left out: the server's cap (20 × the upload limit) is above what they unpack to
    const refused = results
      .filter((r) => r.kind === 'refused' && r.bytes < 1 << 20 && r.ops[0] !== 'bomb')
      .slice(0, 12);
    const extracted = results.filter((r) => r.kind === 'extracted' && r.bytes < 1 << 20).slice(0, 4);
    const revisions = () => t.app.ctx.db.selectFrom('revisions').select(['project_id', 'number', 'dir']).execute();
    for (const r of [...refused, ...extracted]) {
      const before = dataFiles(t.config.dataDir);
      const rowsBefore = await revisions();
      const { payload, headers } = multipartFile('fuzz.zip', Buffer.from(zipCase(r.seed, SOURCES).bytes));
      const up = await t.app.inject({
        method: 'POST',
        url: '/api/viewer/project/add/project-uploaded?projectName=ZIPFUZZ',
        payload,
        headers: { ...headers, ...bearer(admin) },
      });
      if (up.statusCode === 400) {
        expect(r.kind, describeZip(r)).toBe('refused');
        expect(up.json().message, describeZip(r)).toBe(r.message.replace(/^ZipArchiveError: /, ''));
        expect(await revisions()).toEqual(rowsBefore);
        expect(dataFiles(t.config.dataDir), describeZip(r)).toEqual(before);
      } else {
        expect(up.statusCode, `${describeZip(r)}: ${up.body}`).toBe(200);
        expect(r.kind, describeZip(r)).toBe('extracted');
        const final = await t.app.ctx.conversions.wait(v.parse(UploadResponseSchema, up.json()).conversionId);
        // an extracted entry may still be a damaged document: then the conversion fails and stores nothing
        if (final.status === 4) {
          expect(await revisions(), `${describeZip(r)}: ${final.message}`).toEqual(rowsBefore);
          expect(dataFiles(t.config.dataDir), describeZip(r)).toEqual(before);
        } else expect((await revisions()).length, describeZip(r)).toBe(rowsBefore.length + 1);
      }
    }
  }, 600_000);
});
