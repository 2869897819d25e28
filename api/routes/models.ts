/**
 * Converted model files for the viewer (ARCHITECTURE.md "Data flow" step 3):
 * GET /api/keelson-static/models/{modelName}/{revision}/{modelName}.sc streams the scene package
 * (application/octet-stream with Content-Length); `revision` is a number or 'latest'.
 */
import type { FastifyInstance } from 'fastify';
import { Access } from '../access/rules';
import { ScParamsSchema } from '../contract/models';
import { ApiError, Errors } from '../errors';
import { normaliseProjectName } from '../projects/ProjectStore';
import { type StoredFile, StoredFileMissing } from '../storage/RevisionStorage';
import { defineRoute } from './define';

export default async function modelRoutes(app: FastifyInstance): Promise<void> {
  const { projects } = app.ctx;

  defineRoute(app, {
    method: 'GET',
    url: '/api/keelson-static/models/:modelName/:revision/:file',
    access: Access.read((i: { params: { modelName: string } }) => i.params.modelName),
    params: ScParamsSchema,
    handler: async ({ params: p, reply }) => {
      const name = normaliseProjectName(p.modelName);
      const row = await projects.revision(name, p.revision);
      const info = JSON.parse(row.info || '{}') as { scFile?: string };
      const scFile = info.scFile ?? `${name}.sc`;
      if (p.file.toUpperCase() !== scFile.toUpperCase() && p.file.toUpperCase() !== `${name}.SC`)
        throw new ApiError(
          'NotFound',
          404,
          `File ${p.file} not found in revision ${row.number} of project ${name}`,
          'notFound',
        );
      // Streamed from the revision store as it is read (no copy in memory).
      let stored: StoredFile;
      try {
        stored = await projects.storage.open(row.dir, scFile);
      } catch (e) {
        if (e instanceof StoredFileMissing) throw Errors.revisionNotFound(name, row.number);
        throw e;
      }
      return reply
        .header('Content-Type', 'application/octet-stream')
        .header('Content-Length', String(stored.size))
        .header('Cache-Control', 'private, max-age=0, must-revalidate')
        .header('X-Keelson-Revision', String(row.number))
        .send(stored.stream);
    },
  });
}
