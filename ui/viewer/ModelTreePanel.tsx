/**
 * Model tree panel (viewer.md §2 "Model tree panel", §4 "View action history", §9 item height 30): the
 * folders 'Structures ({name})', 'Compartments ({name})', 'CAD components', 'Blocks ({system})' and
 * '{axis}-sections' (ui/logic/ModelTree.ts); a checkbox per node that shows or hides all its objects through
 * engine.setTreeVisibility (the engine records 'Show objects' / 'Hide objects', debounced 200 ms); a search
 * field with 'No results found' / 'Search result: N object(s)' and a select-all checkbox; clicking an
 * object selects it. Both lists are virtualised; expanding, collapsing and check states are index based
 * (ui/logic/TreeRows.ts), so 500k objects stay responsive: a render costs only the rows on screen.
 * Section nodes (viewer.md §4 "Section drawing") draw on demand when selected, show/hide by their checkbox,
 * and carry 'Save section' (unsaved), 'Delete section' (saved; confirmation), 'Export SVG' and 'Export DXF'.
 * Custom trees ('Custom-model-tree', ui/stores/customTrees.ts): 'Add new tree' and Edit / Stop editing in
 * the header; a folder selects its objects ('Select'), and in edit mode takes the selection ('Add
 * selection'), gets sub-folders, is renamed (inline, Enter / Escape) or deleted; its objects can be removed.
 * The filter menu (viewer.md §2) offers 'No filter' or a block, grouped by block system: a block shows only
 * its objects in the tree and in 3D, with 'Inside {block}' as the active filter (ui/stores/blockFilter.ts).
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useDeferredValue, useEffect, useId, useMemo, useReducer, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { TAG_NAME_MAX_LENGTH, TreeItemType } from '../../api/contract';
import { searchSummary, type CheckState, type ModelTree } from '../logic/ModelTree';
import { TreeRows } from '../logic/TreeRows';
import type { SectionEntry } from '../logic/sections';
import {
  askDeleteSection,
  clearSectionReveal,
  drawSection,
  exportSection,
  removeSection,
  saveSection,
  sectionsStore,
  setSectionVisible,
} from '../stores/sections';
import {
  addFolder,
  addSelectionToFolder,
  clearTreeReveal,
  customTreesStore,
  deleteFolder,
  removeFromFolder,
  renameFolder,
  setRenaming,
  toggleTreeEditing,
} from '../stores/customTrees';
import { getEngine, setNodesVisible, viewerStore } from '../stores/viewer';
import { applyBlockFilter, clearBlockFilter } from '../stores/blockFilter';

/** Row height of the tree and the search list, px (viewer.md §9 "search list item height 30"). */
export const TREE_ITEM_HEIGHT = 30;

function TriCheckbox({ state, label, onToggle }: { state: CheckState; label: string; onToggle: () => void }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = state === 'mixed';
  }, [state]);
  return (
    <input
      ref={ref}
      type="checkbox"
      aria-label={`Show ${label}`}
      className="h-3.5 w-3.5 shrink-0 accent-brand-500"
      checked={state === 'on'}
      onChange={onToggle}
    />
  );
}

const ACTION = 'shrink-0 rounded px-1 py-0.5 text-[10px] font-medium text-slate-500 hover:bg-slate-200 hover:text-ink';

/** The actions of a section node: save or delete, and the two exports. */
function SectionActions({ s }: { s: SectionEntry }) {
  return (
    <span className="flex shrink-0 items-center">
      {s.saved ? (
        <button
          type="button"
          className={ACTION}
          title="Delete section"
          aria-label={`Delete section ${s.name}`}
          onClick={() => askDeleteSection(s.name)}
        >
          Delete
        </button>
      ) : (
        <>
          <button
            type="button"
            className={ACTION}
            title="Save section"
            aria-label={`Save section ${s.name}`}
            onClick={() => void saveSection(s.name)}
          >
            Save
          </button>
          <button
            type="button"
            className={ACTION}
            title="Remove section"
            aria-label={`Remove section ${s.name}`}
            onClick={() => removeSection(s.name)}
          >
            ✕
          </button>
        </>
      )}
      <button
        type="button"
        className={ACTION}
        title="Export SVG"
        aria-label={`Export SVG ${s.name}`}
        onClick={() => void exportSection(s.name, 'svg')}
      >
        SVG
      </button>
      <button
        type="button"
        className={ACTION}
        title="Export DXF"
        aria-label={`Export DXF ${s.name}`}
        onClick={() => void exportSection(s.name, 'dxf')}
      >
        DXF
      </button>
    </span>
  );
}

