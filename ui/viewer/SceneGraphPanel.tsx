/**
 * Scene-graph panel (viewer.md §2 "Scene-graph panel", toggled with Ctrl+Alt+S): the scene tree with the
 * node names of viewer.md §3 (engine.getSceneGraph(): Models, 'STR {model}', Structures, '{id} {name}'
 * objects, Sections, 'X=…' with its SectionCurve groups), a visibility toggle per node
 * (engine.setSceneNodeVisible; object nodes hide with their children), id (object nodes' node id) and
 * type labels, a Refresh button, and the property table (Name plus node properties) of the active node.
 */
import { useCallback, useEffect, useState } from 'react';
import type { SceneGraphNode } from '../../engine/EngineApi';
import { showToast } from '../stores/toasts';
import { getEngine, setShowSceneGraph } from '../stores/viewer';

/** Finds the node with `id` in a scene graph (pure). */
export function findSceneNode(root: SceneGraphNode, id: number): SceneGraphNode | null {
  const stack = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.id === id) return n;
    stack.push(...n.children);
  }
  return null;
}

/** Returns a copy of the graph with node `id`'s visibility set (pure; the engine is told separately). */
export function withNodeVisible(root: SceneGraphNode, id: number, visible: boolean): SceneGraphNode {
  if (root.id === id) return { ...root, visible };
  return { ...root, children: root.children.map((c) => withNodeVisible(c, id, visible)) };
}

function NodeRow({
  node,
  depth,
  active,
  onActivate,
  onToggle,
}: {
  node: SceneGraphNode;
  depth: number;
  active: number | null;
  onActivate: (id: number) => void;
  onToggle: (id: number, visible: boolean) => void;
}) {
  const [open, setOpen] = useState(depth < 2);
  const label = node.name || '(unnamed)';
  // A flat tree (aria-level): each node's row, then its children's rows, so no group element is needed.
  return (
    <>
      <div
        role="treeitem"
        tabIndex={-1}
        aria-level={depth + 1}
        aria-expanded={node.children.length ? open : undefined}
        aria-selected={active === node.id}
        className={`flex h-7 items-center gap-1.5 pr-2 text-xs ${active === node.id ? 'bg-brand-100 text-brand-700' : 'hover:bg-slate-100'}`}
        style={{ paddingLeft: 4 + depth * 14 }}
      >
        {node.children.length ? (
          <button
            type="button"
            aria-label={open ? `Collapse ${label}` : `Expand ${label}`}
            className="flex h-5 w-5 shrink-0 items-center justify-center rounded text-slate-500 hover:bg-slate-200"
            onClick={() => setOpen(!open)}
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
        <input
          type="checkbox"
          aria-label={`Visible ${label} #${node.id}`}
          className="h-3.5 w-3.5 shrink-0 accent-brand-500"
          checked={node.visible}
          disabled={node.id < 0}
          onChange={() => onToggle(node.id, !node.visible)}
        />
        <button
          type="button"
          className="min-w-0 flex-1 truncate text-left"
          onClick={() => onActivate(node.id)}
          title={label}
        >
          {label}
        </button>
        {node.id >= 0 && <span className="shrink-0 font-mono text-[10px] text-slate-400">#{node.id}</span>}
        <span className="shrink-0 rounded bg-slate-100 px-1 text-[10px] text-slate-500">{node.type}</span>
      </div>
      {open &&
        node.children.map((c) => (
          <NodeRow key={c.id} node={c} depth={depth + 1} active={active} onActivate={onActivate} onToggle={onToggle} />
        ))}
    </>
  );
}

export function SceneGraphPanel() {
  const [graph, setGraph] = useState<SceneGraphNode | null>(null);
  const [active, setActive] = useState<number | null>(null);
  const refresh = useCallback(() => {
    const api = getEngine()?.api;
    if (!api) return;
    api.getSceneGraph().then(setGraph, (e: Error) => showToast('error', e.message));
  }, []);
  useEffect(refresh, [refresh]);

  const toggle = (id: number, visible: boolean) => {
    const api = getEngine()?.api;
    if (!api) return;
    setGraph((g) => (g ? withNodeVisible(g, id, visible) : g));
    api.setSceneNodeVisible(id, visible).catch((e: Error) => {
      showToast('error', e.message);
      refresh();
    });
  };
  const activeNode = graph && active !== null ? findSceneNode(graph, active) : null;

  return (
    <section
      data-testid="scene-graph-panel"
      aria-label="Scene graph"
      className="panel absolute top-16 right-3 z-20 flex max-h-[calc(100%-6rem)] w-96 flex-col overflow-hidden"
    >
      <header className="flex items-center justify-between border-b border-slate-200 bg-slate-50 px-3 py-2">
        <h2 className="text-sm font-semibold text-ink">Scene graph</h2>
        <div className="flex gap-1">
          <button type="button" className="btn-ghost px-2 py-1 text-xs" onClick={refresh}>
            Refresh
          </button>
          <button
            type="button"
            className="btn-ghost px-2 py-1 text-xs"
            aria-label="Close scene graph"
            onClick={() => setShowSceneGraph(false)}
          >
            ✕
          </button>
        </div>
      </header>
      <div className="min-h-0 flex-1 overflow-auto py-1">
        {graph ? (
          <div role="tree" aria-label="Scene nodes">
            <NodeRow node={graph} depth={0} active={active} onActivate={setActive} onToggle={toggle} />
          </div>
        ) : (
          <p className="px-3 py-2 text-xs text-slate-500">Reading the scene…</p>
        )}
      </div>
      {activeNode && (
        <table data-testid="scene-node-properties" className="w-full border-t border-slate-200 text-xs">
          <tbody>
            {activeNode.properties.map((p) => (
              <tr key={p.name} className="border-b border-slate-100 last:border-0">
                <th scope="row" className="px-3 py-1 text-left font-normal whitespace-nowrap text-slate-500">
                  {p.name}
                </th>
                <td className="px-3 py-1 text-right font-mono break-all text-slate-800">{p.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
