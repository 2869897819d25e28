/**
 * The floating table panel (viewer.md §2 "Floating table panel", §7 "Tables", §9 "Panels"; application.md §2):
 * a type and a table choice, 'Loading table...' while a table loads, sortable columns, virtualised rows (a row
 * click selects its parts in 3D), CSV export, a close button; moved by its title bar and resized by its corner,
 * never smaller than 500×200 and kept 48 px above the bottom of the viewer.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { type PointerEvent as ReactPointerEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import type { Table } from '../../api/contract';
import { startDrag } from '../components/pointerDrag';
import { StrokeIcon } from '../components/StrokeIcon';
import { type PanelRect, clampTableRect, columnHeader, formatCell } from '../logic/tableView';
import {
  chooseTable,
  chooseTableRow,
  chooseTableType,
  closeTablePanel,
  exportTableCsv,
  resetTables,
  setTableRect,
  sortTableBy,
  tablesStore,
  toggleTablePanel,
} from '../stores/tables';
import { viewerStore } from '../stores/viewer';

/** Row height of the table, px. */
const ROW_HEIGHT = 26;

/** The size of the element (the viewer area), following its resizes. */
function useAreaSize(ref: React.RefObject<HTMLDivElement | null>): { width: number; height: number } {
  const [size, setSize] = useState({ width: 0, height: 0 });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = () => setSize({ width: el.clientWidth, height: el.clientHeight });
    update();
    const ro = new ResizeObserver(update);
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return size;
}

