import { describe, expect, it } from 'vitest';
import { ModelTree, ROOT_NODE, searchSummary, type TreeObject } from '../../ui/logic/ModelTree';
import { VARIES, mergeProperties, toPropertyRows, type PropertyItem } from '../../ui/logic/propertyRows';

const objects: TreeObject[] = [
  { index: 0, id: 'P1', name: 'Deck 1', type: 'MAIN OBJECT', parent: -1 },
  { index: 1, id: 'PL1', name: 'Plate A', type: 'PLATE', parent: 0 },
  { index: 2, id: 'P2', name: 'Bulkhead', type: 'MAIN OBJECT', parent: -1 },
  { index: 3, id: 'PL2', name: 'Plate B', type: 'PLATE', parent: 0 },
  { index: 4, id: 'ST1', name: 'Stiffener', type: 'STIFFENER', parent: 2 },
];

describe('ModelTree (viewer.md §2 model tree)', () => {
  const tree = new ModelTree('SHIP', objects);
  it('roots panels under Structures ({model name})', () => {
    expect(tree.label(ROOT_NODE)).toBe('Structures (SHIP)');
    expect([...tree.children(ROOT_NODE)]).toEqual([0, 2]);
    expect([...tree.children(0)]).toEqual([1, 3]);
    expect([...tree.children(1)]).toEqual([]);
  });
  it('flattens only expanded nodes', () => {
    expect(tree.flatten(new Set([ROOT_NODE])).map((r) => r.node)).toEqual([-1, 0, 2]);
    const rows = tree.flatten(new Set([ROOT_NODE, 0]));
    expect(rows.map((r) => [r.node, r.depth])).toEqual([[-1, 0], [0, 1], [1, 2], [3, 2], [2, 1]]);
    expect(rows[1]).toMatchObject({ hasChildren: true, expanded: true });
  });
  it('collects descendants, ancestors, search and check states', () => {
    expect(tree.descendants(0)).toEqual([0, 1, 3]);
    expect(tree.descendants(ROOT_NODE).sort()).toEqual([0, 1, 2, 3, 4]);
    expect(tree.ancestors(4)).toEqual([ROOT_NODE, 2]);
    expect(tree.search('plate')).toEqual([1, 3]);
    expect(tree.search('st1')).toEqual([4]);
    expect(tree.search('  ')).toEqual([]);
    expect(tree.checkState(0, new Set([1]))).toBe('mixed');
    expect(tree.checkState(0, new Set([0, 1, 3]))).toBe('off');
    expect(tree.checkState(2, new Set([0, 1, 3]))).toBe('on');
    expect(searchSummary(0)).toBe('No results found');
    expect(searchSummary(2)).toBe('Search result: 2 object(s)');
  });
  it('rejects rows out of order and handles 100k nodes quickly', () => {
    expect(() => new ModelTree('X', [{ ...objects[1], index: 5 }])).toThrow(/index 5/);
    const big: TreeObject[] = [];
    for (let i = 0; i < 100_000; i++) big.push({ index: i, id: `o${i}`, name: `n${i}`, type: 'PLATE', parent: i < 100 ? -1 : i % 100 });
    const t0 = performance.now();
    const t = new ModelTree('BIG', big);
    const all = new Set<number>([ROOT_NODE, ...Array.from({ length: 100 }, (_, i) => i)]);
    expect(t.flatten(all).length).toBe(100_001);
    expect(performance.now() - t0).toBeLessThan(2000);
  });
});

describe('property rows (viewer.md §3, §5)', () => {
  const plate = (plth: number, w: number, mat: string): PropertyItem[] => [
    { name: 'PLTH', description: 'Thickness', unit: 'm', isSummable: false, value: plth },
    { name: 'MAT', description: 'Material', unit: '', isSummable: false, value: mat },
    { name: 'W', description: 'Weight', unit: 't', isSummable: true, value: w },
  ];
  it('formats Thickness in mm and Material as text', () => {
    expect(toPropertyRows(plate(0.012, 1.5, 'NV-36'))).toEqual([
      { code: 'PLTH', description: 'Thickness', text: '12.0', unit: 'mm' },
      { code: 'MAT', description: 'Material', text: 'NV-36', unit: '' },
      { code: 'W', description: 'Weight', text: '1.500', unit: 't' },
    ]);
  });
  it('merges: sums summables, keeps equal values, marks differences', () => {
    const m = mergeProperties([plate(0.012, 1, 'A'), plate(0.014, 2, 'A')]);
    expect(m.map((p) => p.value)).toEqual([VARIES, 'A', 3]);
  });
});
