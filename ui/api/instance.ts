/**
 * The viewer's steel, ship-model, geometry and lifecycle data calls of viewer.md §7 (served by
 * api/routes/steelData.ts, geometry.ts and instance.ts), typed by the contract. Lengths in metres.
 */
import {
  BracketMaterialDirectionsResponseSchema,
  QuantitiesResponseSchema,
  ShutdownResponseSchema,
  SurfaceNormalsResponseSchema,
  WebFlangeDirectionsResponseSchema,
} from '../../api/contract';
import { request } from './client';

const base = '/api/keelson-instance';

/** Which revision of which model, and the viewer's client id. */
export interface InstanceTarget {
  modelName: string;
  revision: number | 'latest';
  viewerId?: string;
}

/**
 * POST .../steel/quantities (or .../ship-model/quantities with `shipModel`): per name its quantities, `qnts`
 * such as 'W/PS,thickness'; `limits` 'xMin,xMax,yMin,yMax,zMin,zMax' in m (steel only).
 */
export const getQuantities = (
  at: InstanceTarget,
  names: string[],
  qnts: string,
  opts: { limits?: string; shipModel?: boolean } = {},
) =>
  request('POST', `${base}/${opts.shipModel ? 'ship-model' : 'steel'}/quantities`, QuantitiesResponseSchema, {
    query: { ...at, qnts, limits: opts.shipModel ? undefined : opts.limits },
    body: names,
  });

/** POST .../steel/stiffener-web-flange-directions: per profile id (and optional point, m) its web and flange. */
export const getWebFlangeDirections = (
  at: InstanceTarget,
  entries: { id: string; point?: { x: number; y: number; z: number } }[],
) =>
  request('POST', `${base}/steel/stiffener-web-flange-directions`, WebFlangeDirectionsResponseSchema, {
    query: { ...at },
    body: entries,
  });

/** POST .../steel/bracket-material-directions: per bracket id the direction into its steel. */
export const getBracketMaterialDirections = (at: InstanceTarget, ids: string[]) =>
  request('POST', `${base}/steel/bracket-material-directions`, BracketMaterialDirectionsResponseSchema, {
    query: { ...at },
    body: ids,
  });

/** POST .../geometry/surface-normals-at-points: per point (m) the nearest surface's normal. */
export const getSurfaceNormals = (at: InstanceTarget, points: { x: number; y: number; z: number }[]) =>
  request('POST', `${base}/geometry/surface-normals-at-points`, SurfaceNormalsResponseSchema, {
    query: { ...at },
    body: points,
  });

/** POST .../maintenance/shutdown when the viewer closes; silent (the viewer is going away). */
export const shutdownInstance = (at: InstanceTarget) =>
  request('POST', `${base}/maintenance/shutdown`, ShutdownResponseSchema, {
    query: { modelName: at.modelName, modelRevision: at.revision, viewerId: at.viewerId },
    silent: true,
  });
