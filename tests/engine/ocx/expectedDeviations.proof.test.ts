/**
 * Every row of engine/ocx/expectedDeviations.ts is a proven error of the file: the arithmetic its proof
 * names is recomputed here from the file's own figures (DryWeight, NetArea, Thickness, Density,
 * CenterOfGravity, FlangeDirection, trace length) and the part's geometry (bounding box, section), never
 * from the deviation the importer measured.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sectionPolygon } from '../../../engine/geometry/barSections';
import { importOcxFile } from '../../../engine/node/ocx/importFile';
import type { ImportResult } from '../../../engine/model/types';
import { EXPECTED_DEVIATIONS, type ExpectedDeviation } from '../../../engine/ocx/expectedDeviations';
import { sectionCentroid } from '../../../engine/ocx/memberMesh';

const DIR = path.resolve(__dirname, '../../../../shared/models/ocx');
const results = new Map<string, ImportResult>();

beforeAll(async () => {
  for (const f of new Set(EXPECTED_DEVIATIONS.map((d) => d.file)))
    results.set(f, await importOcxFile(path.join(DIR, f)));
}, 120_000);

/** The part's object index, properties, bounds (mm) and fidelity record. */
function partOf(d: ExpectedDeviation) {
  const r = results.get(d.file)!;
  const i = r.objects.findIndex((o) => o.id === d.part);
  expect(i, `${d.file} ${d.part} exists`).toBeGreaterThanOrEqual(0);
  const fid = r.fidelity!.find((f) => f.object === i)!;
  return { p: r.properties[i], b: r.objects[i].bounds!, fid, r };
}

const num = (v: unknown) => v as number;

/** FlangeDirection of the first Inclination of the part element with this id, read from the file's text. */
function flangeDirection(file: string, id: string): [number, number, number] {
  const text = readFileSync(path.join(DIR, file), 'utf8');
  const at = text.indexOf(`id="${id}"`);
  const end = text.indexOf('</ocx:Stiffener>', at);
  const m = /<ocx:FlangeDirection direction="([^"]+)"/.exec(text.slice(at, end));
  expect(m, `${id} has a FlangeDirection`).not.toBeNull();
  return m![1].trim().split(/\s+/).map(Number) as [number, number, number];
}

const proofs: Record<ExpectedDeviation['proof'], (d: ExpectedDeviation) => void> = {
  'weight-vs-own-figures': (d) => {
    const { p } = partOf(d);
    // catalogue units: W t, AREA m², PLTH m, RHO t/m³ — all the file's own values
    const own = num(p.AREA) * num(p.PLTH) * num(p.RHO);
    expect(Math.abs(num(p.W) / own - 1), `${d.part}: DryWeight vs NetArea × t × ρ`).toBeGreaterThan(0.01);
  },
  'area-beyond-bounds': (d) => {
    const { p, b } = partOf(d);
    const ext = [b[3] - b[0], b[4] - b[1], b[5] - b[2]].map((v) => v / 1000).sort((x, y) => y - x);
    expect(num(p.AREA), `${d.part}: NetArea vs its bounding rectangle`).toBeGreaterThan(1.01 * ext[0] * ext[1]);
  },
  'cog-outside-part': (d) => {
    const { fid, b } = partOf(d);
    const c = fid.vendor.cogMm!;
    const outside = [0, 1, 2].some((k) => c[k] < b[k] - 10 || c[k] > b[k + 3] + 10);
    expect(outside, `${d.part}: vendor CoG ${c} outside ${b}`).toBe(true);
  },
  'cog-at-part-end': (d) => {
    const { fid, b } = partOf(d);
    const c = fid.vendor.cogMm!;
    const atEnd = [0, 1, 2].some(
      (k) => b[k + 3] - b[k] > 500 && (Math.abs(c[k] - b[k]) <= 10 || Math.abs(b[k + 3] - c[k]) <= 10),
    );
    expect(atEnd, `${d.part}: vendor CoG ${c} at an end of ${b}`).toBe(true);
  },
  'weight-vs-trace-length': (d) => {
    const { p } = partOf(d);
    // L: the file's trace length (m); AREA_GEOM: the section area (m²); W and RHO: t, t/m³
    const byTrace = num(p.L) * num(p.AREA_GEOM) * num(p.RHO);
    expect(Math.abs(num(p.W) / byTrace - 1), `${d.part}: DryWeight vs section × trace × ρ`).toBeGreaterThan(0.05);
  },
  'bulb-against-flange-direction': (d) => {
    const { fid, p } = partOf(d);
    expect(String(p.PROFILE)).toMatch(/BulbFlat/);
    const f = flangeDirection(d.file, d.part);
    // the bulb's centroid offset from the back of the web, from the section the catalogue gives (HP200x10)
    const [uc] = sectionCentroid(sectionPolygon('BulbFlat', { height: 200, webThickness: 10 }));
    const v = fid.vendor.cogMm!,
      c = fid.computed.cogMm!;
    const along = (v[0] - c[0]) * f[0] + (v[1] - c[1]) * f[1] + (v[2] - c[2]) * f[2];
    expect(along, `${d.part}: vendor CoG lies against FlangeDirection by twice the bulb offset`).toBeCloseTo(
      -2 * uc,
      0,
    );
    expect(Math.hypot(v[0] - c[0], v[1] - c[1], v[2] - c[2])).toBeCloseTo(2 * uc, 0);
  },
  'shared-height': (d) => {
    const rows = EXPECTED_DEVIATIONS.filter((e) => e.file === d.file && e.proof === 'shared-height');
    const z = rows.map((e) => partOf(e).fid.vendor.cogMm![2]);
    const own = rows.map((e) => partOf(e).fid.computed.cogMm![2]);
    expect(Math.max(...z) - Math.min(...z), 'one vendor height for all').toBeLessThan(0.1);
    expect(Math.max(...own) - Math.min(...own), 'their geometries differ in height').toBeGreaterThan(20);
    const r = results.get(d.file)!;
    const plateZ = r.fidelity!.filter((f) => f.element === 'Plate').map((f) => f.vendor.cogMm?.[2]);
    expect(plateZ, 'the height is a plate’s').toContain(z[0]);
  },
};

describe('expected deviations are proven errors of the files', () => {
  it.each(EXPECTED_DEVIATIONS.map((d) => [`${d.file} ${d.part} ${d.quantity} (${d.proof})`, d] as const))(
    '%s',
    (_, d) => proofs[d.proof](d),
  );

  it('the HP200x10 bulb offset the AVEVA reason quotes is the section’s own', () => {
    const s = sectionPolygon('BulbFlat', { height: 200, webThickness: 10 });
    const [uc] = sectionCentroid(s);
    expect(s.area).toBeCloseTo(2566, -1);
    expect(uc).toBeCloseTo(8.6, 0);
  });
});
