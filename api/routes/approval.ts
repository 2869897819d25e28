/**
 * Object approval status calls (application.md §7 "Object status"; viewer.md §7 "Geometry approval"); the
 * shapes are in api/contract/approval.ts.
 *
 * /api/viewer/approval-status: reading the options needs a signed-in user; creating, changing and deleting
 * them needs admin:view (application.md §6: administrators edit status options). 400 with the §5 name text,
 * 403 for the fixed default and removed statuses, 404 for an unknown id.
 *
 * /api/viewer/geometry/approval-status: reading needs read access to the project; changing needs write
 * access to it (upload:model: those who may change the project's model may also approve its parts).
 * Objects are named by OCX id; ids the revision does not hold are left out of the answers.
 */
import type { FastifyInstance } from 'fastify';
import { Access, hasPermission } from '../access/rules';
import { ObjectStatuses, objectKey } from '../approval/ObjectStatuses';
import { StatusOptions, statusToApi } from '../approval/StatusOptions';
import {
  type ApprovalHistoryEntry,
  type ApprovalStatus,
  type ApprovalStatusCount,
  APPROVAL_CHANGE_PERMISSION,
  ApprovalStatusBodySchema,
  ApprovalStatusIdQuerySchema,
  type ApprovalStatusOptions,
  type ApprovalStatusUsage,
  GeometryApprovalQuerySchema,
  GeometryApprovalRevisionQuerySchema,
  type GeometryApprovalStatus,
  GeometryHistoryQuerySchema,
  GeometryIdsBodySchema,
} from '../contract/approval';
import { Errors } from '../errors';
import { type LoadedRevision, loadRevision } from '../projects/loadRevision';
import { defineRoute } from './define';

