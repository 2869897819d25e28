/**
 * CAD components added to a converted revision from the shared samples as the generator's ship names them
 * (as1-oc-214.stp for two pumps, cube-10mm.igs, IfcOpenHouse_IFC4.ifc), with the real converter: one CAD
 * COMPONENT root per referring Equipment named '@' + its name; a STEP assembly's named parts become child
 * objects carrying the part names and geometry, the root's box is the union of its parts' boxes; the IGES
 * cube is 10 mm on each side (its known size); the package holds every object and the sum of its triangles.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeCadPools, convertCadFile } from '../../api/cad/convertCad';
import { DEFAULT_CONVERSION_CONFIG } from '../../api/contract';
import { readCadFiles } from '../../api/conversion/cadFiles';
import { addCadComponents, CAD_PART_ELEMENT } from '../../api/conversion/cadComponents';
import { convertFile } from '../../api/conversion/convertFile';
import { readRevisionObjects, readRevisionProperties } from '../../engine/node/package/writeRevision';
import { decodeScenePackage } from '../../engine/package/reader';
import { writeShipOcx } from '../../tools/generator/index';

const CAD_SAMPLES = path.resolve(__dirname, '../../../shared/models/cad');
let dir = '';
const out = () => path.join(dir, 'rev');

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'keelson-cadpkg-'));
  const ship = path.join(dir, 'CADPKG.3docx');
  await writeShipOcx(ship, { targetParts: 60, seed: 7, name: 'CADPKG', equipment: true });
  await convertFile({
    input: ship,
    outDir: out(),
    modelName: 'CADPKG',
    options: { ...DEFAULT_CONVERSION_CONFIG, cadComponents: true, screenshot: false },
  });
}, 120_000);
afterAll(async () => {
  await closeCadPools();
  await rm(dir, { recursive: true, force: true });
});

describe('addCadComponents on the shared samples', () => {
  it('adds the components with their parts, boxes and properties to the revision and its package', async () => {
    const before = (await readRevisionObjects(out())).objects.length;
    const { files } = await readCadFiles(out());
    const done: number[] = [];
    const r = await addCadComponents(out(), 'CADPKG', files, CAD_SAMPLES, convertCadFile, undefined, (d) =>
      done.push(d),
    );
    expect(done).toEqual([1, 2, 3]);
    expect(r.components.map((c) => c.name)).toEqual([
      '@Ballast pump 1',
      '@Ballast pump 2',
      '@Hatch cover',
      '@Deck house',
    ]);

    const { objects } = await readRevisionObjects(out());
    const props = await readRevisionProperties(out());
    expect(objects.length).toBe(r.objectCount);
    expect(props.length).toBe(objects.length);

    // The STEP assembly: the converter's named meshes are the component's children, in order.
    const step = await convertCadFile(path.join(CAD_SAMPLES, 'as1-oc-214.stp'));
    const named = step.meshes.filter((m) => m.indices.length > 0);
    expect(named.length).toBeGreaterThan(1);
    for (const c of r.components.slice(0, 2)) {
      const children = objects.filter((o) => o.parent === c.index);
      expect(children.map((o) => o.name)).toEqual(named.map((m, k) => m.name || `as1-oc-214.stp part ${k + 1}`));
      expect(children.every((o) => o.type === 'CAD COMPONENT' && o.element === CAD_PART_ELEMENT)).toBe(true);
      expect(c.parts).toEqual(children.map((o) => o.name));
      const union = [0, 1, 2].map((i) => Math.min(...children.map((o) => o.bounds?.[i] ?? Infinity)));
      union.push(...[3, 4, 5].map((i) => Math.max(...children.map((o) => o.bounds?.[i] ?? -Infinity))));
      c.bounds?.forEach((x, i) => expect(x).toBeCloseTo(union[i], 3));
      expect(c.triangles).toBe(step.triangles);
    }
    expect(r.components[0].id).not.toBe(r.components[1].id);

    // The IGES cube: 10 mm on each side.
    const cube = r.components[2];
    expect(cube.error).toBe('');
    const size = [3, 4, 5].map((i) => (cube.bounds?.[i] ?? 0) - (cube.bounds?.[i - 3] ?? 0));
    size.forEach((s) => expect(s).toBeCloseTo(10, 3));
    expect(props[cube.index]).toMatchObject({ CADFILE: 'cube-10mm.igs', CADFORMAT: '.igs', NAME: '@Hatch cover' });
    expect(props[cube.index].XMAX as number).toBeCloseTo((cube.bounds?.[3] ?? 0) / 1000, 9);

    // The package: every object, its triangles; CAD geometry only in the chunks after the steel.
    const pkg = decodeScenePackage(new Uint8Array(await readFile(path.join(out(), 'CADPKG.sc'))));
    expect(pkg.header.objectCount).toBe(objects.length);
    expect(pkg.header.triangleCount).toBe(r.triangles);
    const ranges = pkg.chunks.map((c) => [...c.objects].filter((_, i) => i % 5 === 0));
    const firstCad = ranges.findIndex((os) => os.some((o) => o >= before));
    expect(firstCad).toBeGreaterThan(0);
    expect(
      ranges
        .slice(firstCad)
        .flat()
        .every((o) => o >= before),
    ).toBe(true);
    expect(
      ranges
        .slice(0, firstCad)
        .flat()
        .every((o) => o < before),
    ).toBe(true);
  }, 240_000);
});
