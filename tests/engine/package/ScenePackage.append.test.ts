/**
 * Appending a batch to an encoded package (the CAD components of a revision): the existing chunks stay byte
 * for byte, the new chunks follow numbered on, hold only the appended objects, and the header counts and
 * bounds cover both; a reader sees one valid package.
 */
import { describe, expect, it } from 'vitest';
import type { PartMesh } from '../../../engine/model/types';
import { decodeChunkPositions, decodeScenePackage } from '../../../engine/package/reader';
import { appendToScenePackage, concatFrames, encodeScenePackage } from '../../../engine/package/writer';
import { boxMesh } from '../scene/sceneFixtures';

/** An axis-aligned box part from (x0,y0,z0) to (x1,y1,z1), mm. */
const box = (object: number, [x0, y0, z0, x1, y1, z1]: number[]): PartMesh =>
  boxMesh(object, [x0, y0, z0], [x1, y1, z1]);

describe('appendToScenePackage', () => {
  const steel = [box(0, [0, 0, 0, 1000, 500, 200]), box(1, [0, 0, 200, 1000, 500, 400])];
  const info = {
    bounds: [0, 0, 0, 1000, 500, 400] as [number, number, number, number, number, number],
    objectCount: 2,
    tolerances: { chordalMm: 1, angularDeg: 10 },
  };

  it('adds chunks of their own after the existing ones and keeps those byte for byte', () => {
    const frames = encodeScenePackage(steel, info, { maxChunkTriangles: 12 });
    expect(frames.length).toBe(3);
    const cad = [box(2, [-50, -60, -70, 10, 20, 30]), box(3, [2000, 0, 0, 2100, 100, 100])];
    const { header, chunks } = appendToScenePackage(frames[0], cad, 4, { maxChunkTriangles: 12 });
    expect(chunks.length).toBe(2);
    const all = concatFrames([header, ...frames.slice(1), ...chunks]);
    const pkg = decodeScenePackage(all);
    expect(pkg.header.objectCount).toBe(4);
    expect(pkg.header.chunkCount).toBe(4);
    expect(pkg.header.triangleCount).toBe(48);
    expect(pkg.header.bounds).toEqual([-50, -60, -70, 2100, 500, 400]);
    expect(pkg.chunks.map((c) => c.index)).toEqual([0, 1, 2, 3]);
    // The steel chunks are the frames as first written.
    expect(Buffer.from(all.subarray(96, 96 + frames[1].length + frames[2].length))).toEqual(
      Buffer.concat([frames[1], frames[2]]),
    );
    // The new chunks hold only the appended objects, at their coordinates.
    const objectsOf = (k: number) => [...pkg.chunks[k].objects].filter((_, i) => i % 5 === 0);
    expect([objectsOf(2), objectsOf(3)].flat().sort()).toEqual([2, 3]);
    const k = objectsOf(2)[0] === 2 ? 2 : 3;
    const p = decodeChunkPositions(pkg.chunks[k]);
    const xs = [...p].filter((_, i) => i % 3 === 0);
    expect(Math.min(...xs)).toBeCloseTo(-50, 1);
    expect(Math.max(...xs)).toBeCloseTo(10, 1);
  });

  it('gives an empty package the bounds of the appended geometry alone', () => {
    const frames = encodeScenePackage([], { ...info, bounds: [0, 0, 0, 0, 0, 0], objectCount: 0 });
    const { header, chunks } = appendToScenePackage(frames[0], [box(0, [100, 200, 300, 110, 210, 310])], 1);
    const pkg = decodeScenePackage(concatFrames([header, ...chunks]));
    expect(pkg.header.bounds).toEqual([100, 200, 300, 110, 210, 310]);
    expect(pkg.header.triangleCount).toBe(12);
  });

  it('refuses a mesh of an object outside the new table and a frame that is no header', () => {
    const frames = encodeScenePackage(steel, info);
    expect(() => appendToScenePackage(frames[0], [box(5, [0, 0, 0, 1, 1, 1])], 3)).toThrow(/object index outside/);
    expect(() => appendToScenePackage(frames[1], [], 3)).toThrow(/scene package header/);
  });
});
