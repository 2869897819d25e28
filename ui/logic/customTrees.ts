/**
 * Pure parts of the custom model trees (viewer.md §2 model tree, §3 "Tag", §4 "Tree folders", §8 toasts):
 * turning the server's tags and tagged geometries into the model tree's folders, the default name of a new
 * folder, and the toast texts, verbatim.
 */
import type { GeometryTags, Tag } from '../../api/contract';
import type { TreeTagFolder } from './ModelTree';

/** The part of an object row that identifies it across revisions, and its name (folder order). */
export interface TaggableObject {
  id: string;
  guid: string | null;
  name: string;
}

const byName = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/**
 * The folders of the root tag's subtree, each with the indices of the objects carrying it. Geometries are
 * matched to the open revision's objects by GUID, else by OCX id (tags follow parts across revisions);
 * unmatched ones are left out. Folders come sorted by name from the server; objects are sorted by name.
 */
export function tagFolders(
  root: Tag,
  tagged: readonly GeometryTags[],
  objects: readonly TaggableObject[],
): TreeTagFolder[] {
  const byGuid = new Map<string, number>();
  const byId = new Map<string, number>();
  objects.forEach((o, i) => {
    if (o.guid) byGuid.set(o.guid, i);
    byId.set(o.id, i);
  });
  const objectsOf = new Map<number, number[]>();
  for (const g of tagged) {
    const o = (g.guid ? byGuid.get(g.guid) : undefined) ?? byId.get(g.id);
    if (o === undefined) continue;
    for (const tagId of g.tagIds) {
      const l = objectsOf.get(tagId);
      if (l) l.push(o);
      else objectsOf.set(tagId, [o]);
    }
  }
  for (const list of objectsOf.values()) list.sort((a, b) => byName.compare(objects[a].name, objects[b].name));
  const build = (t: Tag): TreeTagFolder => ({
    id: t.id,
    name: t.name,
    folders: t.children.map(build),
    objects: objectsOf.get(t.id) ?? [],
  });
  return root.children.map(build);
}

/** Default name of a new folder: 'New custom tree', or 'New custom tree (N)' when siblings hold it. */
export function newFolderName(siblingNames: readonly string[], base = 'New custom tree'): string {
  const taken = new Set(siblingNames);
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base} (${n})`)) return `${base} (${n})`;
}

/** viewer.md §8 toast texts of the custom trees. */
export const customTreeTexts = {
  geometryRemoved: (name: string, folder: string) => `Geometry "${name}" was removed from "${folder}"`,
  geometryNotRemoved: (name: string, folder: string) => `Geometry "${name}" could not be removed from "${folder}"`,
  notAdded: (n: number, folder: string) =>
    `${n} geometries were not added to "${folder}" because they already exist in the tree.`,
  folderRemoved: (name: string, parent: string) =>
    `Folder "${name}" and all its contents were removed from "${parent}"`,
  rootFolderRemoved: (name: string) =>
    `Root folder "${name}" and all its contents were removed from custom model trees`,
  unableToDelete: 'Unable to delete folder.',
} as const;
