/**
 * Blocks, block systems and arrangements through inject on a converted NAPA-OCX_M8 (viewer.md §3 "Block",
 * §7 steel/block-system, steel/blocks, steel/arrangement, ship-model/arrangement). The expected figures are
 * computed here, independently of the server's block code: the parts each block's occurrences reference are
 * read from the file's DesignView text, their weights and centres from GET model/properties, and checked
 * against the file's own DryWeight / CenterOfGravity.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ArrangementResponseSchema,
  BlockSystemNamesResponseSchema,
  BlockSystemResponseSchema,
  BlocksResponseSchema,
  ModelObjectsResponseSchema,
  PropertiesResponseSchema,
  type ArrangementNode,
} from '../../api/contract';
import { bearer, makeApp, SAMPLES, signUp, uploadSample, type TestApp } from './helpers';

const FILE = readFileSync(path.join(SAMPLES, 'NAPA-OCX_M8.3docx'), 'utf8');
const base = '/api/keelson-instance';
let t: TestApp;
let token: string;
let project: string;
const get = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });
const post = (url: string, payload: string[]) => t.app.inject({ method: 'POST', url, payload, headers: bearer(token) });

/** The localRefs of the occurrences in group `name` of the DesignView. */
function refsOfGroup(name: string): string[] {
  const start = FILE.indexOf(`<ocx:OccurrenceGroup id="`, FILE.indexOf('<ocx:DesignView'));
  const at = FILE.indexOf(`name="${name}"`, start);
  const text = FILE.slice(at, FILE.indexOf('</ocx:OccurrenceGroup>', at));
  return [...text.matchAll(/localRef="([^"]+)"/g)].map((m) => m[1]);
}

/** The file's own DryWeight (kg) and CenterOfGravity (m) of part `id`. */
function fileFigures(id: string): { kg: number; cog: number[] } {
  const at = FILE.search(new RegExp(`<ocx:(Plate|Stiffener|Bracket) id="${id}"`));
  const text = FILE.slice(at, at + 20000);
  const kg = Number(/<ocx:DryWeight numericvalue="([^"]+)" unit="UKg"/.exec(text)![1]);
  const cog = /<ocx:CenterOfGravity coordinates="([^"]+)" unit="Um"/.exec(text)![1].split(' ').map(Number);
  return { kg, cog };
}

let objects: v.InferOutput<typeof ModelObjectsResponseSchema>['objects'];

beforeAll(async () => {
  t = await makeApp();
  token = await signUp(t.app, 'admin@yard.com', { admin: true });
  project = await uploadSample(t, token, 'NAPA-OCX_M8');
  objects = v.parse(
    ModelObjectsResponseSchema,
    (await get(`${base}/model/objects?modelName=${project}`)).json(),
  ).objects;
});
afterAll(async () => {
  await t?.close();
});

describe('GET /steel/block-system', () => {
  it("lists the model's block systems and names one system's blocks", async () => {
    const names = await get(`${base}/steel/block-system?modelName=${project}&viewerId=v1`);
    expect(names.statusCode, names.body).toBe(200);
    expect(v.parse(BlockSystemNamesResponseSchema, names.json())).toEqual(['OCX-MODEL8/A']);
    const one = await get(`${base}/steel/block-system?modelName=${project}&name=${encodeURIComponent('OCX-MODEL8/A')}`);
    expect(v.parse(BlockSystemResponseSchema, one.json())).toEqual({
      name: 'OCX-MODEL8/A',
      blockNames: ['STR*LBH', 'STR*TBH', 'STR*DECK', 'STR*BOTTOM', 'STR*WEB', 'STR*WEBBR', 'STR*FRBR'],
    });
    const missing = await get(`${base}/steel/block-system?modelName=${project}&name=NOPE`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Block system "NOPE" not found');
    expect((await t.app.inject({ url: `${base}/steel/block-system?modelName=${project}` })).statusCode).toBe(401);
  });
});

describe('POST /steel/blocks', () => {
  it('weighs a block as the sum of its parts, its centre of gravity the weighted mean (t, m)', async () => {
    const ids = refsOfGroup('STR*LBH');
    expect(ids).toHaveLength(14); // 2 plates and 12 stiffeners, by hand from the file
    let w = 0;
    const m = [0, 0, 0];
    let fileKg = 0;
    const fileM = [0, 0, 0];
    const box = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
    for (const id of ids) {
      const o = objects.find((x) => x.id === id)!;
      const props = v.parse(
        PropertiesResponseSchema,
        (await get(`${base}/model/properties?modelName=${project}&index=${o.index}`)).json(),
      ).properties;
      const val = (code: string) => props.find((p) => p.name === code)!.value as number;
      w += val('W');
      for (const [a, code] of ['XCG', 'YCG', 'ZCG'].entries()) m[a] += val('W') * val(code);
      const f = fileFigures(id);
      fileKg += f.kg;
      for (let a = 0; a < 3; a++) fileM[a] += f.kg * f.cog[a];
      for (let a = 0; a < 3; a++) {
        box[a] = Math.min(box[a], o.bounds![a]);
        box[a + 3] = Math.max(box[a + 3], o.bounds![a + 3]);
      }
    }
    const r = await post(`${base}/steel/blocks?modelName=${project}`, ['STR*LBH']);
    expect(r.statusCode, r.body).toBe(200);
    const [block] = v.parse(BlocksResponseSchema, r.json());
    expect(block.name).toBe('STR*LBH');
    expect(block.blockSystem).toBe('OCX-MODEL8/A');
    expect(block.objectCount).toBe(14);
    expect(block.weight).toBeCloseTo(w, 9);
    expect(block.centerOfGravity!.x).toBeCloseTo(m[0] / w, 9);
    expect(block.centerOfGravity!.y).toBeCloseTo(m[1] / w, 9);
    expect(block.centerOfGravity!.z).toBeCloseTo(m[2] / w, 9);
    block.boundingBox!.forEach((x, a) => expect(x).toBeCloseTo(box[a], 9));
    // The design system's own figures agree: weight within 2 %, centre within 5 cm.
    expect(Math.abs(block.weight - fileKg / 1000) / (fileKg / 1000)).toBeLessThan(0.02);
    expect(Math.abs(block.centerOfGravity!.x - fileM[0] / fileKg)).toBeLessThan(0.05);
    expect(Math.abs(block.centerOfGravity!.y - fileM[1] / fileKg)).toBeLessThan(0.05);
    expect(Math.abs(block.centerOfGravity!.z - fileM[2] / fileKg)).toBeLessThan(0.05);
    // The longitudinal bulkheads lie inside the model box, the model is in metres.
    expect(block.boundingBox![3] - block.boundingBox![0]).toBeLessThan(50);
  });

  it('a block system name gives all its blocks; unknown names answer 404; the body is bounded', async () => {
    const all = v.parse(
      BlocksResponseSchema,
      (await post(`${base}/steel/blocks?modelName=${project}`, ['OCX-MODEL8/A'])).json(),
    );
    expect(all.map((b) => b.name)).toHaveLength(7);
    const pair = v.parse(
      BlocksResponseSchema,
      (
        await post(`${base}/steel/blocks?modelName=${project}&blockSystem=OCX-MODEL8%2FA`, ['STR*WEB', 'STR*LBH'])
      ).json(),
    );
    expect(pair.map((b) => b.name)).toEqual(['STR*WEB', 'STR*LBH']);
    expect(pair[1]).toEqual(all.find((b) => b.name === 'STR*LBH'));
    const missing = await post(`${base}/steel/blocks?modelName=${project}`, ['STR*LBH', 'B99']);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Block "B99" not found');
    expect((await post(`${base}/steel/blocks?modelName=${project}`, [])).statusCode).toBe(400);
    expect((await post(`${base}/steel/blocks?modelName=${project}`, Array(1001).fill('STR*LBH'))).statusCode).toBe(400);
    expect((await post(`${base}/steel/blocks?modelName=${project}`, ['x'.repeat(201)])).statusCode).toBe(400);
  });
});

/** Every node of an arrangement, depth first. */
function flatten(nodes: ArrangementNode[]): ArrangementNode[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children)]);
}

