/**
 * The table panel's pure rules (ui/logic/tableView.ts; viewer.md §9 "Panels", §3 "Units"): the panel's
 * default rectangle and its clamping (minimum 500×200, 48 px above the viewer's bottom), cell display in the
 * column's unit, sorting (numbers by value, text naturally, empty cells last) and the CSV text.
 */
import { describe, expect, it } from 'vitest';
import type { Table } from '../../api/contract';
import {
  clampTableRect,
  columnHeader,
  defaultTableRect,
  formatCell,
  sortRows,
  tableCsv,
  tableCsvFileName,
} from '../../ui/logic/tableView';

const table: Table = {
  name: 'Plates',
  type: 'Part lists',
  columns: [
    { name: 'name', header: 'Name', unit: '' },
    { name: 'thickness', header: 'Thickness', unit: 'mm' },
    { name: 'weight', header: 'Weight', unit: 't' },
  ],
  rows: [
    { cells: { name: 'P10', thickness: 0.012, weight: 1.5 }, objects: [4] },
    { cells: { name: 'P2', thickness: null, weight: 0.25 }, objects: [7] },
    { cells: { name: 'P1, "aft"', thickness: 0.009, weight: 1.5 }, objects: [9] },
  ],
};

describe('panel geometry', () => {
  it('defaults to 1200×200 at left 100, top 20', () => {
    expect(defaultTableRect()).toEqual({ left: 100, top: 20, width: 1200, height: 200 });
  });

  it('fits a narrow area by shrinking, never below 500×200, and keeps 48 px free at the bottom', () => {
    // 900 px wide area: the width shrinks to 900 and the panel moves to the left edge
    expect(clampTableRect(defaultTableRect(), 900, 700)).toEqual({ left: 0, top: 20, width: 900, height: 200 });
    // a resize past the bottom stops 48 px above it
    expect(clampTableRect({ left: 100, top: 20, width: 600, height: 1000 }, 1400, 700)).toEqual({
      left: 100,
      top: 0,
      width: 600,
      height: 652,
    });
    // dragged below: moved up so that its bottom is 48 px above the area's
    expect(clampTableRect({ left: 100, top: 600, width: 600, height: 200 }, 1400, 700).top).toBe(452);
    // the minimum holds even when asked smaller
    const small = clampTableRect({ left: 10, top: 10, width: 100, height: 50 }, 1400, 700);
    expect([small.width, small.height]).toEqual([500, 200]);
  });
});

describe('cells', () => {
  it('shows numbers in the column unit and headers with the unit', () => {
    expect(formatCell(0.012, table.columns[1])).toBe('12.0');
    expect(formatCell(1.5, table.columns[2])).toBe('1.500');
    expect(formatCell(null, table.columns[1])).toBe('');
    expect(formatCell(7, { name: 'parts', header: 'Parts', unit: '' })).toBe('7');
    expect(columnHeader(table.columns[1])).toBe('Thickness [mm]');
    expect(columnHeader(table.columns[0])).toBe('Name');
  });
});

describe('sorting', () => {
  it('sorts text naturally, numbers by value with ties in server order, empty cells last', () => {
    expect(sortRows(table, 'name', 'ascending')).toEqual([2, 1, 0]);
    expect(sortRows(table, 'name', 'descending')).toEqual([0, 1, 2]);
    expect(sortRows(table, 'weight', 'ascending')).toEqual([1, 0, 2]);
    expect(sortRows(table, 'weight', 'descending')).toEqual([0, 2, 1]);
    expect(sortRows(table, 'thickness', 'ascending')).toEqual([2, 0, 1]);
    expect(sortRows(table, 'thickness', 'descending')).toEqual([0, 2, 1]);
    expect(sortRows(table, null, 'ascending')).toEqual([0, 1, 2]);
  });
});

describe('CSV', () => {
  it('writes the headers and displayed cells in the shown order, quoting where needed', () => {
    expect(tableCsv(table, [2, 0, 1])).toBe(
      'Name,Thickness [mm],Weight [t]\r\n"P1, ""aft""",9.0,1.500\r\nP10,12.0,1.500\r\nP2,,0.250\r\n',
    );
    expect(tableCsvFileName('DEMO_SHIP', 'Weight by block')).toBe('DEMO_SHIP Weight by block.csv');
    expect(tableCsvFileName('M', 'a/b')).toBe('M a_b.csv');
  });
});
