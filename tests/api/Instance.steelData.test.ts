/**
 * The steel and ship-model data calls of viewer.md §7 through inject, on converted real files, each checked
 * against figures read from the OCX text itself (not from the importer):
 * - POST .../steel/quantities: body names or ids, named quantities, qualifiers (P, S, T, H), limits (by CoG),
 *   bounded input;
 * - POST .../ship-model/quantities on a generated ship with compartments;
 * - POST .../steel/stiffener-web-flange-directions and .../bracket-material-directions (OCX Inclination,
 *   bracket Plane3D normal and Offset);
 * - POST .../geometry/surface-normals-at-points (nearest surface of the revision's geometry);
 * - POST .../maintenance/shutdown (drops the cached revision; a later call loads it again; not while another
 *   viewer of the project still uses it).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BracketMaterialDirectionsResponseSchema,
  QuantitiesResponseSchema,
  ShutdownResponseSchema,
  SurfaceNormalsResponseSchema,
  WebFlangeDirectionsResponseSchema,
} from '../../api/contract';
import { purposeColor } from '../../engine/section/purposeColors';
import { writeShipOcx } from '../../tools/generator';
import { bearer, makeApp, SAMPLES, signUp, type TestApp, uploadFile, uploadSample } from './helpers';

let t: TestApp;
let token: string;
let m8: string;
let dir: string;
let shipText: string;
const text = readFileSync(path.join(SAMPLES, 'NAPA-OCX_M8.3docx'), 'utf8');

beforeAll(async () => {
  t = await makeApp();
  token = await signUp(t.app, 'admin@yard.com', { admin: true });
  m8 = await uploadSample(t, token, 'NAPA-OCX_M8');
  dir = mkdtempSync(path.join(os.tmpdir(), 'keelson-steeldata-'));
  const file = path.join(dir, 'ARRQ.3docx');
  await writeShipOcx(file, { targetParts: 300, compartments: true });
  shipText = readFileSync(file, 'utf8');
  await uploadFile(t, token, 'ARRQ.3docx', shipText);
}, 180_000);

afterAll(async () => {
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, payload, headers: bearer(token) });
const quantities = async (query: string, names: string[], model = m8, call = 'steel') => {
  const r = await post(`/api/keelson-instance/${call}/quantities?modelName=${model}&viewerId=v1&${query}`, names);
  expect(r.statusCode, r.body).toBe(200);
  return v.parse(QuantitiesResponseSchema, r.json());
};

/** The text of an element `<ocx:{tag} id="{id}" ...>` up to its closing tag. */
function elementText(tag: string, id: string): string {
  const start = text.indexOf(`<ocx:${tag} id="${id}"`);
  expect(start, `${tag} ${id} in the file`).toBeGreaterThan(0);
  return text.slice(start, text.indexOf(`</ocx:${tag}>`, start));
}

/** The parts of a panel with the file's DryWeight (kg) and CenterOfGravity (m). */
function partsOfPanel(panelId: string) {
  const chunk = elementText('Panel', panelId);
  const parts = [
    ...chunk.matchAll(
      /<ocx:(Plate|Stiffener|Bracket|EdgeReinforcement) id="([^"]+)"[^>]*>\s*<ocx:PhysicalProperties>\s*<ocx:DryWeight numericvalue="([^"]+)" unit="UKg" \/>\s*<ocx:CenterOfGravity coordinates="([^"]+)" unit="Um" \/>/g,
    ),
  ].map((m) => ({ kind: m[1], id: m[2], kg: Number(m[3]), cog: m[4].split(' ').map(Number) }));
  // every part of the panel carries its figures: the sums below cover the whole panel
  expect(parts.length).toBe([...chunk.matchAll(/<ocx:(Plate|Stiffener|Bracket|EdgeReinforcement) id=/g)].length);
  return parts;
}

const sumT = (ps: { kg: number }[]) => ps.reduce((s, p) => s + p.kg, 0) / 1000;
const dir3 = (s: string) => s.split(/\s+/).map(Number);