function TableGrid({ table, order }: { table: Table; order: readonly number[] }) {
  const { sortColumn, sortDirection } = useSnapshot(tablesStore);
  const { selection } = useSnapshot(viewerStore);
  // a row shows as selected while the 3D selection is exactly its parts (a click elsewhere clears it)
  const selected = useMemo(() => new Set(selection.map((s) => s.nodeId)), [selection]);
  const isSelected = (objects: readonly number[]) =>
    objects.length > 0 && objects.length === selected.size && objects.every((o) => selected.has(o));
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: order.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });
  const template = `repeat(${table.columns.length}, minmax(110px, 1fr))`;
  return (
    <div ref={scrollRef} className="min-h-0 flex-1 overflow-auto text-xs">
      <table aria-label={table.name} aria-rowcount={order.length + 1} className="block min-w-max">
        <thead className="sticky top-0 z-10 block border-b border-slate-200 bg-slate-50 font-medium text-slate-600">
          <tr className="grid" style={{ gridTemplateColumns: template }}>
            {table.columns.map((c) => {
              const sorted = sortColumn === c.name;
              return (
                <th
                  key={c.name}
                  scope="col"
                  aria-sort={sorted ? sortDirection : 'none'}
                  className="min-w-0 font-medium"
                >
                  <button
                    type="button"
                    className="flex w-full items-center gap-1 truncate px-2 py-1 text-left hover:bg-slate-100"
                    onClick={() => sortTableBy(c.name)}
                  >
                    <span className="truncate">{columnHeader(c)}</span>
                    {sorted && <span aria-hidden="true">{sortDirection === 'ascending' ? '▲' : '▼'}</span>}
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className="relative block" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((vi) => {
            const index = order[vi.index];
            const row = table.rows[index];
            const chosen = isSelected(row.objects);
            return (
              <tr
                key={vi.key}
                aria-rowindex={vi.index + 2}
                aria-selected={chosen}
                data-row-index={index}
                className={`absolute left-0 grid w-full cursor-pointer border-b border-slate-100 ${chosen ? 'bg-brand-100 text-brand-700' : 'hover:bg-slate-50'}`}
                style={{ gridTemplateColumns: template, height: ROW_HEIGHT, transform: `translateY(${vi.start}px)` }}
                onClick={() => chooseTableRow(index)}
              >
                {table.columns.map((c) => {
                  const text = formatCell(row.cells[c.name] ?? null, c);
                  return (
                    <td
                      key={c.name}
                      title={text}
                      className={`truncate px-2 leading-[26px] ${c.unit ? 'text-right font-mono' : ''}`}
                    >
                      {text}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** The top-right table-view toggle (viewer.md §2), enabled once the model is ready. */
export function TableToggle() {
  const { open } = useSnapshot(tablesStore);
  const { phase } = useSnapshot(viewerStore);
  return (
    <button
      type="button"
      className={`btn-ghost ${open ? 'bg-brand-50 text-brand-700' : ''}`}
      aria-pressed={open}
      disabled={phase !== 'ready'}
      onClick={toggleTablePanel}
      title="Table view"
    >
      <StrokeIcon>
        <path d="M3 4h14v12H3zM3 8h14M3 12h14M8 4v12" />
      </StrokeIcon>
      Table
    </button>
  );
}

/** The panel; rendered inside the viewer area, positioned against it. */
export function TablePanel({ modelName }: { modelName: string }) {
  const s = useSnapshot(tablesStore);
  const areaRef = useRef<HTMLDivElement>(null);
  const area = useAreaSize(areaRef);
  const typeId = useId();
  const nameId = useId();
  useEffect(() => () => resetTables(), [modelName]);
  const rect = useMemo(
    () => (area.width > 0 ? clampTableRect(s.rect as PanelRect, area.width, area.height) : (s.rect as PanelRect)),
    [s.rect, area.width, area.height],
  );
  // ref'd values: the snapshot holds the store's own objects
  const table = s.table as Table | null;
  const order = s.order as readonly number[];

  const move = (e: ReactPointerEvent) => {
    if ((e.target as HTMLElement).closest('button, select')) return;
    const start = rect;
    startDrag(e, (dx, dy) => setTableRect({ ...start, left: start.left + dx, top: start.top + dy }));
  };
  const resize = (e: ReactPointerEvent) => {
    const start = rect;
    startDrag(e, (dx, dy) => setTableRect({ ...start, width: start.width + dx, height: start.height + dy }));
  };

  return (
    <div ref={areaRef} className="pointer-events-none absolute inset-x-0 top-14 bottom-0">
      {s.open && (
        <section
          aria-label="Table"
          data-testid="table-panel"
          className="panel pointer-events-auto absolute z-20 flex flex-col overflow-hidden"
          style={{ left: rect.left, top: rect.top, width: rect.width, height: rect.height }}
        >
          <header
            className="flex cursor-move flex-nowrap items-center gap-2 border-b border-slate-200 px-2 py-1 select-none"
            onPointerDown={move}
          >
            <span data-testid="table-move" aria-hidden="true" className="shrink-0 px-1 text-slate-400" title="Move">
              ⠿
            </span>
            <label htmlFor={typeId} className="shrink-0 text-xs font-medium text-slate-500">
              Type
            </label>
            <select
              id={typeId}
              className="w-40 min-w-0 shrink rounded border border-slate-300 bg-white px-1 py-0.5 text-xs"
              value={s.type ?? ''}
              disabled={s.types.length === 0}
              onChange={(e) => void chooseTableType(e.target.value)}
            >
              {s.types.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
            <label htmlFor={nameId} className="shrink-0 text-xs font-medium text-slate-500">
              Table
            </label>
            <select
              id={nameId}
              className="w-40 min-w-0 shrink rounded border border-slate-300 bg-white px-1 py-0.5 text-xs"
              value={s.name ?? ''}
              disabled={s.names.length === 0}
              onChange={(e) => void chooseTable(e.target.value)}
            >
              {s.names.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
            <span data-testid="table-row-count" className="shrink-0 text-xs whitespace-nowrap text-slate-500">
              {table ? `${table.rows.length} row(s)` : ''}
            </span>
            <span className="min-w-0 flex-1" />
            <button
              type="button"
              className="btn-ghost shrink-0 text-xs whitespace-nowrap"
              disabled={!table}
              onClick={exportTableCsv}
              title="Export the table as CSV"
            >
              Export CSV
            </button>
            <button type="button" className="btn-ghost shrink-0" aria-label="Close table" onClick={closeTablePanel}>
              <StrokeIcon>
                <path d="M5 5l10 10M15 5L5 15" />
              </StrokeIcon>
            </button>
          </header>
          {s.loading ? (
            <p role="status" className="p-3 text-sm text-slate-500">
              Loading table...
            </p>
          ) : s.error ? (
            <p role="alert" className="p-3 text-sm text-rose-700">
              {s.error}
            </p>
          ) : table ? (
            // keyed by the table and sort so the virtualiser starts at the top of a new order
            <TableGrid key={`${table.name}|${s.sortColumn}|${s.sortDirection}`} table={table} order={order} />
          ) : (
            <p className="p-3 text-sm text-slate-500">No tables for this model.</p>
          )}
          <div
            aria-hidden="true"
            data-testid="table-resize"
            className="absolute right-0 bottom-0 h-3 w-3 cursor-se-resize"
            onPointerDown={resize}
          />
        </section>
      )}
    </div>
  );
}
