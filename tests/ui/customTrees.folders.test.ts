/**
 * Custom model trees in the model tree (viewer.md §2 'Custom-model-tree', §3 "Tag", §8 texts): the folders
 * built from tags and tagged geometries (matched by GUID, else OCX id), their place in the tree, check
 * states of objects that sit in several folders, default folder names and the toast texts.
 */
import { describe, expect, it } from 'vitest';
import type { GeometryTags, Tag } from '../../api/contract';
import { customTreeTexts, newFolderName, tagFolders } from '../../ui/logic/customTrees';
import { CUSTOM_TREE_FOLDER, ModelTree, type TreeObject } from '../../ui/logic/ModelTree';
import { TreeRows } from '../../ui/logic/TreeRows';

const objects: (TreeObject & { guid: string | null })[] = [
  { index: 0, id: 'P1', guid: 'G-P1', name: 'Deck 1', type: 'MAIN OBJECT', parent: -1, block: null },
  { index: 1, id: 'PL1', guid: 'G-PL1', name: 'Plate A', type: 'PLATE', parent: 0, block: null },
  { index: 2, id: 'PL2', guid: null, name: 'Plate B', type: 'PLATE', parent: 0, block: null },
  { index: 3, id: 'ST1', guid: 'G-ST1', name: 'Stiffener', type: 'STIFFENER', parent: -1, block: null },
];

const tag = (id: number, name: string, parent: number | null, children: Tag[] = []): Tag => ({
  id,
  name,
  type: parent === null ? 'ContextRoot' : 'UnrestrictedTree',
  parent,
  children,
});
const root = tag(1, 'Custom-model-tree', null, [tag(2, 'Deck plates', 1, [tag(4, 'Aft', 2)]), tag(3, 'Stiffeners', 1)]);
const tagged: GeometryTags[] = [
  // Server order (by key); folders list their objects by name.
  { geometryName: 'Stiffener', id: 'ST1', guid: 'G-ST1', tagIds: [3, 2] },
  // GUID wins over the id: the part was renamed and got a new OCX id in the newer revision.
  { geometryName: 'Deck 1', id: 'OLD-ID', guid: 'G-P1', tagIds: [2] },
  { geometryName: 'Plate B', id: 'PL2', guid: null, tagIds: [4] },
  { geometryName: 'Gone', id: 'X', guid: 'G-X', tagIds: [3] },
];

describe('tagFolders', () => {
  it('nests the root tag children as folders with the objects matched by GUID, else by OCX id, by name', () => {
    expect(tagFolders(root, tagged, objects)).toEqual([
      { id: 2, name: 'Deck plates', folders: [{ id: 4, name: 'Aft', folders: [], objects: [2] }], objects: [0, 3] },
      { id: 3, name: 'Stiffeners', folders: [], objects: [3] },
    ]);
  });
});

describe('ModelTree with custom trees', () => {
  const tree = new ModelTree('SHIP', objects, { customTrees: tagFolders(root, tagged, objects) });
  const labels = (nodes: number[]) => nodes.map((t) => tree.label(t));
  const custom = tree.roots[tree.roots.length - 1];
  const [deck, stiffeners] = tree.children(custom);

  it("shows the folders under 'Custom-model-tree' with each tagged object and its parts", () => {
    expect(tree.label(custom)).toBe(CUSTOM_TREE_FOLDER);
    expect(labels(tree.children(custom))).toEqual(['Deck plates', 'Stiffeners']);
    expect(tree.kind(deck)).toBe('tag');
    expect(tree.tagId(deck)).toBe(2);
    expect(tree.nodeOfTag(4)).toBe(tree.children(deck)[0]);
    expect(labels(tree.children(deck))).toEqual(['Aft', 'Deck 1', 'Stiffener']);
    // The panel Deck 1 brings its plates: hiding or selecting by folder covers them.
    expect(tree.objectsIn(deck).sort()).toEqual([0, 1, 2, 3]);
    expect(tree.objectsIn(stiffeners)).toEqual([3]);
  });

  it('keeps the check state of every occurrence: an object hidden anywhere is hidden in each folder', () => {
    tree.setHidden([3], true);
    expect(tree.checkState(stiffeners)).toBe('off');
    expect(tree.checkState(deck)).toBe('mixed');
    expect(tree.checkState(tree.roots[0])).toBe('mixed');
    tree.setHidden(tree.objectsIn(deck), true);
    expect(tree.checkState(deck)).toBe('off');
    expect(tree.checkState(custom)).toBe('off');
    tree.setHidden([0, 1, 2, 3], false);
    expect([tree.checkState(deck), tree.checkState(stiffeners), tree.checkState(custom)]).toEqual(['on', 'on', 'on']);
  });

  it('keeps the open folders when the tree is rebuilt with changed custom trees', () => {
    const rows = new TreeRows(tree);
    rows.expand(custom);
    rows.expand(deck);
    const folders = tagFolders(root, tagged.slice(1, 3), objects);
    const rebuilt = new ModelTree('SHIP', objects, { customTrees: folders });
    const keys = new Set(rows.expandedFolderKeys());
    expect([...keys]).toEqual(['/Structures (SHIP)', '/Custom-model-tree', '/Custom-model-tree/Deck plates']);
    const again = new TreeRows(rebuilt, TreeRows.foldersWithKeys(rebuilt, keys));
    const visible = Array.from({ length: again.length }, (_, i) => rebuilt.label(again.nodeAt(i)));
    expect(visible.slice(-5)).toEqual(['Custom-model-tree', 'Deck plates', 'Aft', 'Deck 1', 'Stiffeners']);
  });

  it('has no custom folder without custom trees', () => {
    const plain = new ModelTree('SHIP', objects, { customTrees: [] });
    expect(plain.roots.map((t) => plain.label(t))).toEqual(['Structures (SHIP)']);
  });
});

describe('names and texts (viewer.md §2, §8)', () => {
  it("numbers 'New custom tree' when a sibling holds the name", () => {
    expect(newFolderName([])).toBe('New custom tree');
    expect(newFolderName(['New custom tree', 'New custom tree (2)'])).toBe('New custom tree (3)');
  });
  it('gives the toasts verbatim', () => {
    expect(customTreeTexts.geometryRemoved('P:P1/DECK', 'Deck plates')).toBe(
      'Geometry "P:P1/DECK" was removed from "Deck plates"',
    );
    expect(customTreeTexts.notAdded(2, 'Deck plates')).toBe(
      '2 geometries were not added to "Deck plates" because they already exist in the tree.',
    );
    expect(customTreeTexts.folderRemoved('Aft', 'Deck plates')).toBe(
      'Folder "Aft" and all its contents were removed from "Deck plates"',
    );
    expect(customTreeTexts.rootFolderRemoved('Deck plates')).toBe(
      'Root folder "Deck plates" and all its contents were removed from custom model trees',
    );
    expect(customTreeTexts.geometryNotRemoved('X', 'F')).toBe('Geometry "X" could not be removed from "F"');
    expect(customTreeTexts.unableToDelete).toBe('Unable to delete folder.');
  });
});