describe('POST .../steel/quantities', () => {
  it('a main object by name: W over its plates (P), its stiffeners (S), both, and the total with its weighted CoG', async () => {
    const parts = partsOfPanel('nplcid12'); // LBH_WT_S: 1 plate, stiffeners
    const plates = parts.filter((p) => p.kind === 'Plate');
    const stiffeners = parts.filter((p) => p.kind === 'Stiffener');
    expect(plates.length).toBeGreaterThan(0);
    expect(stiffeners.length).toBeGreaterThan(1);
    const [row] = await quantities('qnts=W/P,W/S,W/PS,W/T,XCG/T,YCG/T', ['LBH_WT_S']);
    expect(row.id).toBe('LBH_WT_S');
    expect(row.quantities['W/P']).toBeCloseTo(sumT(plates), 9);
    expect(row.quantities['W/S']).toBeCloseTo(sumT(stiffeners), 9);
    expect(row.quantities['W/PS']).toBeCloseTo(sumT(parts), 9);
    expect(row.quantities['W/T']).toBeCloseTo(sumT(parts), 9);
    const cg = (k: number) => parts.reduce((s, p) => s + p.kg * p.cog[k], 0) / parts.reduce((s, p) => s + p.kg, 0);
    expect(row.quantities['XCG/T']).toBeCloseTo(cg(0), 6);
    expect(row.quantities['YCG/T']).toBeCloseTo(cg(1), 6);
  });

  it('limits: only the parts whose centre of gravity lies in the box count (x from 0 to 1 m; blank bounds open)', async () => {
    const parts = partsOfPanel('nplcid12');
    const inBox = parts.filter((p) => p.cog[0] >= 0 && p.cog[0] <= 1);
    expect(inBox.length).toBeGreaterThan(0);
    expect(inBox.length).toBeLessThan(parts.length);
    const [row] = await quantities('qnts=W/T&limits=0,1,,,,', ['LBH_WT_S']);
    expect(row.quantities['W/T']).toBeCloseTo(sumT(inBox), 9);
    // a box that holds nothing: no value
    const [none] = await quantities('qnts=W/T&limits=100,200,,,,', ['LBH_WT_S']);
    expect(none.quantities['W/T']).toBeNull();
  });

  it('named quantities (thickness, material, materialSide) by OCX id; an unknown name answers nulls', async () => {
    const plate = elementText('Plate', 'nplcid16');
    const thickness = plate.match(/<ocx:Thickness numericvalue="([^"]+)" unit="Um" \/>/);
    const matRef = plate.match(/<ocx:PlateMaterial localRef="([^"]+)"/);
    const material = text.match(new RegExp(`<ocx:Material id="${matRef![1]}" name="([^"]+)"`));
    const rows = await quantities('qnts=thickness,material,materialSide,W', ['nplcid16', 'NO SUCH PART']);
    expect(rows.map((r) => r.id)).toEqual(['nplcid16', 'NO SUCH PART']);
    expect(rows[0].quantities.thickness).toBeCloseTo(Number(thickness![1]), 9);
    expect(rows[0].quantities.material).toBe(material![1]);
    expect(['IN', 'OUT', 'MID', 'AFT', 'FORE', 'SB', 'PS', 'BOT', 'TOP', 'UNDEFINED']).toContain(
      rows[0].quantities.materialSide,
    );
    expect(rows[0].quantities.W).toBeCloseTo(1.01736, 9); // DryWeight 1017.36 kg
    expect(rows[1].quantities).toEqual({ thickness: null, material: null, materialSide: null, W: null });
  });

  it('H adds back the area of the holes cut from a plate (its hole objects); F counts face bars only', async () => {
    // IC:1/WEB is a web opening of panel WEB; the plates of that panel around it get its area back
    const objects = await t.app.inject({
      url: `/api/keelson-instance/model/objects?modelName=${m8}`,
      headers: bearer(token),
    });
    const list = objects.json().objects as { index: number; id: string; name: string; type: string; parent: number }[];
    const hole = list.find((o) => o.name === 'IC:1/WEB')!;
    expect(hole.type).toBe('HOLE');
    const panel = list[hole.parent];
    const [holeRow] = await quantities('qnts=AREA', [hole.id]);
    const holeArea = holeRow.quantities.AREA as number;
    expect(holeArea).toBeGreaterThan(0);
    const [row] = await quantities('qnts=AREA/P,AREA/PH', [panel.name]);
    const gross = (row.quantities['AREA/PH'] as number) - (row.quantities['AREA/P'] as number);
    expect(gross).toBeCloseTo(holeArea, 6);
    // F: the face bars (edge reinforcements) of the panel only, e.g. the one around that opening
    const bars = partsOfPanel(panel.id).filter((p) => p.kind === 'EdgeReinforcement');
    expect(bars.length).toBeGreaterThan(0);
    const [f] = await quantities('qnts=W/F', [panel.name]);
    expect(f.quantities['W/F']).toBeCloseTo(sumT(bars), 9);
  });

  it('400 for an unknown quantity, an unknown qualifier, too many quantities, or malformed limits', async () => {
    const url = (q: string) => `/api/keelson-instance/steel/quantities?modelName=${m8}&${q}`;
    const cases: [string, string][] = [
      ['qnts=NOPE', "Invalid field 'qnts': unknown quantity 'NOPE'"],
      ['qnts=W/Q', "Invalid field 'qnts': unknown qualifier 'Q' in 'W/Q'"],
      // 41 different entries (W/P, W/S, W/B, W/PT, ...)
      [
        `qnts=${Array.from({ length: 41 }, (_, i) => `W/${'PSB'[i % 3]}${'T'.repeat(Math.floor(i / 3))}`).join(',')}`,
        "Invalid field 'qnts': at most 40 quantities",
      ],
      [
        'qnts=W&limits=1,2,3',
        "Invalid field 'limits': expected 'xMin,xMax,yMin,yMax,zMin,zMax' in metres (blank = open)",
      ],
      [
        'qnts=W&limits=2,1,,,,',
        "Invalid field 'limits': expected 'xMin,xMax,yMin,yMax,zMin,zMax' in metres (blank = open)",
      ],
    ];
    for (const [q, message] of cases) {
      const r = await post(url(q), ['nplcid16']);
      expect(r.statusCode, q).toBe(400);
      expect(r.json().message).toBe(message);
    }
    const longName = await post(url('qnts=W'), ['x'.repeat(201)]);
    expect(longName.statusCode).toBe(400);
  });
});

