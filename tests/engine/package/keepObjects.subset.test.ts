/**
 * keepObjects (the conversion options' subset of an import result): kept objects re-indexed densely,
 * each parent the nearest kept ancestor, properties, meshes, fidelity and part warnings following their
 * objects, bounds recomputed; blocks dropped on request; the input left unchanged.
 */
import { describe, expect, it } from 'vitest';
import { keepObjects } from '../../../engine/model/keepObjects';
import type { Box3Tuple, ImportResult, ModelObject, ObjectType } from '../../../engine/model/types';

const obj = (index: number, type: ObjectType, parent: number, bounds: Box3Tuple | null): ModelObject => ({
  index,
  id: `o${index}`,
  guid: null,
  name: `N${index}`,
  type,
  element: type,
  parent,
  block: 'B1',
  bounds,
});

function sample(): ImportResult {
  const objects = [
    obj(0, 'MAIN OBJECT', -1, null),
    obj(1, 'PLATE', 0, [0, 0, 0, 10, 10, 1]),
    obj(2, 'HOLE', 1, [2, 2, 0, 3, 3, 1]),
    obj(3, 'COMPARTMENT ARRANGEMENT', -1, null),
    obj(4, 'COMPARTMENT', 3, [100, 0, 0, 200, 50, 50]),
  ];
  const mesh = (object: number) => ({
    object,
    positions: new Float32Array(9),
    normals: null,
    indices: new Uint32Array([0, 1, 2]),
    edges: null,
  });
  return {
    info: {
      name: 'T',
      schemaVersion: '3.1.0',
      originatingSystem: '',
      timeStamp: '',
      bounds: [0, 0, 0, 200, 50, 50],
      tolerances: { chordalMm: 1, angularDeg: 15 },
    },
    objects,
    properties: objects.map((o) => ({ NAME: o.name, STID: o.id })),
    meshes: [mesh(1), mesh(2), mesh(4)],
    frames: { x: [], y: [], z: [] },
    warnings: [
      { code: 'a', message: 'hole', part: 'o2' },
      { code: 'b', message: 'model' },
      { code: 'c', message: 'compartment', part: 'o4' },
    ],
    fidelity: [{ object: 1, id: 'o1', element: 'Plate', line: 1, vendor: {}, computed: {} }],
  };
}

describe('keepObjects', () => {
  it('re-indexes the kept objects and hangs them on their nearest kept ancestor', () => {
    const input = sample();
    const r = keepObjects(input, (o) => o.type !== 'PLATE' && o.type !== 'COMPARTMENT ARRANGEMENT');
    expect(r.objects.map((o) => [o.id, o.index, o.parent])).toEqual([
      ['o0', 0, -1],
      ['o2', 1, 0], // its plate is gone: the panel is its nearest kept ancestor
      ['o4', 2, -1], // its arrangement is gone
    ]);
    expect(r.properties.map((p) => p.STID)).toEqual(['o0', 'o2', 'o4']);
    expect(r.meshes.map((m) => m.object)).toEqual([1, 2]);
    expect(r.fidelity).toEqual([]);
    expect(r.warnings.map((w) => w.code)).toEqual(['a', 'b', 'c']);
    expect(r.info.bounds).toEqual([2, 0, 0, 200, 50, 50]);
    // the input is untouched
    expect(input.objects.map((o) => o.index)).toEqual([0, 1, 2, 3, 4]);
    expect(input.meshes.map((m) => m.object)).toEqual([1, 2, 4]);
  });

  it('drops the warnings of dropped parts and, on request, every block', () => {
    const r = keepObjects(sample(), (o) => o.type !== 'HOLE', { dropBlocks: true });
    expect(r.warnings.map((w) => w.code)).toEqual(['b', 'c']);
    expect(r.objects.every((o) => o.block === null)).toBe(true);
    expect(r.fidelity?.map((f) => f.object)).toEqual([1]);
  });

  it('returns the result itself when everything stays', () => {
    const input = sample();
    expect(keepObjects(input, () => true)).toBe(input);
  });
});
