import { describe, expect, it } from 'vitest';
import { ModelTree, searchSummary, type TreeObject } from '../../ui/logic/ModelTree';
import { TreeRows } from '../../ui/logic/TreeRows';
import { VARIES, mergeProperties, toPropertyRows, type PropertyItem } from '../../ui/logic/propertyRows';

const objects: TreeObject[] = [
  { index: 0, id: 'P1', name: 'Deck 1', type: 'MAIN OBJECT', parent: -1, block: 'B10' },
  { index: 1, id: 'PL1', name: 'Plate A', type: 'PLATE', parent: 0, block: 'B10' },
  { index: 2, id: 'P2', name: 'Bulkhead', type: 'MAIN OBJECT', parent: -1, block: null },
  { index: 3, id: 'PL2', name: 'Plate B', type: 'PLATE', parent: 0, block: 'B2' },
  { index: 4, id: 'ST1', name: 'Stiffener', type: 'STIFFENER', parent: 2, block: null },
  { index: 5, id: 'C1', name: 'Tank 1', type: 'COMPARTMENT', parent: -1, block: null },
];

describe('ModelTree (viewer.md §2 model tree)', () => {
  const tree = new ModelTree('SHIP', objects, {
    sections: [
      { name: 'X=#20', axis: 'X' },
      { name: 'X=#10', axis: 'X' },
    ],
  });
  const labels = (nodes: number[]) => nodes.map((t) => tree.label(t));
  it("names the top-level folders 'Structures', 'Compartments', 'Blocks' and '{axis}-sections'", () => {
    expect(labels([...tree.roots])).toEqual([
      'Structures (SHIP)',
      'Compartments (SHIP)',
      'Blocks (SHIP)',
      'X-sections',
    ]);
    const [structures, compartments, blocks, xs] = tree.roots;
    expect(labels(tree.children(structures))).toEqual(['Deck 1', 'Bulkhead']);
    expect(labels(tree.children(tree.nodeOfObject(0)))).toEqual(['Plate A', 'Plate B']);
    expect(labels(tree.children(compartments))).toEqual(['Tank 1']);
    // Blocks sorted by name (numeric); a part of another block shows under its own block only.
    expect(labels(tree.children(blocks))).toEqual(['B2', 'B10']);
    const [b2, b10] = tree.children(blocks);
    expect(labels(tree.children(b2))).toEqual(['Plate B']);
    expect(tree.objectsIn(b10)).toEqual([0, 1]);
    expect(labels(tree.children(xs))).toEqual(['X=#10', 'X=#20']);
    expect(tree.kind(tree.children(xs)[0])).toBe('section');
    expect(tree.section(tree.children(xs)[0])).toEqual({ name: 'X=#10', axis: 'X' });
    expect(
      new ModelTree(
        'S',
        objects.slice(2, 3).map((o) => ({ ...o, index: 0 })),
      ).roots.map((t) => t),
    ).toHaveLength(1);
  });
  it('numbers nodes in pre-order so a subtree is a contiguous range', () => {
    const deck = tree.nodeOfObject(0);
    expect(tree.subtreeSizeOf(deck)).toBe(3);
    expect(tree.objectsIn(deck)).toEqual([0, 1, 3]);
    expect(tree.objectsIn(tree.roots[0]).sort()).toEqual([0, 1, 2, 3, 4]);
    expect(tree.ancestors(tree.nodeOfObject(4))).toEqual([tree.roots[0], tree.nodeOfObject(2)]);
    expect(tree.depth(tree.nodeOfObject(4))).toBe(2);
  });
  it('searches names and ids and counts check states per object across both occurrences', () => {
    expect(tree.search('plate')).toEqual([1, 3]);
    expect(tree.search('st1')).toEqual([4]);
    expect(tree.search('  ')).toEqual([]);
    expect(searchSummary(0)).toBe('No results found');
    expect(searchSummary(2)).toBe('Search result: 2 object(s)');
    const deck = tree.nodeOfObject(0);
    const [, , blocks] = tree.roots;
    const [b2] = tree.children(blocks);
    tree.setHidden([3], true);
    expect(tree.checkState(deck)).toBe('mixed');
    expect(tree.checkState(b2)).toBe('off');
    expect(tree.checkState(blocks)).toBe('mixed');
    expect(tree.checkState(tree.nodeOfObject(2))).toBe('on');
    tree.setHidden([0, 1, 3], true);
    expect(tree.checkState(deck)).toBe('off');
    expect(tree.hiddenObjects).toBe(3);
    tree.setHidden([0, 1, 3], false);
    expect(tree.checkState(tree.roots[0])).toBe('on');
    expect(tree.hiddenObjects).toBe(0);
  });
  it('rejects rows out of order', () => {
    expect(() => new ModelTree('X', [{ ...objects[1], index: 5 }])).toThrow(/index 5/);
  });
});

describe('TreeRows (virtualised rows)', () => {
  it('expands and collapses by inserting and removing only the subtree rows', () => {
    const tree = new ModelTree('SHIP', objects);
    const rows = new TreeRows(tree);
    const list = () => Array.from({ length: rows.length }, (_, i) => tree.label(rows.nodeAt(i)));
    expect(list()).toEqual(['Structures (SHIP)', 'Deck 1', 'Bulkhead', 'Compartments (SHIP)', 'Blocks (SHIP)']);
    rows.toggle(tree.nodeOfObject(0));
    expect(list()).toEqual([
      'Structures (SHIP)',
      'Deck 1',
      'Plate A',
      'Plate B',
      'Bulkhead',
      'Compartments (SHIP)',
      'Blocks (SHIP)',
    ]);
    rows.toggle(tree.nodeOfObject(0));
    expect(list()).toHaveLength(5);
    expect(rows.reveal(tree.nodeOfObject(4))).toBe(3);
    expect(rows.isExpanded(tree.nodeOfObject(2))).toBe(true);
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