describe('POST .../ship-model/quantities', () => {
  it('a compartment by name: VOLM and CoG as the file writes them; T keeps them; steel names answer nulls', async () => {
    const m = shipText.match(
      /<ocx:Compartment id="([^"]+)" name="([^"]+)"[^>]*>.*?<ocx:CenterOfGravity coordinates="([^"]+)" unit="Um"\/><ocx:Volume numericvalue="([^"]+)" unit="Um3"\/>/,
    );
    expect(m).not.toBeNull();
    const [, , name, cog, volume] = m!;
    const rows = await quantities('qnts=VOLM,VOLM/T,XCG,ZCG,PURP', [name, 'nplcid16'], 'ARRQ', 'ship-model');
    expect(rows[0].quantities.VOLM).toBeCloseTo(Number(volume), 6);
    expect(rows[0].quantities['VOLM/T']).toBeCloseTo(Number(volume), 6);
    expect(rows[0].quantities.XCG).toBeCloseTo(dir3(cog)[0], 6);
    expect(rows[0].quantities.ZCG).toBeCloseTo(dir3(cog)[2], 6);
    expect(typeof rows[0].quantities.PURP).toBe('string');
    expect(rows[1].quantities.VOLM).toBeNull();
    // and the steel call does not answer compartments
    const [steel] = await quantities('qnts=VOLM', [name], 'ARRQ');
    expect(steel.quantities.VOLM).toBeNull();
    const bad = await post(`/api/keelson-instance/ship-model/quantities?modelName=ARRQ&qnts=VOLM/P`, [name]);
    expect(bad.statusCode).toBe(400);
  });

  it('GET .../ship-model/section through a compartment: its name, purpose colour and curves on the plane, in metres', async () => {
    const m = shipText.match(
      /<ocx:Compartment id="[^"]+" name="([^"]+)"[^>]*ocx:compartmentPurpose="([^"]+)">.*?<ocx:CenterOfGravity coordinates="([^"]+)" unit="Um"\/>/,
    );
    const [, name, purpose, cog] = m!;
    const x = dir3(cog)[0];
    const r = await t.app.inject({
      url: `/api/keelson-instance/ship-model/section?modelName=ARRQ&axis=X&coordinate=${x}&viewerId=v1`,
      headers: bearer(token),
    });
    expect(r.statusCode, r.body).toBe(200);
    const hit = (r.json() as { compartmentName: string; curves: { points: number[] }[]; purposeColor: unknown }[]).find(
      (c) => c.compartmentName === name,
    );
    expect(hit).toBeDefined();
    expect(hit!.purposeColor).toEqual(purposeColor(purpose));
    const pts = hit!.curves.flatMap((c) => c.points);
    expect(pts.length).toBeGreaterThan(8);
    for (let i = 0; i < pts.length; i += 3) expect(pts[i]).toBeCloseTo(x, 3);
  });
});

describe('POST .../steel/stiffener-web-flange-directions and .../bracket-material-directions', () => {
  const inclinations = (tag: string, id: string) =>
    [
      ...elementText(tag, id).matchAll(
        /<ocx:WebDirection direction="([^"]+)" \/>\s*<ocx:FlangeDirection direction="([^"]+)" \/>\s*<ocx:Position coordinates="([^"]+)" unit="Um" \/>/g,
      ),
    ].map((m) => ({ web: dir3(m[1]), flange: dir3(m[2]), position: dir3(m[3]) }));
  const asN = (d: number[]) => ({ nx: d[0], ny: d[1], nz: d[2] });

  it("a stiffener's, a pillar's and a curved edge bar's directions are the file's Inclinations at the points asked", async () => {
    const stiff = inclinations('Stiffener', 'nplcid17');
    const pillar = inclinations('Pillar', 'nplcid1583');
    const edge = inclinations('EdgeReinforcement', 'nplcid210');
    expect(stiff).toHaveLength(1);
    expect(edge.length).toBeGreaterThan(1);
    const [a, b] = [edge[0], edge.find((e) => e.flange[2] !== edge[0].flange[2])!];
    const at = (p: number[]) => ({ x: p[0], y: p[1], z: p[2] });
    const r = await post(`/api/keelson-instance/steel/stiffener-web-flange-directions?modelName=${m8}`, [
      { id: 'nplcid17', point: { x: 0.6, y: -3, z: 2 } },
      { id: 'S:UT4X38UKLV/PILLARS' },
      { id: 'nplcid210', point: at(a.position) },
      { id: 'nplcid210', point: at(b.position) },
      { id: 'nplcid16' },
      { id: 'NO SUCH PART' },
    ]);
    expect(r.statusCode, r.body).toBe(200);
    const rows = v.parse(WebFlangeDirectionsResponseSchema, r.json());
    const close = (got: { nx: number; ny: number; nz: number } | null, want: number[]) => {
      expect(got).not.toBeNull();
      expect(got!.nx).toBeCloseTo(want[0], 6);
      expect(got!.ny).toBeCloseTo(want[1], 6);
      expect(got!.nz).toBeCloseTo(want[2], 6);
    };
    close(rows[0].webDirection, stiff[0].web);
    close(rows[0].flangeDirection, stiff[0].flange);
    close(rows[1].webDirection, pillar[0].web);
    close(rows[1].flangeDirection, pillar[0].flange);
    close(rows[2].flangeDirection, a.flange);
    close(rows[3].flangeDirection, b.flange);
    close(rows[3].webDirection, b.web);
    // a plate has no inclinations; an unknown id none either
    expect(rows.slice(4)).toEqual([
      { id: 'nplcid16', webDirection: null, flangeDirection: null },
      { id: 'NO SUCH PART', webDirection: null, flangeDirection: null },
    ]);
    expect(asN(stiff[0].web)).toEqual(rows[0].webDirection);
  });

  it("a bracket's material direction is its plane's normal turned to the side its Offset and thickness put the steel", async () => {
    const expected = (id: string) => {
      const b = elementText('Bracket', id);
      const t = Number(b.match(/<ocx:Thickness numericvalue="([^"]+)" unit="Umm" \/>/)![1]);
      const off = Number(b.match(/<ocx:Offset numericvalue="([^"]+)" unit="Umm" \/>/)![1]);
      const n = dir3(b.match(/<ocx:Normal direction="([^"]+)" \/>/)![1]);
      const s = off + t / 2 >= 0 ? 1 : -1;
      return n.map((x) => s * x);
    };
    const r = await post(`/api/keelson-instance/steel/bracket-material-directions?modelName=${m8}`, [
      'nplcid49',
      'B:3U83YX614I/TBH_WT_0',
      'nplcid16',
    ]);
    expect(r.statusCode, r.body).toBe(200);
    const rows = v.parse(BracketMaterialDirectionsResponseSchema, r.json());
    for (const [k, id] of [
      [0, 'nplcid49'],
      [1, 'nplcid50'],
    ] as const) {
      const want = expected(id);
      const got = rows[k].materialDirection!;
      expect([got.nx, got.ny, got.nz].map((x) => Math.round(x * 1e6) / 1e6)).toEqual(want.map((x) => x || 0));
    }
    expect(rows[2]).toEqual({ id: 'nplcid16', materialDirection: null });
  });
});

