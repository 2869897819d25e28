/** Section calls and saved ship sections through inject on a converted NAPA-OCX_M8. */
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CadComponentSectionsResponseSchema,
  CompartmentSectionsResponseSchema,
  ShipSectionSchema,
  ShipSectionsResponseSchema,
  SteelSectionResponseSchema,
} from '../../api/contract';
import { bearer, grantProjects, login, makeApp, signUp, uploadSample, type TestApp } from './helpers';

let t: TestApp;
let admin: string;
let alice: string;
let bob: string;
let project: string;

beforeAll(async () => {
  t = await makeApp();
  admin = await signUp(t.app, 'admin@yard.com', { admin: true });
  alice = await signUp(t.app, 'alice@yard.com');
  bob = await signUp(t.app, 'bob@yard.com');
  project = await uploadSample(t, admin, 'NAPA-OCX_M8');
  // A permission change ends the users' sessions: sign in again afterwards.
  for (const email of ['alice@yard.com', 'bob@yard.com']) await grantProjects(t.app, admin, email, [project]);
  alice = await login(t.app, 'alice@yard.com');
  bob = await login(t.app, 'bob@yard.com');
});
afterAll(async () => {
  await t?.close();
});

describe('GET .../steel/section', () => {
  it('cuts the converted .sc on the server: M8 at X = 2.4 m (frame #2.4) gives the four crossed plates', async () => {
    const r = await t.app.inject({
      method: 'GET',
      url: `/api/keelson-instance/steel/section?modelName=${project}&axis=x&coordinate=${encodeURIComponent('#2.4')}`,
      headers: bearer(alice),
    });
    expect(r.statusCode, r.body).toBe(200);
    const s = v.parse(SteelSectionResponseSchema, r.json());
    expect(s.name).toBe('X=#2.4');
    expect(s.coordinate).toBe(2.4);
    expect(s.plates.intersected.map((p) => `${p.name}|${p.label}`).sort()).toEqual([
      'P:P1/BOTTOM|6000 x 10',
      'P:P1/DECK|6000 x 10',
      'P:P1/LBH_WT_P|3000 x 10',
      'P:P1/LBH_WT_S|3000 x 9',
    ]);
    const deck = s.plates.intersected.find((p) => p.name === 'P:P1/DECK')!;
    expect(deck.thickness).toBeCloseTo(0.01, 9);
    expect(deck.length).toBeCloseTo(6, 2);
    // Points in metres on the plane.
    for (let i = 0; i < deck.curves[0].points.length; i += 3) expect(deck.curves[0].points[i]).toBe(2.4);
    expect(s.plates.inSection.map((p) => p.name)).toContain('P:P1/WEB');
    expect(s.stiffeners.connectingNegative.length).toBe(14);
  });
  it('answers 400 for a bad axis or coordinate, [] for compartments and CAD components the sample lacks', async () => {
    const bad = await t.app.inject({
      method: 'GET',
      url: `/api/keelson-instance/steel/section?modelName=${project}&axis=X&coordinate=abc`,
      headers: bearer(alice),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(
      'Invalid input!\nFrame number or absolute coordinate expected.\nExamples: #10 or 12.6 or #10+0.1',
    );
    const axis = await t.app.inject({
      method: 'GET',
      url: `/api/keelson-instance/steel/section?modelName=${project}&axis=W&coordinate=1`,
      headers: bearer(alice),
    });
    expect(axis.json().message).toBe("Invalid field 'axis': Must be 'X', 'Y' or 'Z'");
    const comp = await t.app.inject({
      method: 'GET',
      url: `/api/keelson-instance/ship-model/section?modelName=${project}&axis=Z&coordinate=2`,
      headers: bearer(alice),
    });
    expect(v.parse(CompartmentSectionsResponseSchema, comp.json())).toEqual([]);
    const cad = await t.app.inject({
      method: 'GET',
      url: `/api/keelson-instance/cad-components/section?modelName=${project}&axis=Z&coordinate=2`,
      headers: bearer(alice),
    });
    expect(v.parse(CadComponentSectionsResponseSchema, cad.json())).toEqual([]);
  });
});

describe('/api/viewer/ship-sections', () => {
  const url = '/api/viewer/ship-sections';
  it('saves, lists and deletes with the creator / admin:view rule', async () => {
    const post = await t.app.inject({
      method: 'POST',
      url,
      headers: bearer(alice),
      payload: { projectName: project.toLowerCase(), axis: 'X', location: '#10+0.1' },
    });
    expect(post.statusCode, post.body).toBe(200);
    expect(v.parse(ShipSectionSchema, post.json())).toMatchObject({
      name: 'X=#10+0.1',
      axis: 'X',
      location: '#10+0.1',
      projectName: project,
      createdBy: 'alice@yard.com',
    });
    const lower = await t.app.inject({
      method: 'POST',
      url,
      headers: bearer(bob),
      payload: { name: 'y=-#l3', projectName: project, axis: 'y', location: '-#l3' },
    });
    expect(lower.json().name).toBe('Y=-#L3');
    const dup = await t.app.inject({
      method: 'POST',
      url,
      headers: bearer(bob),
      payload: { projectName: project, axis: 'X', location: '#10+0.1' },
    });
    expect(dup.statusCode).toBe(409);
    const mismatch = await t.app.inject({
      method: 'POST',
      url,
      headers: bearer(bob),
      payload: { name: 'X=1', projectName: project, axis: 'X', location: '2' },
    });
    expect(mismatch.statusCode).toBe(400);
    const nope = await t.app.inject({
      method: 'POST',
      url,
      headers: bearer(bob),
      payload: { projectName: 'NOPE', axis: 'X', location: '2' },
    });
    expect(nope.statusCode).toBe(404);

    const list = v.parse(
      ShipSectionsResponseSchema,
      (await t.app.inject({ method: 'GET', url: `${url}?projectName=${project}`, headers: bearer(bob) })).json(),
    );
    expect(list.map((s) => [s.name, s.axis, s.location])).toEqual([
      ['X=#10+0.1', 'X', '#10+0.1'],
      ['Y=-#L3', 'Y', '-#L3'],
    ]);

    const byBob = await t.app.inject({
      method: 'DELETE',
      url,
      headers: bearer(bob),
      payload: { projectName: project, axis: 'X', location: '#10+0.1' },
    });
    expect(byBob.statusCode).toBe(403);
    const byAlice = await t.app.inject({
      method: 'DELETE',
      url,
      headers: bearer(alice),
      payload: { projectName: project, axis: 'X', location: '#10+0.1' },
    });
    expect(byAlice.json()).toEqual({ success: true });
    const byAdmin = await t.app.inject({
      method: 'DELETE',
      url,
      headers: bearer(admin),
      payload: { projectName: project, axis: 'Y', location: '-#L3' },
    });
    expect(byAdmin.statusCode).toBe(200);
    const gone = await t.app.inject({
      method: 'DELETE',
      url,
      headers: bearer(admin),
      payload: { projectName: project, axis: 'Y', location: '-#L3' },
    });
    expect(gone.statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: `${url}?projectName=${project}`, headers: bearer(bob) })).json(),
    ).toEqual([]);
  });
});
