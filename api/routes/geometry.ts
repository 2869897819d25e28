/**
 * Geometry calls (viewer.md §7 "Geometry"):
 * POST /api/keelson-instance/geometry/surface-objects?modelName&revision&viewerId, body = object names.
 * Each name (an object's name, else its OCX id) resolves to the revision's objects; every planar part
 * among them gets a surface object derived on the server from the `.sc` geometry
 * (engine/annotate/surfaceObject.ts). Unknown names and parts without a planar face are reported in
 * `skipped`, not as an error. 400 names the failing field; 404 for an unknown project or revision.
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
} from '../contract/geometry';
import { defineRoute } from './define';
import { Access } from '../access/rules';
import { loadRevision, loadSectionIndex } from '../projects/loadRevision';

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
      const byName = namesOf(rev.data);
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
}

/** Object indices by display name, built once per parsed revision. */
const nameIndex = new WeakMap<object, Map<string, number[]>>();
function namesOf(data: { objects: readonly { index: number; name: string }[] }): Map<string, number[]> {
  let m = nameIndex.get(data);
  if (!m) {
    m = new Map();
    for (const o of data.objects) {
      const l = m.get(o.name);
      if (l) l.push(o.index);
      else m.set(o.name, [o.index]);
    }
    nameIndex.set(data, m);
  }
  return m;
}