describe('POST .../geometry/surface-normals-at-points', () => {
  it("half a metre off the centre-line bulkhead's plating: its plate, the normal toward the point, 0.5 m − t away", async () => {
    // P:P1/LBH_WT_S lies on its moulded plane y = −3 toward −y (thickness from the file); (1.2, −3.5, 2.7)
    // is 0.5 m from that plane on the −y side, between no other parts
    const t9 = Number(
      elementText('Plate', 'nplcid16').match(/<ocx:Thickness numericvalue="([^"]+)" unit="Um" \/>/)![1],
    );
    const r = await post(`/api/keelson-instance/geometry/surface-normals-at-points?modelName=${m8}`, [
      { x: 1.2, y: -3.5, z: 2.7 },
    ]);
    expect(r.statusCode, r.body).toBe(200);
    const [hit] = v.parse(SurfaceNormalsResponseSchema, r.json());
    expect(hit.name).toBe('P:P1/LBH_WT_S');
    expect(hit.id).toBe('nplcid16');
    expect(hit.normal!.ny).toBeCloseTo(-1, 6);
    expect(hit.distance!).toBeCloseTo(0.5 - t9, 3);
    const bad = await post(`/api/keelson-instance/geometry/surface-normals-at-points?modelName=${m8}`, [{ x: 1 }]);
    expect(bad.statusCode).toBe(400);
  });
});

