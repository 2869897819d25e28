/**
 * Custom model trees in the viewer (viewer.md §2 model tree 'Add new tree', Edit / Stop editing,
 * 'Custom-model-tree'; §3 "Tag"; §4 "Tree folders"; §7 "Tags", "Tagging"; §8 toasts). Keeps the project's
 * root tag 'Custom-model-tree' and its folders, mirrors them with the tagged objects into the model tree
 * (setTreeOptions customTrees), and runs the actions: add a tree, add a sub-folder, rename, delete, add the
 * selection to a folder, remove an object from a folder. Other users' changes arrive on the project's
 * realtime room ('tags') and reload the trees.
 */
import { proxy, ref } from 'valtio';
import { CUSTOM_TREE_ROOT, MAX_TAGGING_NAMES, NEW_CUSTOM_TREE_NAME, type Tag } from '../../api/contract';
import { joinProject, leaveProject, onTagsEvent } from '../api/realtime';
import {
  addTagToGeometries,
  createTag,
  deleteTag,
  getRootTag,
  getTagsByGeometries,
  removeTagFromGeometries,
  renameTag,
} from '../api/tags';
import { customTreeTexts, newFolderName, tagFolders } from '../logic/customTrees';
import { authStore } from './auth';
import { showToast } from './toasts';
import { setTreeOptions, viewerStore } from './viewer';

export const customTreesStore = proxy({
  projectName: '',
  /** The root tag 'Custom-model-tree' with its subtree, or null while the project has none. */
  root: null as Tag | null,
  /** Edit mode of the tree panel (viewer.md §2 'Edit' / 'Stop editing'): folder actions shown. */
  editing: false,
  /** The folder whose name is being edited, or null. */
  renaming: null as number | null,
  /** Folder the tree should reveal (set after creating one or adding to it). */
  reveal: null as number | null,
  /** Counts completed reloads (tests and the panel wait on it). */
  loads: 0,
});

const disconnect: Array<() => void> = [];
let loading: Promise<void> | null = null;
let again = false;
let lastSignature = '[]';

interface FolderPlace {
  tag: Tag;
  parent: Tag;
}

/** The folder `id` and its parent tag within the root's subtree, or null. */
export function findFolder(id: number): FolderPlace | null {
  const walk = (parent: Tag): FolderPlace | null => {
    for (const c of parent.children) {
      if (c.id === id) return { tag: c, parent };
      const hit = walk(c);
      if (hit) return hit;
    }
    return null;
  };
  const root = customTreesStore.root;
  return root ? walk(root) : null;
}

/**
 * Opens the custom trees of the viewer's project: loads them, joins the project's realtime room and
 * reloads on every 'tags' event. @returns the teardown.
 */
export function openCustomTrees(projectName: string): () => void {
  closeCustomTrees();
  customTreesStore.projectName = projectName;
  const token = authStore.token;
  if (token) joinProject(token, projectName);
  disconnect.push(
    onTagsEvent((e) => {
      if (e.projectName === customTreesStore.projectName.toUpperCase()) void reloadCustomTrees();
    }),
    () => {
      if (token) leaveProject(projectName);
    },
  );
  void reloadCustomTrees();
  return closeCustomTrees;
}

/** Leaves the viewer: forgets the trees. */
export function closeCustomTrees(): void {
  for (const d of disconnect.splice(0)) d();
  customTreesStore.projectName = '';
  customTreesStore.root = null;
  customTreesStore.editing = false;
  customTreesStore.renaming = null;
  customTreesStore.reveal = null;
  lastSignature = '[]';
}

/**
 * Reads the trees (GET /root, POST /tags-by-geometries) and mirrors them into the model tree. Calls that
 * overlap are folded into one more read after the running one. Never rejects.
 */
export function reloadCustomTrees(): Promise<void> {
  if (loading) {
    again = true;
    return loading;
  }
  loading = (async () => {
    do {
      again = false;
      await readTrees().catch(() => {});
    } while (again);
    loading = null;
  })();
  return loading;
}

async function readTrees(): Promise<void> {
  const project = customTreesStore.projectName;
  if (!project) return;
  const root = await getRootTag(project, CUSTOM_TREE_ROOT).catch(() => null);
  const tagged = root ? await getTagsByGeometries(project, CUSTOM_TREE_ROOT) : [];
  if (customTreesStore.projectName !== project) return;
  customTreesStore.root = root ? ref(root) : null;
  const folders = root ? tagFolders(root, tagged, viewerStore.objects ?? []) : [];
  // The tree is rebuilt (O(objects)) only when the folders or their contents changed.
  const signature = JSON.stringify(folders);
  if (signature !== lastSignature) {
    lastSignature = signature;
    setTreeOptions({ customTrees: folders });
  }
  customTreesStore.loads++;
}

/** Edit / Stop editing of the tree panel. */
export function toggleTreeEditing(): void {
  customTreesStore.editing = !customTreesStore.editing;
  if (!customTreesStore.editing) customTreesStore.renaming = null;
}

