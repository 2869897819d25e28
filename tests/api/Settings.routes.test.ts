/**
 * The admin settings calls (application.md §7 Admin, §2 "Settings tab" (1)(2)): conversion config and
 * object-properties config through inject — permissions, validation, the main-option lock, persistence
 * across a restart on the same DATA_DIR, and that a conversion records the option set with its revision.
 */
import { rmSync } from 'node:fs';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app';
import {
  ConversionConfigSchema,
  DEFAULT_CONVERSION_CONFIG,
  MAIN_OPTION_LOCKED,
  MAX_QUANTITIES_PER_SET,
  ObjectPropertiesConfigSchema,
} from '../../api/contract';
import { PROPERTY_BY_NAME } from '../../engine/model/properties';
import { bearer, grantProjects, makeApp, signUp, type TestApp, uploadSample } from './helpers';

let t: TestApp;
let admin: string;
let engineer: string;
let adminDelegate: string;
const CONVERSION = '/api/default/viewer/config/conversion';
const OBJECT_PROPERTIES = '/api/viewer/settings/object-properties';

beforeAll(async () => {
  t = await makeApp();
  admin = await signUp(t.app, 'admin@yard.com', { admin: true });
  engineer = await signUp(t.app, 'eng@yard.com');
  await signUp(t.app, 'boss@yard.com');
  await grantProjects(t.app, admin, 'boss@yard.com', [], { fixed: ['admin:view'] });
  const l = await t.app.inject({
    method: 'POST',
    url: '/api/auth/viewer/default/login',
    payload: { email: 'boss@yard.com', password: 'secret-password' },
  });
  adminDelegate = l.json().token;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'PATCH' | 'POST', url: string, token: string, payload?: object) =>
  t.app.inject({ method, url, headers: token ? bearer(token) : {}, payload });

describe('conversion config', () => {
  it('answers the defaults before anything was saved, to admin:view only', async () => {
    const r = await call('GET', CONVERSION, admin);
    expect(r.statusCode).toBe(200);
    expect(v.parse(ConversionConfigSchema, r.json())).toEqual(DEFAULT_CONVERSION_CONFIG);
    expect((await call('GET', CONVERSION, engineer)).json().message).toBe('Missing permission admin:view');
    expect((await call('PATCH', CONVERSION, engineer, { screenshot: false })).statusCode).toBe(403);
    expect((await call('GET', CONVERSION, '')).statusCode).toBe(401);
    expect((await call('GET', CONVERSION, adminDelegate)).statusCode).toBe(200);
  });

  it('changes only the named options and keeps them', async () => {
    const r = await call('PATCH', CONVERSION, adminDelegate, { screenshot: false, buildingBlocks: false });
    expect(r.statusCode, r.body).toBe(200);
    const want = { ...DEFAULT_CONVERSION_CONFIG, screenshot: false, buildingBlocks: false };
    expect(r.json()).toEqual(want);
    expect((await call('GET', CONVERSION, admin)).json()).toEqual(want);
    await call('PATCH', CONVERSION, admin, { screenshot: true, buildingBlocks: true });
  });

  it('refuses unknown options, non-booleans and an empty change', async () => {
    for (const body of [{ bogus: true }, { screenshot: 'yes' }, {}]) {
      const r = await call('PATCH', CONVERSION, admin, body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('keeps at least one of Structure model and Compartment model on', async () => {
    expect((await call('PATCH', CONVERSION, admin, { structureModel: false })).json().structureModel).toBe(false);
    const r = await call('PATCH', CONVERSION, admin, { compartmentModel: false });
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toBe(MAIN_OPTION_LOCKED);
    expect((await call('GET', CONVERSION, admin)).json()).toMatchObject({
      structureModel: false,
      compartmentModel: true,
    });
    // both at once is refused too, and switching over in one call is allowed
    expect(
      (await call('PATCH', CONVERSION, admin, { structureModel: false, compartmentModel: false })).statusCode,
    ).toBe(400);
    const swap = await call('PATCH', CONVERSION, admin, { structureModel: true, compartmentModel: false });
    expect(swap.json()).toMatchObject({ structureModel: true, compartmentModel: false });
    await call('PATCH', CONVERSION, admin, { compartmentModel: true });
  });

  it('records the option set used with the revision', async () => {
    await call('PATCH', CONVERSION, admin, { screenshot: false, geometryDetails: false });
    const name = await uploadSample(t, admin, 'NAPA-OCX_M1');
    const row = await t.app.ctx.db
      .selectFrom('revisions')
      .innerJoin('projects', 'projects.id', 'revisions.project_id')
      .select(['revisions.info', 'revisions.thumbnail'])
      .where('projects.name', '=', name)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.info).conversionOptions).toEqual({
      ...DEFAULT_CONVERSION_CONFIG,
      screenshot: false,
      geometryDetails: false,
    });
    expect(row.thumbnail).toBe('');
    await call('PATCH', CONVERSION, admin, { screenshot: true, geometryDetails: true });
  }, 60_000);
});

describe('object-properties config', () => {
  it('gives every signed-in user the defaults: catalogue codes with their meaning as header', async () => {
    const r = await call('GET', OBJECT_PROPERTIES, engineer);
    expect(r.statusCode).toBe(200);
    const c = v.parse(ObjectPropertiesConfigSchema, r.json());
    for (const list of Object.values(c)) {
      expect(list.length).toBeGreaterThan(0);
      for (const q of list) expect(q.description).toBe(PROPERTY_BY_NAME.get(q.name)?.description);
    }
    expect(c.plateQuantities.map((q) => q.name)).toContain('PLTH');
    expect((await call('GET', OBJECT_PROPERTIES, '')).statusCode).toBe(401);
  });

  it('saves the whole config for admin:view: empty rows dropped, empty headers from the catalogue', async () => {
    const c = v.parse(ObjectPropertiesConfigSchema, (await call('GET', OBJECT_PROPERTIES, admin)).json());
    const body = {
      ...c,
      plateQuantities: [
        { name: 'W', description: 'Steel weight', qualifiers: ['H', 'H'] },
        { name: '', description: 'forgotten row' },
        { name: 'PLTH', description: '' },
      ],
    };
    expect((await call('POST', OBJECT_PROPERTIES, engineer, body)).json().message).toBe(
      'Missing permission admin:view',
    );
    const r = await call('POST', OBJECT_PROPERTIES, admin, body);
    expect(r.statusCode, r.body).toBe(200);
    const want = [
      { name: 'W', description: 'Steel weight', qualifiers: ['H'] },
      { name: 'PLTH', description: 'Thickness' },
    ];
    expect(r.json().plateQuantities).toEqual(want);
    expect((await call('GET', OBJECT_PROPERTIES, engineer)).json().plateQuantities).toEqual(want);
    expect((await call('GET', OBJECT_PROPERTIES, engineer)).json().seamQuantities).toEqual(c.seamQuantities);
  });

  it('refuses codes outside the catalogue, unknown qualifiers, long headers, long lists and missing lists', async () => {
    const c = v.parse(ObjectPropertiesConfigSchema, (await call('GET', OBJECT_PROPERTIES, admin)).json());
    const q = { name: 'W', description: 'Weight' };
    const bad: [object, RegExp][] = [
      [
        { ...c, seamQuantities: [{ name: 'NOPE', description: 'x' }] },
        /seamQuantities\[0\]\.name.*Unknown quantity NOPE/,
      ],
      [{ ...c, seamQuantities: [{ ...q, qualifiers: ['Z'] }] }, /qualifiers/],
      [{ ...c, seamQuantities: [{ ...q, description: 'x'.repeat(81) }] }, /At most 80 characters/],
      [{ ...c, seamQuantities: Array(MAX_QUANTITIES_PER_SET + 1).fill(q) }, /At most 40 quantities/],
      [{ ...c, seamQuantities: undefined }, /seamQuantities/],
    ];
    for (const [body, message] of bad) {
      const r = await call('POST', OBJECT_PROPERTIES, admin, body);
      expect(r.statusCode, r.body).toBe(400);
      expect(r.json().message).toMatch(message);
    }
  });

  it('keeps both settings across a restart on the same data directory', async () => {
    await call('PATCH', CONVERSION, admin, { cadComponents: true });
    const before = (await call('GET', OBJECT_PROPERTIES, admin)).json();
    await t.app.close();
    const app = await buildApp(t.config, {});
    try {
      const token = (
        await app.inject({
          method: 'POST',
          url: '/api/auth/viewer/default/login',
          payload: { email: 'admin@yard.com', password: 'secret-password' },
        })
      ).json().token;
      const conv = await app.inject({ url: CONVERSION, headers: bearer(token) });
      expect(conv.json().cadComponents).toBe(true);
      expect((await app.inject({ url: OBJECT_PROPERTIES, headers: bearer(token) })).json()).toEqual(before);
    } finally {
      await app.close();
      rmSync(t.config.dataDir, { recursive: true, force: true });
      t = { ...t, close: async () => {} };
    }
  });
});