describe('GET /steel/arrangement and /ship-model/arrangement', () => {
  it("answers the model tree's structures; a block root keeps that block's parts and their panels", async () => {
    const r = await get(`${base}/steel/arrangement?modelName=${project}`);
    expect(r.statusCode, r.body).toBe(200);
    const full = v.parse(ArrangementResponseSchema, r.json());
    expect(full.name).toBe(`Structures (${project})`);
    const nodes = flatten(full.nodes);
    expect(nodes).toHaveLength(full.objectCount);
    // Every non-compartment object is there, each child under its parent.
    expect(full.objectCount).toBe(objects.filter((o) => o.type !== 'COMPARTMENT').length);
    for (const n of nodes) for (const c of n.children) expect(objects[c.index].parent).toBe(n.index);

    const lbh = v.parse(
      ArrangementResponseSchema,
      (await get(`${base}/steel/arrangement?modelName=${project}&blockRoot=${encodeURIComponent('STR*LBH')}`)).json(),
    );
    const ids = new Set(refsOfGroup('STR*LBH'));
    const kept = flatten(lbh.nodes);
    const parts = kept.filter((n) => ids.has(n.id));
    expect(parts).toHaveLength(14);
    // The rest are the parts' ancestors (their panels) and the parts' own children (none in M8's bulkheads).
    for (const n of kept.filter((x) => !ids.has(x.id)))
      expect(n.children.length, `${n.name} is an ancestor`).toBeGreaterThan(0);
    expect((await get(`${base}/steel/arrangement?modelName=${project}&blockRoot=NOPE`)).statusCode).toBe(404);
  });

  it('limits keep the objects whose box meets them (m), with their ancestors', async () => {
    const target = objects.find((o) => o.id === 'nplcid16')!;
    const b = target.bounds!;
    const limits = [b[0], b[3], b[1], b[4], b[2], b[5]].join(',');
    const r = v.parse(
      ArrangementResponseSchema,
      (await get(`${base}/steel/arrangement?modelName=${project}&limits=${limits}`)).json(),
    );
    const kept = flatten(r.nodes);
    expect(kept.some((n) => n.id === 'nplcid16')).toBe(true);
    const expected = objects.filter(
      (o) =>
        o.bounds &&
        o.type !== 'COMPARTMENT' &&
        o.bounds[0] <= b[3] &&
        o.bounds[3] >= b[0] &&
        o.bounds[1] <= b[4] &&
        o.bounds[4] >= b[1] &&
        o.bounds[2] <= b[5] &&
        o.bounds[5] >= b[2],
    );
    for (const o of expected) expect(kept.some((n) => n.index === o.index)).toBe(true);
    expect(kept.length).toBeLessThan(objects.length);
    const bad = await get(`${base}/steel/arrangement?modelName=${project}&limits=1,0,0,1,0,1`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('xMin,xMax,yMin,yMax,zMin,zMax');
  });

  it('answers the compartments of the ship model (none in M8)', async () => {
    const r = await get(`${base}/ship-model/arrangement?modelName=${project}`);
    expect(r.statusCode, r.body).toBe(200);
    expect(v.parse(ArrangementResponseSchema, r.json())).toEqual({
      name: `Compartments (${project})`,
      objectCount: 0,
      nodes: [],
    });
  });
});