describe('POST .../maintenance/shutdown', () => {
  it("drops the revision's cached data; a later call loads it again", async () => {
    await quantities('qnts=W', ['nplcid16']);
    const url = `/api/keelson-instance/maintenance/shutdown?modelName=${m8}&viewerId=v1`;
    const shutdown = (u: string) => t.app.inject({ method: 'POST', url: u, headers: bearer(token) });
    const first = await shutdown(url);
    expect(first.statusCode, first.body).toBe(200);
    expect(v.parse(ShutdownResponseSchema, first.json()).released).toBeGreaterThan(0);
    const again = await shutdown(url);
    expect(again.json()).toEqual({ released: 0 });
    const [row] = await quantities('qnts=W', ['nplcid16']);
    expect(row.quantities.W).toBeCloseTo(1.01736, 9);
    const unknown = await shutdown('/api/keelson-instance/maintenance/shutdown?modelName=NOPE');
    expect(unknown.statusCode).toBe(404);
  });

  it('keeps the cached data while another viewer of the project still uses it', async () => {
    const shutdown = (viewer: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/keelson-instance/maintenance/shutdown?modelName=${m8}&viewerId=${viewer}`,
        headers: bearer(token),
      });
    const call = (viewer: string) =>
      post(`/api/keelson-instance/steel/quantities?modelName=${m8}&viewerId=${viewer}&qnts=W`, ['nplcid16']);
    // The viewer of the test above ('v1') closes first, so only the two below hold the project.
    await shutdown('v1');
    expect((await call('viewer-a')).statusCode).toBe(200);
    expect((await call('viewer-b')).statusCode).toBe(200);
    expect(t.app.ctx.revisionCache.viewers.holders(m8.toUpperCase())).toBe(2);
    // A closes: B still works with the data, nothing is dropped.
    expect((await shutdown('viewer-a')).json()).toEqual({ released: 0 });
    expect(t.app.ctx.revisionCache.viewers.holders(m8.toUpperCase())).toBe(1);
    // B closes last: the data goes.
    expect(v.parse(ShutdownResponseSchema, (await shutdown('viewer-b')).json()).released).toBeGreaterThan(0);
    // A call for a project that does not exist registers nobody.
    const none = await post('/api/keelson-instance/steel/quantities?modelName=NOPE&viewerId=viewer-c&qnts=W', ['x']);
    expect(none.statusCode).toBe(404);
    expect(t.app.ctx.revisionCache.viewers.holders('NOPE')).toBe(0);
  });
});
