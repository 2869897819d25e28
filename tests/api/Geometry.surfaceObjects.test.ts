/**
 * POST /api/keelson-instance/geometry/surface-objects through inject on a converted NAPA-OCX_M8
 * (viewer.md §7 "Geometry", §3 "Surface object"): brackets and plates by name or OCX id,
 * unknown names reported as skipped, 400 naming the field.
 */
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SurfaceObjectsResponseSchema } from '../../api/contract';
import { bearer, makeApp, signUp, uploadSample, type TestApp } from './helpers';

let t: TestApp;
let user: string;
let project: string;
const url = () => `/api/keelson-instance/geometry/surface-objects?modelName=${project}&viewerId=v1`;

beforeAll(async () => {
  t = await makeApp();
  user = await signUp(t.app, 'admin@yard.com', { admin: true });
  project = await uploadSample(t, user, 'NAPA-OCX_M8');
});
afterAll(async () => {
  await t?.close();
});

describe('POST .../geometry/surface-objects', () => {
  it('derives a coped bracket: plane, arm lengths, R 28 cope and the 90° angle at its BracketParameters origin (1.2, −0.75, 3.98)', async () => {
    // B:1K383ZN95W/DECK: ArmLengthU 0.3 along +X, ArmLengthV 0.28 along −Z, Origin (1.2, −0.75, 3.98), the plate's solid spans y −0.745..−0.735 (its bounds).
    const r = await t.app.inject({ method: 'POST', url: url(), payload: ['B:1K383ZN95W/DECK'], headers: bearer(user) });
    expect(r.statusCode, r.body).toBe(200);
    const body = v.parse(SurfaceObjectsResponseSchema, r.json());
    expect(body.skipped).toEqual([]);
    expect(body.surfaceObjects).toHaveLength(1);
    const so = body.surfaceObjects[0];
    expect(so.name).toBe('B:1K383ZN95W/DECK');
    expect(Math.abs(so.definitionPlane.normal.ny)).toBeCloseTo(1, 6);
    expect([-0.745, -0.735]).toContain(Math.round(so.definitionPlane.point.y * 1e4) / 1e4);
    const byType = (t2: string) => so.parameters.filter((p) => p.parameterType === t2);
    expect(
      byType('length')
        .map((p) => Math.round(p.parameterValue * 1000))
        .sort((a, b) => a - b),
    ).toEqual([20, 90, 250, 270, 334]);
    expect(byType('radius').map((p) => Math.round(p.parameterValue * 1000))).toEqual([28]);
    const angle = byType('angle');
    expect(angle).toHaveLength(1);
    expect(angle[0].parameterValue).toBeCloseTo(90, 3);
    expect(angle[0].angleVertex!.x).toBeCloseTo(1.2, 3);
    expect(angle[0].angleVertex!.z).toBeCloseTo(3.98, 3);
  });

  it('accepts OCX ids, reports unknown names as skipped and answers plates with their side lengths', async () => {
    const r = await t.app.inject({
      method: 'POST',
      url: url(),
      payload: ['nplcid49', 'NO SUCH PART', 'P:P1/DECK'],
      headers: bearer(user),
    });
    expect(r.statusCode, r.body).toBe(200);
    const body = v.parse(SurfaceObjectsResponseSchema, r.json());
    expect(body.skipped).toEqual([{ name: 'NO SUCH PART', reason: 'unknown' }]);
    expect(body.surfaceObjects.map((s) => s.name)).toEqual(['B:1AJZG56JAZ/TBH_WT_0', 'P:P1/DECK']);
    const deck = body.surfaceObjects[1];
    expect(Math.abs(deck.definitionPlane.normal.nz)).toBeCloseTo(1, 6);
    // Every parameter value is positive and every length ends at its points' distance.
    for (const p of deck.parameters) {
      expect(p.parameterValue).toBeGreaterThan(0);
      if (p.parameterType === 'length')
        expect(
          Math.hypot(p.endPoint!.x - p.startPoint!.x, p.endPoint!.y - p.startPoint!.y, p.endPoint!.z - p.startPoint!.z),
        ).toBeCloseTo(p.parameterValue, 3);
    }
    // The deck spans 6 m along X (the section test's '6000 x 10').
    const extentX =
      Math.max(...deck.parameters.flatMap((p) => [p.startPoint?.x ?? -Infinity, p.endPoint?.x ?? -Infinity])) -
      Math.min(...deck.parameters.flatMap((p) => [p.startPoint?.x ?? Infinity, p.endPoint?.x ?? Infinity]));
    expect(extentX).toBeGreaterThan(4);
  });

  it('400 naming the field for a bad body or a missing modelName; 404 for an unknown project; 401 without a token', async () => {
    const notList = await t.app.inject({
      method: 'POST',
      url: url(),
      payload: { names: ['x'] },
      headers: bearer(user),
    });
    expect(notList.statusCode).toBe(400);
    expect(notList.json().message).toBe("Invalid field 'body': Must be a list of object names");
    const empty = await t.app.inject({ method: 'POST', url: url(), payload: ['ok', ' '], headers: bearer(user) });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe("Invalid field '1': Object names must not be empty");
    const noModel = await t.app.inject({
      method: 'POST',
      url: '/api/keelson-instance/geometry/surface-objects',
      payload: [],
      headers: bearer(user),
    });
    expect(noModel.statusCode).toBe(400);
    expect(noModel.json().message).toBe("Invalid field 'modelName': Field is required");
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/keelson-instance/geometry/surface-objects?modelName=NOPE',
      payload: [],
      headers: bearer(user),
    });
    expect(unknown.statusCode).toBe(404);
    const anon = await t.app.inject({ method: 'POST', url: url(), payload: [] });
    expect(anon.statusCode).toBe(401);
  });
});
