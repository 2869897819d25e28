/**
 * The section index's flat range tables (rangeObject, rangeSpan, rangeBounds) mirror its range objects,
 * and the slab query that reads leaf bounds from them finds exactly the ranges whose bounds reach the
 * slab (checked against a scan of every range) on a real sample model, for both kernels' indexes; the
 * per-axis interval trees answer with the same ranges in the same order as a walk of the 3D BVH.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ImportResult } from '../../../engine/model/types';
import { importOcxFile } from '../../../engine/node/ocx/importFile';
import { SectionIndex } from '../../../engine/section/SectionIndex';
import { builtKernel } from '../wasm/kernelFixture';

const SAMPLE = path.resolve(__dirname, '../../../../shared/models/ocx/NAPA-OCX_M8.3docx');

let model: ImportResult;
let indexes: SectionIndex[];
beforeAll(async () => {
  model = await importOcxFile(SAMPLE);
  indexes = [SectionIndex.fromMeshes(model.meshes, null), SectionIndex.fromMeshes(model.meshes, builtKernel())];
}, 60_000);

describe('section index range tables', () => {
  it('hold each range’s object, kernel span and bounds', () => {
    for (const index of indexes) {
      expect(index.ranges.length).toBeGreaterThan(10);
      index.ranges.forEach((r, i) => {
        expect(index.rangeObject[i]).toBe(r.object);
        expect(Array.from(index.rangeSpan.subarray(i * 5, i * 5 + 5))).toEqual([
          r.batch,
          r.blockStart,
          r.blockCount,
          r.indexStart,
          r.indexCount,
        ]);
        expect(Array.from(index.rangeBounds.subarray(i * 6, i * 6 + 6))).toEqual([...r.bounds]);
      });
    }
  });

  it('answers a slab query with exactly the ranges a scan of every range finds', () => {
    for (const index of indexes) {
      const b = index.bounds();
      let found = 0;
      for (const k of [0, 1, 2] as const)
        for (const f of [0, 0.17, 0.5, 0.83, 1]) {
          const c = b[k] + (b[k + 3] - b[k]) * f;
          for (const half of [0, 1, 250]) {
            const got = index.rangesInSlab(k, c - half, c + half);
            const want = index.ranges.flatMap((r, i) =>
              r.bounds[k] <= c + half && r.bounds[k + 3] >= c - half ? [i] : [],
            );
            expect(new Set(got).size).toBe(got.length);
            expect([...got].sort((x, y) => x - y)).toEqual(want);
            found += got.length;
          }
        }
      expect(found).toBeGreaterThan(0);
    }
  });

  it('finds through the per-axis trees the ranges a BVH walk finds, in the BVH walk order', () => {
    for (const index of indexes) {
      const b = index.bounds();
      let found = 0;
      for (const k of [0, 1, 2] as const)
        for (let f = -0.05; f <= 1.05; f += 0.01) {
          const c = b[k] + (b[k + 3] - b[k]) * f;
          for (const half of [0, 1, 40, 1e9]) {
            const got = index.rangesInSlab(k, c - half, c + half);
            expect(got).toEqual(index.rangesInSlabBvh(k, c - half, c + half));
            found += got.length;
          }
        }
      expect(found).toBeGreaterThan(1000);
    }
  });
});
