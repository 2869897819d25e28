/**
 * Which objects' surface-object parameters the viewer asks for when the 'parameters' annotation toggle
 * is on (viewer.md §3 "Annotation settings", §7 "Geometry"): the selected objects, or
 * with nothing selected the visible plates, brackets and holes, largest first, up to a cap, so a large
 * ship costs one bounded call.
 */

/** Most objects asked for in one update. */
export const SURFACE_OBJECT_CAP = 200;

/** Object types whose parameters are drawn when nothing is selected. */
export const SURFACE_OBJECT_TYPES: ReadonlySet<string> = new Set(['PLATE', 'BRACKET', 'HOLE', 'COLLAR PLATE']);

/** The object table rows the choice needs (the API's model objects: bounds in m or null). */
export interface TargetObject {
  index: number;
  id: string;
  type: string;
  bounds: readonly number[] | null;
}

/**
 * OCX ids to ask for: the selected objects' ids (in selection order, at most `cap`), else the visible
 * objects of SURFACE_OBJECT_TYPES by decreasing bounds diagonal (ties by index), at most `cap`.
 */
export function surfaceObjectTargets(
  selection: readonly { keelsonId: string }[],
  objects: readonly TargetObject[] | null,
  isHidden: (index: number) => boolean,
  cap = SURFACE_OBJECT_CAP,
): string[] {
  if (selection.length > 0) return [...new Set(selection.map((s) => s.keelsonId))].slice(0, cap);
  if (!objects) return [];
  const size = (b: readonly number[] | null) => (b ? Math.hypot(b[3] - b[0], b[4] - b[1], b[5] - b[2]) : -1);
  return objects
    .filter((o) => SURFACE_OBJECT_TYPES.has(o.type) && o.bounds && !isHidden(o.index))
    .map((o) => ({ o, s: size(o.bounds) }))
    .sort((a, b) => b.s - a.s || a.o.index - b.o.index)
    .slice(0, cap)
    .map(({ o }) => o.id);
}
