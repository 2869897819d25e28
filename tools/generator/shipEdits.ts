/**
 * Known edits of a generated ship, so that two generations (without and with edits) are two revisions
 * whose differences are exactly known (revision comparison tests and the compare bench). Every other part
 * keeps its @id and GUID: a removed plate still takes its id number, an added plate gets an id of its own.
 * Parts are named by their @name (plan names are unique); metres as in shipLayout.ts.
 */
import type { GradeName, PanelDesc, PlateDesc, StiffenerDesc, Vec3 } from './shipLayout';

/** One edit. */
export type ShipEdit =
  /** A plate's or bracket's thickness, mm. */
  | { kind: 'thickness'; part: string; thicknessMm: number }
  /** A plate's, bracket's or stiffener's material grade. */
  | { kind: 'material'; part: string; grade: GradeName }
  /** A stiffener's trace moved by `offset` (m). */
  | { kind: 'move'; part: string; offset: Vec3 }
  /** A plate left out of the ship. */
  | { kind: 'remove'; part: string }
  /**
   * A new plate `name` in the panel of plate `copyOf`: that plate's outline moved by `offset` (m), with the
   * @id `id` (it must not look like a planned id, `pl<number>`).
   */
  | { kind: 'add'; copyOf: string; name: string; id: string; offset: Vec3 };

const shift = (p: Vec3, o: Vec3): Vec3 => [p[0] + o[0], p[1] + o[1], p[2] + o[2]];

/**
 * The panel with the edits that concern it applied (the same object when none does).
 * @throws Error when an 'add' copies a curved plate (only outline plates can be moved), or its id looks
 *   planned.
 */
export function editPanel(panel: PanelDesc, edits: readonly ShipEdit[]): PanelDesc {
  if (!edits.length) return panel;
  const names = new Set<string>([
    ...panel.plates.map((x) => x.name),
    ...panel.brackets.map((x) => x.name),
    ...panel.stiffeners.map((x) => x.name),
  ]);
  const mine = edits.filter((e) => names.has(e.kind === 'add' ? e.copyOf : e.part));
  if (!mine.length) return panel;
  const forPart = (name: string) => mine.filter((e) => e.kind !== 'add' && e.part === name);
  const plates: PlateDesc[] = panel.plates.map((p) => {
    let q = p;
    for (const e of forPart(p.name)) {
      if (e.kind === 'thickness') q = { ...q, thicknessMm: e.thicknessMm };
      else if (e.kind === 'material') q = { ...q, grade: e.grade };
      else if (e.kind === 'remove') q = { ...q, removed: true };
    }
    return q;
  });
  for (const e of mine) {
    if (e.kind !== 'add') continue;
    const src = panel.plates.find((p) => p.name === e.copyOf);
    if (!src?.outline) throw new Error(`Ship edit: plate ${e.copyOf} has no outline to copy`);
    if (/^pl\d+$/.test(e.id)) throw new Error(`Ship edit: id ${e.id} looks like a planned plate id`);
    plates.push({
      ...src,
      name: e.name,
      id: e.id,
      outline: src.outline.map((p) => shift(p, e.offset)),
      holes: undefined,
    });
  }
  const brackets = panel.brackets.map((b) => {
    let q = b;
    for (const e of forPart(b.name)) {
      if (e.kind === 'thickness') q = { ...q, thicknessMm: e.thicknessMm };
      else if (e.kind === 'material') q = { ...q, grade: e.grade };
    }
    return q;
  });
  const stiffeners: StiffenerDesc[] = panel.stiffeners.map((s) => {
    let q = s;
    for (const e of forPart(s.name)) {
      if (e.kind === 'material') q = { ...q, grade: e.grade };
      else if (e.kind === 'move') q = { ...q, path: q.path.map((p) => shift(p, e.offset)) };
    }
    return q;
  });
  return { ...panel, plates, brackets, stiffeners };
}
