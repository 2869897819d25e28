/**
 * The table calls (viewer.md §7 "Tables"): GET /api/keelson-instance/table/types, /names?type, /read?name on
 * NAPA-OCX_M8. Expected figures are read from the OCX text itself (fast-xml-parser walk, not the importer):
 * DryWeight (kg → t), CenterOfGravity (m), plate Thickness and NetArea, the block of each part (the innermost
 * OccurrenceGroup of an Occurrence referring to it) and its structure type (own functionType, else its
 * panel's). The change list comes from a second revision with one plate made thicker.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TableNamesResponseSchema,
  TableSchema,
  TableTypesResponseSchema,
  UploadResponseSchema,
} from '../../api/contract';
import { bearer, makeApp, multipartFile, SAMPLES, signUp, type TestApp, uploadFile } from './helpers';

const M8_TEXT = readFileSync(path.join(SAMPLES, 'NAPA-OCX_M8.3docx'), 'utf8');
const P = 'M8TABLES';

/** A weighed part as the file writes it. */
interface FilePart {
  kind: string;
  id: string;
  name: string;
  weightT: number | null;
  cg: [number, number, number] | null;
  thicknessM: number | null;
  areaM2: number | null;
  structureType: string | null;
  material: string | null;
  block: string | null;
}

type XmlNode = Record<string, unknown> & { ':@'?: Record<string, string> };

/** Parts of the file (Plate, Stiffener, EdgeReinforcement, Bracket, Pillar) with their own figures. */
function fileParts(text: string): FilePart[] {
  const doc = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    removeNSPrefix: true,
    preserveOrder: true,
  }).parse(text) as XmlNode[];
  const tag = (n: XmlNode) => Object.keys(n).find((k) => k !== ':@') ?? '';
  const kids = (n: XmlNode): XmlNode[] => {
    const c = n[tag(n)];
    return Array.isArray(c) ? (c as XmlNode[]) : [];
  };
  const attr = (n: XmlNode) => n[':@'] ?? {};
  const first = (n: XmlNode | undefined, name: string) => (n ? kids(n).find((c) => tag(c) === name) : undefined);
  const grades = new Map<string, string>();
  const blocks = new Map<string, string>();
  const parts: FilePart[] = [];
  const walk = (nodes: XmlNode[], panelType: string | null, group: string | null) => {
    for (const n of nodes) {
      const t = tag(n);
      const a = attr(n);
      if (t === 'Material' && a.id) grades.set(a.id, a.grade ?? a.name);
      let g = group;
      if (t === 'OccurrenceGroup') g = a.name;
      if (t === 'Occurrence') for (const r of kids(n)) if (attr(r).localRef && g) blocks.set(attr(r).localRef, g);
      if (['Plate', 'Stiffener', 'EdgeReinforcement', 'Bracket', 'Pillar'].includes(t)) {
        const phys = first(n, 'PhysicalProperties');
        const dry = first(phys, 'DryWeight');
        const cog = first(phys, 'CenterOfGravity');
        const mat = first(n, 'PlateMaterial') ?? first(n, 'MaterialRef');
        const th = first(mat, 'Thickness');
        const net = first(n, 'NetArea');
        parts.push({
          kind: t,
          id: a.id,
          name: a.name ?? a.id,
          weightT: dry ? Number(attr(dry).numericvalue) / 1000 : null,
          cg: cog ? (attr(cog).coordinates.trim().split(/\s+/).map(Number) as [number, number, number]) : null,
          thicknessM: th ? Number(attr(th).numericvalue) * (attr(th).unit === 'Umm' ? 0.001 : 1) : null,
          areaM2: net ? Number(attr(net).numericvalue) : null,
          // the product names an edge reinforcement's structure type (a stiffener along a free edge)
          structureType: t === 'EdgeReinforcement' ? 'EDGE REINFORCEMENT' : (a.functionType ?? panelType),
          material: mat ? attr(mat).localRef : null,
          block: null,
        });
      }
      walk(kids(n), t === 'Panel' ? (a.functionType ?? null) : panelType, g);
    }
  };
  walk(doc, null, null);
  for (const p of parts) {
    p.block = blocks.get(p.id) ?? null;
    p.material = p.material ? (grades.get(p.material) ?? null) : null;
  }
  return parts;
}

