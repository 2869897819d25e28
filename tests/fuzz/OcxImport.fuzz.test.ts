/**
 * OCX importer fuzz in CI: 1,000 seeded structure-aware mutations of the small shared samples
 * (tests/fuzz/ocxMutations.ts), each imported in a worker thread with a heap limit and a hang bound
 * (tests/fuzz/ocxHarness.ts), must end in a clean import or a clear OcxImportError; then a share of them goes
 * through the real upload route, where a refused file must leave no revision row and no file behind.
 * A failing seed is printed with its base, mutations and read mode; `npm run bench -- fuzz` runs ≥ 10,000.
 */
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { UploadResponseSchema } from '../../api/contract';
import { bearer, makeApp, multipartFile, signUp, type TestApp } from '../api/helpers';
import {
  countByClass,
  describeResult,
  FINDINGS,
  type FuzzResult,
  loadBases,
  runOcxFuzz,
  SMALL_BASES,
} from './ocxHarness';
import { ocxCase } from './ocxMutations';
import { dataFiles } from '../support/serverClient';

const CASES = 1000;
/** Inputs grow by at most 256 KiB in CI (the bench goes to 16 MB): most cases stay small and quick. */
const LIMITS = { maxGrowBytes: 256 << 10 };
const bases = loadBases(SMALL_BASES);
let results: FuzzResult[] = [];

describe('OCX importer fuzz', () => {
  it(`${CASES} mutated samples each import cleanly or are refused with a clear error, within memory and time bounds`, async () => {
    results = await runOcxFuzz({
      seeds: Array.from({ length: CASES }, (_, i) => i + 1),
      bases,
      limits: LIMITS,
      // bounds against hangs and blow-ups, not speed: a sane import of these ≤ 600 KB inputs takes well under 1 s
      hangCpuMs: 60_000,
      memoryMb: 1024,
    });
    const findings = results.filter((r) => FINDINGS.includes(r.kind)).map(describeResult);
    expect(findings).toEqual([]);
    const counts = countByClass(results);
    // the mutations reach both endings: a fuzz that only ever refuses (or only imports) tests nothing
    expect(counts.imported).toBeGreaterThan(CASES / 10);
    expect(counts.refused).toBeGreaterThan(CASES / 10);
  }, 900_000);
});

describe('fuzzed uploads through the server', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await makeApp();
    admin = await signUp(t.app, 'admin@yard.com', { admin: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a refused upload leaves no revision and no file; an accepted one adds exactly one revision', async () => {
    expect(results.length, 'the fuzz above ran first').toBe(CASES);
    // 30 refused and 10 imported cases, in seed order
    const chosen = [
      ...results.filter((r) => r.kind === 'refused').slice(0, 30),
      ...results.filter((r) => r.kind === 'imported').slice(0, 10),
    ].sort((a, b) => a.seed - b.seed);
    const revisions = () => t.app.ctx.db.selectFrom('revisions').select(['project_id', 'number', 'dir']).execute();
    for (const r of chosen) {
      const c = ocxCase(r.seed, bases, LIMITS);
      const before = dataFiles(t.config.dataDir);
      const rowsBefore = await revisions();
      const { payload, headers } = multipartFile('fuzz.3docx', Buffer.from(c.bytes));
      const up = await t.app.inject({
        method: 'POST',
        url: '/api/viewer/project/add/project-uploaded?projectName=FUZZ',
        payload,
        headers: { ...headers, ...bearer(admin) },
      });
      expect(up.statusCode, `${describeResult(r)}: ${up.body}`).toBe(200);
      const final = await t.app.ctx.conversions.wait(v.parse(UploadResponseSchema, up.json()).conversionId);
      const rowsAfter = await revisions();
      if (r.kind === 'refused') {
        expect(final.status, describeResult(r)).toBe(4);
        expect(final.message).toContain(`Failed to add project FUZZ: ${r.message.slice(0, 40)}`);
        expect(rowsAfter, describeResult(r)).toEqual(rowsBefore);
        // the failed status is published before the upload and scratch files are removed: wait for that state
        await vi.waitFor(() => expect(dataFiles(t.config.dataDir), describeResult(r)).toEqual(before), {
          timeout: 60_000,
          interval: 50,
        });
      } else {
        expect(final.status, `${describeResult(r)}: ${final.message}`).not.toBe(4);
        expect(rowsAfter.length, describeResult(r)).toBe(rowsBefore.length + 1);
      }
    }
  }, 600_000);
});
