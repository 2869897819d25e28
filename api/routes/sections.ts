/**
 * Section calls (viewer.md §7 steel / ship-model / cad-components section, ship sections).
 * Sections are cut on the server with the engine's kernel (engine/section/section.ts) from the
 * revision's `.sc` geometry (RevisionCache.sectionIndex); the coordinate uses the frame syntax of
 * viewer.md §5 (upper-cased) and is evaluated against the revision's reference planes. Points leave in
 * metres.
 *
 * GET /api/keelson-instance/steel/section?axis&coordinate&modelName&revision
 * GET /api/keelson-instance/ship-model/section?axis&coordinate&modelName&revision
 * GET /api/keelson-instance/cad-components/section?axis&coordinate&modelName&revision
 * POST / GET / DELETE /api/viewer/ship-sections  — any signed-in user may save; the creator or a user
 *   with 'admin:view' may delete (403 otherwise); 404 for an unknown project or section; 409 when the
 *   project already has a section of that name.
 */
import type { FastifyInstance } from 'fastify';
import { evaluateFrameExpression } from '../../engine/reference/frameSyntax';
import { computeSection, type SectionOptions } from '../../engine/section/section';
import {
  type SectionPolyline,
  type SectionResult,
  STEEL_CLASSES,
  SECTION_RELATIONS,
  sectionName,
} from '../../engine/section/types';
import {
  SectionQuerySchema,
  ShipSectionBodySchema,
  ShipSectionsQuerySchema,
  type CadComponentSectionsResponse,
  type CompartmentSectionsResponse,
  type SectionQuery,
  type ShipSection,
  type ShipSectionBody,
  type SteelSectionResponse,
} from '../contract/sections';
import { defineRoute } from './define';
import { Access } from '../access/rules';
import { ApiError, Errors } from '../errors';
import { normaliseProjectName } from '../projects/ProjectStore';
import { loadRevision, loadSectionIndex } from '../projects/loadRevision';

/** mm → m for flat point lists (rounded to 0.1 µm to keep JSON short); a plain array, as JSON needs. */
const toM = (pts: ArrayLike<number>): number[] => Array.from(pts, (x) => Math.round(x * 10) / 1e4);
const curvesToM = (cs: SectionPolyline[]) => cs.map((c) => ({ points: toM(c.points), closed: c.closed }));

/** The steel part of a section result in metres (API shape of GET .../steel/section). */
export function steelToApi(s: SectionResult, name: string): SteelSectionResponse {
  const out = {
    name,
    axis: s.axis,
    coordinate: s.coordinate / 1000,
    mainObjectsInSection: s.steel.mainObjectsInSection,
  } as Record<string, unknown>;
  for (const cls of STEEL_CLASSES) {
    const g: Record<string, unknown[]> = {};
    for (const rel of SECTION_RELATIONS)
      g[rel] = s.steel[cls][rel].map((c) => ({
        ...c,
        curves: curvesToM(c.curves),
        ...(c.length !== undefined ? { length: c.length / 1000 } : {}),
        ...(c.thickness !== undefined ? { thickness: c.thickness / 1000 } : {}),
        ...(c.centerline ? { centerline: toM(c.centerline) } : {}),
      }));
    out[cls] = g;
  }
  return out as SteelSectionResponse;
}

