/**
 * The table calls of viewer.md §7 "Tables" (GET /api/keelson-instance/table/types, /names?type, /read?name),
 * parsed with the contract (api/contract/tables.ts; values in m, t, m², m³).
 */
import { TableNamesResponseSchema, TableSchema, TableTypesResponseSchema } from '../../api/contract';
import { request } from './client';

const base = '/api/keelson-instance/table';

/** The table types the revision has tables of. */
export const getTableTypes = (modelName: string, revision: number | 'latest') =>
  request('GET', `${base}/types`, TableTypesResponseSchema, { query: { modelName, revision } });

/** The names of one type's tables. */
export const getTableNames = (modelName: string, revision: number | 'latest', type: string) =>
  request('GET', `${base}/names`, TableNamesResponseSchema, { query: { modelName, revision, type } });

/** One table: columns (header, name, unit) and rows (cells, objects). */
export const readTable = (modelName: string, revision: number | 'latest', name: string) =>
  request('GET', `${base}/read`, TableSchema, { query: { modelName, revision, name } });
