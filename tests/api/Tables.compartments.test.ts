/**
 * GET /api/keelson-instance/table/read?name=Compartments (viewer.md §7 "Tables"): on a generated ship with a
 * compartment arrangement, one row per compartment with the purpose, volume and centre of gravity the OCX
 * file writes (read from its text here); a model without compartments has no Compartments table.
 */
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableSchema, TableTypesResponseSchema } from '../../api/contract';
import { bearer, makeApp, signUp, type TestApp, uploadGeneratedShip, uploadSample } from './helpers';

let t: TestApp;
let token: string;
let shipText: string;

beforeAll(async () => {
  t = await makeApp();
  token = await signUp(t.app, 'admin@yard.com', { admin: true });
  shipText = await uploadGeneratedShip(t, token, 'ARR.3docx', { targetParts: 1000, compartments: true });
  await uploadSample(t, token, 'NAPA-OCX_M1');
}, 120_000);

afterAll(async () => {
  await t?.close();
});

const get = (u: string) => t.app.inject({ url: u, headers: bearer(token) });

describe('Compartments table', () => {
  it('lists every compartment with the purpose, volume and CoG of the file', async () => {
    const written = [
      ...shipText.matchAll(
        /<ocx:Compartment id="[^"]*" name="([^"]*)"[^>]*ocx:compartmentPurpose="([^"]*)">[\s\S]*?<ocx:CenterOfGravity coordinates="([^"]*)" unit="Um"\/><ocx:Volume numericvalue="([^"]*)" unit="Um3"\/>/g,
      ),
    ].map((m) => ({ name: m[1], purpose: m[2], cg: m[3].split(' ').map(Number), volume: Number(m[4]) }));
    expect(written.length).toBeGreaterThan(3);
    const r = await get('/api/keelson-instance/table/read?modelName=ARR&name=Compartments');
    expect(r.statusCode, r.body).toBe(200);
    const table = v.parse(TableSchema, r.json());
    expect(table.columns.map((c) => [c.header, c.unit])).toEqual([
      ['Name', ''],
      ['Purpose', ''],
      ['Volume', 'm3'],
      ['CoG X', 'm'],
      ['CoG Y', 'm'],
      ['CoG Z', 'm'],
    ]);
    expect(table.rows).toHaveLength(written.length);
    const byName = new Map(table.rows.map((row) => [row.cells.name, row]));
    for (const c of written) {
      const row = byName.get(c.name);
      expect(row, c.name).toBeDefined();
      expect(row?.cells.purpose).toBe(c.purpose);
      expect(row?.cells.volume as number).toBeCloseTo(c.volume, 6);
      expect(row?.cells.xcg as number).toBeCloseTo(c.cg[0], 6);
      expect(row?.cells.ycg as number).toBeCloseTo(c.cg[1], 6);
      expect(row?.cells.zcg as number).toBeCloseTo(c.cg[2], 6);
      expect(row?.objects).toHaveLength(1);
    }
    const types = await get('/api/keelson-instance/table/types?modelName=ARR');
    expect(v.parse(TableTypesResponseSchema, types.json()).types).toContain('Compartments');
  });

  it('a model without compartments has none', async () => {
    const types = await get('/api/keelson-instance/table/types?modelName=NAPA-OCX_M1');
    expect(v.parse(TableTypesResponseSchema, types.json()).types).not.toContain('Compartments');
    const r = await get('/api/keelson-instance/table/read?modelName=NAPA-OCX_M1&name=Compartments');
    expect(r.statusCode).toBe(404);
  });
});
