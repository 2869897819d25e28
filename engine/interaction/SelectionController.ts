/**
 * Selection, hover, visibility and the view-action history of the engine (viewer.md §4 "Selection",
 * "Visibility"; §2 context menu 'Hide objects'; undo/redo of view actions). Works on the loaded
 * ModelScene through a small host interface, so it is tested in Node with the Engine facade.
 */
import type { EngineEvent, SelectionMode } from '../EngineApi';
import type { ModelScene } from '../scene/ModelScene';
import { OBJECT_FLAGS } from '../scene/ObjectStateTable';
import { boxSelectMode } from './boxSelect';
import { CAMERA_CONSTANTS } from './cameraMath';
import { selectionAfterClick } from './PointerGesture';
import { VIEW_ACTION_NAMES, ViewHistory, VisibilityDebouncer } from './viewHistory';

/** What the controller needs of the engine. */
export interface SelectionHost {
  model(): ModelScene | null;
  emit(event: EngineEvent): void;
  invalidate(): void;
  now(): number;
  /** Column-major view-projection matrix and viewport (CSS px) for box selection, or null in walk mode. */
  boxView(): { matrix: ArrayLike<number>; width: number; height: number } | null;
}

/** Selection state + history. */
export class SelectionController {
  mode: SelectionMode = 'structural-details';
  private selection: number[] = [];
  private hover: number | null = null;
  private readonly history = new ViewHistory<{ nodes: number[]; visible: boolean }>();
  private readonly treeDebounce = new VisibilityDebouncer(CAMERA_CONSTANTS.doubleClickDebounceMs);
  private treeTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly host: SelectionHost) {}

  get selected(): readonly number[] {
    return this.selection;
  }

  get hovered(): number | null {
    return this.hover;
  }

  /** Replaces the selection with existing nodes (duplicates dropped). Emits selection-changed. */
  setSelection(nodeIds: readonly number[]): void {
    const m = this.host.model();
    this.apply([...new Set(nodeIds)].filter((n) => (m ? m.hasNode(n) : false)));
  }

  /** A click on `pickedNode` (null = nothing hit), Ctrl toggles (viewer.md §4). */
  click(pickedNode: number | null, toggle: boolean): void {
    const m = this.host.model();
    const node = pickedNode !== null && m ? m.selectableNode(pickedNode, this.mode) : null;
    this.apply(selectionAfterClick(this.selection, node, toggle));
  }

  /** Hover on a picked node (null clears). */
  hoverPicked(pickedNode: number | null): void {
    const m = this.host.model();
    this.setHover(pickedNode !== null && m ? m.selectableNode(pickedNode, this.mode) : null);
  }

  /** Box selection of viewer.md §4: replaces the selection, or adds with Ctrl. Ignored in walk mode. */
  selectBox(rect: { x0: number; y0: number; x1: number; y1: number }, add: boolean): void {
    const m = this.host.model();
    const view = this.host.boxView();
    if (!m || !view) return;
    const ids = m.boxSelect(rect, boxSelectMode(rect.x0, rect.x1), view, this.mode);
    this.apply(add ? [...new Set([...this.selection, ...ids])] : ids);
  }

  /**
   * Shows or hides nodes (and descendants) without recording an action. When anything changed, emits
   * {type: 'visibility-changed', hiddenCount, nodeIds, visible} so the UI tree follows (also for undo/redo).
   */
  setVisibility(nodeIds: readonly number[], visible: boolean): void {
    const m = this.host.model();
    if (!m) return;
    const changed = m.setVisibility(nodeIds, visible);
    if (!visible && this.hover !== null && m.state.isHidden(this.hover)) this.setHover(null);
    if (changed > 0)
      this.host.emit({
        type: 'visibility-changed',
        hiddenCount: m.state.countFlag(OBJECT_FLAGS.hidden),
        nodeIds: [...nodeIds],
        visible,
      });
    this.host.invalidate();
  }

  /** Context menu 'Hide objects': hides the selection, clears it, records an undoable action. */
  hideSelected(): void {
    const nodes = [...this.selection];
    if (nodes.length === 0 || !this.host.model()) return;
    this.flushTreeAction();
    this.setVisibility(nodes, false);
    this.apply([]);
    this.record(VIEW_ACTION_NAMES.hideObjects, nodes, false);
  }

  /** Tree checkboxes: one action per 200 ms burst (viewer.md §4). */
  setTreeVisibility(nodeIds: readonly number[], visible: boolean): void {
    if (!this.host.model() || nodeIds.length === 0) return;
    this.setVisibility(nodeIds, visible);
    const flushed = this.treeDebounce.add([...nodeIds], visible, this.host.now());
    if (flushed)
      this.record(
        flushed.visible ? VIEW_ACTION_NAMES.showObjects : VIEW_ACTION_NAMES.hideObjects,
        flushed.nodeIds,
        flushed.visible,
      );
    if (this.treeTimer) clearTimeout(this.treeTimer);
    this.treeTimer = setTimeout(() => {
      this.treeTimer = null;
      this.flushTreeAction();
    }, CAMERA_CONSTANTS.doubleClickDebounceMs);
  }

  undo(): void {
    this.flushTreeAction();
    const a = this.history.undo();
    if (a) this.setVisibility(a.payload.nodes, !a.payload.visible);
    this.emitHistory();
  }

  redo(): void {
    this.flushTreeAction();
    const a = this.history.redo();
    if (a) this.setVisibility(a.payload.nodes, a.payload.visible);
    this.emitHistory();
  }

  names(): { undoName: string | null; redoName: string | null } {
    return this.history.names();
  }

  /** Forgets selection, hover and history (a new model). */
  reset(): void {
    this.history.clear();
    this.treeDebounce.take();
    this.selection = [];
    this.hover = null;
  }

  dispose(): void {
    if (this.treeTimer) clearTimeout(this.treeTimer);
    this.treeTimer = null;
  }

  setHover(nodeId: number | null): void {
    if (nodeId === this.hover) return;
    this.hover = nodeId;
    this.host.model()?.highlightHover(nodeId);
    this.host.emit({ type: 'hover-changed', nodeId });
    this.host.invalidate();
  }

  private apply(nodeIds: number[]): void {
    this.selection = nodeIds;
    const m = this.host.model();
    if (m) m.highlightSelection(nodeIds);
    this.host.emit({ type: 'selection-changed', items: m ? m.selectionItems(nodeIds) : [] });
    this.host.invalidate();
  }

  private record(name: string, nodes: number[], visible: boolean): void {
    this.history.record(name, { nodes, visible });
    this.emitHistory();
  }

  private flushTreeAction(): void {
    const p = this.treeDebounce.take();
    if (p) this.record(p.visible ? VIEW_ACTION_NAMES.showObjects : VIEW_ACTION_NAMES.hideObjects, p.nodeIds, p.visible);
  }

  private emitHistory(): void {
    this.host.emit({ type: 'history-changed', ...this.history.names() });
  }
}
