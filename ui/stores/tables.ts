/**
 * The floating table panel's state (viewer.md §2 "Floating table panel", §7 "Tables"; application.md §2):
 * open or closed, the table types and names of the open revision, the table shown ('Loading table...' while
 * it loads), its sort order, and the panel's place and size. Choosing a row selects its
 * parts in 3D through the engine facade; the CSV export downloads what the panel shows.
 */
import { proxy, ref } from 'valtio';
import type { Table } from '../../api/contract';
import { getTableNames, getTableTypes, readTable } from '../api/tables';
import {
  type PanelRect,
  type SortDirection,
  defaultTableRect,
  sortRows,
  tableCsv,
  tableCsvFileName,
} from '../logic/tableView';
import { currentProjectStore } from './currentProject';
import { getEngine, viewerStore } from './viewer';

export const tablesStore = proxy({
  open: false,
  modelName: '',
  revision: 'latest' as number | 'latest',
  types: [] as string[],
  type: null as string | null,
  names: [] as string[],
  name: null as string | null,
  /** The table shown; kept out of valtio's tracking (ref) because it may hold 100,000 rows. */
  table: null as Table | null,
  /** Row indices in display order (ref). */
  order: [] as number[],
  loading: false,
  error: null as string | null,
  sortColumn: null as string | null,
  sortDirection: 'ascending' as SortDirection,
  /** The place and size the user gave the panel (clamped to the viewer area when shown). */
  rect: defaultTableRect(),
});

/** Counts requests so that a late answer of an older choice never replaces a newer one. */
let seq = 0;

function showTable(table: Table | null): void {
  tablesStore.table = table ? ref(table) : null;
  tablesStore.sortColumn = null;
  tablesStore.sortDirection = 'ascending';
  tablesStore.order = ref(table ? sortRows(table, null, 'ascending') : []);
}

async function load<T>(work: () => Promise<T>, apply: (value: T) => void | Promise<void>): Promise<void> {
  const mine = ++seq;
  tablesStore.loading = true;
  tablesStore.error = null;
  try {
    const value = await work();
    if (mine !== seq) return;
    await apply(value);
  } catch (e) {
    if (mine === seq) tablesStore.error = (e as Error).message;
  } finally {
    if (mine === seq) tablesStore.loading = false;
  }
}

/** Shows table `name` of the current type. */
export function chooseTable(name: string): Promise<void> {
  tablesStore.name = name;
  showTable(null);
  const { modelName, revision } = tablesStore;
  return load(
    () => readTable(modelName, revision, name),
    (t) => showTable(t),
  );
}

/** Lists the tables of `type` and shows its first one. */
export function chooseTableType(type: string): Promise<void> {
  tablesStore.type = type;
  tablesStore.names = [];
  tablesStore.name = null;
  showTable(null);
  const { modelName, revision } = tablesStore;
  return load(
    () => getTableNames(modelName, revision, type),
    async (r) => {
      tablesStore.names = r.names;
      if (r.names.length) await chooseTable(r.names[0]);
    },
  );
}

/** Opens the panel on the viewer's model and revision, listing the table types and showing the first table. */
export function openTablePanel(modelName: string): Promise<void> {
  const revision = viewerStore.revision ?? 'latest';
  const same = tablesStore.modelName === modelName && tablesStore.revision === revision && tablesStore.types.length;
  tablesStore.open = true;
  if (same && (tablesStore.table || tablesStore.loading)) return Promise.resolve();
  tablesStore.modelName = modelName;
  tablesStore.revision = revision;
  tablesStore.types = [];
  tablesStore.type = null;
  tablesStore.names = [];
  tablesStore.name = null;
  showTable(null);
  return load(
    () => getTableTypes(modelName, revision),
    async (r) => {
      tablesStore.types = r.types;
      if (r.types.length) await chooseTableType(r.types[0]);
    },
  );
}

/** Closes the panel (it keeps its table, place and size for the next opening). */
export function closeTablePanel(): void {
  tablesStore.open = false;
}

/** The top-right table-view toggle (viewer.md §2): on the open viewer's model. */
export function toggleTablePanel(): void {
  const modelName = currentProjectStore.modelName;
  if (tablesStore.open || !modelName) closeTablePanel();
  else void openTablePanel(modelName);
}

/** Forgets the table of a viewer that closed (another model or revision opens fresh). */
export function resetTables(): void {
  seq++;
  tablesStore.open = false;
  tablesStore.modelName = '';
  tablesStore.types = [];
  tablesStore.type = null;
  tablesStore.names = [];
  tablesStore.name = null;
  tablesStore.loading = false;
  tablesStore.error = null;
  showTable(null);
}

/** A click on a column header: sorts by it ascending, or flips the direction when it already sorts. */
export function sortTableBy(column: string): void {
  const t = tablesStore.table;
  if (!t) return;
  const direction: SortDirection =
    tablesStore.sortColumn === column && tablesStore.sortDirection === 'ascending' ? 'descending' : 'ascending';
  tablesStore.sortColumn = column;
  tablesStore.sortDirection = direction;
  tablesStore.order = ref(sortRows(t, column, direction));
}

/** Chooses row `index` (into table.rows): selects its parts in 3D (viewer.md §4 selection). */
export function chooseTableRow(index: number): void {
  const row = tablesStore.table?.rows[index];
  if (!row) return;
  void getEngine()?.api.setSelection([...row.objects]);
}

/** Moves and resizes the panel (CSS px; the component clamps what it shows). */
export function setTableRect(rect: PanelRect): void {
  tablesStore.rect = { ...rect };
}

/** Downloads the table as shown (sorted, formatted) as '{model} {table}.csv'. */
export function exportTableCsv(): void {
  const t = tablesStore.table;
  if (!t) return;
  const url = URL.createObjectURL(new Blob([tableCsv(t, tablesStore.order)], { type: 'text/csv' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = tableCsvFileName(tablesStore.modelName, t.name);
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
