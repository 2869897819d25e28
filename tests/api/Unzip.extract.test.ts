/**
 * Zipped uploads (api/conversion/unzip.ts, fflate streaming Unzip): the single OCX entry is extracted,
 * none or several are refused naming the entries, corrupt archives are refused, and the upload route
 * answers such archives with 400 leaving nothing behind. Archives are built here with fflate from
 * ../shared/models/ocx/NAPA-OCX_M1.3docx.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Zip, ZipDeflate, ZipPassThrough, zipSync, strToU8 } from 'fflate';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { extractSingleOcxFromZip, maxUnpackedBytes, ZipArchiveError } from '../../api/conversion/unzip';
import { SAMPLES, bearer, makeApp, multipartFile, signUp, type TestApp } from './helpers';

const SAMPLE = readFileSync(path.join(SAMPLES, 'NAPA-OCX_M1.3docx'));

/** A ZIP written by fflate's streaming Zip: sizes follow each entry in data descriptors. */
function streamedZip(entries: { name: string; data: Uint8Array; stored?: boolean }[]): Buffer {
  const parts: Uint8Array[] = [];
  const zip = new Zip((err, chunk) => {
    if (err) throw err;
    parts.push(chunk);
  });
  for (const e of entries) {
    const f = e.stored ? new ZipPassThrough(e.name) : new ZipDeflate(e.name, { level: 6 });
    zip.add(f);
    f.push(e.data, true);
  }
  zip.end();
  return Buffer.concat(parts);
}

