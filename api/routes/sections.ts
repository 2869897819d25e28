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
import type * as v from 'valibot';
import { evaluateFrameExpression } from '../../engine/reference/frameSyntax';
import { computeSection, type SectionOptions } from '../../engine/section/section';
import {
  type SectionAxis,
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
  type ShipSection,
  type SteelSectionResponse,
} from '../contract/sections';
import { validate } from './validate';
import { requireUser } from '../context';
import { ApiError, Errors } from '../errors';
import { normaliseProjectName } from '../projects/ProjectStore';
import { loadRevision, loadSectionIndex } from '../projects/loadRevision';

/** mm → m for flat point lists (rounded to 0.1 µm to keep JSON short). */
const toM = (pts: number[]): number[] => pts.map((x) => Math.round(x * 10) / 1e4);
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

  async function cut(query: unknown, options: SectionOptions): Promise<{ result: SectionResult; name: string }> {
    const q = query as v.InferOutput<typeof SectionQuerySchema>;
    const rev = await loadRevision(app, q.modelName, q.revision);
    const ev = evaluateFrameExpression(q.coordinate, rev.data.frames);
    if (!ev.ok) throw Errors.badRequest(ev.error);
    const index = await loadSectionIndex(app, rev);
    const model = { objects: rev.data.objects, properties: rev.data.properties, frames: rev.data.frames, index };
    return {
      result: computeSection(model, q.axis as SectionAxis, ev.coordinate, { grid: false, ...options }),
      name: sectionName(q.axis as SectionAxis, q.coordinate),
    };
  }

  app.get(
    `${base}/steel/section`,
    { preValidation: validate({ query: SectionQuerySchema }) },
    async (request): Promise<SteelSectionResponse> => {
      requireUser(request);
      const { result, name } = await cut(request.query, { compartments: false, cadComponents: false });
      return steelToApi(result, name);
    },
  );

  app.get(
    `${base}/ship-model/section`,
    { preValidation: validate({ query: SectionQuerySchema }) },
    async (request): Promise<CompartmentSectionsResponse> => {
      requireUser(request);
      const { result } = await cut(request.query, { steel: false, cadComponents: false });
      return result.compartments.map((c) => ({ ...c, curves: curvesToM(c.curves) }));
    },
  );

  app.get(
    `${base}/cad-components/section`,
    { preValidation: validate({ query: SectionQuerySchema }) },
    async (request): Promise<CadComponentSectionsResponse> => {
      requireUser(request);
      const { result } = await cut(request.query, { steel: false, compartments: false });
      return result.cadComponents.map((c) => ({ ...c, curves: curvesToM(c.curves) }));
    },
  );

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

  function checkedName(body: v.InferOutput<typeof ShipSectionBodySchema>): string {
    const name = sectionName(body.axis, body.location);
    if (body.name !== undefined && body.name.trim().toUpperCase() !== name)
      throw Errors.badRequest(`Invalid field 'name': Must be axis + '=' + location ("${name}")`);
    return name;
  }

  app.post(
    '/api/viewer/ship-sections',
    { preValidation: validate({ body: ShipSectionBodySchema }) },
    async (request): Promise<ShipSection> => {
      const user = requireUser(request);
      const body = request.body as v.InferOutput<typeof ShipSectionBodySchema>;
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
  );

  app.get(
    '/api/viewer/ship-sections',
    { preValidation: validate({ query: ShipSectionsQuerySchema }) },
    async (request): Promise<ShipSection[]> => {
      requireUser(request);
      const q = request.query as v.InferOutput<typeof ShipSectionsQuerySchema>;
      const rows = await db
        .selectFrom('ship_sections')
        .selectAll()
        .where('project_name', '=', normaliseProjectName(q.projectName))
        .orderBy('name')
        .execute();
      return rows.map(rowToApi);
    },
  );

  app.delete(
    '/api/viewer/ship-sections',
    { preValidation: validate({ body: ShipSectionBodySchema }) },
    async (request): Promise<{ success: boolean }> => {
      const user = requireUser(request);
      const body = request.body as v.InferOutput<typeof ShipSectionBodySchema>;
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
  );
}
