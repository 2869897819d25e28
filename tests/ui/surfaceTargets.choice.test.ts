/** Which objects the 'parameters' annotations ask surface objects for (viewer.md §3, §7). */
import { describe, expect, it } from 'vitest';
import { surfaceObjectTargets, type TargetObject } from '../../ui/logic/surfaceTargets';

const obj = (index: number, type: string, size: number | null): TargetObject => ({
  index,
  id: `id${index}`,
  type,
  bounds: size === null ? null : [0, 0, 0, size, 0, 0],
});
const objects = [
  obj(0, 'PANEL', 9),
  obj(1, 'PLATE', 2),
  obj(2, 'BRACKET', 0.5),
  obj(3, 'STIFFENER', 5),
  obj(4, 'HOLE', 0.8),
  obj(5, 'PLATE', 3),
  obj(6, 'PLATE', null),
];

describe('surfaceObjectTargets', () => {
  it('asks for the selection first (ids, deduplicated, capped)', () => {
    expect(
      surfaceObjectTargets([{ keelsonId: 'a' }, { keelsonId: 'b' }, { keelsonId: 'a' }], objects, () => false),
    ).toEqual(['a', 'b']);
    expect(
      surfaceObjectTargets([{ keelsonId: 'a' }, { keelsonId: 'b' }, { keelsonId: 'c' }], objects, () => false, 2),
    ).toEqual(['a', 'b']);
  });
  it('without a selection: visible plates, brackets and holes with geometry, largest first, up to the cap', () => {
    expect(surfaceObjectTargets([], objects, () => false)).toEqual(['id5', 'id1', 'id4', 'id2']);
    expect(surfaceObjectTargets([], objects, (i) => i === 5)).toEqual(['id1', 'id4', 'id2']);
    expect(surfaceObjectTargets([], objects, () => false, 1)).toEqual(['id5']);
    expect(surfaceObjectTargets([], null, () => false)).toEqual([]);
  });
});