const tmp: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), 'keelson-unzip-'));
  tmp.push(d);
  return d;
};
afterAll(() => {
  for (const d of tmp.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function extract(zip: Uint8Array): Promise<{ file: string; out: string }> {
  const dir = tempDir();
  writeFileSync(path.join(dir, 'in.zip'), zip);
  const out = path.join(dir, 'out');
  return { file: await extractSingleOcxFromZip(path.join(dir, 'in.zip'), out), out };
}

async function refusal(zip: Uint8Array, maxBytes?: number): Promise<{ error: unknown; left: string[] }> {
  const dir = tempDir();
  writeFileSync(path.join(dir, 'in.zip'), zip);
  const out = path.join(dir, 'out');
  const error = await extractSingleOcxFromZip(path.join(dir, 'in.zip'), out, maxBytes).then(
    () => null,
    (e: unknown) => e,
  );
  return { error, left: existsSync(out) ? readdirSync(out) : [] };
}

describe('an OCX entry whose name no file can have', () => {
  // Found by the full-size zip fuzz (seeds 100081, 100436): a NUL in the name crashed the extraction with
  // a TypeError, a 306-byte name with ENAMETOOLONG; both were errors of the server, not refusals.
  it.each([
    ['a NUL', 'model\u0000.3docx', /the OCX entry's name holds the control character U\+0000/],
    ['a line feed', 'mod\nel.3docx', /the OCX entry's name holds the control character U\+000A/],
    ['306 bytes', `${'x'.repeat(300)}.3docx`, /the OCX entry's name is 306 bytes long \(at most 255\): x{40}…$/],
  ])('refuses %s as an unsupported archive and leaves nothing', async (_what, name, message) => {
    const { error, left } = await refusal(zipSync({ [name]: SAMPLE }));
    expect(error).toBeInstanceOf(ZipArchiveError);
    expect((error as Error).message).toMatch(message);
    expect(left).toEqual([]);
  });

  it('still extracts a name of 255 bytes in several scripts', async () => {
    const name = `${'模'.repeat(82)}x.3docx`; // 82 × 3 + 7 = 253 bytes
    const { file } = await extract(zipSync({ [name]: SAMPLE }));
    expect(path.basename(file)).toBe(name);
    expect(readFileSync(file).equals(SAMPLE)).toBe(true);
  });
});

describe('extractSingleOcxFromZip', () => {
  it('stops an entry that unpacks to more than the limit (zip bomb) and leaves nothing behind', async () => {
    // 8 MB of one repeated byte deflate to a few kB.
    const bomb = zipSync({ 'bomb.3docx': new Uint8Array(8 * 1048576).fill(0x20) }, { level: 9 });
    expect(bomb.length).toBeLessThan(100_000);
    const { error, left } = await refusal(bomb, 1048576);
    expect(error).toBeInstanceOf(ZipArchiveError);
    expect((error as Error).message).toBe('Unsupported archive: bomb.3docx unpacks to more than 1 MB');
    expect(left).toEqual([]);
    expect(maxUnpackedBytes(100)).toBe(100 * 20 * 1048576);
    // the default cap holds for the default upload limit: 4 GB, not 20 × 2048 MB
    expect(maxUnpackedBytes(2048)).toBe(4096 * 1048576);
  });

  it('extracts the one OCX entry of a deflated archive next to other files', async () => {
    const zip = zipSync({ 'readme.txt': strToU8('hello'), 'ship/M1.3docx': SAMPLE, 'docs/': {} });
    const { file } = await extract(zip);
    expect(path.basename(file)).toBe('M1.3docx');
    expect(readFileSync(file).equals(SAMPLE)).toBe(true);
  });

  it('reads streamed archives (data descriptors), stored entries, and ignores __MACOSX', async () => {
    const zip = streamedZip([
      { name: '__MACOSX/._M1.ocx', data: strToU8('resource fork') },
      { name: 'notes.txt', data: strToU8('n'.repeat(100_000)) },
      { name: 'M1.ocx', data: SAMPLE },
    ]);
    const { file } = await extract(zip);
    expect(path.basename(file)).toBe('M1.ocx');
    expect(readFileSync(file).equals(SAMPLE)).toBe(true);
    const stored = streamedZip([{ name: 'plain.xml', data: SAMPLE, stored: true }]);
    expect(readFileSync((await extract(stored)).file).equals(SAMPLE)).toBe(true);
  });

  it('refuses an archive without an OCX entry, naming the entries found', async () => {
    const { error } = await refusal(zipSync({ 'readme.txt': strToU8('hi'), 'model.db64': strToU8('x') }));
    expect(error).toBeInstanceOf(ZipArchiveError);
    expect((error as Error).message).toBe(
      'The archive holds no .3docx, .ocx or .xml file (entries: readme.txt, model.db64)',
    );
  });

  it('refuses an archive with several OCX entries, naming them, and leaves no file', async () => {
    const { error, left } = await refusal(
      zipSync({ 'a/M1.3docx': SAMPLE, 'readme.txt': strToU8('hi'), 'b.xml': strToU8('<x/>') }),
    );
    expect(error).toBeInstanceOf(ZipArchiveError);
    expect((error as Error).message).toBe('The archive holds more than one OCX file: a/M1.3docx, b.xml');
    expect(left).toEqual([]);
  });

  it('refuses a truncated or corrupt archive', async () => {
    const zip = zipSync({ 'M1.3docx': SAMPLE });
    const truncated = await refusal(zip.subarray(0, Math.floor(zip.length / 2)));
    expect(truncated.error).toBeInstanceOf(ZipArchiveError);
    expect((truncated.error as Error).message).toMatch(/^Unsupported archive: /);
    expect(truncated.left).toEqual([]);
    const garbled = Buffer.from(zip);
    garbled.fill(0xff, 60, garbled.length - 200); // the deflate stream of M1.3docx, not the directory
    const corrupt = await refusal(garbled);
    expect(corrupt.error).toBeInstanceOf(ZipArchiveError);
    expect(corrupt.left).toEqual([]);
  });
});

describe('zipped uploads', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await makeApp();
    admin = await signUp(t.app, 'admin@yard.com', { admin: true });
  });
  afterAll(async () => {
    await t.close();
  });
  afterEach(() => {
    // Nothing of a refused upload stays under uploads/ (the original and the extracted entry).
    const uploads = path.join(t.config.dataDir, 'uploads');
    if (existsSync(uploads)) expect(readdirSync(uploads).filter((f) => f.includes('extracted'))).toEqual([]);
  });

  const upload = (name: string, zip: Uint8Array) => {
    const { payload, headers } = multipartFile(name, Buffer.from(zip));
    return t.app.inject({
      method: 'POST',
      url: '/api/viewer/project/add/project-uploaded',
      payload,
      headers: { ...headers, ...bearer(admin) },
    });
  };

  it('converts the zipped sample to Ready and keeps the zip as the original', async () => {
    const r = await upload('m1-zipped.zip', zipSync({ 'NAPA-OCX_M1.3docx': SAMPLE }));
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().projectName).toBe('M1-ZIPPED');
    const final = await t.app.ctx.conversions.wait(r.json().conversionId);
    expect(final.status, final.message).toBe(2);
    const uploads = readdirSync(path.join(t.config.dataDir, 'uploads'));
    expect(uploads).toEqual([`${r.json().conversionId}-m1-zipped.zip`]);
  });

  it('answers 400 naming the entries for an archive with several OCX files, and records nothing', async () => {
    const r = await upload('two.zip', zipSync({ 'M1.3docx': SAMPLE, 'M2.ocx': SAMPLE }));
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({
      error: 'BadRequest',
      message: 'The archive holds more than one OCX file: M1.3docx, M2.ocx',
      type: 'validation',
    });
    const models = (await t.app.inject({ url: '/api/viewer/project/models', headers: bearer(admin) })).json() as {
      name: string;
    }[];
    expect(models.map((m) => m.name)).not.toContain('TWO');
    const conv = await t.app.inject({
      url: '/api/viewer/project/model-conversion?projectName=TWO',
      headers: bearer(admin),
    });
    expect(conv.statusCode).toBe(404);
    expect(readdirSync(path.join(t.config.dataDir, 'uploads')).some((f) => f.includes('two'))).toBe(false);
  });

  it('answers 400 for an archive without an OCX file', async () => {
    const r = await upload('none.zip', zipSync({ 'readme.txt': strToU8('hi') }));
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toBe('The archive holds no .3docx, .ocx or .xml file (entries: readme.txt)');
    // the name is free again: a good archive under it converts
    const ok = await upload('none.zip', zipSync({ 'M1.3docx': SAMPLE }));
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await t.app.ctx.conversions.wait(ok.json().conversionId)).status).toBe(2);
  });
});
