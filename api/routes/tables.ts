/**
 * Tables of model data (viewer.md §7 "Tables"; application.md §7 "Instance calls"), read by whoever sees the
 * project (a project the user may not see answers 404 as a missing one):
 * - GET /api/keelson-instance/table/types?modelName&revision → { types }
 * - GET /api/keelson-instance/table/names?modelName&revision&type → { type, names }
 * - GET /api/keelson-instance/table/read?modelName&revision&name → { name, type, columns, rows }
 * Answered from the revision's parsed files (RevisionCache) and, for the change lists, the comparisons already
 * computed (CompareService); values in metres, tonnes, m², m³ (api/contract/tables.ts).
 */
import type { FastifyInstance } from 'fastify';
import { Access } from '../access/rules';
import {
  TableNamesQuerySchema,
  TableReadQuerySchema,
  TableTypesQuerySchema,
  type Table,
  type TableNamesResponse,
  type TableTypesResponse,
} from '../contract/tables';
import { ApiError } from '../errors';
import { loadRevision } from '../projects/loadRevision';
import { type TableContext, readTable, tableNames, tableTypes } from '../tables/tableCatalogue';
import { defineRoute } from './define';

/** Registers the table routes (see the module comment). */
export default async function tableRoutes(app: FastifyInstance): Promise<void> {
  const { projects, compare } = app.ctx;
  const base = '/api/keelson-instance/table';

  /** The revision's data and the earlier revisions whose comparison with it is computed. */
  async function context(modelName: string, revision: number | 'latest'): Promise<TableContext> {
    const rev = await loadRevision(app, modelName, revision);
    const rows = await projects.revisions(rev.name);
    const to = rows.find((r) => r.number === rev.number);
    const earlier = rows.filter((r) => r.number < rev.number);
    return {
      data: rev.data,
      comparedFrom: async () => {
        const out: number[] = [];
        if (to)
          for (const from of earlier) if ((await compare.status(rev.name, from, to)).cached) out.push(from.number);
        return out;
      },
      comparison: async (from) => {
        const fromRow = earlier.find((r) => r.number === from);
        if (!fromRow || !to) throw new Error(`Revision ${from} of project ${rev.name} is gone`);
        try {
          return await compare.get(rev.name, fromRow, to);
        } catch (e) {
          app.log.error({ err: e, project: rev.name, from, to: rev.number }, 'comparison failed');
          throw new ApiError(
            'CompareFailed',
            500,
            `Revisions ${from} and ${rev.number} of project ${rev.name} cannot be compared`,
            'error',
          );
        }
      },
    };
  }

  defineRoute(app, {
    method: 'GET',
    url: `${base}/types`,
    access: Access.byModel,
    query: TableTypesQuerySchema,
    handler: async ({ query: q }): Promise<TableTypesResponse> => ({
      types: await tableTypes(await context(q.modelName, q.revision)),
    }),
  });

  defineRoute(app, {
    method: 'GET',
    url: `${base}/names`,
    access: Access.byModel,
    query: TableNamesQuerySchema,
    handler: async ({ query: q }): Promise<TableNamesResponse> => ({
      type: q.type,
      names: await tableNames(await context(q.modelName, q.revision), q.type),
    }),
  });

  defineRoute(app, {
    method: 'GET',
    url: `${base}/read`,
    access: Access.byModel,
    query: TableReadQuerySchema,
    handler: async ({ query: q }): Promise<Table> => readTable(await context(q.modelName, q.revision), q.name),
  });
}
