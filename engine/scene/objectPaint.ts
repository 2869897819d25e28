/**
 * Painting many objects at once (application.md §4 "Revision comparison": added parts light blue, changed
 * green, all others at opacity 0.3; "Stopping restores the original appearance"). The per-call
 * setObjectColor / setObjectOpacity walk subtrees and take plain number lists; a comparison of a
 * 100k-part ship needs every object written, so this takes typed arrays of node ids (transferable across
 * the worker boundary) and writes the state table in one pass per style. Nodes are painted exactly as
 * listed (no descendants): comparison data names parts, not their panels.
 */
import type { ObjectType } from '../model/types';
import { DEFAULT_OBJECT_COLOR, type ObjectStateTable } from './ObjectStateTable';
import { colorForType } from './typeColors';

/**
 * How objects are drawn: `rgb` sRGB bytes 0..255, or null for the object type's own colour; `opacity`
 * 0..1, or null for the object's default (compartments see-through at `compartmentOpacity`, the rest 1).
 */
export interface PaintStyle {
  rgb: [number, number, number] | null;
  opacity: number | null;
}

/** A style for a set of node ids (object-table indices; ids outside the model are ignored). */
export interface PaintGroup extends PaintStyle {
  nodeIds: Uint32Array;
}

/** @throws Error naming the field when a colour is not three bytes or an opacity is outside 0..1. */
export function checkPaintStyle(style: PaintStyle, where: string): void {
  const { rgb, opacity } = style;
  if (rgb !== null && !(rgb.length === 3 && rgb.every((v) => Number.isInteger(v) && v >= 0 && v <= 255)))
    throw new Error(`${where}: colour ${JSON.stringify(rgb)} is not three bytes 0..255`);
  if (opacity !== null && !(opacity >= 0 && opacity <= 1))
    throw new Error(`${where}: opacity ${opacity} is not between 0 and 1`);
}

/**
 * Writes `groups` (a later group wins for a node listed twice) and, when `rest` is given, `rest` on every
 * other node. `types` gives each node's type for null colours and opacities (nodes beyond it: default grey,
 * opacity 1). One pass over the table plus one per style; O(objects).
 * @throws Error when a style is invalid (nothing is written then).
 */
export function paintStateTable(
  state: ObjectStateTable,
  types: readonly ObjectType[] | null,
  groups: readonly PaintGroup[],
  rest: PaintStyle | null,
  compartmentOpacity: number,
): void {
  groups.forEach((g, i) => checkPaintStyle(g, `paint group ${i}`));
  if (rest) checkPaintStyle(rest, 'paint rest');
  const count = state.count;
  // Style per node: the group index, -1 for the rest.
  const which = new Int32Array(count).fill(-1);
  groups.forEach((g, k) => {
    for (const n of g.nodeIds) if (n < count) which[n] = k;
  });
  const buckets: number[][] = groups.map(() => []);
  const others: number[] = [];
  for (let n = 0; n < count; n++) {
    const k = which[n];
    if (k >= 0) buckets[k].push(n);
    else if (rest) others.push(n);
  }
  groups.forEach((g, k) => apply(state, types, buckets[k], g, compartmentOpacity));
  if (rest) apply(state, types, others, rest, compartmentOpacity);
}

function apply(
  state: ObjectStateTable,
  types: readonly ObjectType[] | null,
  ids: number[],
  style: PaintStyle,
  compartmentOpacity: number,
): void {
  if (ids.length === 0) return;
  if (style.rgb) state.setColor(ids, style.rgb);
  else {
    // The type colours: one write per type present.
    const byType = new Map<ObjectType | null, number[]>();
    for (const n of ids) {
      const t = types && n < types.length ? types[n] : null;
      const list = byType.get(t);
      if (list) list.push(n);
      else byType.set(t, [n]);
    }
    for (const [t, list] of byType) state.setColor(list, t === null ? DEFAULT_OBJECT_COLOR : colorForType(t));
  }
  if (style.opacity !== null) state.setOpacity(ids, style.opacity);
  else {
    const spaces: number[] = [];
    const solid: number[] = [];
    for (const n of ids) (types && n < types.length && types[n] === 'COMPARTMENT' ? spaces : solid).push(n);
    state.setOpacity(solid, 1);
    state.setOpacity(spaces, compartmentOpacity);
  }
}
