/**
 * Converted model files for the viewer (ARCHITECTURE.md "Data flow" step 3):
 * GET /api/keelson-static/models/{modelName}/{revision}/{modelName}.sc streams the scene package
 * (application/octet-stream with Content-Length); `revision` is a number or 'latest'. A single HTTP byte range
 * (`Range: bytes=A-B`, `bytes=A-`, `bytes=-N`; RFC 9110 §14) is answered 206 with Content-Range from the revision
 * store's range read (S3: GetObject with the same Range), one past the end 416; several ranges or a malformed
 * header get the whole file (200), as the RFC allows.
 */
import type { FastifyInstance } from 'fastify';
import { Access } from '../access/rules';
import { ScParamsSchema } from '../contract/models';
import { ApiError, Errors } from '../errors';
import { normaliseProjectName } from '../projects/ProjectStore';
import { RangeNotSatisfiable, type RangeRequest, type StoredFile, StoredFileMissing } from '../storage/RevisionStorage';
import { defineRoute } from './define';

export default async function modelRoutes(app: FastifyInstance): Promise<void> {
  const { projects } = app.ctx;

  defineRoute(app, {
    method: 'GET',
    url: '/api/keelson-static/models/:modelName/:revision/:file',
    access: Access.read((i: { params: { modelName: string } }) => i.params.modelName),
    params: ScParamsSchema,
    handler: async ({ params: p, request, reply }) => {
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
      const range = parseRange(request.headers.range);
      let stored: StoredFile;
      try {
        stored = await projects.storage.open(row.dir, scFile, range);
      } catch (e) {
        if (e instanceof StoredFileMissing) throw Errors.revisionNotFound(name, row.number);
        if (e instanceof RangeNotSatisfiable)
          return reply
            .code(416)
            .header('Content-Range', `bytes */${e.size}`)
            .send(Errors.rangeNotSatisfiable(e.size).toJSON());
        throw e;
      }
      if (range) reply.code(206).header('Content-Range', `bytes ${stored.start}-${stored.end}/${stored.size}`);
      return reply
        .header('Content-Type', 'application/octet-stream')
        .header('Accept-Ranges', 'bytes')
        .header('Content-Length', String(stored.end - stored.start + 1))
        .header('Cache-Control', 'private, max-age=0, must-revalidate')
        .header('X-Keelson-Revision', String(row.number))
        .send(stored.stream);
    },
  });
}

/** At most this many digits in a range bound (beyond any file size; keeps Number exact). */
const RANGE_RE = /^bytes=(?:(\d{1,15})-(\d{0,15})|-(\d{1,15}))$/;

/**
 * One byte range of an HTTP Range header; undefined for none, several, another unit or a malformed one (the
 * whole file is sent then, RFC 9110 §14.2).
 */
export function parseRange(header: string | undefined): RangeRequest | undefined {
  const m = header ? RANGE_RE.exec(header.trim()) : null;
  if (!m) return undefined;
  if (m[3] !== undefined) return { suffix: Number(m[3]) };
  const start = Number(m[1]);
  const end = m[2] === '' ? null : Number(m[2]);
  return end !== null && end < start ? undefined : { start, end };
}
