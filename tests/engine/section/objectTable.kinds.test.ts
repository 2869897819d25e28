/**
 * The section's per-object tables (engine/section/objectTable.ts) answer what the per-cut lookups they
 * replace answered: each object's result group from its type, its nearest MAIN OBJECT ancestor (itself
 * included, none beyond 64 steps or a missing parent), the sorted distinct ids of a set of main objects, and
 * the id, name and type a section result names an object by.
 */
import { describe, expect, it } from 'vitest';
import type { ModelObject, ObjectType } from '../../../engine/model/types';
import {
  KIND_CAD,
  KIND_COMPARTMENT,
  KIND_NONE,
  mainObjectIndex,
  sectionObjectTable,
  sortedMainIds,
  steelClassOfKind,
} from '../../../engine/section/objectTable';

function obj(index: number, id: string, type: string, parent: number): ModelObject {
  return { index, id, guid: null, name: id, type: type as ObjectType, element: '', parent, block: null, bounds: null };
}

describe('section object table', () => {
  const objects = [
    obj(0, 'M-b', 'MAIN OBJECT', -1),
    obj(1, 'P1', 'PLATE', 0),
    obj(2, 'S1', 'STIFFENER', 1),
    obj(3, 'C1', 'COMPARTMENT', -1),
    obj(4, 'K1', 'CAD COMPONENT', -1),
    obj(5, 'M-a', 'MAIN OBJECT', -1),
    obj(6, 'CP', 'COLLAR PLATE', 5),
    obj(7, 'X', 'COMPARTMENT ARRANGEMENT', -1),
    obj(8, 'M-b', 'MAIN OBJECT', -1),
    obj(9, 'Ä', 'MAIN OBJECT', -1),
    obj(10, 'orphan', 'BRACKET', 42),
  ];

  it('classifies every object type as the section groups it', () => {
    const t = sectionObjectTable(objects);
    expect(Array.from(t.kind, (k) => steelClassOfKind(k) ?? k)).toEqual([
      KIND_NONE,
      'plates',
      'stiffeners',
      KIND_COMPARTMENT,
      KIND_CAD,
      KIND_NONE,
      'plates',
      KIND_NONE,
      KIND_NONE,
      KIND_NONE,
      'brackets',
    ]);
    expect(sectionObjectTable(objects)).toBe(t);
  });

  it('finds the nearest main object through the parents, and none past a missing parent or a 64-step chain', () => {
    const t = sectionObjectTable(objects);
    expect([2, 1, 0, 6, 3, 10].map((o) => mainObjectIndex(objects, t, o))).toEqual([0, 0, 0, 5, -1, -1]);
    // A parent cycle ends at the guard.
    const loop = [obj(0, 'a', 'PLATE', 1), obj(1, 'b', 'PLATE', 0)];
    expect(mainObjectIndex(loop, sectionObjectTable(loop), 0)).toBe(-1);
  });

  it('lists main object ids sorted and distinct, as a sort of the id strings does', () => {
    const t = sectionObjectTable(objects);
    const mains = [9, 8, 0, 5];
    expect(sortedMainIds(t, mains)).toEqual([...new Set(mains.map((m) => objects[m].id))].sort());
    expect(sortedMainIds(t, [])).toEqual([]);
  });

  it("keeps each object's id, name and type side by side, empty for a missing object", () => {
    const named = [{ ...obj(0, 'P7', 'PLATE', -1), name: 'DECK PLATE 7' }, undefined, obj(2, 'S1', 'STIFFENER', 0)];
    const t = sectionObjectTable(named as ModelObject[]);
    expect(t.labels).toEqual(['P7', 'DECK PLATE 7', 'PLATE', '', '', '', 'S1', 'S1', 'STIFFENER']);
  });

  it('rebuilds when the object array has grown', () => {
    const grown = objects.slice(0, 2);
    const first = sectionObjectTable(grown);
    grown.push(obj(2, 'C9', 'COMPARTMENT', -1));
    const again = sectionObjectTable(grown);
    expect(again).not.toBe(first);
    expect(again.kind[2]).toBe(KIND_COMPARTMENT);
  });
});
