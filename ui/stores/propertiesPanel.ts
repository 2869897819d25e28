/**
 * The properties panel's state (viewer.md §2 "Properties panel", §5 "Property merging"): where the user
 * moved it, whether it was closed (until the next selection), the object type it is filtered to, and the
 * merged properties of the selection, computed by the properties worker (ui/workers/) over every
 * selected object.
 */
import { proxy, ref } from 'valtio';
import type { CompareResponse } from '../../api/contract';
import { earlierValuesOf, type MergeResult } from '../logic/propertyMerge';
import { authHeaders } from '../api/client';
import { PropertyMergeClient } from '../workers/PropertyMergeClient';

export const propertiesPanelStore = proxy({
  /** Where the panel was dragged to (CSS px in the viewer area), or null for its default place. */
  position: null as { left: number; top: number } | null,
  /** The selection counter (viewerStore.selectionSeq) at which the panel was closed, or null when open. */
  closedAtSeq: null as number | null,
  /** The object type the panel shows, with the selection counter it was chosen for (null: every type). */
  typeFilter: null as { seq: number; type: string } | null,
  /** The merged properties of the selection shown (ref: kept out of valtio's tracking). */
  result: null as MergeResult | null,
  /** The selection counter and filter the result is for. */
  resultKey: '',
  /** A merge is running. */
  busy: false,
  /** Why the properties could not be read, or null. */
  error: null as string | null,
});

/** Moves the panel (the placement clamps it when drawn). */
export function movePropertiesPanel(position: { left: number; top: number }): void {
  propertiesPanelStore.position = position;
}

/** Closes the panel until the selection changes. */
export function closePropertiesPanel(selectionSeq: number): void {
  propertiesPanelStore.closedAtSeq = selectionSeq;
}

/** Filters the panel to one object type of the selection (null: every type). */
export function setPropertiesTypeFilter(selectionSeq: number, type: string | null): void {
  propertiesPanelStore.typeFilter = type === null ? null : { seq: selectionSeq, type };
}

/**
 * The type the panel is filtered to for this selection, or null; `state` is the store or a snapshot of it
 * (a component passes its snapshot so that a new filter re-renders it).
 */
export function typeFilterFor(
  state: { typeFilter: { seq: number; type: string } | null },
  selectionSeq: number,
): string | null {
  const f = state.typeFilter;
  return f && f.seq === selectionSeq ? f.type : null;
}

/** The open revision's worker and the promise of its loaded columns. */
let session: { client: PropertyMergeClient; ready: Promise<void> } | null = null;
let requests = 0;

/**
 * Starts the properties worker for the open revision: it reads the property columns and keeps the object
 * types and blocks. Returns the function that ends it.
 */
export function openPropertyMerge(
  modelName: string,
  revision: number,
  objects: readonly { type: string; block: string | null }[],
): () => void {
  const client = new PropertyMergeClient();
  const ready = client.api.load({
    origin: window.location.origin,
    headers: authHeaders(),
    modelName,
    revision,
    types: objects.map((o) => o.type),
    blocks: objects.map((o) => o.block),
  });
  const mine = { client, ready };
  session = mine;
  ready.catch(() => {}); // reported by the merge that waits on it
  return () => {
    client.dispose();
    if (session === mine) session = null;
    propertiesPanelStore.result = null;
    propertiesPanelStore.resultKey = '';
  };
}

/** Gives the worker the comparison's earlier values (null: comparison off). */
export async function setMergeComparison(data: CompareResponse | null): Promise<void> {
  if (!session) return;
  await session.client.api.setEarlier(data ? earlierValuesOf(data) : null);
}

/**
 * Merges the selected objects (object-table indices) in the worker, restricted to `type` when given; the
 * result lands in the store under `key` unless a later request overtook it.
 */
export async function mergeSelection(indices: Int32Array, type: string | null, key: string): Promise<void> {
  const s = session;
  if (!s) return;
  const id = ++requests;
  propertiesPanelStore.busy = true;
  propertiesPanelStore.error = null;
  try {
    await s.ready;
    const result = await s.client.api.merge({ indices, type });
    if (id !== requests) return;
    propertiesPanelStore.result = ref(result);
    propertiesPanelStore.resultKey = key;
  } catch (e) {
    if (id === requests) propertiesPanelStore.error = (e as Error).message;
  } finally {
    if (id === requests) propertiesPanelStore.busy = false;
  }
}
