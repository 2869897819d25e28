import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  buildChildren,
  buildTriangleLookup,
  collectSubtrees,
  objectAtTriangle,
  owningMainObject,
} from '../../../engine/interaction/objectLookup';
import type { ObjectType } from '../../../engine/model/types';

describe('triangle → object lookup', () => {
  it('finds the owning object of every triangle (ranges given out of order)', () => {
    // [objectIndex, vertexStart, vertexCount, indexStart, indexCount]
    const ranges = new Uint32Array([
      7,
      10,
      4,
      6,
      6, // triangles 2..3
      3,
      0,
      10,
      0,
      6, // triangles 0..1
      9,
      14,
      3,
      12,
      3, // triangle 4
    ]);
    const l = buildTriangleLookup(ranges);
    expect([0, 1, 2, 3, 4].map((t) => objectAtTriangle(l, t))).toEqual([3, 3, 7, 7, 9]);
    expect(objectAtTriangle(l, 5)).toBe(-1);
  });
  it('reports gaps as -1 and agrees with a linear scan on random tables', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ gap: fc.nat(3), len: fc.integer({ min: 1, max: 5 }), obj: fc.nat(1000) }), {
          maxLength: 40,
        }),
        (rows) => {
          const values: number[] = [];
          const owner: number[] = [];
          let tri = 0;
          for (const r of rows) {
            for (let g = 0; g < r.gap; g++) owner[tri++] = -1;
            values.push(r.obj, 0, 0, tri * 3, r.len * 3);
            for (let k = 0; k < r.len; k++) owner[tri++] = r.obj;
          }
          const l = buildTriangleLookup(new Uint32Array(values));
          for (let t = 0; t <= tri; t++) expect(objectAtTriangle(l, t)).toBe(t < tri ? owner[t] : -1);
        },
      ),
    );
  });
  it('rejects malformed tables with a clear error', () => {
    expect(() => buildTriangleLookup(new Uint32Array(4))).toThrow(/multiple of 5/);
    expect(() => buildTriangleLookup(new Uint32Array([1, 0, 3, 1, 3]))).toThrow(/whole triangles/);
  });
});

describe('hierarchy', () => {
  const types: ObjectType[] = ['MAIN OBJECT', 'PLATE', 'PLATE', 'MAIN OBJECT', 'STIFFENER', 'PLATE'];
  const parents = new Int32Array([-1, 0, 0, -1, 3, -1]);
  it('maps a part to its owning MAIN OBJECT, and leaves orphans alone', () => {
    expect(owningMainObject(2, parents, types)).toBe(0);
    expect(owningMainObject(4, parents, types)).toBe(3);
    expect(owningMainObject(3, parents, types)).toBe(3);
    expect(owningMainObject(5, parents, types)).toBe(5);
  });
  it('survives a parent cycle', () => {
    expect(owningMainObject(0, new Int32Array([1, 0]), ['PLATE', 'PLATE'])).toBe(0);
  });
  it('builds children and collects subtrees once each', () => {
    const c = buildChildren(parents);
    expect(collectSubtrees([0], c, 6).sort()).toEqual([0, 1, 2]);
    expect(collectSubtrees([3, 4, 4, 99, -1], c, 6).sort()).toEqual([3, 4]);
    expect(collectSubtrees([0, 5], null, 6)).toEqual([0, 5]);
    expect(() => buildChildren(new Int32Array([-1, 7]))).toThrow(/node 1 has invalid parent 7/);
  });
});
