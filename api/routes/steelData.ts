/**
 * Steel and ship-model data calls (viewer.md §7 "Steel", "Ship model"), answered from the revision's
 * objects.json / properties.json through the RevisionCache, in metres (API convention):
 *
 * - POST /api/keelson-instance/steel/quantities?modelName&revision&qnts&limits&viewerId  body: names or ids
 * - POST /api/keelson-instance/ship-model/quantities?modelName&revision&qnts&viewerId  body: names or ids
 *   (quantity names, qualifiers and limits: api/instance/quantities.ts)
 * - POST /api/keelson-instance/steel/stiffener-web-flange-directions?modelName&revision&viewerId
 *   body [{ id, point? }] → per entry webDirection and flangeDirection {nx, ny, nz}
 * - POST /api/keelson-instance/steel/bracket-material-directions?modelName&revision&viewerId
 *   body: bracket names or ids → per entry materialDirection {nx, ny, nz}
 *
 * The directions come from the OCX orientation data the importer keeps (engine/model/orientation.ts): a
 * profile's Inclinations (WebDirection, FlangeDirection) and a bracket's material side (its plane's normal
 * and Offset). An unknown id, an object of another kind, or a revision converted before that data was kept
 * answers null, not an error. 400 names the failing field; 404 for an unknown project or revision.
 */
import type { FastifyInstance } from 'fastify';
import {
  decodeInclinations,
  directionsAt,
  INCLINATIONS_CODE,
  MATERIAL_DIRECTION_CODES,
  type Triple,
} from '../../engine/model/orientation';
import {
  type BracketMaterialDirectionsResponse,
  type Direction,
  ModelQuerySchema,
  QuantitiesBodySchema,
  QuantitiesQuerySchema,
  type QuantitiesResponse,
  ShipModelQuantitiesQuerySchema,
  WebFlangeDirectionsBodySchema,
  type WebFlangeDirectionsResponse,
} from '../contract/models';
import { Access } from '../access/rules';
import { resolveName } from '../instance/objectIndex';
import { parseLimits, parseQuantities, quantitiesOf } from '../instance/quantities';
import { loadRevision } from '../projects/loadRevision';
import { defineRoute } from './define';

const PROFILE_TYPES = ['STIFFENER', 'PILLAR'];
const asDirection = (d: Triple): Direction => ({ nx: d[0], ny: d[1], nz: d[2] });

export default async function steelDataRoutes(app: FastifyInstance): Promise<void> {
  const base = '/api/keelson-instance';

  defineRoute(app, {
    method: 'POST',
    url: `${base}/steel/quantities`,
    access: Access.byModel,
    query: QuantitiesQuerySchema,
    body: QuantitiesBodySchema,
    handler: async ({ query: q, body }): Promise<QuantitiesResponse> => {
      const requests = parseQuantities(q.qnts);
      const limits = parseLimits(q.limits);
      const { data } = await loadRevision(app, q.modelName, q.revision);
      return quantitiesOf(data, body, requests, 'steel', limits);
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: `${base}/ship-model/quantities`,
    access: Access.byModel,
    query: ShipModelQuantitiesQuerySchema,
    body: QuantitiesBodySchema,
    handler: async ({ query: q, body }): Promise<QuantitiesResponse> => {
      // compartments have no parts below them to choose by kind: only T (total) applies
      const requests = parseQuantities(q.qnts, 'T');
      const { data } = await loadRevision(app, q.modelName, q.revision);
      return quantitiesOf(data, body, requests, 'ship');
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: `${base}/steel/stiffener-web-flange-directions`,
    access: Access.byModel,
    query: ModelQuerySchema,
    body: WebFlangeDirectionsBodySchema,
    handler: async ({ query: q, body }): Promise<WebFlangeDirectionsResponse> => {
      const { data } = await loadRevision(app, q.modelName, q.revision);
      return body.map(({ id, point }) => {
        const i = resolveName(data, id).find((k) => PROFILE_TYPES.includes(data.objects[k].type));
        const text = i === undefined ? undefined : data.properties[i]?.[INCLINATIONS_CODE];
        const list = typeof text === 'string' ? decodeInclinations(text) : [];
        const at = list.length ? directionsAt(list, point ? [point.x, point.y, point.z] : list[0].position) : null;
        return {
          id,
          webDirection: at ? asDirection(at.web) : null,
          flangeDirection: at ? asDirection(at.flange) : null,
        };
      });
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: `${base}/steel/bracket-material-directions`,
    access: Access.byModel,
    query: ModelQuerySchema,
    body: QuantitiesBodySchema,
    handler: async ({ query: q, body }): Promise<BracketMaterialDirectionsResponse> => {
      const { data } = await loadRevision(app, q.modelName, q.revision);
      return body.map((id) => {
        const i = resolveName(data, id).find((k) => data.objects[k].type === 'BRACKET');
        const p = i === undefined ? undefined : data.properties[i];
        const d = MATERIAL_DIRECTION_CODES.map((c) => p?.[c]);
        return {
          id,
          materialDirection: d.every((x) => typeof x === 'number') ? asDirection(d as Triple) : null,
        };
      });
    },
  });
}
