/**
 * Geometry calls (viewer.md §7 "Geometry"):
 * POST /api/keelson-instance/geometry/surface-objects?modelName&revision&viewerId, body = object names.
 * Each name (an object's name, else its OCX id) resolves to the revision's objects; every planar part
 * among them gets a surface object derived on the server from the `.sc` geometry
 * (engine/annotate/surfaceObject.ts). Unknown names and parts without a planar face are reported in
 * `skipped`, not as an error.
 * POST /api/keelson-instance/geometry/surface-normals-at-points?modelName&revision&viewerId, body = points (m).
 * Each point gets the nearest triangle of the revision's `.sc` geometry (engine/section/nearestSurface.ts)
 * and its normal, turned toward the point.
 * 400 names the failing field; 404 for an unknown project or revision.
 */
import type { FastifyInstance } from 'fastify';
import { objectGeometry } from '../../engine/annotate/indexGeometry';
import { deriveSurfaceObject, type SurfaceObject } from '../../engine/annotate/surfaceObject';
import type * as v from 'valibot';
import {
  type SurfaceObjectSchema,
  SurfaceObjectsBodySchema,
  SurfaceObjectsQuerySchema,
  type SurfaceObjectsResponse,
  SurfaceNormalsBodySchema,
  type SurfaceNormalsResponse,
} from '../contract/geometry';
import { defineRoute } from './define';
import { Access } from '../access/rules';
import { loadRevision, loadSectionIndex } from '../projects/loadRevision';
import { objectsByName } from '../instance/objectIndex';
import { nearestSurface } from '../../engine/section/nearestSurface';

/** True when A and B are the same type (each assignable to the other). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
/**
 * One surface-object shape: the engine declares it (engine/annotate/surfaceObject.ts, which may not import
 * api/) and the contract's schema (api/contract, which may import only valibot) must describe exactly it;
 * a drift on either side fails the type check here, where both layers may be imported.
 */
export type SurfaceObjectShapeCheck = Assert<Same<v.InferOutput<typeof SurfaceObjectSchema>, SurfaceObject>>;

export default async function geometryRoutes(app: FastifyInstance): Promise<void> {
  defineRoute(app, {
    method: 'POST',
    url: '/api/keelson-instance/geometry/surface-objects',
    access: Access.byModel,
    query: SurfaceObjectsQuerySchema,
    body: SurfaceObjectsBodySchema,
    handler: async ({ query: q, body }): Promise<SurfaceObjectsResponse> => {
      const names = body;
      const rev = await loadRevision(app, q.modelName, q.revision);
      const index = await loadSectionIndex(app, rev);
      const { objects, byId } = rev.data;
      const byName = objectsByName(rev.data);
      const out: SurfaceObjectsResponse = { surfaceObjects: [], skipped: [] };
      for (const name of new Set(names)) {
        const hits = byName.get(name) ?? (byId.has(name) ? [byId.get(name)!] : []);
        if (hits.length === 0) {
          out.skipped.push({ name, reason: 'unknown' });
          continue;
        }
        for (const i of hits) {
          const o = objects[i];
          const g = objectGeometry(index, i);
          if (g.triangles.length === 0 && g.edges.length === 0) {
            out.skipped.push({ name: o.name, reason: 'no-geometry' });
            continue;
          }
          const so = deriveSurfaceObject(o.name, g, { bracket: o.type === 'BRACKET', tolerance: g.tolerance });
          if (so) out.surfaceObjects.push(so);
          else out.skipped.push({ name: o.name, reason: 'not-planar' });
        }
      }
      return out;
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/api/keelson-instance/geometry/surface-normals-at-points',
    access: Access.byModel,
    query: SurfaceObjectsQuerySchema,
    body: SurfaceNormalsBodySchema,
    handler: async ({ query: q, body }): Promise<SurfaceNormalsResponse> => {
      const rev = await loadRevision(app, q.modelName, q.revision);
      const index = await loadSectionIndex(app, rev);
      return body.map((point) => {
        const hit = nearestSurface(index, [point.x * 1000, point.y * 1000, point.z * 1000]);
        const o = hit ? rev.data.objects[hit.object] : undefined;
        return {
          point,
          normal: hit ? { nx: hit.normal[0], ny: hit.normal[1], nz: hit.normal[2] } : null,
          id: o?.id ?? null,
          name: o?.name ?? null,
          distance: hit ? hit.distance / 1000 : null,
        };
      });
    },
  });
}
