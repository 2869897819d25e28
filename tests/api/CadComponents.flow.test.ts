/**
 * The CAD components flow over a real listening server (application.md §4 "CAD upload dialog", §5, §7;
 * viewer.md §3, §7): with the "CAD components" option on, an upload of the generator's ship whose equipment
 * names two STL files and a .jt file pauses; the upload refusals (name not required, given twice,
 * unsupported format, existing file without overwrite, another user); a reader watching the conversion gets
 * the 'cadfiles' states (uploading, exists, updating); Continue resumes it and the revision has CAD
 * COMPONENT objects with the boxes the STL files were made with (three's STLExporter), a batch of chunks of
 * their own, the failed .jt component without geometry and a warning; a section cuts the pump; Cancel during
 * a pause cancels the conversion.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Socket } from 'socket.io-client';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CAD_FILES_EVENT,
  CadComponentsResponseSchema,
  CadFileNamesSchema,
  type CadFilesState,
  CadFilesStateSchema,
  CadComponentSectionsResponseSchema,
  ConversionStatus,
  type ProgressEvent,
  ProgressEventSchema,
  UploadResponseSchema,
} from '../../api/contract';
import { attachRealtime, type JoinReply } from '../../api/realtime';
import { readRevisionObjects } from '../../engine/node/package/writeRevision';
import { decodeScenePackage } from '../../engine/package/reader';
import { boxStl, writeCadShip } from '../support/cadShip';
import {
  bearer,
  grantProjects,
  makeApp,
  multipartFile,
  multipartFiles,
  signUp,
  type TestApp,
  uploadFile,
} from './helpers';
import { openSocket } from '../support/realtimeClient';

const NAME = 'CADFLOW';
/** The pump's box as made: 400 × 300 × 200 mm centred at (1000, 2000, 3000). */
const PUMP = [800, 1850, 2900, 1200, 2150, 3100];
/** The hatch cover's box: 2000 × 1000 × 50 mm centred at (5000, 0, 10000). */
const HATCH = [4000, -500, 9975, 6000, 500, 10025];

let dir = '';
let ship: Buffer;
let pumpStl: Buffer;
let hatchStl: Buffer;
let t: TestApp;
let url = '';
let admin = '';
let reader = '';
let outsider = '';

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'keelson-cadflow-'));
  // The equipment names the shared STEP/IGES/IFC samples; here they name STL files made below and a .jt file.
  ship = await writeCadShip(path.join(dir, 'ship.3docx'), NAME, {
    'as1-oc-214.stp': 'pump.stl',
    'cube-10mm.igs': 'hatch.stl',
    'IfcOpenHouse_IFC4.ifc': 'deckhouse.jt',
  });
  pumpStl = boxStl([400, 300, 200], [1000, 2000, 3000]);
  hatchStl = boxStl([2000, 1000, 50], [5000, 0, 10000]);
  t = await makeApp();
  attachRealtime(t.app);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  admin = await signUp(t.app, 'admin@yard.com', { admin: true });
  reader = await signUp(t.app, 'reader@other.org');
  outsider = await signUp(t.app, 'outsider@other.org');
  // Revision 1 without CAD components, so the project exists when access to it is granted.
  expect(await uploadFile(t, admin, `${NAME}.3docx`, ship)).toBe(NAME);
  await grantProjects(t.app, admin, 'reader@other.org', [NAME], { fixed: [] });
  await grantProjects(t.app, admin, 'outsider@other.org', [], { fixed: ['upload:model'] });
  const patch = await t.app.inject({
    method: 'PATCH',
    url: '/api/default/viewer/config/conversion',
    headers: bearer(admin),
    payload: { cadComponents: true, screenshot: false },
  });
  expect(patch.statusCode, patch.body).toBe(200);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

const openClient = (token: string): Promise<Socket> => openSocket(url, { token });
const join = (s: Socket, room: string) =>
  new Promise<JoinReply>((resolve) => s.emit('join', room, (r: JoinReply) => resolve(r)));

