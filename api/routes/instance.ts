/**
 * Instance calls for the viewer (viewer.md §7; application.md §7 "Instance calls"), answered from the
 * revision's objects.json / properties.json through the RevisionCache. Lengths leave in metres
 * (engine millimetres ÷ 1000):
 * GET /api/keelson-instance/model/objects, GET .../model/properties, GET .../model/property-columns,
 * GET .../maintenance/status, POST .../maintenance/shutdown, GET .../ship-model/purpose-colors; the steel and
 * ship-model data calls (quantities, directions) are in steelData.ts, registered with these.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { PROPERTY_CATALOGUE } from '../../engine/model/properties';
import { purposeColor } from '../../engine/section/purposeColors';
import { PurposeColorsQuerySchema, type PurposeColorsResponse } from '../contract/colouring';
import {
  MaintenanceQuerySchema,
  ModelQuerySchema,
  PropertiesQuerySchema,
  PropertyColumnsQuerySchema,
  type MaintenanceStatus,
  type ModelObjectsResponse,
  type PropertiesResponse,
  type PropertyColumnsResponse,
  type ShutdownResponse,
} from '../contract/models';
import { defineRoute } from './define';
import steelDataRoutes from './steelData';
import { Access } from '../access/rules';
import { Errors } from '../errors';
import { normaliseProjectName } from '../projects/ProjectStore';
import { boxToMetres, loadRevision, planeToMetres } from '../projects/loadRevision';

export default async function instanceRoutes(app: FastifyInstance): Promise<void> {
  const { projects, conversions } = app.ctx;
  const base = '/api/keelson-instance';

  const load = (modelName: string, revision: number | 'latest') => loadRevision(app, modelName, revision);
  await steelDataRoutes(app);

  defineRoute(app, {
    method: 'GET',
    url: `${base}/model/objects`,
    access: Access.byModel,
    query: ModelQuerySchema,
    handler: async ({ query: q }): Promise<ModelObjectsResponse> => {
      const { name, number, data } = await load(q.modelName, q.revision);
      return {
        info: {
          name: data.info.name,
          schemaVersion: data.info.schemaVersion,
          originatingSystem: data.info.originatingSystem,
          timeStamp: data.info.timeStamp,
          bounds: boxToMetres(data.info.bounds) ?? [0, 0, 0, 0, 0, 0],
          modelName: name,
          revision: number,
          warnings: data.warnings.length,
        },
        objects: data.objects.map((o) => ({
          index: o.index,
          id: o.id,
          guid: o.guid,
          name: o.name,
          type: o.type,
          element: o.element,
          parent: o.parent,
          block: o.block,
          bounds: boxToMetres(o.bounds),
        })),
        frames: {
          x: data.frames.x.map(planeToMetres),
          y: data.frames.y.map(planeToMetres),
          z: data.frames.z.map(planeToMetres),
        },
        blockSystems: data.blockSystems,
      };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `${base}/model/properties`,
    access: Access.byModel,
    query: PropertiesQuerySchema,
    handler: async ({ query: q }): Promise<PropertiesResponse> => {
      const { data } = await load(q.modelName, q.revision);
      const obj = data.objects[q.index];
      if (!obj) throw Errors.objectNotFound(q.index);
      const rec = data.properties[q.index] ?? {};
      const properties = PROPERTY_CATALOGUE.filter((d) => rec[d.name] !== undefined && rec[d.name] !== null).map(
        (d) => ({
          name: d.name,
          description: d.description,
          unit: d.unit,
          isSummable: d.isSummable,
          value: rec[d.name],
        }),
      );
      return { index: obj.index, id: obj.id, properties };
    },
  });

  // One column per code, parallel to the object table: the engine's sections and labels read these.
  defineRoute(app, {
    method: 'GET',
    url: `${base}/model/property-columns`,
    access: Access.byModel,
    query: PropertyColumnsQuerySchema,
    handler: async ({ query: q }): Promise<PropertyColumnsResponse> => {
      const codes = [
        ...new Set(
          q.codes
            .split(',')
            .map((s) => s.trim().toUpperCase())
            .filter(Boolean),
        ),
      ];
      if (codes.length > 32) throw Errors.badRequest("Invalid field 'codes': at most 32 property codes");
      const { data } = await load(q.modelName, q.revision);
      const columns: Record<string, (number | string | null)[]> = {};
      for (const code of codes) columns[code] = data.properties.map((rec) => rec?.[code] ?? null);
      return { codes, columns };
    },
  });

  // Compartment purposes and their colours for colouring compartments by purpose (application.md §4).
  defineRoute(app, {
    method: 'GET',
    url: `${base}/ship-model/purpose-colors`,
    access: Access.byModel,
    query: PurposeColorsQuerySchema,
    handler: async ({ query: q }): Promise<PurposeColorsResponse> => {
      const { data } = await load(q.modelName, q.revision);
      const counts = new Map<string, number>();
      let compartments = 0;
      data.objects.forEach((o, i) => {
        if (o.type !== 'COMPARTMENT') return;
        compartments++;
        const p = data.properties[i]?.PURP;
        const purpose = typeof p === 'string' ? p.trim() : '';
        if (purpose) counts.set(purpose, (counts.get(purpose) ?? 0) + 1);
      });
      const purposes = [...counts.entries()]
        .sort(([a], [b]) => a.localeCompare(b, 'en'))
        .map(([purpose, count]) => ({ purpose, color: purposeColor(purpose), count }));
      return { hasArrangement: compartments > 0, purposes };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `${base}/maintenance/status`,
    access: Access.byModel,
    query: MaintenanceQuerySchema,
    handler: async ({ query: q }): Promise<MaintenanceStatus> => {
      const name = normaliseProjectName(q.modelName);
      const revs = await projects.revisions(name);
      const ready = q.modelRevision === 'latest' ? revs.length > 0 : revs.some((r) => r.number === q.modelRevision);
      if (ready) return { status: 'Ok' };
      if (conversions.running(name)) return { status: 'Preparing' };
      // Nothing to prepare: the model or the revision does not exist (not a service failure).
      if (revs.length === 0) throw Errors.projectNotFound(name);
      throw Errors.revisionNotFound(name, q.modelRevision);
    },
  });

  // The viewer closes (viewer.md §7 "Instance lifecycle"): the server's per-revision resources are the
  // RevisionCache's parsed files and geometry. They are dropped only when no other viewer of the project has
  // used them within the viewer time-out (RevisionCache.viewers), so one viewer closing does not make the
  // others reload; a later call of any viewer loads the revision again.
  defineRoute(app, {
    method: 'POST',
    url: `${base}/maintenance/shutdown`,
    access: Access.byModel,
    query: MaintenanceQuerySchema,
    handler: async ({ query: q }): Promise<ShutdownResponse> => {
      const name = normaliseProjectName(q.modelName);
      const row = await projects.revision(name, q.modelRevision);
      const cache = app.ctx.revisionCache;
      return {
        released: cache.viewers.release(name, q.viewerId) ? cache.drop(await projects.revisionDir(row)) : 0,
      };
    },
  });
}

/** The instance calls' prefix (viewer.md §7). */
const INSTANCE_PREFIX = '/api/keelson-instance/';
const SHUTDOWN_PATH = `${INSTANCE_PREFIX}maintenance/shutdown`;

/**
 * An app-wide onResponse hook: every successful instance call carrying `modelName` and `viewerId` (≤ 100
 * characters, as the contract bounds it) renews that viewer's hold on the project's cached data
 * (RevisionCache.viewers), so maintenance/shutdown of another viewer leaves it in place. Failed calls, and
 * so projects the caller may not see, never register; the shutdown call itself ends the hold.
 */
export function renewViewerHold(ctx: AppContext) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (reply.statusCode >= 400 || !request.url.startsWith(INSTANCE_PREFIX)) return;
    if (request.url.startsWith(SHUTDOWN_PATH)) return;
    const q = request.query as { modelName?: unknown; viewerId?: unknown } | undefined;
    if (typeof q?.modelName !== 'string' || typeof q.viewerId !== 'string') return;
    if (!q.viewerId || q.viewerId.length > 100) return;
    try {
      ctx.revisionCache.viewers.touch(normaliseProjectName(q.modelName), q.viewerId);
    } catch {
      // An invalid name was already refused by the call itself; nothing to hold.
    }
  };
}
