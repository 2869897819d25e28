/**
 * STL conversion (api/cad/convertCad.ts, api/cad/readStl.ts) in its worker threads: binary and ASCII STL made
 * here with three's STLExporter, so the exact triangles are known; a binary header claiming billions of
 * triangles on a small file is refused fast; unsupported formats are refused naming the supported ones.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { BoxGeometry, Mesh, MeshBasicMaterial, Scene, TorusKnotGeometry } from 'three';
import { STLExporter } from 'three/examples/jsm/exporters/STLExporter.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeCadPools, convertCadFile } from '../../api/cad/convertCad';
import { CAD_FORMATS, CadConversionError } from '../../api/cad/types';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'keelson-cad-stl-'));
});
afterAll(async () => {
  await closeCadPools();
  await rm(dir, { recursive: true, force: true });
});

/** A scene of a 30 × 20 × 10 box moved to (100, 0, 0) and a torus knot; its triangles and bounds by three. */
function scene() {
  const s = new Scene();
  const box = new Mesh(new BoxGeometry(30, 20, 10), new MeshBasicMaterial());
  box.position.set(100, 0, 0);
  const knot = new Mesh(new TorusKnotGeometry(10, 3, 64, 8), new MeshBasicMaterial());
  s.add(box, knot);
  s.updateMatrixWorld(true);
  const triangles = 12 + (knot.geometry.index?.count ?? 0) / 3;
  const knotBox = knot.geometry.boundingBox ?? (knot.geometry.computeBoundingBox(), knot.geometry.boundingBox!);
  const bounds = [
    Math.min(85, knotBox.min.x),
    Math.min(-10, knotBox.min.y),
    Math.min(-5, knotBox.min.z),
    Math.max(115, knotBox.max.x),
    Math.max(10, knotBox.max.y),
    Math.max(5, knotBox.max.z),
  ];
  return { s, triangles, bounds };
}

describe('STL conversion', () => {
  it.each([true, false])(
    'converts a three.js export (binary: %s) with its exact triangles and bounds',
    async (binary) => {
      const { s, triangles, bounds } = scene();
      const out = new STLExporter().parse(s, { binary });
      const file = path.join(dir, `scene-${binary ? 'bin' : 'ascii'}.stl`);
      await writeFile(file, binary ? new Uint8Array((out as DataView).buffer) : (out as string));
      const c = await convertCadFile(file);
      expect(c.fileName).toBe(path.basename(file));
      expect(c.format).toBe('.stl');
      expect(c.triangles).toBe(triangles);
      expect(c.meshes.reduce((n, m) => n + m.indices.length / 3, 0)).toBe(triangles);
      expect(c.meshes[0].positions).toBeInstanceOf(Float32Array);
      expect(c.meshes[0].indices).toBeInstanceOf(Uint32Array);
      // ASCII STL writes numbers with limited digits: compare to a few micrometres.
      c.bounds!.forEach((v, i) => expect(v).toBeCloseTo(bounds[i], 3));
      expect(c.warnings).toEqual([]);
    },
  );

  it('refuses fast a small binary STL whose header claims billions of triangles', async () => {
    const bytes = new Uint8Array(84 + 50 * 10);
    new DataView(bytes.buffer).setUint32(80, 4_000_000_000, true);
    const file = path.join(dir, 'huge-claim.stl');
    await writeFile(file, bytes);
    const err = await convertCadFile(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CadConversionError);
    expect((err as Error).message).toMatch(
      /huge-claim\.stl: binary STL header counts 4000000000 triangles .* 584 bytes/,
    );
  });

  it('refuses a .jt file naming every supported format, without starting a thread', async () => {
    const file = path.join(dir, 'pump.jt');
    await writeFile(file, 'not really JT');
    const err = await convertCadFile(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CadConversionError);
    for (const f of CAD_FORMATS) expect((err as Error).message).toContain(f);
    expect((err as Error).message).toMatch(/^pump\.jt: '\.jt' files are not supported/);
  });

  it('fails a text file that is no STL with a clear message', async () => {
    const file = path.join(dir, 'notes.stl');
    await writeFile(file, 'these are not triangles');
    await expect(convertCadFile(file)).rejects.toThrow(/notes\.stl: too short .* to be an STL file/);
  });
});
