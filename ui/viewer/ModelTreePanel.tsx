/**
 * Model tree panel (viewer.md §2 "Model tree panel"): root 'Structures ({model name})' → panels → parts,
 * a checkbox per node that hides or shows it with all descendants (engine.setVisibility), a search field
 * with 'No results found' / 'Search result: N object(s)' and a select-all checkbox; clicking a node
 * selects it (engine.setSelection). Rows are virtualised (@tanstack/react-virtual, 30 px items, viewer.md
 * §9) over the flattened tree so 100k nodes stay fast.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useDeferredValue, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { ROOT_NODE, searchSummary, type ModelTree } from '../logic/ModelTree';
import { getEngine, setNodesVisible, viewerStore } from '../stores/viewer';

/** Row height of the tree and the search list, px (viewer.md §9 "search list item height 30"). */
export const TREE_ITEM_HEIGHT = 30;

function TriCheckbox({ state, label, onToggle }: { state: 'on' | 'off' | 'mixed'; label: string; onToggle: () => void }) {
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

function selectNodes(nodes: number[]): void {
  void getEngine()?.api.setSelection(nodes);
}

function TreeList({ tree, hidden, onToggleVisible }: { tree: ModelTree; hidden: ReadonlySet<number>; onToggleVisible: (node: number) => void }) {
  const { selection } = useSnapshot(viewerStore);
  const [expanded, setExpanded] = useState<Set<number>>(() => new Set([ROOT_NODE]));
  const rows = useMemo(() => tree.flatten(expanded), [tree, expanded]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => TREE_ITEM_HEIGHT, overscan: 12 });
  const selected = useMemo(() => new Set(selection.map((s) => s.nodeId)), [selection]);

  // Reveal the first selected object (e.g. picked in the canvas): expand its ancestors and scroll to it.
  const first = selection[0]?.nodeId;
  useEffect(() => {
    if (first === undefined || !tree.objects[first]) return;
    const chain = tree.ancestors(first);
    setExpanded((prev) => (chain.every((n) => prev.has(n)) ? prev : new Set([...prev, ...chain])));
  }, [first, tree]);
  useEffect(() => {
    if (first === undefined) return;
    const i = rows.findIndex((r) => r.node === first);
    if (i >= 0) virtualizer.scrollToIndex(i, { align: 'auto' });
  }, [first, rows, virtualizer]);

  const toggleExpand = (node: number) =>
    setExpanded((prev) => {
      const next = new Set(prev);
      if (next.has(node)) next.delete(node);
      else next.add(node);
      return next;
    });

  return (
    <div ref={scrollRef} role="tree" aria-label="Model tree" className="min-h-0 flex-1 overflow-auto">
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((vi) => {
          const row = rows[vi.index];
          const label = tree.label(row.node);
          const obj = row.node === ROOT_NODE ? null : tree.objects[row.node];
          const isSel = selected.has(row.node);
          return (
            <div
              key={row.node}
              role="treeitem"
              aria-level={row.depth + 1}
              aria-expanded={row.hasChildren ? row.expanded : undefined}
              aria-selected={isSel}
              data-node={row.node}
              className={`absolute left-0 flex w-full items-center gap-1.5 pr-2 text-sm ${isSel ? 'bg-brand-100 text-brand-700' : 'hover:bg-slate-100'}`}
              style={{ top: 0, height: TREE_ITEM_HEIGHT, transform: `translateY(${vi.start}px)`, paddingLeft: 6 + row.depth * 16 }}
            >
              {row.hasChildren ? (
                <button type="button" aria-label={row.expanded ? `Collapse ${label}` : `Expand ${label}`} className="flex h-5 w-5 shrink-0 items-center justify-center rounded text-slate-500 hover:bg-slate-200" onClick={() => toggleExpand(row.node)}>
                  <svg viewBox="0 0 20 20" className={`h-3 w-3 transition-transform ${row.expanded ? 'rotate-90' : ''}`} fill="currentColor" aria-hidden="true">
                    <path d="M7 4l7 6-7 6V4Z" />
                  </svg>
                </button>
              ) : (
                <span className="w-5 shrink-0" />
              )}
              <TriCheckbox state={tree.checkState(row.node, hidden)} label={label} onToggle={() => onToggleVisible(row.node)} />
              <button
                type="button"
                className={`min-w-0 flex-1 truncate text-left ${row.node === ROOT_NODE ? 'font-semibold text-ink' : ''}`}
                title={obj ? `${obj.name} (${obj.type})` : label}
                onClick={() => selectNodes(row.node === ROOT_NODE ? [] : [row.node])}
              >
                {label}
              </button>
              {obj && <span className="shrink-0 text-[10px] tracking-wide text-slate-400 uppercase">{obj.type}</span>}
            </div>
          );
        })}
      </div>
    </div>
  );
}

