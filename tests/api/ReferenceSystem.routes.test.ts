/** Reference system calls through inject on a converted NAPA-OCX_M8 (viewer.md §7). */
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CoordinateResponseSchema,
  FrameCoordinatesResponseSchema,
  FrameNumberResponseSchema,
  FrameResponseSchema,
  FramesResponseSchema,
} from '../../api/contract';
import { bearer, makeApp, signUp, uploadSample, type TestApp } from './helpers';

let t: TestApp;
let token: string;
let project: string;
const base = '/api/keelson-instance/reference-system';
const get = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });

beforeAll(async () => {
  t = await makeApp();
  token = await signUp(t.app, 'admin@yard.com', { admin: true });
  project = await uploadSample(t, token, 'NAPA-OCX_M8');
});
afterAll(async () => {
  await t?.close();
});

describe('GET /coordinate', () => {
  it('evaluates the frame syntax in metres (M8 frame X0.6 is at 0.6 m)', async () => {
    const r = await get(`${base}/coordinate?modelName=${project}&value=${encodeURIComponent('#0.6+0.1')}`);
    expect(r.statusCode, r.body).toBe(200);
    const body = v.parse(CoordinateResponseSchema, r.json());
    expect(body.coordinate).toBeCloseTo(0.7, 9);
    expect(body.type).toBe('FRAME');
    const plain = v.parse(
      CoordinateResponseSchema,
      (await get(`${base}/coordinate?modelName=${project}&value=12.6`)).json(),
    );
    expect(plain).toEqual({ value: '12.6', coordinate: 12.6, type: null });
  });
  it('answers 400 with the spec texts', async () => {
    const bad = await get(`${base}/coordinate?modelName=${project}&value=abc`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(
      'Invalid input!\nFrame number or absolute coordinate expected.\nExamples: #10 or 12.6 or #10+0.1',
    );
    const empty = await get(`${base}/coordinate?modelName=${project}&value=`);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Coordinate could not be calculated from the given input: ""');
    expect((await get(`${base}/coordinate?modelName=${project}`)).json().message).toBe(
      "Invalid field 'value': Field is required",
    );
    expect((await get(`${base}/coordinate?modelName=NOPE&value=1`)).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: `${base}/coordinate?modelName=${project}&value=1` })).statusCode,
    ).toBe(401);
  });
});

describe('frame lookups', () => {
  it('gives the fractional frame number, the nearest frame and frame coordinates', async () => {
    const n = v.parse(
      FrameNumberResponseSchema,
      (await get(`${base}/frame-number?modelName=${project}&type=frame&coordinate=0.9`)).json(),
    );
    expect(n.type).toBe('FRAME');
    expect(n.frameNumber).toBeCloseTo(0.9, 9); // between X0.6 (0.6 m) and X1.2 (1.2 m)
    const f = v.parse(
      FrameResponseSchema,
      (await get(`${base}/frame?modelName=${project}&type=FRAME&coordinate=1.1`)).json(),
    );
    expect(f.frame.name).toBe('X1.2');
    expect(f.frame.coordinate).toBe(1.2);
    const c = v.parse(
      FrameCoordinatesResponseSchema,
      (await get(`${base}/frame-coordinates?modelName=${project}&type=VERTICAL&startFrame=0&endFrame=2`)).json(),
    );
    expect(c.frames.map((x) => x.number)).toEqual([0, 1, 2]);
    expect(c.frames[0].coordinate).toBe(0);
    const bad = await get(`${base}/frame-number?modelName=${project}&type=DIAGONAL&coordinate=1`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe("Invalid field 'type': Must be 'FRAME', 'LONGITUDINAL' or 'VERTICAL'");
    expect((await get(`${base}/frame?modelName=${project}&type=FRAME&coordinate=x`)).json().message).toBe(
      "Invalid field 'coordinate': Must be a number",
    );
  });
  it('POST /frames lists the planes of the asked systems', async () => {
    const r = await t.app.inject({
      method: 'POST',
      url: `${base}/frames?modelName=${project}`,
      headers: bearer(token),
      payload: { types: ['longitudinal'] },
    });
    expect(r.statusCode, r.body).toBe(200);
    const body = v.parse(FramesResponseSchema, r.json());
    expect(body.map((s) => s.type)).toEqual(['LONGITUDINAL']);
    expect(body[0].planes.length).toBe(21);
    const all = await t.app.inject({
      method: 'POST',
      url: `${base}/frames?modelName=${project}`,
      headers: bearer(token),
    });
    expect(v.parse(FramesResponseSchema, all.json()).map((s) => s.type)).toEqual(['FRAME', 'LONGITUDINAL', 'VERTICAL']);
  });
});
