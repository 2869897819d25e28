/**
 * CAD conversion of every supported format through convertCadFile (worker threads): the shared samples of
 * ../shared/models/cad with expectations computed here from the files' own text (units, points, product
 * names, IFC products), glTF/GLB/OBJ made here with three's exporters so their triangles are known, and
 * bad files (truncated STEP, IFC with a broken header).
 */
import { readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { BoxGeometry, Color, CylinderGeometry, Group, Mesh, MeshStandardMaterial, Scene } from 'three';
import { GLTFExporter } from 'three/examples/jsm/exporters/GLTFExporter.js';
import { OBJExporter } from 'three/examples/jsm/exporters/OBJExporter.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeCadPools, convertCadFile } from '../../api/cad/convertCad';
import { shimFileReader } from '../../bench/cad/fileReaderShim';
import { CadConversionError, type CadConversion } from '../../api/cad/types';

const CAD = path.resolve(__dirname, '../../../shared/models/cad');
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'keelson-cad-formats-'));
});
afterAll(async () => {
  await closeCadPools();
  await rm(dir, { recursive: true, force: true });
});

const text = (name: string) => readFile(path.join(CAD, name), 'latin1');

/** The bounds of the 3D CARTESIAN_POINTs of a STEP file, in mm by the file's length unit. */
function stepPointBounds(step: string): number[] {
  const unit = /CONVERSION_BASED_UNIT\s*\(\s*'INCH'/i.test(step)
    ? 25.4
    : /SI_UNIT\s*\(\s*\.MILLI\.\s*,\s*\.METRE\.\s*\)/.test(step)
      ? 1
      : 1000;
  const b = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
  for (const m of step.matchAll(/CARTESIAN_POINT\s*\(\s*'[^']*'\s*,\s*\(([^)]*)\)/g)) {
    const v = m[1].split(',').map(Number);
    if (v.length !== 3) continue;
    for (let k = 0; k < 3; k++) {
      b[k] = Math.min(b[k], v[k] * unit);
      b[k + 3] = Math.max(b[k + 3], v[k] * unit);
    }
  }
  return b;
}

function expectBounds(c: CadConversion, expected: number[], digits = 3) {
  expect(c.bounds).not.toBeNull();
  c.bounds!.forEach((v, i) => expect(v).toBeCloseTo(expected[i], digits));
}

describe('STEP, IGES and BREP (OpenCascade)', () => {
  it.each(['cube-mm.step', 'cube-m.step', 'cube-in.step'])(
    '%s: the cube in mm whatever the file unit, two triangles per planar face',
    async (name) => {
      const step = await text(name);
      const c = await convertCadFile(path.join(CAD, name));
      expect(c.format).toBe('.step');
      expect(c.triangles).toBe(2 * (step.match(/ADVANCED_FACE\s*\(/g) ?? []).length);
      expectBounds(c, stepPointBounds(step), 2);
      expect(c.meshes.map((m) => m.name)).toEqual(['Cube']);
      expect(c.meshes[0].color).not.toBeNull();
    },
  );

  it('rounded-cube.step: filleted faces tessellated within the points of the file', async () => {
    const step = await text('rounded-cube.step');
    const c = await convertCadFile(path.join(CAD, 'rounded-cube.step'));
    expectBounds(c, stepPointBounds(step), 2);
    expect(c.triangles).toBeGreaterThan(2 * (step.match(/PLANE\s*\(/g) ?? []).length);
  });

  it('cube-10mm.igs: bounds of its vertex list (entity 502), unit MM', async () => {
    const iges = await text('cube-10mm.igs');
    expect(iges).toMatch(/2HMM/);
    const pLines = iges.split(/\r?\n/).filter((l) => l[72] === 'P');
    const params = pLines.map((l) => l.slice(0, 64)).join('');
    const list = /(?:^|;)\s*502,(\d+),([^;]*);/.exec(params)!;
    const v = list[2].split(',').map(Number);
    expect(v).toHaveLength(3 * Number(list[1]));
    const b = [0, 1, 2].flatMap((k) => [Math.min(...v.filter((_, i) => i % 3 === k))]);
    const e = [0, 1, 2].flatMap((k) => [Math.max(...v.filter((_, i) => i % 3 === k))]);
    const c = await convertCadFile(path.join(CAD, 'cube-10mm.igs'));
    expect(c.format).toBe('.igs');
    expect(c.triangles).toBe(12);
    expectBounds(c, [...b, ...e]);
  });

  it('as1-oc-214.stp: each part named by its STEP product, coloured', async () => {
    const step = await text('as1-oc-214.stp');
    const products = new Set([...step.matchAll(/PRODUCT\s*\(\s*'([^']*)'/g)].map((m) => m[1]));
    const c = await convertCadFile(path.join(CAD, 'as1-oc-214.stp'));
    expect(c.meshes.length).toBeGreaterThan(1);
    for (const m of c.meshes) {
      expect(products).toContain(m.name);
      expect(m.color).not.toBeNull();
    }
    // Every leaf product (one that is not an assembly of others) appears as a mesh.
    const names = new Set(c.meshes.map((m) => m.name));
    for (const leaf of ['nut', 'bolt', 'rod', 'l-bracket', 'plate']) expect(names).toContain(leaf);
    expect(c.triangles).toBe(c.meshes.reduce((n, m) => n + m.indices.length / 3, 0));
  });

  it('as1_pe_203.brep and as1_pe_203.stp (the same assembly): same triangles and bounds', async () => {
    const [brep, step] = await Promise.all([
      convertCadFile(path.join(CAD, 'as1_pe_203.brep')),
      convertCadFile(path.join(CAD, 'as1_pe_203.stp')),
    ]);
    expect(brep.format).toBe('.brep');
    expect(brep.triangles).toBeGreaterThan(0);
    expect(brep.triangles).toBe(step.triangles);
    expectBounds(brep, step.bounds!, 1);
    // BREP carries no product names; STEP does.
    expect(step.meshes.some((m) => m.name === 'PLATE')).toBe(true);
  });

  it('a truncated STEP file fails that file with a clear message', async () => {
    const bytes = await readFile(path.join(CAD, 'as1_pe_203.stp'));
    const file = path.join(dir, 'truncated.stp');
    await writeFile(file, bytes.subarray(0, bytes.length / 2));
    const err = await convertCadFile(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CadConversionError);
    expect((err as Error).message).toBe('truncated.stp: truncated STEP file: it does not end with END-ISO-10303-21');
  });

  it('a STEP assembly whose parts are in other files converts to no meshes with a warning', async () => {
    const file = path.join(dir, 'external.stp');
    await writeFile(
      file,
      [
        'ISO-10303-21;',
        'HEADER;',
        "FILE_DESCRIPTION((''),'2;1');",
        "FILE_NAME('external.stp','2026-01-01T00:00:00',(''),(''),'','','');",
        "FILE_SCHEMA(('AUTOMOTIVE_DESIGN'));",
        'ENDSEC;',
        'DATA;',
        "#1=DOCUMENT_FILE('pump-body.stp','',$,#2,'','');",
        "#2=DOCUMENT_TYPE('');",
        'ENDSEC;',
        'END-ISO-10303-21;',
        '',
      ].join('\n'),
    );
    const c = await convertCadFile(file);
    expect(c.meshes).toEqual([]);
    expect(c.bounds).toBeNull();
    expect(c.warnings).toEqual(['the assembly refers to parts in other files; no geometry']);
  });
});

/** A line map of an IFC file: '#id' → its text. */
function ifcLines(ifc: string): Map<string, string> {
  return new Map([...ifc.matchAll(/^(#\d+)\s*=\s*(.*);\s*$/gm)].map((m) => [m[1], m[2]]));
}

describe('IFC (web-ifc)', () => {
  it('IfcOpenHouse_IFC4.ifc: one named mesh set per product with geometry, Z-up millimetres', async () => {
    const ifc = await text('IfcOpenHouse_IFC4.ifc');
    const lines = ifcLines(ifc);
    // Products with a shape: their 7th attribute is an IfcProductDefinitionShape; openings are cut, not drawn.
    const shapes = new Set([...lines].filter(([, t]) => t.startsWith('IFCPRODUCTDEFINITIONSHAPE')).map(([id]) => id));
    const products = [...lines.values()].filter((t) => {
      const args = /^IFC\w+\((.*)\)$/.exec(t)?.[1].split(',');
      return !t.startsWith('IFCOPENINGELEMENT') && args && shapes.has(args[6]);
    });
    // A product's name is its Name, or its IFC type when it has none.
    const productNames = new Set(
      products.map((t) => (/^IFC\w+\('[^']*',#\d+,'([^']*)'/.exec(t)?.[1] ?? /^(IFC\w+)\(/.exec(t)![1]).toLowerCase()),
    );
    const c = await convertCadFile(path.join(CAD, 'IfcOpenHouse_IFC4.ifc'));
    expect(c.format).toBe('.ifc');
    for (const m of c.meshes) expect(productNames).toContain(m.name.toLowerCase());
    // One product, one GlobalId (its meshes, one per colour, share it).
    const globalIds = products.map((t) => /^IFC\w+\('([^']*)'/.exec(t)![1]).sort();
    expect([...new Set(c.meshes.map((m) => m.sourceId))].sort()).toEqual(globalIds);

    // The south wall: a profile extruded along +Z by the depth the file gives (its units are mm).
    const wall = [...lines.entries()].find(([, t]) => t.includes("'South wall'"))!;
    const body = /IFCEXTRUDEDAREASOLID\((#\d+),#\d+,#\d+,([\d.]+)\)/.exec(
      [...lines.values()].find(
        (t) => t.startsWith('IFCEXTRUDEDAREASOLID') && lines.get(t.split('(')[1].split(',')[0]),
      ) ?? '',
    );
    expect(wall && body).toBeTruthy();
    const shape = lines.get(lines.get(wall[0])!.split(',')[6])!;
    const rep = [...shape.matchAll(/#\d+/g)].map((m) => lines.get(m[0])!).find((t) => t.includes("'Body'"))!;
    const solid = lines.get(/\((#\d+)\)\)$/.exec(rep)![1])!;
    const [, profileId, depth] = /^IFCEXTRUDEDAREASOLID\((#\d+),#\d+,#\d+,([\d.]+)\)$/.exec(solid)!;
    const polyline = lines.get(/,(#\d+)\)$/.exec(lines.get(profileId)!)![1])!;
    const pts = [...polyline.matchAll(/#\d+/g)].map((m) =>
      /\(\(([^)]*)\)\)/.exec(lines.get(m[0])!)![1].split(',').map(Number),
    );
    const span = (k: number) => Math.max(...pts.map((p) => p[k])) - Math.min(...pts.map((p) => p[k]));
    const walls = c.meshes.filter((m) => m.name === 'South wall');
    const wb = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
    for (const m of walls)
      for (let i = 0; i < m.positions.length; i++) {
        wb[i % 3] = Math.min(wb[i % 3], m.positions[i]);
        wb[(i % 3) + 3] = Math.max(wb[(i % 3) + 3], m.positions[i]);
      }
    expect(wb[5] - wb[2]).toBeCloseTo(Number(depth), 1);
    expect([wb[3] - wb[0], wb[4] - wb[1]].sort((a, b) => a - b)).toEqual(
      [span(0), span(1)].sort((a, b) => a - b).map((v) => expect.closeTo(v, 1)),
    );
  });

  it('an IFC file with a broken header fails that file with a clear message', async () => {
    const ifc = await text('IfcOpenHouse_IFC4.ifc');
    const file = path.join(dir, 'broken.ifc');
    await writeFile(file, ifc.replace(/FILE_SCHEMA\s*\(\s*\('IFC4'\)\)\s*;/, "FILE_SCHEMA(('IFC4'"), 'latin1');
    const err = await convertCadFile(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CadConversionError);
    expect((err as Error).message).toMatch(/^broken\.ifc: broken IFC header: /);
  });
});

/** A scene of named nodes in metres: a 2 × 1 × 0.5 m box moved and a cylinder under a rotated, scaled group. */
function exportScene() {
  const scene = new Scene();
  const box = new Mesh(new BoxGeometry(2, 1, 0.5), new MeshStandardMaterial({ color: new Color(1, 0, 0) }));
  box.name = 'pump';
  box.position.set(3, 0, 0);
  const group = new Group();
  group.name = 'valve-assembly';
  group.rotation.z = Math.PI / 2;
  group.scale.setScalar(2);
  const cyl = new Mesh(new CylinderGeometry(0.1, 0.1, 1, 16), new MeshStandardMaterial({ color: new Color(0, 0, 1) }));
  cyl.name = 'valve';
  group.add(cyl);
  scene.add(box, group);
  scene.updateMatrixWorld(true);
  return { scene, box, cyl, triangles: 12 + cyl.geometry.index!.count / 3 };
}

/** Corners of the world boxes of meshes, transformed by `f`, as [min, max] bounds. */
function worldBounds(meshes: Mesh[], f: (x: number, y: number, z: number) => number[]) {
  const b = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
  for (const m of meshes) {
    const p = m.geometry.getAttribute('position');
    for (let i = 0; i < p.count; i++) {
      const v = p.clone().applyMatrix4(m.matrixWorld);
      const q = f(v.getX(i), v.getY(i), v.getZ(i));
      for (let k = 0; k < 3; k++) (b[k] = Math.min(b[k], q[k])), (b[k + 3] = Math.max(b[k + 3], q[k]));
    }
  }
  return b;
}

describe('glTF, GLB and OBJ (three.js loaders)', () => {
  it.each([false, true])(
    'a three.js export (binary %s): metres to mm, Y-up to Z-up, node names and colours',
    async (binary) => {
      shimFileReader();
      const { scene, box, cyl, triangles } = exportScene();
      const out = await new GLTFExporter().parseAsync(scene, { binary });
      const file = path.join(dir, binary ? 'scene.glb' : 'scene.gltf');
      await writeFile(file, binary ? new Uint8Array(out as ArrayBuffer) : JSON.stringify(out));
      const c = await convertCadFile(file);
      expect(c.format).toBe(binary ? '.glb' : '.gltf');
      expect(c.triangles).toBe(triangles);
      expectBounds(
        c,
        worldBounds([box, cyl], (x, y, z) => [x * 1000, -z * 1000, y * 1000]),
        1,
      );
      const byName = new Map(c.meshes.map((m) => [m.name, m]));
      expect([...byName.keys()].sort()).toEqual(['pump', 'valve']);
      byName.get('pump')!.color!.forEach((v, i) => expect(v).toBeCloseTo([1, 0, 0][i], 6));
      byName.get('valve')!.color!.forEach((v, i) => expect(v).toBeCloseTo([0, 0, 1][i], 6));
    },
  );

  it('an OBJ export: numbers as mm, one named mesh per object', async () => {
    const { scene, box, cyl, triangles } = exportScene();
    const file = path.join(dir, 'scene.obj');
    await writeFile(file, new OBJExporter().parse(scene));
    const c = await convertCadFile(file);
    expect(c.format).toBe('.obj');
    expect(c.triangles).toBe(triangles);
    expectBounds(
      c,
      worldBounds([box, cyl], (x, y, z) => [x, y, z]),
      3,
    );
    expect(c.meshes.map((m) => m.name).sort()).toEqual(['pump', 'valve']);
  });

  it('drops images without fetching them, and refuses buffers held outside the file', async () => {
    shimFileReader();
    const { scene, triangles } = exportScene();
    const json = (await new GLTFExporter().parseAsync(scene, { binary: false })) as {
      images?: unknown[];
      textures?: unknown[];
      materials: { pbrMetallicRoughness?: Record<string, unknown> }[];
      buffers: { uri: string }[];
    };
    // An image on a port nothing listens on: fetching it would fail the conversion.
    json.images = [{ uri: 'http://127.0.0.1:9/texture.png' }];
    json.textures = [{ source: 0 }];
    json.materials[0].pbrMetallicRoughness = {
      ...json.materials[0].pbrMetallicRoughness,
      baseColorTexture: { index: 0 },
    };
    const textured = path.join(dir, 'textured.gltf');
    await writeFile(textured, JSON.stringify(json));
    expect((await convertCadFile(textured)).triangles).toBe(triangles);

    json.buffers[0].uri = 'scene.bin';
    const external = path.join(dir, 'external.gltf');
    await writeFile(external, JSON.stringify(json));
    await expect(convertCadFile(external)).rejects.toThrow(
      "external.gltf: the glTF file refers to 'scene.bin' for its data: upload a .glb, or a .gltf with embedded (data URI) buffers",
    );
  });

  it('a .glb that is not glTF fails that file with a clear message', async () => {
    const file = path.join(dir, 'bad.glb');
    await writeFile(file, 'glTF but not really');
    await expect(convertCadFile(file)).rejects.toThrow(/^bad\.glb: not a readable glTF file: /);
  });
});
