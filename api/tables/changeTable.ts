/**
 * The revision change list as a table (viewer.md §7 "Tables"; application.md §4 "Revision comparison"): the
 * plates, stiffeners and brackets added, changed or removed between an earlier revision and this one, from the
 * cached comparison (api/compare/CompareService.ts).
 */
import type { CompareResponse } from '../contract/compare';
import type { Table, TableRow } from '../contract/tables';

/** Name of the change table against earlier revision `from`. */
export const changeTableName = (from: number): string => `Changes since rev. ${from}`;

/** Parses a change table's name; the earlier revision's number, or null for another name. */
export function changeTableFrom(name: string): number | null {
  const m = /^Changes since rev\. (\d{1,9})$/.exec(name);
  return m ? Number(m[1]) : null;
}

/**
 * One row per added, changed and removed part (in that order): name, type, change ('Added', 'Changed',
 * 'Removed'), the changed properties (comma-separated, 'geometry' when the shape changed) and the OCX id.
 * Added and changed rows select the part in this (the later) revision; removed parts are not in it.
 */
export function changeTable(c: CompareResponse, name: string): Table {
  const rows: TableRow[] = [];
  for (const a of c.steelObjectsAdded)
    rows.push({
      cells: { name: a.name, type: a.type, change: 'Added', properties: '', id: a.stId },
      objects: [a.index],
    });
  for (const r of c.steelObjectsChanged) {
    const names: string[] = r.changedProperties.map((p) => p.name);
    if (r.geometryChanged) names.push('geometry');
    rows.push({
      cells: { name: r.name, type: r.type, change: 'Changed', properties: names.join(', '), id: r.stId },
      objects: [r.index],
    });
  }
  for (const r of c.steelObjectsRemoved)
    rows.push({ cells: { name: r.name, type: r.type, change: 'Removed', properties: '', id: r.stId }, objects: [] });
  return {
    name,
    type: 'Revision changes',
    columns: [
      { name: 'name', header: 'Name', unit: '' },
      { name: 'type', header: 'Type', unit: '' },
      { name: 'change', header: 'Change', unit: '' },
      { name: 'properties', header: 'Changed properties', unit: '' },
      { name: 'id', header: 'Id', unit: '' },
    ],
    rows,
  };
}
