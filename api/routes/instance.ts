/**
 * Instance calls for the viewer (viewer.md §7; application.md §7 "Instance calls"), answered from the
 * revision's objects.json / properties.json through the RevisionCache. Lengths leave in metres
 * (engine millimetres ÷ 1000):
 * GET /api/keelson-instance/model/objects, GET .../model/properties, POST .../steel/quantities,
 * GET .../maintenance/status.
 */
import type { FastifyInstance } from 'fastify';
import type * as v from 'valibot';
import { PROPERTY_CATALOGUE } from '../../engine/model/properties';
import {
  MaintenanceQuerySchema,
  ModelQuerySchema,
  PropertiesQuerySchema,
  PropertyColumnsQuerySchema,
  QuantitiesBodySchema,
  QuantitiesQuerySchema,
  type MaintenanceStatus,
  type ModelObjectsResponse,
  type PropertiesResponse,
  type PropertyColumnsResponse,
  type QuantitiesResponse,
} from '../contract/models';
import { validate } from './validate';
import { requireUser } from '../context';
import { Errors } from '../errors';
import { normaliseProjectName } from '../projects/ProjectStore';
import { boxToMetres, loadRevision, planeToMetres } from '../projects/loadRevision';

export default async function instanceRoutes(app: FastifyInstance): Promise<void> {
  const { projects, conversions } = app.ctx;
  const base = '/api/keelson-instance';

  const load = (modelName: string, revision: number | 'latest') => loadRevision(app, modelName, revision);

  app.get(
    `${base}/model/objects`,
    { preValidation: validate({ query: ModelQuerySchema }) },
    async (request): Promise<ModelObjectsResponse> => {
      requireUser(request);
      const q = request.query as v.InferOutput<typeof ModelQuerySchema>;
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
      };
    },
  );

  app.get(
    `${base}/model/properties`,
    { preValidation: validate({ query: PropertiesQuerySchema }) },
    async (request): Promise<PropertiesResponse> => {
      requireUser(request);
      const q = request.query as v.InferOutput<typeof PropertiesQuerySchema>;
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
  );

  // One column per code, parallel to the object table: the engine's sections and labels read these.
  app.get(
    `${base}/model/property-columns`,
    { preValidation: validate({ query: PropertyColumnsQuerySchema }) },
    async (request): Promise<PropertyColumnsResponse> => {
      requireUser(request);
      const q = request.query as v.InferOutput<typeof PropertyColumnsQuerySchema>;
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
  );

  // qnts: catalogue codes, each optionally with '/qualifiers' (viewer.md §7), e.g. 'W,AREA/H'.
  app.post(
    `${base}/steel/quantities`,
    { preValidation: validate({ query: QuantitiesQuerySchema, body: QuantitiesBodySchema }) },
    async (request): Promise<QuantitiesResponse> => {
      requireUser(request);
      const q = request.query as v.InferOutput<typeof QuantitiesQuerySchema>;
      const ids = request.body as string[];
      const codes = q.qnts
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const { data } = await load(q.modelName, q.revision);
      return ids.map((id) => {
        const i = data.byId.get(id);
        const rec = i === undefined ? undefined : data.properties[i];
        const quantities: Record<string, number | string | null> = {};
        for (const c of codes) quantities[c] = rec?.[c.split('/')[0].toUpperCase()] ?? null;
        return { id, quantities };
      });
    },
  );

  app.get(
    `${base}/maintenance/status`,
    { preValidation: validate({ query: MaintenanceQuerySchema }) },
    async (request): Promise<MaintenanceStatus> => {
      requireUser(request);
      const q = request.query as v.InferOutput<typeof MaintenanceQuerySchema>;
      const name = normaliseProjectName(q.modelName);
      const revs = await projects.revisions(name);
      const ready = q.modelRevision === 'latest' ? revs.length > 0 : revs.some((r) => r.number === q.modelRevision);
      if (ready) return { status: 'Ok' };
      return { status: conversions.running(name) ? 'Preparing' : 'Unavailable' };
    },
  );
}
