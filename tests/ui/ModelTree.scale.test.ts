/**
 * viewer.md §2 model tree at 500k objects: operations are index based. Nothing is timed; the tests count
 * the tree nodes each operation visits and assert that it is bounded by the subtree (or the depth), not n.
 */
import { describe, expect, it } from 'vitest';
import { ModelTree, type TreeObject } from '../../ui/logic/ModelTree';
import { TreeRows } from '../../ui/logic/TreeRows';

const PANELS = 1000;
const PARTS = 500_000 - PANELS;

function bigShip(): TreeObject[] {
  const out: TreeObject[] = [];
  for (let i = 0; i < PANELS; i++)
    out.push({ index: i, id: `PN${i}`, name: `Panel ${i}`, type: 'MAIN OBJECT', parent: -1, block: `B${i % 20}` });
  for (let j = 0; j < PARTS; j++) {
    const i = PANELS + j;
    out.push({
      index: i,
      id: `PL${i}`,
      name: `Plate ${i}`,
      type: 'PLATE',
      parent: j % PANELS,
      block: `B${(j % PANELS) % 20}`,
    });
  }
  return out;
}

describe('ModelTree with 500k objects', () => {
  const objects = bigShip();
  const tree = new ModelTree('BIG', objects);
  const rows = new TreeRows(tree);
  const structures = tree.roots[0];
  const panel = tree.nodeOfObject(7);
  const partsPerPanel = PARTS / PANELS;

  it('builds one node per object occurrence plus the folders', () => {
    // Structures + Blocks + 20 block folders; every object once under Structures and once under Blocks.
    expect(tree.size).toBe(2 * objects.length + 2 + 20);
    expect(rows.length).toBe(1 + PANELS + 1);
  });

  it('expand and collapse visit only the subtree', () => {
    rows.expand(panel);
    expect(rows.length).toBe(1 + PANELS + 1 + partsPerPanel);
    // The binary search of the row (≈ log2 rows) plus the newly shown rows.
    expect(rows.visited).toBeLessThanOrEqual(partsPerPanel + 2 + Math.ceil(Math.log2(rows.length)));
    rows.collapse(panel);
    expect(rows.length).toBe(1 + PANELS + 1);
    expect(rows.visited).toBeLessThanOrEqual(partsPerPanel + 2 + Math.ceil(Math.log2(rows.length)));
  });

  it('finds a row by binary search and reveals a deep node through its ancestors only', () => {
    const i = rows.indexOf(panel);
    expect(rows.nodeAt(i)).toBe(panel);
    expect(rows.visited).toBeLessThanOrEqual(Math.ceil(Math.log2(rows.length)) + 1);
    const deep = tree.nodeOfObject(PANELS + 3 * PANELS + 7); // a plate of panel 7
    const at = rows.reveal(deep);
    expect(rows.nodeAt(at)).toBe(deep);
    expect(rows.visited).toBeLessThan(partsPerPanel + 64);
    rows.collapse(panel);
  });

  it('hides and counts by walking ancestors, with O(1) check states', () => {
    const part = PANELS + 5 * PANELS + 7;
    const touched = tree.setHidden([part], true);
    // Two occurrences, each with at most 3 ancestors plus itself.
    expect(touched).toBeLessThanOrEqual(8);
    expect(tree.checkState(panel)).toBe('mixed');
    expect(tree.checkState(structures)).toBe('mixed');
    const all = tree.objectsIn(panel);
    expect(all).toHaveLength(partsPerPanel + 1);
    tree.setHidden(all, true);
    expect(tree.checkState(panel)).toBe('off');
    tree.clearHidden();
    expect(tree.checkState(structures)).toBe('on');
  });

  it('expanding the root of 1000 panels touches those rows, not the 500k parts', () => {
    const r = new TreeRows(tree, []);
    r.expand(structures);
    expect(r.length).toBe(1 + PANELS + 1);
    expect(r.visited).toBeLessThanOrEqual(PANELS + 2);
  });
});
