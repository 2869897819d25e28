/**
 * Converted model files for the viewer (ARCHITECTURE.md "Data flow" step 3):
 * GET /api/keelson-static/models/{modelName}/{revision}/{modelName}.sc streams the scene package
 * (application/octet-stream with Content-Length); `revision` is a number or 'latest'.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { requireUser } from '../context';
import { revisionParam } from '../contract/models';
import { parseOrThrow } from './validate';
import { ApiError, Errors } from '../errors';
import { normaliseProjectName } from '../projects/ProjectStore';

const ScParamsSchema = v.object({
  modelName: v.pipe(v.string(), v.nonEmpty('Field is required')),
  revision: revisionParam(),
  file: v.pipe(v.string(), v.endsWith('.sc', "Must name the model's .sc file")),
});

export default async function modelRoutes(app: FastifyInstance): Promise<void> {
  const { projects } = app.ctx;

  app.get('/api/keelson-static/models/:modelName/:revision/:file', async (request, reply) => {
    requireUser(request);
    const p = parseOrThrow(ScParamsSchema, request.params, 'params');
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
    const file = path.join(projects.revisionDir(row), scFile);
    let size: number;
    try {
      size = (await stat(file)).size;
    } catch {
      throw Errors.revisionNotFound(name, row.number);
    }
    return reply
      .header('Content-Type', 'application/octet-stream')
      .header('Content-Length', String(size))
      .header('Cache-Control', 'private, max-age=0, must-revalidate')
      .header('X-Keelson-Revision', String(row.number))
      .send(createReadStream(file));
  });
}