/** The actions of a custom tree folder: Select always; in edit mode add selection, sub-folder, rename, delete. */
function FolderActions({ tagId, label, objects }: { tagId: number; label: string; objects: () => number[] }) {
  const { editing } = useSnapshot(customTreesStore);
  const hasSelection = useSnapshot(viewerStore).selection.length > 0;
  return (
    <span className="flex shrink-0 items-center">
      <button
        type="button"
        className={ACTION}
        title="Select the folder's objects"
        aria-label={`Select ${label}`}
        onClick={() => selectObjects(objects())}
      >
        Select
      </button>
      {editing && (
        <>
          <button
            type="button"
            className={`${ACTION} disabled:opacity-40`}
            title="Add the selection to this folder"
            aria-label={`Add selection to ${label}`}
            disabled={!hasSelection}
            onClick={() => void addSelectionToFolder(tagId)}
          >
            +Sel
          </button>
          <button
            type="button"
            className={ACTION}
            title="New folder"
            aria-label={`New folder in ${label}`}
            onClick={() => void addFolder(tagId)}
          >
            +Folder
          </button>
          <button
            type="button"
            className={ACTION}
            title="Rename"
            aria-label={`Rename ${label}`}
            onClick={() => setRenaming(tagId)}
          >
            Rename
          </button>
          <button
            type="button"
            className={ACTION}
            title="Delete folder"
            aria-label={`Delete folder ${label}`}
            onClick={() => void deleteFolder(tagId)}
          >
            ✕
          </button>
        </>
      )}
    </span>
  );
}

/** Inline name editor of a folder: Enter renames (stays open when the server refuses), Escape cancels. */
function FolderNameInput({ tagId, name }: { tagId: number; name: string }) {
  const [value, setValue] = useState(name);
  return (
    <input
      // biome-ignore lint/a11y/noAutofocus: the field opens on the user's own Rename or 'Add new tree'
      autoFocus
      aria-label="Folder name"
      className="field-input min-w-0 flex-1 py-0.5 text-sm"
      maxLength={TAG_NAME_MAX_LENGTH}
      value={value}
      onChange={(e) => setValue(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') void renameFolder(tagId, value);
        if (e.key === 'Escape') setRenaming(null);
      }}
    />
  );
}

/** The tree node of the section named `name` (sections are the last folders: search from the end). */
function sectionNode(tree: ModelTree, name: string): number {
  for (let t = tree.size - 1; t >= 0; t--) {
    const k = tree.kind(t);
    if (k === 'object') return -1;
    if (k === 'section' && tree.section(t)?.name === name) return t;
  }
  return -1;
}

/**
 * The first selected object the tree last revealed, or that the panel itself selected: the tree scrolls
 * to a selection made elsewhere (the canvas) once, not again when it is rebuilt, and not away from the row
 * or folder the user just clicked.
 */
let revealedFirst: number | undefined;

function selectObjects(objects: number[]): void {
  revealedFirst = objects[0];
  void getEngine()?.api.setSelection(objects);
}

function useSelectedSet(): ReadonlySet<number> {
  const { selection } = useSnapshot(viewerStore);
  return useMemo(() => new Set(selection.map((s) => s.nodeId)), [selection]);
}

/** The rows of the last tree shown (module state: the tree list unmounts while search results show). */
let lastRows: TreeRows | null = null;

