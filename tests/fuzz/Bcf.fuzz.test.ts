/**
 * BCF import fuzz in CI: seeded mutations of buildingSMART's sample packages (tests/fuzz/bcfHarness.ts) read
 * by api/comments/bcf/importBcf.ts against a real revision's objects must import within the comment API's
 * bounds or be refused with a BcfError; a share goes through the import route, where a refused package is a
 * 400 that stores no comment, attachment row or file, and an accepted one stores exactly its topics.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { objectIndex } from '../../api/comments/bcf/viewpoint';
import { loadRevision } from '../../api/projects/loadRevision';
import { bearer, makeApp, multipartFile, signUp, type TestApp, uploadSample } from '../api/helpers';
import { BCF_FINDINGS, type BcfResult, bcfCase, describeBcf, loadBcfBases, runBcfFuzz } from './bcfHarness';
import { dataFiles } from '../support/serverClient';

const CASES = 60;
/** Growth of one change in CI (the bench: 8 MB). */
const GROW = 256 << 10;
const bases = loadBcfBases();
let t: TestApp;
let admin: string;
let project: string;
let results: BcfResult[] = [];

beforeAll(async () => {
  t = await makeApp();
  admin = await signUp(t.app, 'admin@yard.com', { admin: true });
  project = await uploadSample(t, admin, 'NAPA-OCX_M1');
}, 300_000);
afterAll(async () => {
  await t?.close();
});

describe('BCF import fuzz', () => {
  it(`${CASES} mutated packages each import within the comment bounds or are refused with a BcfError`, async () => {
    const rev = await loadRevision(t.app, project, 1);
    results = runBcfFuzz(
      Array.from({ length: CASES }, (_, i) => i + 1),
      bases,
      objectIndex(rev.data.objects),
      GROW,
    );
    expect(results.filter((r) => BCF_FINDINGS.includes(r.kind)).map(describeBcf)).toEqual([]);
    expect(results.filter((r) => r.kind === 'imported').length).toBeGreaterThan(CASES / 10);
    expect(results.filter((r) => r.kind === 'refused').length).toBeGreaterThan(CASES / 20);
  }, 600_000);

  it('a case past the CPU-time bound is a hang finding, whatever its ending (the bound is applied)', async () => {
    const rev = await loadRevision(t.app, project, 1);
    const [r] = runBcfFuzz([1], bases, objectIndex(rev.data.objects), GROW, undefined, 0);
    expect(r.kind).toBe('hang');
    expect(r.message).toMatch(/^past the 0 s CPU-time bound \(\d+\.\d s; (imported|refused): /);
    expect(BCF_FINDINGS).toContain('hang');
  });

  it('through the route: a refused package stores nothing, an accepted one exactly its topics', async () => {
    expect(results.length, 'the fuzz above ran first').toBe(CASES);
    const small = results.filter((r) => r.bytes < 4 << 20);
    const chosen = [
      ...small.filter((r) => r.kind === 'refused').slice(0, 8),
      ...small.filter((r) => r.kind === 'imported').slice(0, 4),
    ];
    const count = async (table: 'comments' | 'comment_attachments') =>
      Number(
        (
          await t.app.ctx.db
            .selectFrom(table)
            .select((e) => e.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    for (const r of chosen) {
      const before = dataFiles(t.config.dataDir);
      const [comments, attachments] = [await count('comments'), await count('comment_attachments')];
      const { payload, headers } = multipartFile('fuzz.bcf', Buffer.from(bcfCase(r.seed, bases, GROW).bytes));
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/keelson-static/comments/bcf?projectName=${project}`,
        payload,
        headers: { ...headers, ...bearer(admin) },
      });
      if (r.kind === 'refused') {
        expect(res.statusCode, `${describeBcf(r)}: ${res.body}`).toBe(400);
        expect(res.json().message).toBe(r.message.replace(/^\w+: /, ''));
        expect(await count('comments'), describeBcf(r)).toBe(comments);
        expect(await count('comment_attachments'), describeBcf(r)).toBe(attachments);
        expect(dataFiles(t.config.dataDir), describeBcf(r)).toEqual(before);
      } else {
        expect(res.statusCode, `${describeBcf(r)}: ${res.body.slice(0, 300)}`).toBe(200);
        expect(res.json().threadIds.length).toBe(res.json().topics);
      }
    }
  }, 600_000);
});
