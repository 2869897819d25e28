/**
 * Blocks and block systems from the OCX DesignViews (OCX_GUIDE §2.4; viewer.md §3 "Block", "Block system").
 * A DesignView is an alternative product tree: nested OccurrenceGroups whose Occurrences point to parts.
 * Each view the file has is one block system; a block is the innermost group enclosing an occurrence (an
 * occurrence outside any group is a block of its own), and a part belongs to the first block that
 * references it within a view. Nothing here depends on a writer: NAPA names its view ('OCX-MODEL8/A'
 * with groups 'STR*LBH' ...), AVEVA writes an unnamed view whose one top group ('PrtByStrType') holds
 * the blocks, the generator writes 'Production blocks' with 'B1', 'B2' ...
 */
import type { BlockSystem } from '../model/types';
import { ownText } from './catalogue';
import type { XNode } from './xmlTree';

/** Adds part id → block name for the occurrences of one view to `into` (an id already there keeps its block). */
function viewBlocks(view: XNode, into: Map<string, string>): void {
  const visit = (n: XNode, group: string | null) => {
    if (n.n === 'OccurrenceGroup') group = n.a.name ?? n.a.id ?? group;
    if (n.n === 'Occurrence') {
      const block = group ?? n.a.name ?? null;
      if (block) for (const r of n.c) if (r.a.localRef && !into.has(r.a.localRef)) into.set(r.a.localRef, block);
      return;
    }
    for (const c of n.c) visit(c, group);
  };
  visit(view, null);
}

/** Block name per referenced part id over all views, the first view that references a part winning. */
export function blocksOf(views: XNode[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const v of views) viewBlocks(v, out);
  return out;
}

const nonEmpty = (s: string | undefined): string | null => (s?.trim() ? s.trim() : null);

/**
 * The name of a view's block system: its @name; else, when the view has one top OccurrenceGroup that
 * only groups other groups (AVEVA's 'PrtByStrType'), that group's name; else its Description, else @id.
 */
export function blockSystemName(view: XNode): string {
  const own = nonEmpty(view.a.name);
  if (own) return own;
  const tops = view.c.filter((c) => c.n === 'OccurrenceGroup');
  if (
    tops.length === 1 &&
    tops[0].c.some((c) => c.n === 'OccurrenceGroup') &&
    !tops[0].c.some((c) => c.n === 'Occurrence')
  ) {
    const top = nonEmpty(tops[0].a.name);
    if (top) return top;
  }
  const description = view.c.find((c) => c.n === 'Description')?.t;
  return nonEmpty(description) ?? nonEmpty(view.a.id) ?? 'Design view';
}

/**
 * The block systems of a file: one per DesignView that references at least one imported part, in file
 * order; blocks in document order, each with the object-table indices of its parts, ascending. Equal
 * system names get ' (2)', ' (3)' ... so a name identifies a system.
 * @param indexOf object-table index of a part's OCX @id, undefined for ids that are not objects
 */
export function blockSystemsOf(views: XNode[], indexOf: (id: string) => number | undefined): BlockSystem[] {
  const out: BlockSystem[] = [];
  const taken = new Set<string>();
  for (const view of views) {
    const parts = new Map<string, string>();
    viewBlocks(view, parts);
    const blocks = new Map<string, number[]>();
    for (const [id, block] of parts) {
      const i = indexOf(id);
      if (i === undefined) continue;
      let list = blocks.get(block);
      if (!list) blocks.set(block, (list = []));
      list.push(i);
    }
    if (!blocks.size) continue;
    const base = blockSystemName(view);
    let name = base;
    for (let k = 2; taken.has(name); k++) name = `${base} (${k})`;
    taken.add(name);
    out.push({
      name: ownText(name),
      blocks: [...blocks].map(([b, objects]) => ({ name: ownText(b), objects: objects.sort((x, y) => x - y) })),
    });
  }
  return out;
}
