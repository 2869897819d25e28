/**
 * BCF export and import of a project's review threads (issue: the panel's Export BCF / Import BCF):
 * - GET  /api/keelson-static/comments/bcf?projectName[&projectVersionName][&version=3.0|2.1][&threadIds]
 *        → the BCF package (application/octet-stream, `{project}.bcf`); default every thread not Deleted.
 * - POST /api/keelson-static/comments/bcf?projectName[&projectVersionName][&projectRevisionNumber]
 *        multipart field 'file' → BcfImportReport; the topics become threads on that revision (default the
 *        latest), components are matched by GUID against its objects.
 * Access as every comment call: the project named in the query (404 when the user may not see it).
 */
import type { FastifyInstance } from 'fastify';
import { Access } from '../access/rules';
import type { User } from '../auth/UserStore';
import { exportBcf } from '../comments/bcf/exportBcf';
import { objectIndex, objectIndexData } from '../comments/bcf/viewpoint';
import {
  ATTACHMENT_TOO_LARGE_MESSAGE,
  BcfExportQuerySchema,
  type BcfImportReport,
  BcfImportQuerySchema,
  type Comment,
  MAX_ATTACHMENT_BYTES,
  type THREAD_CHANGES,
} from '../contract/comments';
import { ApiError, Errors } from '../errors';
import { loadRevision } from '../projects/loadRevision';
import { normaliseProjectName } from '../projects/ProjectStore';
import { defineRoute } from './define';
import { readFile } from 'node:fs/promises';

/** What the comment routes lend the BCF routes. */
export interface BcfRouteDeps {
  push(change: (typeof THREAD_CHANGES)[number], thread: Comment, commentId: string, by: User): void;
}

/** Largest BCF package accepted for import, bytes (the attachment limit: it is read whole to unzip). */
export const BCF_MAX_BYTES = MAX_ATTACHMENT_BYTES;

/** The object tables of the given revisions of a project (merged; revisions that are gone are skipped). */
async function objectsOf(app: FastifyInstance, project: string, revisions: (number | 'latest')[]) {
  const objects = [];
  for (const r of new Set(revisions)) {
    try {
      objects.push(...(await loadRevision(app, project, r)).data.objects);
    } catch (e) {
      if (!(e instanceof ApiError && e.statusCode === 404)) throw e;
    }
  }
  return objects;
}

/** Registers the BCF calls. */
export function registerBcfRoutes(app: FastifyInstance, deps: BcfRouteDeps): void {
  const { comments, users, projects } = app.ctx;
  const base = '/api/keelson-static/comments';

  defineRoute(app, {
    method: 'GET',
    url: `${base}/bcf`,
    access: Access.byProject,
    query: BcfExportQuerySchema,
    handler: async ({ query, project, reply }) => {
      const name = project ?? normaliseProjectName(query.projectName);
      const threads = query.threadIds
        ? (await comments.threadsById(name, query.threadIds)).filter(
            (t) => t.projectVersionName === query.projectVersionName,
          )
        : (await comments.threads(name, query.projectVersionName)).filter((t) => t.state !== 'Deleted');
      const index = objectIndex(
        await objectsOf(
          app,
          name,
          threads.map((t) => t.projectRevisionNumber),
        ),
      );
      const zip = await exportBcf(
        threads,
        index,
        async (id) => readFile(comments.attachments.file(id)).catch(() => undefined),
        query.version,
      );
      reply
        .header('content-type', 'application/octet-stream')
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(name)}.bcf`);
      return reply.send(Buffer.from(zip));
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: `${base}/bcf`,
    access: Access.byProject,
    query: BcfImportQuerySchema,
    handler: async ({ query, project, user, request }): Promise<BcfImportReport> => {
      const name = project ?? normaliseProjectName(query.projectName);
      const revision = (await projects.revision(name, query.projectRevisionNumber ?? 'latest')).number;
      if (!request.isMultipart()) throw Errors.missingFile();
      const file = await request.file({ limits: { fileSize: BCF_MAX_BYTES, files: 1 } });
      if (file?.fieldname !== 'file') {
        file?.file.resume();
        throw Errors.missingFile();
      }
      let bytes: Buffer;
      try {
        bytes = await file.toBuffer();
      } catch (e) {
        if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
          throw new ApiError('PayloadTooLarge', 413, ATTACHMENT_TOO_LARGE_MESSAGE, 'validation');
        throw e;
      }
      const index = objectIndexData(await objectsOf(app, name, [revision]));
      // read in a worker thread: a large package would hold this thread, and every other request, for minutes
      const read = await app.ctx.bcfImport.run({
        bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length),
        index,
      });
      if ('refused' in read) throw Errors.badRequest(read.refused);
      const { pkg } = read;
      const names = new Map((await users.list()).map((u) => [u.email.toLowerCase(), u.name]));
      const place = { project: name, version: query.projectVersionName, revision };
      const ids = await comments.insertImported(place, pkg.threads, user.email, (u) => names.get(u) ?? u);
      for (const id of ids) deps.push('imported', await comments.thread(id), id, user);
      return {
        version: pkg.version,
        threadIds: ids,
        topics: pkg.threads.length,
        comments: pkg.threads.reduce((n, t) => n + t.replies.length, 0),
        viewpoints: pkg.threads.reduce(
          (n, t) => n + t.attachments.length + t.replies.reduce((m, r) => m + r.attachments.length, 0),
          0,
        ),
        unmatchedComponents: pkg.unmatchedComponents,
        warnings: pkg.warnings,
      };
    },
  });
}
