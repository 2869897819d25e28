import { describe, expect, it } from 'vitest';
import type { PartMesh } from '../../../engine/model/types';
import { concatFrames, encodeScenePackage } from '../../../engine/package/writer';
import { ScenePackageReader, decodeScenePackage } from '../../../engine/package/reader';

function sample(): Uint8Array {
  const mesh: PartMesh = {
    object: 0,
    positions: Float32Array.from([0, 0, 0, 1000, 0, 0, 0, 1000, 0]),
    normals: null,
    indices: Uint32Array.from([0, 1, 2]),
    edges: Float32Array.from([0, 0, 0, 1000, 0, 0]),
  };
  return concatFrames(
    encodeScenePackage([mesh], {
      bounds: [0, 0, 0, 1000, 1000, 0],
      objectCount: 1,
      tolerances: { chordalMm: 1, angularDeg: 15 },
    }),
  );
}

describe('scene package reader errors', () => {
  it('rejects a wrong magic with its byte offset', () => {
    const b = sample();
    b[0] = 'X'.charCodeAt(0);
    expect(() => decodeScenePackage(b)).toThrow('Not a scene package: magic "XSC1" at byte 0');
  });

  it('rejects an unsupported version', () => {
    const b = sample();
    new DataView(b.buffer).setUint32(8, 7, true);
    expect(() => decodeScenePackage(b)).toThrow('Unsupported scene package version 7 at byte 8');
  });

  it('rejects a chunk whose length does not match its counts', () => {
    const b = sample();
    new DataView(b.buffer).setUint32(96 + 12, 99, true); // vertexCount of chunk 0
    expect(() => decodeScenePackage(b)).toThrow(/chunk 0 at byte 96: byte length \d+ does not match its counts/);
  });

  it('rejects an out-of-range triangle index', () => {
    const b = sample();
    const view = new DataView(b.buffer);
    // positions 9 u16 = 18 → 20 bytes: u16 indices start at 96 + 80 + 20.
    view.setUint16(96 + 80 + 20, 5, true);
    expect(() => decodeScenePackage(b)).toThrow(
      /Scene package chunk 0: triangle index 5 out of range \(\d vertices\) at byte 196/,
    );
  });

  it('rejects bytes after the last chunk', () => {
    const b = sample();
    const longer = new Uint8Array(b.length + 4);
    longer.set(b);
    expect(() => decodeScenePackage(longer)).toThrow(
      `Scene package has unexpected bytes after the last chunk at byte ${b.length}`,
    );
  });

  it('reports truncation at the byte where the stream stopped, mid-header and mid-chunk', () => {
    const b = sample();
    for (const cut of [0, 5, 50, 96, 100, b.length - 1]) {
      const r = new ScenePackageReader();
      r.push(b.subarray(0, cut));
      expect(() => r.end()).toThrow(`Scene package truncated at byte ${cut}`);
    }
  });

  it('emits each chunk as soon as its last byte arrives, byte by byte', () => {
    const b = sample();
    const r = new ScenePackageReader();
    const when: number[] = [];
    for (let i = 0; i < b.length; i++) if (r.push(b.subarray(i, i + 1)).length) when.push(i + 1);
    r.end();
    expect(when).toEqual([96, b.length]);
  });

  it('keeps refusing after an error', () => {
    const b = sample();
    b[0] = 0;
    const r = new ScenePackageReader();
    expect(() => r.push(b)).toThrow(/Not a scene package/);
    expect(() => r.push(new Uint8Array(1))).toThrow(/Not a scene package/);
  });

  it('rejects a mesh with an index out of range when writing', () => {
    const mesh: PartMesh = {
      object: 0,
      positions: new Float32Array(9),
      normals: null,
      indices: Uint32Array.from([0, 1, 3]),
      edges: null,
    };
    expect(() =>
      encodeScenePackage([mesh], {
        bounds: [0, 0, 0, 1, 1, 1],
        objectCount: 1,
        tolerances: { chordalMm: 1, angularDeg: 15 },
      }),
    ).toThrow('Scene package: mesh 0 (object 0) index 3 at 2 is out of range (3 vertices)');
  });
});