/** Starts the upload of the ship as the administrator; resolves with the conversion id once it is paused. */
async function startPaused(): Promise<string> {
  const paused = new Promise<void>((r) => {
    const off = t.app.ctx.cadWaits.onChange((e) => {
      if (e.projectName === NAME && e.waiting) {
        off();
        r();
      }
    });
  });
  const { payload, headers } = multipartFile('ship.3docx', ship);
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/viewer/project/add/project-uploaded?projectName=${NAME}`,
    payload,
    headers: { ...headers, ...bearer(admin) },
  });
  expect(res.statusCode, res.body).toBe(200);
  await paused;
  return v.parse(UploadResponseSchema, res.json()).conversionId;
}

function upload(token: string, files: { name: string; content: Buffer }[], overwrite = false) {
  const { payload, headers } = multipartFiles('cadFiles', files);
  return t.app.inject({
    method: 'POST',
    url: `/api/viewer/project/upload-cad-files?projectName=${NAME}&overwrite=${overwrite}`,
    payload,
    headers: { ...headers, ...bearer(token) },
  });
}

const statuses = (s: CadFilesState) => Object.fromEntries(s.files.map((f) => [f.fileName, f.status]));

describe('CAD components: pause, upload, resume', () => {
  let conversionId = '';
  const seen: CadFilesState[] = [];
  const progress: ProgressEvent[] = [];
  let watcher: Socket;

  it('pauses the conversion and lists the required files, with a file already on the server as extra', async () => {
    const cadDir = t.app.ctx.projects.cadDir(NAME);
    await mkdir(cadDir, { recursive: true });
    await writeFile(path.join(cadDir, 'old-valve.stl'), boxStl([10, 10, 10], [0, 0, 0]));
    conversionId = await startPaused();
    watcher = await openClient(reader);
    watcher.on(CAD_FILES_EVENT, (e: unknown) => seen.push(v.parse(CadFilesStateSchema, e)));
    watcher.on('progress', (e: unknown) => progress.push(v.parse(ProgressEventSchema, e)));
    expect(await join(watcher, conversionId)).toMatchObject({ ok: true });
    const stranger = await openClient(outsider);
    expect(await join(stranger, conversionId)).toMatchObject({ ok: false });
    stranger.close();

    expect(t.app.ctx.conversions.running(NAME)).toMatchObject({ waitingForCadFiles: true });
    const r = await t.app.inject({
      url: `/api/viewer/project/cad-files-state?projectName=${NAME}`,
      headers: bearer(reader),
    });
    expect(r.statusCode, r.body).toBe(200);
    const s = v.parse(CadFilesStateSchema, r.json());
    expect(s).toMatchObject({ conversionId, projectName: NAME, waiting: true });
    expect(s.files.map((f) => [f.fileName, f.status])).toEqual([
      ['pump.stl', 'missing'],
      ['hatch.stl', 'missing'],
      ['deckhouse.jt', 'missing'],
      ['old-valve.stl', 'extra'],
    ]);
    expect(s.files[0].objects.map((o) => o.name)).toEqual(['Ballast pump 1', 'Ballast pump 2']);
  }, 120_000);

  it('refuses names not required, duplicates, unsupported formats and other users, keeping nothing', async () => {
    let r = await upload(admin, [{ name: 'other.stl', content: pumpStl }]);
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toBe(`other.stl is not a CAD file project ${NAME} requires`);
    r = await upload(admin, [
      { name: 'pump.stl', content: pumpStl },
      { name: 'pump.stl', content: pumpStl },
    ]);
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toBe('pump.stl is given twice');
    r = await upload(admin, [{ name: 'deckhouse.jt', content: Buffer.from('JT') }]);
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toMatch(/'\.jt' files are not supported; supported CAD formats: .*\.stl/);
    // A reader may watch but not upload; a user who cannot see the project learns nothing about it.
    expect((await upload(reader, [{ name: 'pump.stl', content: pumpStl }])).statusCode).toBe(403);
    expect((await upload(outsider, [{ name: 'pump.stl', content: pumpStl }])).statusCode).toBe(404);
    const s = v.parse(
      CadFilesStateSchema,
      (
        await t.app.inject({ url: `/api/viewer/project/cad-files-state?projectName=${NAME}`, headers: bearer(admin) })
      ).json(),
    );
    expect(statuses(s)).toMatchObject({ 'pump.stl': 'missing', 'hatch.stl': 'missing' });
  });

  it('stores the uploads, refuses a second copy without overwrite, and the watcher sees each state', async () => {
    const from = seen.length;
    let r = await upload(admin, [
      { name: 'pump.stl', content: pumpStl },
      { name: 'hatch.stl', content: pumpStl },
    ]);
    expect(r.statusCode, r.body).toBe(200);
    expect(statuses(v.parse(CadFilesStateSchema, r.json()))).toMatchObject({
      'pump.stl': 'exists',
      'hatch.stl': 'exists',
    });
    r = await upload(admin, [{ name: 'hatch.stl', content: hatchStl }]);
    expect(r.statusCode).toBe(409);
    expect(r.json().message).toBe('hatch.stl is already on the server; choose overwrite to replace it');
    r = await upload(admin, [{ name: 'hatch.stl', content: hatchStl }], true);
    expect(r.statusCode, r.body).toBe(200);
    expect(await readFile(path.join(t.app.ctx.projects.cadDir(NAME), 'hatch.stl'))).toEqual(hatchStl);
    // The events reach the watcher in order: uploading → exists, then updating → exists.
    await new Promise<void>((resolve) => {
      const last = () => seen.at(-1);
      const check = () =>
        seen.slice(from).some((e) => statuses(e)['hatch.stl'] === 'updating') &&
        statuses(last() ?? { conversionId, projectName: NAME, waiting: true, files: [] })['hatch.stl'] === 'exists' &&
        resolve();
      check();
      watcher.on(CAD_FILES_EVENT, () => setImmediate(check));
    });
    const pumpStates = seen
      .slice(from)
      .map((e) => statuses(e)['pump.stl'])
      .filter((x, i, a) => x !== a[i - 1]);
    expect(pumpStates).toEqual(['uploading', 'exists']);
    const hatchStates = seen
      .slice(from)
      .map((e) => statuses(e)['hatch.stl'])
      .filter((x, i, a) => x !== a[i - 1]);
    expect(hatchStates).toEqual(['missing', 'uploading', 'exists', 'updating', 'exists']);
  });

  it('continues on notify: the revision has the CAD COMPONENT objects with the files’ boxes', async () => {
    const r = await t.app.inject({
      method: 'POST',
      url: `/api/viewer/project/notify-cad-files-uploaded?projectName=${NAME}`,
      headers: bearer(admin),
      payload: { fileNames: ['pump.stl', 'hatch.stl'] },
    });
    expect(r.statusCode, r.body).toBe(200);
    const end = await t.app.ctx.conversions.wait(conversionId);
    expect(end.status, JSON.stringify(end)).toBe(ConversionStatus.Ready);
    // The watcher's socket hears the end too (its events pass the room's access check first).
    await new Promise<void>((resolve) => {
      const check = () => progress.some((e) => e.status === ConversionStatus.Ready) && resolve();
      check();
      watcher.on('progress', () => setImmediate(check));
    });
    // The failed .jt component is a warning of the conversion.
    const warning = progress.find((e) => e.status === ConversionStatus.Warning);
    expect(warning?.subMessages.join('\n')).toMatch(
      /CAD component failed: deckhouse\.jt: '\.jt' files are not supported/,
    );
    expect(seen.at(-1)).toMatchObject({ waiting: false });
    watcher.close();

    const all = await t.app.inject({
      url: `/api/keelson-instance/cad-components/all?modelName=${NAME}`,
      headers: bearer(reader),
    });
    expect(all.statusCode, all.body).toBe(200);
    const comps = v.parse(CadComponentsResponseSchema, all.json());
    const m = (b: number[]) => b.map((x) => x / 1000);
    expect(comps.map((c) => [c.name, c.fileName, c.format, c.triangles])).toEqual([
      ['@Ballast pump 1', 'pump.stl', '.stl', 12],
      ['@Ballast pump 2', 'pump.stl', '.stl', 12],
      ['@Hatch cover', 'hatch.stl', '.stl', 12],
      ['@Deck house', 'deckhouse.jt', '.jt', 0],
    ]);
    for (const [k, box] of [PUMP, PUMP, HATCH].entries())
      comps[k].bounds?.forEach((x, i) => expect(x).toBeCloseTo(m(box)[i], 4));
    expect(comps[3]).toMatchObject({ bounds: null, error: expect.stringMatching(/deckhouse\.jt: '\.jt' files/) });
    const names = await t.app.inject({
      url: `/api/keelson-instance/cad-components/file-names?modelName=${NAME}`,
      headers: bearer(reader),
    });
    expect(v.parse(CadFileNamesSchema, names.json()).fileNames).toEqual(['pump.stl', 'hatch.stl', 'deckhouse.jt']);

    // The object table and the package: the components are objects of their own, in chunks of their own.
    const row = await t.app.ctx.projects.revision(NAME, 'latest');
    const revDir = await t.app.ctx.projects.revisionDir(row);
    const objects = (await readRevisionObjects(revDir)).objects;
    const cad = objects.filter((o) => o.type === 'CAD COMPONENT');
    expect(cad.map((o) => o.index)).toEqual(comps.map((c) => c.index));
    expect(cad[0]).toMatchObject({ element: 'Equipment', parent: -1, bounds: PUMP });
    const pkg = decodeScenePackage(new Uint8Array(await readFile(path.join(revDir, `${NAME}.sc`))));
    expect(pkg.header.objectCount).toBe(objects.length);
    const cadSet = new Set(cad.map((o) => o.index));
    const chunkObjects = pkg.chunks.map((c) => [...c.objects].filter((_, i) => i % 5 === 0));
    const cadChunks = chunkObjects.filter((os) => os.some((o) => cadSet.has(o)));
    expect(cadChunks.length).toBeGreaterThan(0);
    expect(cadChunks.flat().every((o) => cadSet.has(o))).toBe(true);
    expect(new Set(cadChunks.flat())).toEqual(new Set(comps.slice(0, 3).map((c) => c.index)));
    expect(pkg.header.triangleCount).toBe(pkg.chunks.reduce((n, c) => n + c.indices.length / 3, 0));

    // The properties panel's rows: source file, format and triangle count; the box in metres.
    const props = await t.app.inject({
      url: `/api/keelson-instance/model/properties?modelName=${NAME}&index=${comps[2].index}`,
      headers: bearer(reader),
    });
    expect(props.statusCode, props.body).toBe(200);
    const rows = (props.json() as { properties: { name: string; description: string; value: unknown }[] }).properties;
    const byCode = Object.fromEntries(rows.map((p) => [p.name, p]));
    expect(byCode.CADFILE).toMatchObject({ description: 'Source file', value: 'hatch.stl' });
    expect(byCode.CADFORMAT).toMatchObject({ value: '.stl' });
    expect(byCode.TRIS).toMatchObject({ description: 'Triangles', value: '12' });
    expect(byCode.XMIN.value).toBeCloseTo(4, 6);
    expect(byCode.ZMAX.value).toBeCloseTo(10.025, 6);
  }, 120_000);

  it('cuts the pump in a section at X = 1.0 m: a 0.3 × 0.2 m rectangle per pump', async () => {
    const r = await t.app.inject({
      url: `/api/keelson-instance/cad-components/section?modelName=${NAME}&axis=X&coordinate=1`,
      headers: bearer(reader),
    });
    expect(r.statusCode, r.body).toBe(200);
    const sec = v.parse(CadComponentSectionsResponseSchema, r.json());
    expect(sec.map((s) => s.componentName).sort()).toEqual(['@Ballast pump 1', '@Ballast pump 2']);
    for (const s of sec) {
      const pts = s.curves.flatMap((c) => c.points);
      const ys = pts.filter((_, i) => i % 3 === 1);
      const zs = pts.filter((_, i) => i % 3 === 2);
      expect(pts.filter((_, i) => i % 3 === 0).every((x) => Math.abs(x - 1) < 1e-6)).toBe(true);
      expect(Math.min(...ys)).toBeCloseTo(1.85, 4);
      expect(Math.max(...ys)).toBeCloseTo(2.15, 4);
      expect(Math.min(...zs)).toBeCloseTo(2.9, 4);
      expect(Math.max(...zs)).toBeCloseTo(3.1, 4);
    }
    const none = await t.app.inject({
      url: `/api/keelson-instance/cad-components/section?modelName=${NAME}&axis=X&coordinate=2`,
      headers: bearer(reader),
    });
    expect(v.parse(CadComponentSectionsResponseSchema, none.json())).toEqual([]);
  });

  it('cancels a paused conversion: the pause ends and no revision is added', async () => {
    const before = (await t.app.ctx.projects.revisions(NAME)).length;
    const id = await startPaused();
    const r = await t.app.inject({
      method: 'DELETE',
      url: `/api/viewer/project/add/cancel-project?projectName=${NAME}`,
      headers: bearer(admin),
    });
    expect(r.statusCode, r.body).toBe(200);
    expect((await t.app.ctx.conversions.wait(id)).status).toBe(ConversionStatus.Canceled);
    expect(await t.app.ctx.cadWaits.isWaiting(NAME)).toBe(false);
    expect((await t.app.ctx.projects.revisions(NAME)).length).toBe(before);
    const after = await t.app.inject({
      method: 'POST',
      url: `/api/viewer/project/notify-cad-files-uploaded?projectName=${NAME}`,
      headers: bearer(admin),
      payload: { fileNames: [] },
    });
    expect(after.statusCode).toBe(409);
  }, 120_000);
});
