import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compartmentFaces, planCompartments, volumeCentroid } from '../../tools/generator/arrangement';
import { countShipParts, generateShipOcx, writeShipOcx } from '../../tools/generator/generateShip';
import { area2, clipBox, hullDims, sectionAt, sectionPolygon } from '../../tools/generator/hullForm';
import { patchAreaCentroid, shellPatch } from '../../tools/generator/nurbs';
import { SECTIONS, plateMass, polygonAreaCentroid } from '../../tools/generator/ocxWriter';
import { bulbFlatProperties } from '../../tools/generator/bulbFlat';
import { CAD_EQUIPMENT } from '../../tools/generator/equipment';
import { sectionPolygon as sectionPolygon_ } from '../../engine/geometry/barSections';
import { xmllintValidate } from '../support/xmllint';

const SCHEMA = path.resolve(__dirname, '../../../shared/models/ocx/OCX_Schema_3.1.0.xsd');
const validate = (file: string) => xmllintValidate(file, SCHEMA);

async function text(options: Parameters<typeof generateShipOcx>[0]): Promise<string> {
  let s = '';
  for await (const piece of generateShipOcx(options)) s += piece;
  return s;
}

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'keelson-gen-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('ship generator', () => {
  it('writes a small ship that validates against OCX_Schema_3.1.0.xsd, with curved plates, seams, holes, blocks and compartments', async () => {
    const file = path.join(dir, 'small.3docx');
    const stats = await writeShipOcx(file, { targetParts: 1500, seed: 7, name: 'Small & test' });
    const out = validate(file);
    expect(out.tail).toBe(`${file} validates`);
    expect(out.status).toBe(0);
    const xml = await readFile(file, 'utf8');
    expect(xml.match(/<ocx:(?:Plate|Stiffener|Bracket) /g)?.length).toBe(stats.parts);
    expect(xml.match(/<ocx:Plate /g)?.length).toBe(stats.plates);
    expect(xml.match(/<ocx:Stiffener /g)?.length).toBe(stats.stiffeners);
    expect(xml.match(/<ocx:Seam /g)?.length).toBe(stats.seams);
    expect(xml.match(/<ocx:Hole2DContour |<ocx:InnerContour>/g)?.length).toBe(stats.holes);
    expect(xml.match(/<ocx:OccurrenceGroup /g)?.length).toBe(stats.blocks);
    expect(xml.match(/<ocx:Compartment /g)?.length).toBe(stats.compartments);
    expect(stats.bytes).toBe(Buffer.byteLength(xml));
    expect(stats.curvedPlates).toBeGreaterThan(0.05 * stats.plates);
    expect(stats.seams).toBeGreaterThan(50);
    expect(xml.match(/<ocx:InnerContour>/g)?.length).toBeGreaterThan(5);
    expect(xml.match(/<ocx:Hole2DContour /g)?.length).toBeGreaterThan(5);
    for (const el of [
      '<ocx:NURBSSurface',
      '<ocx:HoleShapeCatalogue',
      '<ocx:SymmetricalHole',
      '<ocx:DesignView',
      'TRANSVERSAL_BULKHEAD: Collision',
      'WEB_FRAME: Floor frame',
      '<ocx:Bracket ',
    ])
      expect(xml).toContain(el);
    const purposes = new Set([...xml.matchAll(/ocx:compartmentPurpose="([^"]+)"/g)].map((m) => m[1]));
    for (const p of [
      'aft_peak_tank',
      'main_engine_room',
      'void',
      'cargo_compartment',
      'double_bottom_tank',
      'fore_peak_tank',
    ])
      expect(purposes).toContain(p);
    // The DesignView references exactly the generated parts and seams: every reference resolves to an
    // element of its type with its GUID, and every part and seam is referenced once.
    const elements = new Map(
      [...xml.matchAll(/<ocx:(Plate|Stiffener|Bracket|Seam) id="([^"]+)"[^>]*? ocx:GUIDRef="([^"]+)"/g)].map((m) => [
        m[2],
        `ocx:${m[1]} ${m[3]}`,
      ]),
    );
    expect(elements.size).toBe(xml.match(/<ocx:(?:Plate|Stiffener|Bracket|Seam) /g)?.length);
    const refs = [
      ...xml.matchAll(
        /<ocx:(?:PlateRef|StiffenerRef|BracketRef|SeamRef) localRef="([^"]+)" ocx:GUIDRef="([^"]+)" ocx:refType="([^"]+)"/g,
      ),
    ];
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.filter(([, id, guid, type]) => elements.get(id) !== `${type} ${guid}`).map((m) => m[0])).toEqual([]);
    const referenced = new Set(refs.map((m) => m[1]));
    expect(referenced.size).toBe(refs.length);
    expect([...elements.keys()].filter((id) => !referenced.has(id))).toEqual([]);
  });
  it.skipIf(process.env.BENCH_LARGE !== '1')(
    'writes a valid 10k-part ship (BENCH_LARGE=1)',
    async () => {
      const file = path.join(dir, 'large.3docx');
      const stats = await writeShipOcx(file, { targetParts: 10_000 });
      expect(Math.abs(stats.parts - 10_000)).toBeLessThanOrEqual(500);
      expect(validate(file).status).toBe(0);
    },
    120_000,
  );

  it('scales part counts with targetParts (within 5 %) and grows in length and breadth', () => {
    const small = countShipParts({ targetParts: 3000 });
    const big = countShipParts({ targetParts: 12000 });
    for (const [s, target] of [
      [small, 3000],
      [big, 12000],
    ] as const)
      expect(Math.abs(s.parts - target)).toBeLessThanOrEqual(0.05 * target);
    expect(big.lengthM).toBeGreaterThan(small.lengthM * 1.3);
    expect(big.breadthM).toBeGreaterThan(small.breadthM * 1.3);
    expect(big.depthM).toBeGreaterThan(small.depthM);
    expect(big.breadthM / big.lengthM).toBeGreaterThan(0.15);
    expect(big.breadthM / big.lengthM).toBeLessThan(0.23);
  });

  it('is deterministic for a seed and differs between seeds', async () => {
    const a = await text({ targetParts: 1200, seed: 3, compartments: false });
    const b = await text({ targetParts: 1200, seed: 3, compartments: false });
    const c = await text({ targetParts: 1200, seed: 4, compartments: false });
    expect(a).toBe(b);
    expect(a).not.toBe(c);
    expect(a).not.toContain('<ocx:Arrangement');
  });

  it("applies known edits (shipEdits.ts) keeping every other part's id and GUID, and the edited ship validates", async () => {
    const base = await text({ targetParts: 1200, seed: 3, compartments: false });
    const plates = [...base.matchAll(/<ocx:Plate id="(pl\d+)" name="([^"]+)" ocx:GUIDRef="([^"]+)"/g)];
    const stiffener = /<ocx:Stiffener id="st\d+" name="([^"]+)"/.exec(base)![1];
    const flat = plates.find((m) => m[2].includes('MAIN-DECK'))!;
    const gone = plates[5],
      thick = plates[7];
    const file = path.join(dir, 'edited.3docx');
    const stats = await writeShipOcx(file, {
      targetParts: 1200,
      seed: 3,
      compartments: false,
      edits: [
        { kind: 'remove', part: gone[2] },
        { kind: 'thickness', part: thick[2], thicknessMm: 31 },
        { kind: 'move', part: stiffener, offset: [0, 0, 0.05] },
        { kind: 'add', copyOf: flat[2], name: 'P:NEW/MAIN-DECK', id: 'plnew1', offset: [0.1, 0, 0] },
      ],
    });
    expect(validate(file).status).toBe(0);
    const edited = await readFile(file, 'utf8');
    const after = new Map(
      [...edited.matchAll(/<ocx:Plate id="(pl\w+)" name="([^"]+)" ocx:GUIDRef="([^"]+)"/g)].map((m) => [m[1], m]),
    );
    expect(after.has(gone[1])).toBe(false);
    expect(after.get('plnew1')![2]).toBe('P:NEW/MAIN-DECK');
    for (const m of plates) if (m !== gone) expect(after.get(m[1])?.slice(2)).toEqual(m.slice(2));
    expect(stats.plates).toBe(plates.length);
    expect(edited).toContain('<ocx:Thickness numericvalue="31" unit="Umm"/>');
    expect(edited).not.toContain(`localRef="${gone[1]}"`);
  });

  it('writes Equipments naming the CAD samples with the equipment option, valid against the 3.1 schema, the rest unchanged', async () => {
    const file = path.join(dir, 'equipment.3docx');
    await writeShipOcx(file, { targetParts: 1000, seed: 5, compartments: false, equipment: true });
    const out = validate(file);
    expect(out.tail).toBe(`${file} validates`);
    expect(out.status).toBe(0);
    const xml = await readFile(file, 'utf8');
    const refs = [...xml.matchAll(/<ocx:ExternalGeometryRef ocx:externalRef="([^"]+)"/g)].map((m) => m[1]);
    expect(refs).toEqual(CAD_EQUIPMENT.map((e) => e.file));
    expect(new Set(refs)).toEqual(new Set(['as1-oc-214.stp', 'cube-10mm.igs', 'IfcOpenHouse_IFC4.ifc']));
    const plain = await text({ targetParts: 1000, seed: 5, compartments: false });
    expect(xml.replace(/<ocx:Equipments [\s\S]*<\/ocx:Equipments>\n/, '')).toBe(plain);
  }, 120_000);

  it('narrows the hull towards the ends: bow and stern sections are narrower and the keel rises aft', () => {
    const d = hullDims(200),
      mid = sectionAt(d, d.length / 2),
      bow = sectionAt(d, d.length * 0.95),
      stern = sectionAt(d, d.length * 0.03);
    expect(mid.hb).toBeCloseTo(d.breadth / 2);
    expect(bow.hb).toBeLessThan(mid.hb * 0.5);
    expect(bow.fb).toBeLessThan(bow.hb - bow.r);
    expect(stern.fb).toBeLessThan(mid.fb * 0.3);
    expect(stern.zk).toBeGreaterThan(0.1 * d.depth);
  });

  it('writes physical properties consistent with geometry (NetArea × thickness × density and trace length × section area × density = DryWeight)', async () => {
    const xml = await text({ targetParts: 1200, seed: 1, compartments: false });
    const plate =
      /<ocx:Plate [^>]*><ocx:PhysicalProperties><ocx:DryWeight numericvalue="([^"]+)"[^>]*\/><ocx:CenterOfGravity coordinates="([^"]+)"[^>]*\/><\/ocx:PhysicalProperties><ocx:NetArea numericvalue="([^"]+)"[^>]*\/>.*?<ocx:Thickness numericvalue="([^"]+)"/g;
    let n = 0;
    for (const m of xml.matchAll(plate)) {
      const [w, area, t] = [Number(m[1]), Number(m[3]), Number(m[4])];
      expect(Math.abs(area * (t / 1000) * 7850 - w)).toBeLessThanOrEqual(w * 1e-4 + 1e-3);
      n++;
    }
    expect(n).toBeGreaterThan(300);
    // Stiffeners: trace length × section area × density, the areas from the sections' dimensions (EN 10067
    // tables for the bulb flats) and straight traces measured from their end points here.
    const sectionArea: Record<string, number> = {
      SEC_HP200x10: 25.66e-4,
      SEC_HP260x11: 38.71e-4,
      SEC_T400x12_150x15: (0.4 - 0.015) * 0.012 + 0.15 * 0.015,
      SEC_FB150x12: 0.15 * 0.012,
    };
    const stiffener =
      /<ocx:Stiffener [^>]*><ocx:PhysicalProperties><ocx:DryWeight numericvalue="([^"]+)"[^>]*\/>.*?<ocx:TraceLine><ocx:CompositeCurve3D [^>]*><ocx:CurveLength numericvalue="([^"]+)"[^>]*\/>(.*?)<\/ocx:TraceLine>.*?<ocx:SectionRef localRef="([^"]+)"/g;
    const seen = new Set<string>();
    let straight = 0;
    n = 0;
    for (const m of xml.matchAll(stiffener)) {
      const [w, written, trace, section] = [Number(m[1]), Number(m[2]), m[3], m[4]];
      let length = written;
      if (!trace.includes('NURBS3D')) {
        const ends = [...trace.matchAll(/<ocx:(?:Start|End)Point coordinates="([^"]+)"/g)].map((e) =>
          e[1].split(' ').map(Number),
        );
        length = 0;
        for (let i = 0; i < ends.length; i += 2) length += Math.hypot(...ends[i].map((v, k) => ends[i + 1][k] - v));
        straight++;
      }
      expect(sectionArea[section], section).toBeDefined();
      expect(Math.abs(length * sectionArea[section] * 7850 - w), `${section} ${w} kg`).toBeLessThanOrEqual(
        w * 1e-4 + 1e-3,
      );
      seen.add(section);
      n++;
    }
    expect(n).toBeGreaterThan(300);
    expect(straight).toBeGreaterThan(100);
    expect([...seen].sort()).toEqual(Object.keys(sectionArea).sort());
    const sq = polygonAreaCentroid([
      [0, 0, 0],
      [2, 0, 0],
      [2, 0, 3],
      [0, 0, 3],
    ]);
    expect(sq.area).toBeCloseTo(6);
    expect(sq.centroid).toEqual([1, 0, 1.5]);
    // A 600×400 symmetrical hole (0.2×0.4 rectangle + a 0.4 circle) centred in a 2×1 plate.
    const holed = plateMass(
      [
        [0, 0, 0],
        [2, 0, 0],
        [2, 0, 1],
        [0, 0, 1],
      ],
      10,
      [{ kind: 'catalogue', shape: 'LH600x400', origin: [1.5, 0, 0.5], primary: [1, 0, 0], secondary: [0, 0, 1] }],
    );
    const hole = 0.2 * 0.4 + Math.PI * 0.04;
    expect(holed.area).toBeCloseTo(2 - hole, 9);
    expect(holed.cog[0]).toBeCloseTo((2 * 1 - hole * 1.5) / (2 - hole), 9);
  });

  it("writes profile sections whose areas and centroids follow from their dimensions, not from the importer's outline", () => {
    const dim = (name: keyof typeof SECTIONS, key: string) => SECTIONS[name].dims.find(([k]) => k === key)![1];
    // EN 10067 tabulated section areas: HP200x10 25.66 cm², HP260x11 38.71 cm²
    expect(SECTIONS.HP200x10.area).toBeCloseTo(25.66e-4, 10);
    expect(SECTIONS.HP260x11.area).toBeCloseTo(38.71e-4, 10);
    expect(dim('HP200x10', 'FlangeWidth')).toBeCloseTo(0.038, 9); // web 10 + bulb 28 mm
    expect(dim('HP260x11', 'FlangeWidth')).toBeCloseTo(0.048, 9);
    const [H, W, tw, tf] = ['Height', 'Width', 'WebThickness', 'FlangeThickness'].map((k) => dim('T400x12+150x15', k));
    expect(SECTIONS['T400x12+150x15'].area).toBeCloseTo((H - tf) * tw + W * tf, 12);
    expect(SECTIONS['T400x12+150x15'].centroid).toBeCloseTo(
      ((H - tf) * tw * ((H - tf) / 2) + W * tf * (H - tf / 2)) / ((H - tf) * tw + W * tf),
      12,
    );
    expect(SECTIONS.FB150x12.area).toBeCloseTo(dim('FB150x12', 'Height') * dim('FB150x12', 'Width'), 12);
    expect(SECTIONS.FB150x12.centroid).toBeCloseTo(dim('FB150x12', 'Height') / 2, 12);
    // the bulb's closed form (true arc) and the importer's polygonal outline are two computations of one
    // nominal shape: they agree to a tenth of a millimetre
    for (const name of ['HP200x10', 'HP260x11'] as const) {
      const s = SECTIONS[name];
      const outline = sectionPolygon_('BulbFlat', {
        height: dim(name, 'Height') * 1000,
        webThickness: dim(name, 'WebThickness') * 1000,
      }).outer;
      let a = 0,
        cu = 0,
        cv = 0;
      for (let i = 0; i < outline.length; i += 2) {
        const j = (i + 2) % outline.length;
        const x = outline[i] * outline[j + 1] - outline[j] * outline[i + 1];
        a += x / 2;
        cu += ((outline[i] + outline[j]) * x) / 6;
        cv += ((outline[i + 1] + outline[j + 1]) * x) / 6;
      }
      expect(Math.abs(s.centroid * 1000 - cv / a), name).toBeLessThan(0.1);
      expect(Math.abs((s.uCentroid ?? 0) * 1000 - cu / a), name).toBeLessThan(0.1);
      expect(Math.abs(s.area * 1e6 - a) / a, name).toBeLessThan(1e-6);
    }
    expect(() => bulbFlatProperties(210, 10)).toThrow(/No EN 10067 bulb flat of height 210 mm/);
  });

  it('computes curved plate areas from the NURBS surface (exact bilge arc: a quarter cylinder)', () => {
    const d = hullDims(200),
      x0 = d.length / 2,
      r = d.bilgeRadius;
    const patch = shellPatch(d, x0, x0 + 3.2, 1, 2, 1, 2);
    const { area, centroid } = patchAreaCentroid(patch);
    expect(area).toBeCloseTo((Math.PI / 2) * r * 3.2, 3);
    expect(centroid[0]).toBeCloseTo(x0 + 1.6, 6);
    expect(centroid[2]).toBeCloseTo(r - (2 * r) / Math.PI, 3);
  });

  it('closes every compartment: volumes positive, a midbody hold equals its section × length', () => {
    const d = hullDims(200);
    const list = planCompartments(d);
    let total = 0;
    for (const c of list) {
      const { volume } = volumeCentroid(compartmentFaces(d, c));
      expect(Math.abs(volume)).toBeGreaterThan(1);
      total += Math.abs(volume);
    }
    expect(total).toBeLessThan(d.length * d.breadth * d.depth);
    expect(total).toBeGreaterThan(0.5 * d.length * d.breadth * d.depth);
    const hold = list.find((c) => c.purpose === 'cargo_compartment' && c.xi0 > d.midbodyStart && c.xi1 < d.midbodyEnd)!;
    const section = Math.abs(
      area2(clipBox(sectionPolygon(sectionAt(d, hold.xi0)), hold.y0, hold.y1, hold.z0, hold.z1)),
    );
    expect(Math.abs(volumeCentroid(compartmentFaces(d, hold)).volume)).toBeCloseTo(section * (hold.xi1 - hold.xi0), 6);
  });

  it('CLI refuses a missing --out and writes a file with --parts', () => {
    const cli = path.resolve(__dirname, '../../tools/generator/cli.ts');
    const bad = spawnSync(process.execPath, ['--import', 'tsx', cli, '--parts', '10'], { encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('generate: Missing --out FILE');
    const file = path.join(dir, 'cli.3docx');
    const ok = execFileSync(
      process.execPath,
      ['--import', 'tsx', cli, '--out', file, '--parts', '1000', '--seed', '2'],
      { encoding: 'utf8' },
    );
    expect(ok).toMatch(new RegExp(`^Wrote ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: \\d+ parts`));
  });
});