export default async function approvalRoutes(app: FastifyInstance): Promise<void> {
  const options = new StatusOptions(app.ctx.db);
  const statuses = new ObjectStatuses(app.ctx.db);
  const base = '/api/viewer/approval-status';
  const geo = '/api/viewer/geometry/approval-status';
  const admin = Access.permission('admin:view');

  defineRoute(app, {
    method: 'GET',
    url: `${base}/all`,
    access: Access.signedIn,
    handler: async (): Promise<ApprovalStatus[]> => (await options.rows()).map(statusToApi),
  });

  defineRoute(app, {
    method: 'GET',
    url: `${base}/options`,
    access: Access.signedIn,
    handler: async (): Promise<ApprovalStatusOptions> => {
      const { defaultStatus, removedStatus, order } = await options.options();
      return { defaultStatus, removedStatus, order };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `${base}/usage`,
    access: admin,
    query: ApprovalStatusIdQuerySchema,
    handler: async ({ query }): Promise<ApprovalStatusUsage> => ({ geometries: await options.usage(query.id) }),
  });

  defineRoute(app, {
    method: 'GET',
    url: base,
    access: Access.signedIn,
    query: ApprovalStatusIdQuerySchema,
    handler: async ({ query }): Promise<ApprovalStatus> => statusToApi(await options.get(query.id)),
  });

  defineRoute(app, {
    method: 'POST',
    url: base,
    access: admin,
    body: ApprovalStatusBodySchema,
    handler: async ({ body }): Promise<{ id: number }> => ({ id: await options.create(body.name, body.color) }),
  });

  defineRoute(app, {
    method: 'PUT',
    url: base,
    access: admin,
    query: ApprovalStatusIdQuerySchema,
    body: ApprovalStatusBodySchema,
    handler: async ({ query, body }): Promise<ApprovalStatus> => {
      await options.update(query.id, body.name, body.color);
      return statusToApi(await options.get(query.id));
    },
  });

  defineRoute(app, {
    method: 'DELETE',
    url: base,
    access: admin,
    query: ApprovalStatusIdQuerySchema,
    handler: async ({ query, user }): Promise<{ success: boolean }> => {
      await options.remove(query.id, user);
      return { success: true };
    },
  });

  /** The revision's parts (objects with geometry) keyed by OCX id. */
  function keysOf(rev: LoadedRevision, ids: readonly string[]): Map<string, string> {
    const out = new Map<string, string>();
    for (const id of ids) {
      const i = rev.data.byId.get(id);
      if (i !== undefined) out.set(id, objectKey(rev.data.objects[i]));
    }
    return out;
  }

  /** The statuses of `ids` (OCX ids) in the revision as the API answers them. */
  async function answer(rev: LoadedRevision, ids: readonly string[]): Promise<GeometryApprovalStatus[]> {
    const keys = keysOf(rev, ids);
    const { defaultStatus, byId } = await options.options();
    const set = await statuses.read(rev.name, rev.number, [...keys.values()]);
    const out: GeometryApprovalStatus[] = [];
    for (const [id, key] of keys) {
      const row = byId.get(set.get(key) ?? defaultStatus);
      if (!row) continue;
      out.push({
        geometry: id,
        approvalStatus: statusToApi(row),
        changeInProgress: statuses.inProgress(rev.name, key),
      });
    }
    return out;
  }

  const readRule = Access.read((i: { query: { projectName: string } }) => i.query.projectName);

  defineRoute(app, {
    method: 'GET',
    url: `${geo}/all`,
    access: readRule,
    query: GeometryApprovalRevisionQuerySchema,
    handler: async ({ query }): Promise<GeometryApprovalStatus[]> => {
      const rev = await loadRevision(app, query.projectName, query.revision);
      const set = await statuses.read(rev.name, rev.number, 'all');
      const ids = rev.data.objects.filter((o) => set.has(objectKey(o))).map((o) => o.id);
      return answer(rev, ids);
    },
  });

  // One path, two calls (application.md §7): with approvalStatusId the body's objects get that status
  // (project write access), without it their statuses are read (read access).
  defineRoute(app, {
    method: 'POST',
    url: geo,
    access: readRule,
    query: GeometryApprovalQuerySchema,
    body: GeometryIdsBodySchema,
    handler: async ({ query, body, user }): Promise<GeometryApprovalStatus[]> => {
      const rev = await loadRevision(app, query.projectName, query.revision);
      if (query.approvalStatusId !== undefined) {
        if (!hasPermission(user, APPROVAL_CHANGE_PERMISSION))
          throw Errors.missingPermission(APPROVAL_CHANGE_PERMISSION);
        const { defaultStatus, removedStatus, byId } = await options.options();
        const target = byId.get(query.approvalStatusId);
        if (!target) throw Errors.badRequest(`Status option ${query.approvalStatusId} not found`);
        if (target.id === removedStatus) throw Errors.badRequest(`Status "${target.name}" cannot be given to objects`);
        await statuses.set({
          project: rev.name,
          revision: rev.number,
          keys: [...keysOf(rev, body).values()],
          statusId: target.id,
          names: new Map([...byId].map(([id, r]) => [id, r.name])),
          defaultStatus,
          by: user,
        });
      }
      return answer(rev, body);
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `${geo}/revision-geometry-approval-status-count`,
    access: readRule,
    query: GeometryApprovalRevisionQuerySchema,
    handler: async ({ query }): Promise<ApprovalStatusCount[]> => {
      const rev = await loadRevision(app, query.projectName, query.revision);
      const { defaultStatus, byId, order } = await options.options();
      const set = await statuses.read(rev.name, rev.number, 'all');
      const counts = new Map<number, number>(order.map((id) => [id, 0]));
      for (const o of rev.data.objects) {
        if (!o.bounds) continue;
        const s = set.get(objectKey(o)) ?? defaultStatus;
        counts.set(s, (counts.get(s) ?? 0) + 1);
      }
      return order.map((id) => {
        const r = byId.get(id)!;
        return { approvalStatusId: id, name: r.name, color: r.color, count: counts.get(id) ?? 0 };
      });
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `${geo}/history`,
    access: readRule,
    query: GeometryHistoryQuerySchema,
    handler: async ({ query }): Promise<ApprovalHistoryEntry[]> => {
      const rev = await loadRevision(app, query.projectName, query.revision);
      const i = rev.data.byId.get(query.geometry);
      if (i === undefined) throw Errors.badRequest(`Object ${query.geometry} not found in revision ${rev.number}`);
      return statuses.history(rev.name, objectKey(rev.data.objects[i]), rev.number);
    },
  });
}