export default async function sectionRoutes(app: FastifyInstance): Promise<void> {
  const base = '/api/keelson-instance';
  const { db } = app.ctx;

  async function cut(q: SectionQuery, options: SectionOptions): Promise<{ result: SectionResult; name: string }> {
    const rev = await loadRevision(app, q.modelName, q.revision);
    const ev = evaluateFrameExpression(q.coordinate, rev.data.frames);
    if (!ev.ok) throw Errors.badRequest(ev.error);
    const index = await loadSectionIndex(app, rev);
    const model = { objects: rev.data.objects, properties: rev.data.properties, frames: rev.data.frames, index };
    return {
      result: computeSection(model, q.axis, ev.coordinate, { grid: false, ...options }),
      name: sectionName(q.axis, q.coordinate),
    };
  }

  defineRoute(app, {
    method: 'GET',
    url: `${base}/steel/section`,
    access: Access.byModel,
    query: SectionQuerySchema,
    handler: async ({ query: q }): Promise<SteelSectionResponse> => {
      const { result, name } = await cut(q, { compartments: false, cadComponents: false });
      return steelToApi(result, name);
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `${base}/ship-model/section`,
    access: Access.byModel,
    query: SectionQuerySchema,
    handler: async ({ query: q }): Promise<CompartmentSectionsResponse> => {
      const { result } = await cut(q, { steel: false, cadComponents: false });
      return result.compartments.map((c) => ({ ...c, curves: curvesToM(c.curves) }));
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `${base}/cad-components/section`,
    access: Access.byModel,
    query: SectionQuerySchema,
    handler: async ({ query: q }): Promise<CadComponentSectionsResponse> => {
      const { result } = await cut(q, { steel: false, compartments: false });
      return result.cadComponents.map((c) => ({ ...c, curves: curvesToM(c.curves) }));
    },
  });

  // Ship sections (viewer.md §7): shared per project.
  const rowToApi = (r: {
    name: string;
    axis: 'X' | 'Y' | 'Z';
    location: string;
    project_name: string;
    created_by: string;
  }): ShipSection => ({
    name: r.name,
    axis: r.axis,
    location: r.location,
    projectName: r.project_name,
    createdBy: r.created_by,
  });

  function checkedName(body: ShipSectionBody): string {
    const name = sectionName(body.axis, body.location);
    if (body.name !== undefined && body.name.trim().toUpperCase() !== name)
      throw Errors.badRequest(`Invalid field 'name': Must be axis + '=' + location ("${name}")`);
    return name;
  }

  // Saving needs read access to the project: a saved section is shared with everyone who sees it.
  const byBody = Access.read((i: { body: { projectName: string } }) => i.body.projectName);
  defineRoute(app, {
    method: 'POST',
    url: '/api/viewer/ship-sections',
    access: byBody,
    body: ShipSectionBodySchema,
    handler: async ({ body, user }): Promise<ShipSection> => {
      const name = checkedName(body);
      const project = normaliseProjectName(body.projectName);
      await app.ctx.projects.revision(project, 'latest');
      const exists = await db
        .selectFrom('ship_sections')
        .select('id')
        .where('project_name', '=', project)
        .where('name', '=', name)
        .executeTakeFirst();
      if (exists) throw new ApiError('Conflict', 409, `Section "${name}" already exists`, 'conflict');
      const row = {
        project_name: project,
        name,
        axis: body.axis,
        location: body.location,
        created_by: user.email.toLowerCase(),
        created_at: new Date().toISOString(),
      };
      await db.insertInto('ship_sections').values(row).execute();
      return rowToApi(row);
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/api/viewer/ship-sections',
    access: Access.byProject,
    query: ShipSectionsQuerySchema,
    handler: async ({ query: q }): Promise<ShipSection[]> => {
      const rows = await db
        .selectFrom('ship_sections')
        .selectAll()
        .where('project_name', '=', normaliseProjectName(q.projectName))
        .orderBy('name')
        .execute();
      return rows.map(rowToApi);
    },
  });

  defineRoute(app, {
    method: 'DELETE',
    url: '/api/viewer/ship-sections',
    access: byBody,
    body: ShipSectionBodySchema,
    handler: async ({ body, user }): Promise<{ success: boolean }> => {
      const name = checkedName(body);
      const project = normaliseProjectName(body.projectName);
      const row = await db
        .selectFrom('ship_sections')
        .selectAll()
        .where('project_name', '=', project)
        .where('name', '=', name)
        .executeTakeFirst();
      if (!row) throw new ApiError('NotFound', 404, `Section "${name}" not found in project ${project}`, 'notFound');
      const admin = user.userType === 'administrator' || user.permissions.includes('admin:view');
      if (!admin && row.created_by !== user.email.toLowerCase())
        throw Errors.forbidden('Only the creator of the section or a user with permission admin:view can delete it');
      await db.deleteFrom('ship_sections').where('id', '=', row.id).execute();
      return { success: true };
    },
  });
}
