/**
 * Block systems and the block filter in the model tree (viewer.md §2 "Model tree panel": 'Blocks ({system})'
 * with the system's own name; filter menu 'No filter' or a block, 'Inside {block}').
 */
import { describe, expect, it } from 'vitest';
import type { BlockSystem } from '../../engine/model/types';
import { blockIndexOf } from '../../engine/model/blocks';
import { ModelTree, type TreeObject } from '../../ui/logic/ModelTree';

// Two panels with plates; a hole under plate 2; a compartment outside any block.
const objects: TreeObject[] = [
  { index: 0, id: 'PN1', name: 'Deck', type: 'MAIN OBJECT', parent: -1, block: null },
  { index: 1, id: 'P1', name: 'Plate 1', type: 'PLATE', parent: 0, block: 'B1' },
  { index: 2, id: 'P2', name: 'Plate 2', type: 'PLATE', parent: 0, block: 'B2' },
  { index: 3, id: 'H1', name: 'Hole', type: 'HOLE', parent: 2, block: null },
  { index: 4, id: 'PN2', name: 'Bulkhead', type: 'MAIN OBJECT', parent: -1, block: null },
  { index: 5, id: 'P3', name: 'Plate 3', type: 'PLATE', parent: 4, block: 'B1' },
  { index: 6, id: 'T1', name: 'Tank', type: 'COMPARTMENT', parent: -1, block: null },
];
const systems: BlockSystem[] = [
  {
    name: 'Production blocks',
    blocks: [
      { name: 'B2', objects: [2] },
      { name: 'B1', objects: [1, 5] },
    ],
  },
  { name: 'By structure type', blocks: [{ name: 'Decks', objects: [1, 2] }] },
];

describe('block systems in the model tree', () => {
  it('membership: a block holds its parts and their unclaimed descendants', () => {
    expect([...blockIndexOf(objects, systems[0])]).toEqual([-1, 1, 0, 0, -1, 1, -1]);
    expect([...blockIndexOf(objects, systems[1])]).toEqual([-1, 0, 0, 0, -1, -1, -1]);
  });

  it("one 'Blocks ({system})' folder per system, named after the system, blocks sorted by name", () => {
    const tree = new ModelTree('SHIP', objects, { blockSystems: systems });
    const labels = (nodes: number[]) => nodes.map((t) => tree.label(t));
    expect(labels([...tree.roots])).toEqual([
      'Structures (SHIP)',
      'Compartments (SHIP)',
      'Blocks (Production blocks)',
      'Blocks (By structure type)',
    ]);
    const [b1, b2] = tree.children(tree.roots[2]);
    expect(labels([b1, b2])).toEqual(['B1', 'B2']);
    expect(tree.objectsIn(b1)).toEqual([1, 5]);
    expect(tree.objectsIn(b2)).toEqual([2, 3]);
    expect(tree.objectsIn(tree.children(tree.roots[3])[0])).toEqual([1, 2, 3]);
    // Hiding plate 2 shows in all three of its occurrences.
    tree.setHidden([2, 3], true);
    expect(tree.checkState(b2)).toBe('off');
    expect(tree.checkState(tree.children(tree.roots[3])[0])).toBe('mixed');
    expect(tree.checkState(tree.nodeOfObject(0))).toBe('mixed');
  });

  it('a block filter keeps only the block and the ancestors of its parts in every folder', () => {
    const tree = new ModelTree('SHIP', objects, {
      blockSystems: systems,
      filter: { system: 'Production blocks', block: 'B1' },
    });
    const labels = (nodes: number[]) => nodes.map((t) => tree.label(t));
    expect(labels([...tree.roots])).toEqual([
      'Structures (SHIP)',
      'Blocks (Production blocks)',
      'Blocks (By structure type)',
    ]);
    // The panels show for the structure, but the checkboxes act on the block's objects only (the engine
    // would take a panel's other plates along).
    expect(labels(tree.children(tree.roots[0]))).toEqual(['Deck', 'Bulkhead']);
    expect(tree.objectsIn(tree.roots[0])).toEqual([1, 5]);
    const deck = tree.nodeOfObject(0);
    expect(tree.objectsIn(deck)).toEqual([1]);
    tree.setHidden([1], true);
    expect(tree.checkState(deck)).toBe('off');
    expect(tree.checkState(tree.roots[0])).toBe('mixed');
    tree.setHidden([0], true); // a panel hidden elsewhere does not count here
    expect(tree.checkState(tree.roots[0])).toBe('mixed');
    tree.setHidden([1], false);
    expect(labels(tree.children(tree.roots[1]))).toEqual(['B1']);
    expect(tree.objectsIn(tree.roots[2])).toEqual([1]);
    expect(tree.filter).toEqual({ system: 'Production blocks', block: 'B1' });
    expect(tree.search('plate')).toEqual([1, 5]);
    expect(new ModelTree('SHIP', objects, { blockSystems: systems }).search('plate')).toEqual([1, 2, 5]);
    // An unknown block shows an empty structure folder, nothing else.
    const none = new ModelTree('SHIP', objects, { blockSystems: systems, filter: { system: 'X', block: 'B1' } });
    expect(none.roots.map((t) => none.label(t))).toEqual(['Structures (SHIP)']);
    expect(none.objectCountOf(none.roots[0])).toBe(0);
  });

  it("without block systems the objects' own blocks form one system named after the model", () => {
    const tree = new ModelTree('SHIP', objects);
    expect(tree.label(tree.roots[2])).toBe('Blocks (SHIP)');
    expect(tree.blockSystems[0].blocks.map((b) => b.name)).toEqual(['B1', 'B2']);
  });
});