let t: TestApp;
let admin: string;
let outsider: string;
const parts = fileParts(M8_TEXT);

async function upload(content: string): Promise<void> {
  const { payload, headers } = multipartFile('NAPA-OCX_M8.3docx', content);
  const r = await t.app.inject({
    method: 'POST',
    url: `/api/viewer/project/add/project-uploaded?projectName=${P}`,
    payload,
    headers: { ...headers, ...bearer(admin) },
  });
  expect(r.statusCode, r.body).toBe(200);
  const job = await t.app.ctx.conversions.wait(v.parse(UploadResponseSchema, r.json()).conversionId);
  expect(job.status).toBe(2);
}

const get = (u: string, token = admin) => t.app.inject({ method: 'GET', url: u, headers: bearer(token) });
const q = (p: Record<string, string>) => new URLSearchParams({ modelName: P, ...p }).toString();
async function read(name: string, revision = '1') {
  const r = await get(`/api/keelson-instance/table/read?${q({ name, revision })}`);
  expect(r.statusCode, r.body).toBe(200);
  return v.parse(TableSchema, r.json());
}

beforeAll(async () => {
  t = await makeApp();
  admin = await signUp(t.app, 'admin@yard.com', { admin: true });
  outsider = await signUp(t.app, 'outsider@other.org');
  await upload(M8_TEXT);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** Expected weight (t) and CoG (m) of a group of file parts. */
function mass(group: FilePart[]) {
  let w = 0,
    wc = 0;
  const m = [0, 0, 0];
  for (const p of group) {
    if (p.weightT === null) continue;
    w += p.weightT;
    if (!p.cg) continue;
    wc += p.weightT;
    for (let k = 0; k < 3; k++) m[k] += p.weightT * p.cg[k];
  }
  return { parts: group.length, weight: w, cg: m.map((x) => x / wc) };
}

function expectWeightTable(table: v.InferOutput<typeof TableSchema>, key: (p: FilePart) => string | null) {
  const groups = new Map<string, FilePart[]>();
  for (const p of parts) {
    const k = key(p) ?? '(none)';
    groups.set(k, [...(groups.get(k) ?? []), p]);
  }
  expect(table.rows.map((r) => r.cells.group)).toEqual(
    [...groups.keys()].sort((a, b) => a.localeCompare(b, 'en', { numeric: true })),
  );
  for (const row of table.rows) {
    const e = mass(groups.get(String(row.cells.group)) ?? []);
    expect(row.cells.parts).toBe(e.parts);
    expect(row.objects).toHaveLength(e.parts);
    expect(row.cells.weight as number).toBeCloseTo(e.weight, 6);
    expect(row.cells.xcg as number).toBeCloseTo(e.cg[0], 6);
    expect(row.cells.ycg as number).toBeCloseTo(e.cg[1], 6);
    expect(row.cells.zcg as number).toBeCloseTo(e.cg[2], 6);
  }
}

describe('table types and names', () => {
  it('lists the types M8 has tables of, and the names of each', async () => {
    const types = await get(`/api/keelson-instance/table/types?${q({})}`);
    expect(types.statusCode, types.body).toBe(200);
    // no compartments and no comparison yet
    expect(v.parse(TableTypesResponseSchema, types.json()).types).toEqual(['Weights', 'Part lists']);
    const names = await get(`/api/keelson-instance/table/names?${q({ type: 'Weights' })}`);
    expect(v.parse(TableNamesResponseSchema, names.json()).names).toEqual([
      'Weight by block',
      'Weight by structure type',
      'Weight by material',
    ]);
    const none = await get(`/api/keelson-instance/table/names?${q({ type: 'Compartments' })}`);
    expect(v.parse(TableNamesResponseSchema, none.json()).names).toEqual([]);
  });

  it('answers 404 for an unknown type or name, 400 for an overlong one, 404 to an outsider', async () => {
    const type = await get(`/api/keelson-instance/table/names?${q({ type: 'Nope' })}`);
    expect(type.statusCode).toBe(404);
    expect(type.json().message).toBe('Table type Nope not found');
    const name = await get(`/api/keelson-instance/table/read?${q({ name: 'Nope' })}`);
    expect(name.statusCode).toBe(404);
    expect(name.json().message).toBe('Table Nope not found');
    const changes = await get(`/api/keelson-instance/table/read?${q({ name: 'Changes since rev. 1' })}`);
    expect(changes.statusCode).toBe(404);
    const long = await get(`/api/keelson-instance/table/read?${q({ name: 'x'.repeat(101) })}`);
    expect(long.statusCode).toBe(400);
    const hidden = await get(`/api/keelson-instance/table/read?${q({ name: 'Plates' })}`, outsider);
    expect(hidden.statusCode).toBe(404);
  });
});

describe('weight tables', () => {
  it('weight and centre of gravity per block equal the sums of the file parts', async () => {
    const table = await read('Weight by block');
    expect(table.columns.map((c) => c.header)).toEqual(['Block', 'Parts', 'Weight', 'CoG X', 'CoG Y', 'CoG Z']);
    expect(table.columns.find((c) => c.name === 'weight')?.unit).toBe('t');
    expect(table.rows.length).toBeGreaterThan(3);
    expectWeightTable(table, (p) => p.block);
  });

  it('one block table per block system when the model has several, each grouped by its own blocks', async () => {
    // M8 with a second design view: a copy of its view under other ids and the blocks renamed 'ALT-…'.
    const start = M8_TEXT.indexOf('<ocx:DesignView');
    const end = M8_TEXT.indexOf('</ocx:DesignView>') + '</ocx:DesignView>'.length;
    const alt = M8_TEXT.slice(start, end)
      .replace(/ id="([^"]*)"/g, ' id="$1_alt"')
      .replace('name="OCX-MODEL8/A"', 'name="ALTERNATIVE"')
      .replace(/<ocx:OccurrenceGroup([^>]*) name="([^"]*)"/g, '<ocx:OccurrenceGroup$1 name="ALT-$2"');
    const name = await uploadFile(t, admin, 'TWOVIEWS.3docx', M8_TEXT.slice(0, end) + alt + M8_TEXT.slice(end));
    const names = await get(
      `/api/keelson-instance/table/names?${new URLSearchParams({ modelName: name, type: 'Weights' })}`,
    );
    expect(v.parse(TableNamesResponseSchema, names.json()).names.slice(0, 2)).toEqual([
      'Weight by block (OCX-MODEL8/A)',
      'Weight by block (ALTERNATIVE)',
    ]);
    const readOf = async (table: string) => {
      const r = await get(`/api/keelson-instance/table/read?${new URLSearchParams({ modelName: name, name: table })}`);
      expect(r.statusCode, r.body).toBe(200);
      return v.parse(TableSchema, r.json());
    };
    expectWeightTable(await readOf('Weight by block (OCX-MODEL8/A)'), (p) => p.block);
    expectWeightTable(await readOf('Weight by block (ALTERNATIVE)'), (p) =>
      p.block === null ? null : `ALT-${p.block}`,
    );
    const plain = await get(
      `/api/keelson-instance/table/read?${new URLSearchParams({ modelName: name, name: 'Weight by block' })}`,
    );
    expect(plain.statusCode).toBe(404);
  });

  it('per structure type and per material', async () => {
    expectWeightTable(await read('Weight by structure type'), (p) => p.structureType);
    const byMaterial = await read('Weight by material');
    expectWeightTable(byMaterial, (p) => p.material);
    const total = parts.reduce((s, p) => s + (p.weightT ?? 0), 0);
    expect(byMaterial.rows.reduce((s, r) => s + (r.cells.weight as number), 0)).toBeCloseTo(total, 6);
  });
});

