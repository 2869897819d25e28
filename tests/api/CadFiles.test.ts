/**
 * The CAD files a model needs (issue "CAD components" §1): a conversion with the "CAD components" option on
 * records the distinct file names and their objects in the revision's cad-files.json, with it off none;
 * GET /api/viewer/project/cad-files-available answers them for the latest revision with `exists` once a file
 * is in DATA_DIR/projects/{NAME}/cad/, and 404 for a user who may not see the project. The ship is the
 * generator's with its equipment option (items naming the shared CAD samples).
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CadFilesAvailableSchema, DEFAULT_CONVERSION_CONFIG } from '../../api/contract';
import { CAD_FILES_FILE, readCadFiles } from '../../api/conversion/cadFiles';
import { convertFile } from '../../api/conversion/convertFile';
import { CAD_EQUIPMENT_FILES } from '../../tools/generator/equipment';
import { writeShipOcx } from '../../tools/generator/index';
import { bearer, grantProjects, multipartFile, signUp, makeApp, type TestApp, uploadFile } from './helpers';

let dir = '';
let ship = '';

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'keelson-cad-'));
  ship = path.join(dir, 'CADSHIP.3docx');
  await writeShipOcx(ship, { targetParts: 100, seed: 3, name: 'CADSHIP', equipment: true });
}, 120_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('conversion with the CAD components option', () => {
  const convert = (cadComponents: boolean) =>
    convertFile({
      input: ship,
      outDir: path.join(dir, `out-${cadComponents}`),
      modelName: 'CADSHIP',
      options: { ...DEFAULT_CONVERSION_CONFIG, cadComponents, screenshot: false },
    });

  it('on: records each required file once with its objects', async () => {
    const out = await convert(true);
    expect(out.cadFiles).toBe(CAD_EQUIPMENT_FILES.length);
    expect(out.warningMessages.join('\n')).not.toMatch(/Equipment/);
    const rec = await readCadFiles(path.join(dir, 'out-true'));
    expect(rec.dropped).toBe(0);
    expect(rec.files.map((f) => f.fileName)).toEqual(CAD_EQUIPMENT_FILES);
    expect(rec.files[0].fileName).toBe('as1-oc-214.stp');
    expect(rec.files[0].format).toBe('.stp');
    expect(rec.files[0].objects.map((o) => [o.type, o.name])).toEqual([
      ['Equipment', 'Ballast pump 1'],
      ['Equipment', 'Ballast pump 2'],
    ]);
    // ids are the file's (distinct, non-empty)
    const ids = rec.files.flatMap((f) => f.objects.map((o) => o.id));
    expect(new Set(ids).size).toBe(4);
    expect(ids.every((id) => id.length > 0)).toBe(true);
  }, 120_000);

  it('off: records none', async () => {
    const out = await convert(false);
    expect(out.cadFiles).toBe(0);
    expect(existsSync(path.join(dir, 'out-false', CAD_FILES_FILE))).toBe(false);
    expect(existsSync(path.join(dir, 'out-false', 'CADSHIP.sc'))).toBe(true);
    expect((await readCadFiles(path.join(dir, 'out-false'))).files).toEqual([]);
  }, 120_000);
});

describe('GET /api/viewer/project/cad-files-available', () => {
  let t: TestApp;
  let admin = '';
  let outsider = '';
  const URL = '/api/viewer/project/cad-files-available?projectName=CADSHIP';
  const CONVERSION = '/api/default/viewer/config/conversion';

  beforeAll(async () => {
    t = await makeApp();
    admin = await signUp(t.app, 'admin@yard.com', { admin: true });
    outsider = await signUp(t.app, 'outsider@other.org');
    await grantProjects(t.app, admin, 'outsider@other.org', []);
  }, 60_000);
  afterAll(async () => {
    await t.close();
  });

  it('answers the required names and whether each is on the server; 404 for an outsider', async () => {
    const patch = await t.app.inject({
      method: 'PATCH',
      url: CONVERSION,
      headers: bearer(admin),
      payload: { cadComponents: true },
    });
    expect(patch.statusCode, patch.body).toBe(200);
    // The conversion pauses for the CAD files; Continue without any leaves those components without geometry.
    const paused = new Promise<void>((r) => t.app.ctx.cadWaits.onChange((e) => e.waiting && r()));
    const { payload, headers } = multipartFile('CADSHIP.3docx', await readFile(ship));
    const up = await t.app.inject({
      method: 'POST',
      url: '/api/viewer/project/add/project-uploaded',
      payload,
      headers: { ...headers, ...bearer(admin) },
    });
    expect(up.statusCode, up.body).toBe(200);
    await paused;
    const notify = await t.app.inject({
      method: 'POST',
      url: '/api/viewer/project/notify-cad-files-uploaded?projectName=CADSHIP',
      headers: bearer(admin),
      payload: { fileNames: [] },
    });
    expect(notify.statusCode, notify.body).toBe(200);
    const end = await t.app.ctx.conversions.wait(up.json().conversionId);
    expect(end.status).toBe(2);

    const get = async (token: string) => t.app.inject({ url: URL, headers: bearer(token) });
    let r = await get(admin);
    expect(r.statusCode, r.body).toBe(200);
    let body = v.parse(CadFilesAvailableSchema, r.json());
    expect(body.projectName).toBe('CADSHIP');
    expect(body.revision).toBe(1);
    expect(body.files.map((f) => [f.fileName, f.exists])).toEqual(CAD_EQUIPMENT_FILES.map((f) => [f, false]));

    const cadDir = t.app.ctx.projects.cadDir('CADSHIP');
    await mkdir(cadDir, { recursive: true });
    await writeFile(path.join(cadDir, 'cube-10mm.igs'), 'placeholder');
    r = await get(admin);
    body = v.parse(CadFilesAvailableSchema, r.json());
    expect(body.files.map((f) => [f.fileName, f.exists])).toEqual(
      CAD_EQUIPMENT_FILES.map((f) => [f, f === 'cube-10mm.igs']),
    );
    expect(body.files.find((f) => f.fileName === 'IfcOpenHouse_IFC4.ifc')?.objects.map((o) => o.name)).toEqual([
      'Deck house',
    ]);

    const denied = await get(outsider);
    expect(denied.statusCode).toBe(404);
    expect((await t.app.inject({ url: URL })).statusCode).toBe(401);
  }, 180_000);

  it('answers no files for a revision converted with the option off', async () => {
    await t.app.inject({ method: 'PATCH', url: CONVERSION, headers: bearer(admin), payload: { cadComponents: false } });
    await uploadFile(t, admin, 'CADSHIP.3docx', await readFile(ship));
    const r = await t.app.inject({ url: URL, headers: bearer(admin) });
    const body = v.parse(CadFilesAvailableSchema, r.json());
    expect(body.revision).toBe(2);
    expect(body.files).toEqual([]);
  }, 180_000);
});
