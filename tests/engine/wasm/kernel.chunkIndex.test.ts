/**
 * A section index built from scene-package chunks with the WebAssembly kernel keeps each batch's
 * positions only in the kernel's memory (engine/section/SectionIndex.ts `KernelBatch`): they are the
 * TypeScript index's positions bit for bit, and so are the sections, an object's geometry and the nearest
 * surface found through them — also after the kernel's memory has grown, which detaches every view on it.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { objectGeometry } from '../../../engine/annotate/indexGeometry';
import type { ImportResult } from '../../../engine/model/types';
import { importOcxFile } from '../../../engine/node/ocx/importFile';
import { decodeScenePackage } from '../../../engine/package/reader';
import type { SceneChunk } from '../../../engine/package/types';
import { concatFrames, encodeScenePackage } from '../../../engine/package/writer';
import { nearestSurface } from '../../../engine/section/nearestSurface';
import { computeSection } from '../../../engine/section/section';
import { SectionIndex } from '../../../engine/section/SectionIndex';
import type { SectionAxis } from '../../../engine/section/types';
import type { GeometryKernel } from '../../../engine/wasm/GeometryKernel';
import { builtKernel } from './kernelFixture';

const SAMPLES = path.resolve(__dirname, '../../../../shared/models/ocx');

/** Values equal bit for bit (NaN equals NaN, +0 differs from −0). */
function sameValues(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

/** The model's scene package, decoded back into chunks (as the viewer and the server read it). */
function chunksOf(r: ImportResult): SceneChunk[] {
  const frames = encodeScenePackage(r.meshes, {
    bounds: r.info.bounds,
    objectCount: r.objects.length,
    tolerances: r.info.tolerances,
  });
  return decodeScenePackage(concatFrames(frames)).chunks;
}

describe.each(['NAPA-OCX_M8.3docx', 'NAPA-TR03_TC12.3docx'])('index of the chunks of %s', (file) => {
  let kernel: GeometryKernel;
  let r: ImportResult;
  let wasmIndex: SectionIndex;
  let tsIndex: SectionIndex;
  beforeAll(async () => {
    kernel = builtKernel();
    r = await importOcxFile(path.join(SAMPLES, file));
    const chunks = chunksOf(r);
    wasmIndex = SectionIndex.fromChunks(chunks, kernel);
    tsIndex = SectionIndex.fromChunks(chunks, null);
  });

  /** Everything the index answers, compared between the two indexes. */
  const expectSameAnswers = () => {
    expect(wasmIndex.batches.length).toBe(tsIndex.batches.length);
    wasmIndex.batches.forEach((b, i) => {
      expect(sameValues(b.positions, tsIndex.batches[i].positions)).toBe(true);
      // A view on the kernel's memory as it is now, not a JavaScript copy.
      expect(b.positions.buffer).toBe(kernel.exports.memory.buffer);
      expect(b.bounds).toEqual(tsIndex.batches[i].bounds);
    });
    const box = tsIndex.bounds();
    for (const [axis, k] of [
      ['X', 0],
      ['Y', 1],
      ['Z', 2],
    ] as [SectionAxis, number][])
      for (const f of [0.21, 0.5, 0.83]) {
        const c = box[k] + (box[k + 3] - box[k]) * f;
        for (const kernelChoice of ['wasm', 'typescript'] as const) {
          const w = computeSection({ objects: r.objects, index: wasmIndex }, axis, c, { kernel: kernelChoice });
          const t = computeSection({ objects: r.objects, index: tsIndex }, axis, c);
          expect(JSON.stringify(w)).toBe(JSON.stringify(t));
        }
      }
    for (const o of [0, Math.floor(r.objects.length / 2), r.objects.length - 1])
      expect(objectGeometry(wasmIndex, o)).toEqual(objectGeometry(tsIndex, o));
    const mid: [number, number, number] = [(box[0] + box[3]) / 2, (box[1] + box[4]) / 2, (box[2] + box[5]) / 2];
    expect(nearestSurface(wasmIndex, mid)).toEqual(nearestSurface(tsIndex, mid));
  };

  it('answers as the TypeScript index from positions held only in the kernel', () => {
    expect(wasmIndex.store).not.toBeNull();
    expect(sameValues(wasmIndex.blockBounds, tsIndex.blockBounds)).toBe(true);
    expectSameAnswers();
  });

  it('still does after the kernel memory has grown (its old views detached)', () => {
    const before = kernel.exports.memory.buffer;
    const held = wasmIndex.batches[0].positions;
    kernel.exports.kk_alloc(64 * 1024 * 1024);
    expect(kernel.exports.memory.buffer).not.toBe(before);
    expect(held.length).toBe(0);
    expectSameAnswers();
  });
});