describe('part lists', () => {
  it('the plate list has every plate with its thickness, material, area and weight', async () => {
    const table = await read('Plates');
    const plates = parts.filter((p) => p.kind === 'Plate');
    expect(table.rows).toHaveLength(plates.length);
    const byName = new Map(table.rows.map((r) => [r.cells.name, r]));
    for (const p of plates) {
      const row = byName.get(p.name);
      expect(row, p.name).toBeDefined();
      expect(row?.cells.thickness as number).toBeCloseTo(p.thicknessM as number, 9);
      expect(row?.cells.area as number).toBeCloseTo(p.areaM2 as number, 6);
      expect(row?.cells.weight as number).toBeCloseTo(p.weightT as number, 9);
      expect(row?.cells.material).toBe(p.material);
      expect(row?.cells.block).toBe(p.block);
      expect(row?.objects).toHaveLength(1);
    }
    expect(table.columns.find((c) => c.name === 'thickness')?.unit).toBe('mm');
  });

  it('the stiffener list is ordered by profile and the profile table sums it', async () => {
    const list = await read('Stiffeners by profile');
    const stiffeners = parts.filter((p) => p.kind === 'Stiffener' || p.kind === 'EdgeReinforcement');
    expect(list.rows).toHaveLength(stiffeners.length);
    const profiles = list.rows.map((r) => String(r.cells.profile));
    expect(profiles).toEqual([...profiles].sort((a, b) => a.localeCompare(b, 'en', { numeric: true })));
    const sums = await read('Stiffener profiles');
    expect(sums.rows.reduce((s, r) => s + (r.cells.count as number), 0)).toBe(stiffeners.length);
    expect(sums.rows.reduce((s, r) => s + (r.cells.weight as number), 0)).toBeCloseTo(
      stiffeners.reduce((s, p) => s + (p.weightT ?? 0), 0),
      6,
    );
    for (const row of sums.rows)
      expect(row.cells.count).toBe(list.rows.filter((r) => r.cells.profile === row.cells.profile).length);
  });
});