/** Starts or stops (null) editing a folder's name. */
export function setRenaming(id: number | null): void {
  customTreesStore.renaming = id;
}

/** The tree has revealed the folder it was asked to. */
export function clearTreeReveal(): void {
  customTreesStore.reveal = null;
}

/** The root tag, created (type ContextRoot) when the project has none yet. */
async function ensureRoot(): Promise<Tag> {
  const project = customTreesStore.projectName;
  const known = customTreesStore.root ?? (await getRootTag(project, CUSTOM_TREE_ROOT).catch(() => null));
  if (known) return known;
  // Another user may create it at the same moment (409): read theirs.
  return createTag(project, { name: CUSTOM_TREE_ROOT, type: 'ContextRoot', parent: null }, true).catch(() =>
    getRootTag(project, CUSTOM_TREE_ROOT),
  );
}

/**
 * 'Add new tree' (parent null) or a new sub-folder of `parentId`: a folder 'New custom tree' (numbered
 * when taken), opened for renaming. @returns its tag id, or null when the server refused (the client showed why).
 */
export async function addFolder(parentId: number | null = null): Promise<number | null> {
  try {
    const root = await ensureRoot();
    const parent = parentId === null ? root : (findFolder(parentId)?.tag ?? null);
    if (!parent) return null;
    const name = newFolderName(
      parent.children.map((c) => c.name),
      NEW_CUSTOM_TREE_NAME,
    );
    const tag = await createTag(customTreesStore.projectName, { name, type: 'UnrestrictedTree', parent: parent.id });
    customTreesStore.editing = true;
    customTreesStore.renaming = tag.id;
    customTreesStore.reveal = tag.id;
    await reloadCustomTrees();
    return tag.id;
  } catch {
    return null;
  }
}

/**
 * Renames a folder (viewer.md §4 "Tree folders": the change goes to the server; if the result is undefined
 * the edit stays open). @returns true when renamed.
 */
export async function renameFolder(id: number, newName: string): Promise<boolean> {
  const name = newName.trim();
  const place = findFolder(id);
  if (!place) return false;
  if (!name || name === place.tag.name) {
    setRenaming(null);
    return !!name;
  }
  const result = await renameTag(customTreesStore.projectName, id, name).catch(() => undefined);
  if (result === undefined) return false;
  if (customTreesStore.renaming === id) customTreesStore.renaming = null;
  await reloadCustomTrees();
  return true;
}

/** Deletes a folder with its contents and shows the §8 toast ('Unable to delete folder.' on failure). */
export async function deleteFolder(id: number): Promise<void> {
  const place = findFolder(id);
  if (!place) return;
  const ok = await deleteTag(customTreesStore.projectName, id).then(
    () => true,
    () => false,
  );
  if (!ok) {
    showToast('info', customTreeTexts.unableToDelete);
    return;
  }
  await reloadCustomTrees();
  const isTreeRoot = place.parent.id === customTreesStore.root?.id;
  showToast(
    'info',
    isTreeRoot
      ? customTreeTexts.rootFolderRemoved(place.tag.name)
      : customTreeTexts.folderRemoved(place.tag.name, place.parent.name),
  );
}

/**
 * Adds the selected objects to folder `id` (by OCX id, in batches of MAX_TAGGING_NAMES). Objects already
 * in it are reported: '{n} geometries were not added to "{folder}" because they already exist in the tree.'
 */
export async function addSelectionToFolder(id: number): Promise<void> {
  const place = findFolder(id);
  const ids = viewerStore.selection.map((s) => s.keelsonId);
  if (!place || ids.length === 0) return;
  let failed = 0;
  try {
    for (let i = 0; i < ids.length; i += MAX_TAGGING_NAMES) {
      const r = await addTagToGeometries(customTreesStore.projectName, id, ids.slice(i, i + MAX_TAGGING_NAMES));
      failed += r.geometryNamesFailed.length;
    }
  } catch {
    // The client showed the server's message; show what did get added.
  }
  if (failed > 0) showToast('info', customTreeTexts.notAdded(failed, place.tag.name));
  await reloadCustomTrees();
  // After the reload, so that the folder opens on its new contents.
  customTreesStore.reveal = id;
}

/** Removes object `o` (object-table index) from folder `id`, with the §8 toast of the outcome. */
export async function removeFromFolder(id: number, o: number): Promise<void> {
  const place = findFolder(id);
  const obj = viewerStore.objects?.[o];
  if (!place || !obj) return;
  const r = await removeTagFromGeometries(customTreesStore.projectName, id, [obj.id]).catch(() => null);
  if (r?.geometryNamesSucceeded.length) {
    await reloadCustomTrees();
    showToast('info', customTreeTexts.geometryRemoved(obj.name, place.tag.name));
  } else showToast('info', customTreeTexts.geometryNotRemoved(obj.name, place.tag.name));
}
