/**
 * GET /api/keelson-instance/ship-model/purpose-colors (application.md §4 "Coloring", §7 "Ship model"):
 * on a generated ship with a compartment arrangement the purposes with their colours and counts, checked
 * against the compartments written in the OCX file; on NAPA-OCX_M1 (no arrangement) hasArrangement false,
 * which the viewer turns into 'The project doesn't have a compartment arrangement defined'.
 */
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PurposeColorsResponseSchema } from '../../api/contract';
import { purposeColor } from '../../engine/section/purposeColors';
import { bearer, makeApp, signUp, type TestApp, uploadGeneratedShip, uploadSample } from './helpers';

let t: TestApp;
let token: string;
let shipText: string;

beforeAll(async () => {
  t = await makeApp();
  token = await signUp(t.app, 'admin@yard.com', { admin: true });
  shipText = await uploadGeneratedShip(t, token, 'ARR.3docx', { targetParts: 1000, compartments: true });
  await uploadSample(t, token, 'NAPA-OCX_M1');
});

afterAll(async () => {
  await t?.close();
});

const purposeColors = (modelName: string) =>
  t.app.inject({
    url: `/api/keelson-instance/ship-model/purpose-colors?modelName=${modelName}&revision=1`,
    headers: bearer(token),
  });

describe('GET .../ship-model/purpose-colors', () => {
  it('lists every compartment purpose of the file with its colour and count', async () => {
    const r = await purposeColors('ARR');
    expect(r.statusCode, r.body).toBe(200);
    const body = v.parse(PurposeColorsResponseSchema, r.json());
    // what the file says: one compartmentPurpose attribute per Compartment
    const written = new Map<string, number>();
    for (const m of shipText.matchAll(/<ocx:Compartment\b[^>]*\bocx:compartmentPurpose="([^"]*)"/g))
      written.set(m[1], (written.get(m[1]) ?? 0) + 1);
    expect(written.size).toBeGreaterThan(1);
    expect(body.hasArrangement).toBe(true);
    expect(new Map(body.purposes.map((p) => [p.purpose, p.count]))).toEqual(written);
    expect(body.purposes.map((p) => p.purpose)).toEqual([...written.keys()].sort((a, b) => a.localeCompare(b, 'en')));
    for (const p of body.purposes) expect(p.color).toEqual(purposeColor(p.purpose));
    // well-known purposes keep their fixed colours (the section drawing's)
    const ballast = body.purposes.find((p) => /ballast/i.test(p.purpose));
    if (ballast) expect(ballast.color).toEqual({ r: 76, g: 175, b: 80 });
  });

  it('a model without compartments has no arrangement', async () => {
    const r = await purposeColors('NAPA-OCX_M1');
    expect(r.statusCode, r.body).toBe(200);
    expect(v.parse(PurposeColorsResponseSchema, r.json())).toEqual({ hasArrangement: false, purposes: [] });
  });

  it('answers 404 for an unknown model', async () => {
    const r = await purposeColors('NOPE');
    expect(r.statusCode).toBe(404);
  });
});
