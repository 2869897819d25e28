import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';
import type { ImportResult, PartMesh } from '../../../engine/model/types';
import {
  readRevisionObjects,
  readRevisionProperties,
  writeRevisionFiles,
} from '../../../engine/node/package/writeRevision';
import { decodeScenePackage } from '../../../engine/package/reader';

function plate(object: number, x: number): PartMesh {
  return {
    object,
    positions: Float32Array.from([x, 0, 0, x + 1000, 0, 0, x + 1000, 0, 2000, x, 0, 2000]),
    normals: null,
    indices: Uint32Array.from([0, 1, 2, 0, 2, 3]),
    edges: Float32Array.from([x, 0, 0, x + 1000, 0, 0]),
  };
}

function result(): ImportResult {
  return {
    info: {
      name: 'Demo',
      schemaVersion: '3.1.0',
      originatingSystem: 'test',
      timeStamp: '2024-01-01T00:00:00',
      bounds: [0, 0, 0, 3000, 0, 2000],
      tolerances: { chordalMm: 1, angularDeg: 15 },
    },
    objects: [0, 1, 2].map((i) => ({
      index: i,
      id: `P${i}`,
      guid: null,
      name: `Plate ${i}`,
      type: 'PLATE' as const,
      element: 'Plate',
      parent: -1,
      block: null,
      bounds: [i * 1000, 0, 0, i * 1000 + 1000, 0, 2000] as [number, number, number, number, number, number],
    })),
    properties: [0, 1, 2].map((i) => ({ PLTH: 0.012, NAME: `Plate ${i}` })),
    meshes: [plate(0, 0), plate(1, 1000), plate(2, 2000)],
    frames: { x: [{ id: 'fr0', name: 'FR0', coordinate: 0, number: 0 }], y: [], z: [] },
    warnings: [{ code: 'w', message: 'a warning' }],
  };
}

let dir = '';
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('writeRevisionFiles', () => {
  it('writes the scene, object table, properties and thumbnail, and reads them back', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'keelson-rev-'));
    const r = result();
    const out = await writeRevisionFiles(r, dir, 'Demo ship');
    expect(out.scFile).toBe('Demo ship.sc');
    expect(out.triangles).toBe(6);
    const sc = await readFile(path.join(dir, out.scFile));
    expect(sc.length).toBe(out.bytes);
    const { header, chunks } = decodeScenePackage(new Uint8Array(sc));
    expect(header.objectCount).toBe(3);
    expect(header.edgeCount).toBe(3);
    expect(chunks.reduce((n, c) => n + c.indices.length / 3, 0)).toBe(6);

    const objects = await readRevisionObjects(dir);
    expect(objects.objects.map((o) => o.id)).toEqual(['P0', 'P1', 'P2']);
    expect(objects.frames.x[0].name).toBe('FR0');
    expect(objects.warnings).toHaveLength(1);
    expect(objects.info.name).toBe('Demo');
    expect((await readRevisionProperties(dir))[2]).toEqual({ PLTH: 0.012, NAME: 'Plate 2' });

    const png = PNG.sync.read(await readFile(path.join(dir, 'thumbnail.png')));
    expect([png.width, png.height]).toEqual([160, 120]);
    const first = png.data.readUInt32BE(0);
    let differing = 0;
    for (let i = 0; i < png.width * png.height; i++) if (png.data.readUInt32BE(i * 4) !== first) differing++;
    expect(differing).toBeGreaterThan(100);
  });

  it('refuses a bad model name and non-parallel properties, and names broken files', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'keelson-rev-'));
    await expect(writeRevisionFiles(result(), dir, '../x')).rejects.toThrow(
      'Invalid model name for a revision file: "../x"',
    );
    const r = result();
    r.properties.pop();
    await expect(writeRevisionFiles(r, dir, 'x')).rejects.toThrow('Revision: 2 property records for 3 objects');
    await expect(readRevisionObjects(dir)).rejects.toThrow(/objects\.json cannot be read/);
    await writeFile(path.join(dir, 'properties.json'), '{"a":1}');
    await expect(readRevisionProperties(dir)).rejects.toThrow(/properties\.json does not hold an array/);
    await writeFile(path.join(dir, 'objects.json'), '{oops');
    await expect(readRevisionObjects(dir)).rejects.toThrow(/objects\.json is not valid JSON/);
  });
});