describe('revision change list', () => {
  it('appears once the comparison is computed and lists the changed plate', async () => {
    // revision 2: the first plate (nplcid16, 9 mm) becomes 12 mm thick
    const edited = M8_TEXT.replace('<ocx:Thickness numericvalue="0.009"', '<ocx:Thickness numericvalue="0.012"');
    expect(edited).not.toBe(M8_TEXT);
    await upload(edited);
    const before = await get(`/api/keelson-instance/table/names?${q({ type: 'Revision changes', revision: '2' })}`);
    expect(v.parse(TableNamesResponseSchema, before.json()).names).toEqual([]);
    const cmp = await get(`/api/viewer/compare?projectName=${P}&fromRevision=1&toRevision=2`);
    expect(cmp.statusCode, cmp.body).toBe(200);
    const c = cmp.json();
    const types = await get(`/api/keelson-instance/table/types?${q({ revision: '2' })}`);
    expect(v.parse(TableTypesResponseSchema, types.json()).types).toContain('Revision changes');
    const names = await get(`/api/keelson-instance/table/names?${q({ type: 'Revision changes', revision: '2' })}`);
    expect(v.parse(TableNamesResponseSchema, names.json()).names).toEqual(['Changes since rev. 1']);
    const table = await read('Changes since rev. 1', '2');
    expect(table.rows).toHaveLength(
      c.steelObjectsAdded.length + c.steelObjectsChanged.length + c.steelObjectsRemoved.length,
    );
    const plate = table.rows.find((r) => r.cells.id === 'nplcid16');
    expect(plate?.cells.change).toBe('Changed');
    expect(String(plate?.cells.properties)).toContain('thickness');
    expect(plate?.objects).toEqual([c.steelObjectsChanged.find((x: { stId: string }) => x.stId === 'nplcid16').index]);
  });
});
