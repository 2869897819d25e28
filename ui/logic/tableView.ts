/**
 * Pure rules of the floating table panel (viewer.md §2, §7 "Tables", §9 "Panels"): its geometry (default
 * 1200×200 at left 100, top 20; at least 500×200; kept 48 px above the bottom of the viewer), the display of
 * a cell in its column's unit, sorting, and the CSV export of what the panel shows.
 */
import { DISPLAY_UNITS } from '../../engine/model/properties';
import type { Table, TableCell, TableColumn } from '../../api/contract';

/** A panel rectangle in CSS px relative to the viewer area. */
export interface PanelRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** viewer.md §9 "Panels": the floating table's default place and size, its minimum and its bottom offset. */
export const TABLE_PANEL = {
  left: 100,
  top: 20,
  width: 1200,
  height: 200,
  minWidth: 500,
  minHeight: 200,
  bottomOffset: 48,
} as const;

/** The default rectangle of viewer.md §9. */
export const defaultTableRect = (): PanelRect => ({
  left: TABLE_PANEL.left,
  top: TABLE_PANEL.top,
  width: TABLE_PANEL.width,
  height: TABLE_PANEL.height,
});

/**
 * The rectangle shown in a viewer area of `areaWidth` × `areaHeight` px: at least the minimum size, inside the
 * area and ending at least the bottom offset above its bottom (the size shrinks first, down to the minimum,
 * then the panel moves). An area smaller than the minimum keeps the minimum at the area's origin.
 */
export function clampTableRect(r: PanelRect, areaWidth: number, areaHeight: number): PanelRect {
  const maxBottom = areaHeight - TABLE_PANEL.bottomOffset;
  const width = Math.max(TABLE_PANEL.minWidth, Math.min(r.width, areaWidth));
  const height = Math.max(TABLE_PANEL.minHeight, Math.min(r.height, maxBottom));
  const left = Math.max(0, Math.min(r.left, areaWidth - width));
  const top = Math.max(0, Math.min(r.top, maxBottom - height));
  return { left, top, width, height };
}

/** A column's header with its display unit, e.g. 'Thickness [mm]'. */
export function columnHeader(c: TableColumn): string {
  const u = c.unit ? DISPLAY_UNITS[c.unit] : undefined;
  return u ? `${c.header} [${u.label}]` : c.header;
}

/**
 * A cell as shown: a number in its column's display unit (factor and decimals of viewer.md §3 "Units"; counts
 * as integers), text as is, '' for no value.
 */
export function formatCell(value: TableCell, c: TableColumn): string {
  if (value === null) return '';
  if (typeof value === 'string') return value;
  const u = c.unit ? DISPLAY_UNITS[c.unit] : undefined;
  if (!u) return Number.isInteger(value) ? String(value) : value.toFixed(3);
  return (value * u.factor).toFixed(u.decimals);
}

/** Sort direction of a column. */
export type SortDirection = 'ascending' | 'descending';

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/**
 * Row order (indices into `table.rows`) sorted by `column`: numbers by value, text by natural order; empty
 * cells last in either direction; ties keep the server's order. `column` null gives the server's order.
 */
export function sortRows(table: Table, column: string | null, direction: SortDirection): number[] {
  const order = table.rows.map((_, i) => i);
  if (column === null) return order;
  const sign = direction === 'ascending' ? 1 : -1;
  const cell = (i: number) => table.rows[i].cells[column] ?? null;
  order.sort((a, b) => {
    const x = cell(a);
    const y = cell(b);
    if (x === null || y === null) return x === y ? a - b : x === null ? 1 : -1;
    const d = typeof x === 'number' && typeof y === 'number' ? x - y : collator.compare(String(x), String(y));
    return d !== 0 ? sign * d : a - b;
  });
  return order;
}

/** One CSV field (RFC 4180): quoted when it holds a comma, quote or line break. */
function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/**
 * The CSV text of the table as the panel shows it: a header line of column headers with units, then one line
 * per row in `order`, cells formatted as displayed; lines end with CRLF.
 */
export function tableCsv(table: Table, order: readonly number[]): string {
  const lines = [table.columns.map((c) => csvField(columnHeader(c))).join(',')];
  for (const i of order) {
    const row = table.rows[i];
    lines.push(table.columns.map((c) => csvField(formatCell(row.cells[c.name] ?? null, c))).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** The export's file name: '{model} {table}.csv' without characters file systems refuse. */
export function tableCsvFileName(modelName: string, tableName: string): string {
  return `${modelName} ${tableName}.csv`.replace(/[\\/:*?"<>|]/g, '_');
}