function SearchList({ tree, results }: { tree: ModelTree; results: number[] }) {
  const { selection } = useSnapshot(viewerStore);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: results.length, getScrollElement: () => scrollRef.current, estimateSize: () => TREE_ITEM_HEIGHT, overscan: 12 });
  const selected = useMemo(() => new Set(selection.map((s) => s.nodeId)), [selection]);
  const allSelected = results.length > 0 && results.every((r) => selected.has(r));
  return (
    <>
      <div className="flex items-center gap-2 border-b border-slate-100 px-3 py-1.5 text-xs text-slate-600">
        {results.length > 0 && (
          <input type="checkbox" aria-label="Select all" className="h-3.5 w-3.5 accent-brand-500" checked={allSelected} onChange={() => selectNodes(allSelected ? [] : results)} />
        )}
        <span data-testid="search-summary">{searchSummary(results.length)}</span>
      </div>
      <div ref={scrollRef} className="min-h-0 flex-1 overflow-auto">
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((vi) => {
            const node = results[vi.index];
            const o = tree.objects[node];
            return (
              <button
                type="button"
                key={node}
                className={`absolute left-0 flex w-full items-center gap-2 px-3 text-left text-sm ${selected.has(node) ? 'bg-brand-100 text-brand-700' : 'hover:bg-slate-100'}`}
                style={{ top: 0, height: TREE_ITEM_HEIGHT, transform: `translateY(${vi.start}px)` }}
                onClick={() => selectNodes([node])}
              >
                <span className="min-w-0 flex-1 truncate">{o.name}</span>
                <span className="shrink-0 text-[10px] tracking-wide text-slate-400 uppercase">{o.type}</span>
              </button>
            );
          })}
        </div>
      </div>
    </>
  );
}

export function ModelTreePanel({ modelName }: { modelName: string }) {
  const { tree } = useSnapshot(viewerStore);
  const searchId = useId();
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  useSnapshot(viewerStore).hiddenVersion; // re-render when visibility changes
  const hidden = viewerStore.hidden;
  const t = viewerStore.tree; // the real (ref'd) instance, not the snapshot
  const results = useMemo(() => (t && deferred.trim() ? t.search(deferred) : null), [t, deferred]);

  function toggleVisible(node: number) {
    if (!t) return;
    setNodesVisible(t.descendants(node), t.checkState(node, hidden) !== 'on');
  }

  return (
    <aside data-testid="model-tree" aria-label="Model tree panel" className="flex w-80 shrink-0 flex-col border-l border-slate-200 bg-white">
      <div className="border-b border-slate-200 px-3 py-2">
        <h2 className="mb-2 text-xs font-semibold tracking-wide text-slate-500 uppercase">Model tree</h2>
        <label htmlFor={searchId} className="sr-only">
          Search
        </label>
        <input id={searchId} type="search" placeholder="Search" className="field-input py-1.5" value={query} onChange={(e) => setQuery(e.target.value)} />
      </div>
      {!tree || !t ? (
        <p className="px-3 py-4 text-sm text-slate-500">Loading {modelName}…</p>
      ) : results ? (
        <SearchList tree={t} results={results} />
      ) : (
        <TreeList tree={t} hidden={hidden} onToggleVisible={toggleVisible} />
      )}
    </aside>
  );
}
