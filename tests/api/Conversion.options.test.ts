/**
 * Each conversion option of application.md §2 "Settings tab" (1) changes what convertFile writes (README
 * "Conversion options"): a generated ship (structure, compartments, blocks, holes) and the CADMATIC sample
 * (a NURBS surface whose knot vector needs the importer's repair) converted with the option on and off,
 * the revision files read back.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConversionConfig, DEFAULT_CONVERSION_CONFIG } from '../../api/contract';
import { convertFile } from '../../api/conversion/convertFile';
import { readRevisionObjects, readRevisionProperties } from '../../engine/node/package/writeRevision';
import { writeShipOcx } from '../../tools/generator/index';
import { SAMPLES } from './helpers';

let dir = '';
let ship = '';
let stats: Awaited<ReturnType<typeof writeShipOcx>>;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'keelson-options-'));
  ship = path.join(dir, 'ship.3docx');
  stats = await writeShipOcx(ship, { targetParts: 1000, seed: 7, name: 'OPTIONS' });
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let run = 0;
/** Converts `input` with the defaults changed by `change`; returns the revision's objects, properties and files. */
async function convert(change: Partial<ConversionConfig>, input = ship) {
  const outDir = path.join(dir, `out-${run++}`);
  const output = await convertFile({
    input,
    outDir,
    modelName: 'OPTIONS',
    options: { ...DEFAULT_CONVERSION_CONFIG, ...change },
  });
  const objects = await readRevisionObjects(outDir);
  const properties = await readRevisionProperties(outDir);
  const count = (types: string[]) => objects.objects.filter((o) => types.includes(o.type)).length;
  return { output, objects, properties, outDir, count };
}

const STRUCTURE = ['MAIN OBJECT', 'PLATE', 'STIFFENER', 'BRACKET', 'PILLAR', 'SEAM', 'HOLE'];
const COMPARTMENTS = ['COMPARTMENT', 'COMPARTMENT ARRANGEMENT'];

describe('conversion options', () => {
  let full: Awaited<ReturnType<typeof convert>>;
  beforeAll(async () => {
    full = await convert({});
  }, 120_000);

  it('the defaults keep structure, compartments, blocks, holes and the thumbnail', () => {
    expect(full.count(['PLATE'])).toBeGreaterThan(0);
    expect(full.count(['COMPARTMENT'])).toBe(stats.compartments);
    expect(full.count(['HOLE'])).toBe(stats.holes);
    expect(new Set(full.objects.objects.map((o) => o.block).filter(Boolean)).size).toBe(stats.blocks);
    expect(full.output.thumbnail.length).toBeGreaterThan(100);
    expect(full.output.options).toEqual(DEFAULT_CONVERSION_CONFIG);
  });

  it('Structure model off leaves only the compartment model', async () => {
    const r = await convert({ structureModel: false });
    expect(r.count(STRUCTURE)).toBe(0);
    expect(r.count(['COMPARTMENT'])).toBe(stats.compartments);
    expect(r.objects.objects.length).toBe(full.count(COMPARTMENTS));
    // dense indices, parents inside the table, properties parallel
    r.objects.objects.forEach((o, i) => {
      expect(o.index).toBe(i);
      expect(o.parent).toBeLessThan(i);
      expect(r.properties[i].STID).toBe(o.id);
    });
    expect(r.output.objectCount).toBe(r.objects.objects.length);
  }, 120_000);

  it('Compartment model off drops the compartments and their arrangement', async () => {
    const r = await convert({ compartmentModel: false });
    expect(r.count(COMPARTMENTS)).toBe(0);
    expect(r.objects.objects.length).toBe(full.objects.objects.length - full.count(COMPARTMENTS));
    expect(r.count(['PLATE'])).toBe(full.count(['PLATE']));
  }, 120_000);

  it('refuses options that leave nothing of a model', async () => {
    const napa = path.join(SAMPLES, 'NAPA-OCX_M1.3docx');
    await expect(convert({ structureModel: false }, napa)).rejects.toThrow(
      /leave nothing of this model: it has no compartments/,
    );
  }, 60_000);

  it('Blocks off drops the block arrangement', async () => {
    const r = await convert({ buildingBlocks: false });
    expect(r.objects.objects.every((o) => o.block === null)).toBe(true);
    expect(full.objects.blockSystems?.length).toBeGreaterThan(0);
    expect(r.objects.blockSystems).toBeUndefined();
    expect(r.objects.objects.length).toBe(full.objects.objects.length);
  }, 120_000);

  it('Geometry details off: no hole objects and plates keep their full sheet', async () => {
    const r = await convert({ geometryDetails: false });
    expect(full.count(['HOLE'])).toBeGreaterThan(0);
    expect(r.count(['HOLE'])).toBe(0);
    const plateArea = (x: typeof full) =>
      x.objects.objects
        .filter((o) => o.type === 'PLATE')
        .reduce((s, o) => s + Number(x.properties[o.index].AREA_GEOM ?? 0), 0);
    const holeArea = full.objects.objects
      .filter((o) => o.type === 'HOLE')
      .reduce((s, o) => s + Number(full.properties[o.index].AREA ?? 0), 0);
    // the uncut sheets are larger by (about) the holes' area
    expect(plateArea(r) - plateArea(full)).toBeGreaterThan(0.5 * holeArea);
    expect(r.output.triangles).toBeLessThan(full.output.triangles);
  }, 120_000);

  it('Screenshot off writes no thumbnail', async () => {
    const r = await convert({ screenshot: false });
    expect(r.output.thumbnail).toBe('');
    expect(existsSync(path.join(r.outDir, 'thumbnail.png'))).toBe(false);
    expect(existsSync(path.join(full.outDir, 'thumbnail.png'))).toBe(true);
  }, 120_000);

  it('Geometry healing off refuses the knot vector the importer otherwise repairs', async () => {
    const cadmatic = path.join(SAMPLES, 'CADMATIC-TR03_TC10.3docx');
    const healed = await convert({}, cadmatic);
    const raw = await convert({ geometryHealing: false }, cadmatic);
    const codes = (x: typeof healed) => x.objects.warnings.map((w) => w.code);
    expect(codes(healed)).not.toContain('bad-surface');
    expect(codes(raw)).toContain('bad-surface');
    const plate = (x: typeof healed) => x.objects.objects.find((o) => o.id === '_10shellplate10')!;
    expect(raw.objects.warnings.find((w) => w.code === 'no-surface')?.part).toBe('_10shellplate10');
    expect(plate(raw).bounds).not.toEqual(plate(healed).bounds);
  }, 180_000);
});
