/**
 * Tables of model data (viewer.md §7 "Tables", §2 floating table panel; application.md §2, §7 "Instance calls"):
 * - GET /api/keelson-instance/table/types?modelName&revision → TableTypesResponse (the types with at least one table)
 * - GET /api/keelson-instance/table/names?modelName&revision&type → TableNamesResponse
 * - GET /api/keelson-instance/table/read?modelName&revision&name → Table
 * 404 'Table type {type} not found' / 'Table {name} not found' for an unknown type or name.
 *
 * Values are in the API's units (lengths and coordinates m, weight t, area m², volume m³); each column names
 * the display unit the viewer formats its values with (engine/model/properties.ts DISPLAY_UNITS: 'mm' shows a
 * thickness stored in m as millimetres).
 */
import * as v from 'valibot';
import { requiredString, viewerIdParam } from './common';
import { revisionParam } from './models';

/** Table types (the panel's first choice). */
export const TABLE_TYPES = ['Weights', 'Part lists', 'Compartments', 'Revision changes'] as const;
export type TableType = (typeof TABLE_TYPES)[number];

/** Longest table type or name a client may send, characters. */
export const TABLE_NAME_MAX_LENGTH = 100;

const modelQuery = {
  modelName: requiredString(),
  revision: revisionParam(),
  viewerId: viewerIdParam(),
};

/** GET .../table/types query. */
export const TableTypesQuerySchema = v.object(modelQuery);

/** GET .../table/names query. */
export const TableNamesQuerySchema = v.object({
  ...modelQuery,
  type: requiredString('Field is required', TABLE_NAME_MAX_LENGTH),
});

/** GET .../table/read query. */
export const TableReadQuerySchema = v.object({
  ...modelQuery,
  name: requiredString('Field is required', TABLE_NAME_MAX_LENGTH),
});

/** GET .../table/types response. */
export const TableTypesResponseSchema = v.object({ types: v.array(v.string()) });
export type TableTypesResponse = v.InferOutput<typeof TableTypesResponseSchema>;

/** GET .../table/names response: the tables of one type, in display order. */
export const TableNamesResponseSchema = v.object({ type: v.string(), names: v.array(v.string()) });
export type TableNamesResponse = v.InferOutput<typeof TableNamesResponseSchema>;

/**
 * A column: `header` is the text shown, `name` the key of its cells in each row, `unit` the display unit key
 * ('' for text and counts).
 */
export const TableColumnSchema = v.object({ header: v.string(), name: v.string(), unit: v.string() });
export type TableColumn = v.InferOutput<typeof TableColumnSchema>;

/** A cell: text, a number in the API unit of its column, or null when the model has no value. */
export const TableCellSchema = v.nullable(v.union([v.string(), v.number()]));
export type TableCell = v.InferOutput<typeof TableCellSchema>;

/**
 * A row: its cells keyed by column name, and the object-table indices of the revision's parts it stands for
 * (one part, or every part of a group); selecting the row selects them in 3D. Empty for a part the revision
 * no longer has (a removed part of a change list).
 */
export const TableRowSchema = v.object({
  cells: v.record(v.string(), TableCellSchema),
  objects: v.array(v.number()),
});
export type TableRow = v.InferOutput<typeof TableRowSchema>;

/** GET .../table/read response: viewer.md §7 "Table has columns (header, name) and rows". */
export const TableSchema = v.object({
  name: v.string(),
  type: v.string(),
  columns: v.array(TableColumnSchema),
  rows: v.array(TableRowSchema),
});
export type Table = v.InferOutput<typeof TableSchema>;