function TreeList({ tree }: { tree: ModelTree }) {
  useSnapshot(viewerStore).hiddenVersion; // check states change with visibility
  const selected = useSelectedSet();
  // The open folders survive a search (the list remounts) and a rebuilt tree (sections or custom trees changed).
  const rows = useMemo(() => {
    const last = lastRows;
    if (last?.tree === tree) return last;
    return last
      ? new TreeRows(tree, TreeRows.foldersWithKeys(tree, new Set(last.expandedFolderKeys())))
      : new TreeRows(tree);
  }, [tree]);
  lastRows = rows;
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => TREE_ITEM_HEIGHT,
    overscan: 12,
  });

  // Reveal the first selected object (e.g. picked in the canvas): expand its ancestors and scroll to it.
  const first = viewerStore.selection[0]?.nodeId;
  useEffect(() => {
    if (first === undefined || first === revealedFirst) return;
    revealedFirst = first;
    const t = tree.nodeOfObject(first);
    if (t < 0) return;
    const before = rows.version;
    const i = rows.reveal(t);
    if (rows.version !== before) rerender();
    if (i >= 0) requestAnimationFrame(() => virtualizer.scrollToIndex(i, { align: 'auto' }));
  }, [first, tree, rows, virtualizer]);

  const { list: sections, reveal } = useSnapshot(sectionsStore);
  const sectionByName = useMemo(() => new Map(sections.map((s) => [s.name, s as SectionEntry])), [sections]);
  useEffect(() => {
    if (!reveal) return;
    const t = sectionNode(tree, reveal);
    if (t < 0) return;
    clearSectionReveal();
    const before = rows.version;
    const i = rows.reveal(t);
    if (rows.version !== before) rerender();
    if (i >= 0) requestAnimationFrame(() => virtualizer.scrollToIndex(i, { align: 'auto' }));
  }, [reveal, tree, rows, virtualizer]);

  const { editing, renaming, reveal: revealTag } = useSnapshot(customTreesStore);
  useEffect(() => {
    if (revealTag === null) return;
    const t = tree.nodeOfTag(revealTag);
    if (t < 0) return;
    clearTreeReveal();
    const before = rows.version;
    rows.expand(t);
    const i = rows.reveal(t);
    if (rows.version !== before) rerender();
    if (i >= 0) requestAnimationFrame(() => virtualizer.scrollToIndex(i, { align: 'auto' }));
  }, [revealTag, tree, rows, virtualizer]);

  const toggleExpand = (t: number) => {
    rows.toggle(t);
    rerender();
  };
  const toggleVisible = (t: number) => setNodesVisible(tree.objectsIn(t), tree.checkState(t) !== 'on');

  return (
    <div ref={scrollRef} role="tree" aria-label="Model tree" className="min-h-0 flex-1 overflow-auto">
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((vi) => {
          const t = rows.nodeAt(vi.index);
          const label = tree.label(t);
          const o = tree.objectOf(t);
          const obj = o >= 0 ? tree.objects[o] : null;
          const isSel = o >= 0 && selected.has(o);
          const open = rows.isExpanded(t);
          const hasChildren = tree.hasChildren(t);
          const depth = tree.depth(t);
          const sec = tree.kind(t) === 'section' ? (sectionByName.get(label) ?? null) : null;
          const tagId = tree.tagId(t);
          // An object directly in a custom folder can be removed from it.
          const inFolder = o >= 0 ? tree.tagId(tree.parent(t)) : null;
          return (
            <div
              key={t}
              role="treeitem"
              tabIndex={-1}
              aria-level={depth + 1}
              aria-expanded={hasChildren ? open : undefined}
              aria-selected={isSel}
              data-node={t}
              data-section={sec ? sec.name : undefined}
              data-saved={sec ? sec.saved : undefined}
              data-drawn={sec ? sec.drawn : undefined}
              data-tag={tagId ?? undefined}
              data-in-tag={inFolder ?? undefined}
              data-item-type={tagId !== null ? TreeItemType.Folder : inFolder !== null ? TreeItemType.Leaf : undefined}
              className={`absolute left-0 flex w-full items-center gap-1.5 pr-2 text-sm ${isSel ? 'bg-brand-100 text-brand-700' : 'hover:bg-slate-100'}`}
              style={{
                top: 0,
                height: TREE_ITEM_HEIGHT,
                transform: `translateY(${vi.start}px)`,
                paddingLeft: 6 + depth * 16,
              }}
            >
              {hasChildren ? (
                <button
                  type="button"
                  aria-label={open ? `Collapse ${label}` : `Expand ${label}`}
                  className="flex h-5 w-5 shrink-0 items-center justify-center rounded text-slate-500 hover:bg-slate-200"
                  onClick={() => toggleExpand(t)}
                >
                  <svg
                    viewBox="0 0 20 20"
                    className={`h-3 w-3 transition-transform ${open ? 'rotate-90' : ''}`}
                    fill="currentColor"
                    aria-hidden="true"
                  >
                    <path d="M7 4l7 6-7 6V4Z" />
                  </svg>
                </button>
              ) : (
                <span className="w-5 shrink-0" />
              )}
              {sec ? (
                <TriCheckbox
                  state={sec.drawn && sec.visible ? 'on' : 'off'}
                  label={label}
                  onToggle={() => void setSectionVisible(sec.name, !(sec.drawn && sec.visible))}
                />
              ) : tree.objectCountOf(t) > 0 ? (
                <TriCheckbox state={tree.checkState(t)} label={label} onToggle={() => toggleVisible(t)} />
              ) : (
                <span className="w-3.5 shrink-0" />
              )}
              {tagId !== null && renaming === tagId ? (
                <FolderNameInput tagId={tagId} name={label} />
              ) : (
                <button
                  type="button"
                  data-label
                  className={`min-w-0 flex-1 truncate text-left ${depth === 0 ? 'font-semibold text-ink' : ''}`}
                  title={obj ? `${obj.name} (${obj.type})` : label}
                  onClick={() =>
                    o >= 0 ? selectObjects([o]) : sec ? void drawSection(sec.name) : hasChildren && toggleExpand(t)
                  }
                >
                  {label}
                </button>
              )}
              {obj && <span className="shrink-0 text-[10px] tracking-wide text-slate-400 uppercase">{obj.type}</span>}
              {sec && <SectionActions s={sec} />}
              {tagId !== null && <FolderActions tagId={tagId} label={label} objects={() => tree.objectsIn(t)} />}
              {editing && inFolder !== null && (
                <button
                  type="button"
                  className={ACTION}
                  title="Remove from folder"
                  aria-label={`Remove ${label} from folder`}
                  onClick={() => void removeFromFolder(inFolder, o)}
                >
                  ✕
                </button>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}

function SearchList({ tree, results }: { tree: ModelTree; results: number[] }) {
  const selected = useSelectedSet();
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: results.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => TREE_ITEM_HEIGHT,
    overscan: 12,
  });
  // Once per change of results or selection, not per row.
  const allSelected = useMemo(
    () => results.length > 0 && results.length <= selected.size && results.every((r) => selected.has(r)),
    [results, selected],
  );
  return (
    <>
      <div className="flex items-center gap-2 border-b border-slate-100 px-3 py-1.5 text-xs text-slate-600">
        {results.length > 0 && (
          <input
            type="checkbox"
            aria-label="Select all"
            className="h-3.5 w-3.5 accent-brand-500"
            checked={allSelected}
            onChange={() => selectObjects(allSelected ? [] : results)}
          />
        )}
        <span data-testid="search-summary">{searchSummary(results.length)}</span>
      </div>
      <div ref={scrollRef} role="listbox" aria-label="Search results" className="min-h-0 flex-1 overflow-auto">
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((vi) => {
            const o = results[vi.index];
            const obj = tree.objects[o];
            return (
              <button
                type="button"
                role="option"
                aria-selected={selected.has(o)}
                key={o}
                className={`absolute left-0 flex w-full items-center gap-2 px-3 text-left text-sm ${selected.has(o) ? 'bg-brand-100 text-brand-700' : 'hover:bg-slate-100'}`}
                style={{ top: 0, height: TREE_ITEM_HEIGHT, transform: `translateY(${vi.start}px)` }}
                onClick={() => selectObjects([o])}
              >
                <span className="min-w-0 flex-1 truncate">{obj.name}</span>
                <span className="shrink-0 text-[10px] tracking-wide text-slate-400 uppercase">{obj.type}</span>
              </button>
            );
          })}
        </div>
      </div>
    </>
  );
}

const blockOrder = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/**
 * The filter menu: 'No filter', then each block system's blocks (sorted by name) under the system's name;
 * the active filter shows as 'Inside {block}' with a button back to 'No filter'.
 */
function BlockFilterMenu({ tree }: { tree: ModelTree }) {
  const id = useId();
  const active = tree.filter;
  const systems = tree.blockSystems;
  const value = active ? JSON.stringify([active.system, active.block]) : '';
  return (
    <>
      <div className="mt-2 flex items-center gap-2">
        <label htmlFor={id} className="shrink-0 text-xs text-slate-500">
          Filter
        </label>
        <select
          id={id}
          data-testid="block-filter-menu"
          className="field-input min-w-0 flex-1 py-1 text-sm"
          value={value}
          disabled={systems.length === 0}
          onChange={(e) => {
            if (!e.target.value) return clearBlockFilter();
            const [system, block] = JSON.parse(e.target.value) as [string, string];
            applyBlockFilter(system, block);
          }}
        >
          <option value="">No filter</option>
          {systems.map((s) => (
            <optgroup key={s.name} label={s.name}>
              {s.blocks
                .map((b) => b.name)
                .sort(blockOrder.compare)
                .map((b) => (
                  <option key={b} value={JSON.stringify([s.name, b])}>
                    {b}
                  </option>
                ))}
            </optgroup>
          ))}
        </select>
      </div>
      {active && (
        <p data-testid="block-filter" className="mt-1 flex items-center gap-1 text-xs text-brand-700">
          <span className="min-w-0 flex-1 truncate">Inside {active.block}</span>
          <button type="button" className={ACTION} aria-label="Clear block filter" onClick={clearBlockFilter}>
            ✕
          </button>
        </p>
      )}
    </>
  );
}

export function ModelTreePanel({ modelName }: { modelName: string }) {
  const { tree } = useSnapshot(viewerStore);
  const { editing } = useSnapshot(customTreesStore);
  const searchId = useId();
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const t = viewerStore.tree; // the real (ref'd) instance, not the snapshot
  const results = useMemo(() => (t && deferred.trim() ? t.search(deferred) : null), [t, deferred]);

  return (
    <aside
      data-testid="model-tree"
      aria-label="Model tree panel"
      className="flex w-80 shrink-0 flex-col border-l border-slate-200 bg-white"
    >
      <div className="border-b border-slate-200 px-3 py-2">
        <div className="mb-2 flex items-center gap-1">
          <h2 className="flex-1 text-xs font-semibold tracking-wide text-slate-500 uppercase">Model tree</h2>
          <button type="button" className={ACTION} disabled={!tree} onClick={() => void addFolder(null)}>
            Add new tree
          </button>
          <button type="button" className={ACTION} aria-pressed={editing} onClick={toggleTreeEditing}>
            {editing ? 'Stop editing' : 'Edit'}
          </button>
        </div>
        <label htmlFor={searchId} className="sr-only">
          Search
        </label>
        <input
          id={searchId}
          type="search"
          placeholder="Search"
          className="field-input py-1.5"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        {tree && t && <BlockFilterMenu tree={t} />}
      </div>
      {!tree || !t ? (
        <p className="px-3 py-4 text-sm text-slate-500">Loading {modelName}…</p>
      ) : results ? (
        <SearchList tree={t} results={results} />
      ) : (
        <TreeList tree={t} />
      )}
    </aside>
  );
}
