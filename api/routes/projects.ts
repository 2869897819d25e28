/**
 * Projects (application.md §2 "Start view", §3 "Model / project", "Current project
 * revision", §4 "Model conversion", §7 "Projects"). All under /api/viewer/project:
 * GET /models, POST /add/project-uploaded, GET /model-conversion, DELETE /add/cancel-project,
 * DELETE /delete-model, DELETE /delete-revision, GET /project-info, GET /highest-revision.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
import type * as v from 'valibot';
import { ConversionStatus } from '../contract/common';
import {
  DeleteRevisionQuerySchema,
  ProjectInfoQuerySchema,
  ProjectNameQuerySchema,
  UploadQuerySchema,
  type Model,
  type ModelConversion,
  type ProjectRevisionInfo,
  type UploadQuery,
  type UploadResponse,
} from '../contract/projects';
import { validate } from './validate';
import { requirePermission, requireUser } from '../context';
import { Errors } from '../errors';
import { extractSingleOcxFromZip, isZipFile, maxUnpackedBytes, ZipArchiveError } from '../conversion/unzip';
import { normaliseProjectName, projectNameFromFile, type RevisionRow } from '../projects/ProjectStore';

/** File types accepted for a project file (ARCHITECTURE.md "Names": OCX in place of .db64/.db). */
export const PROJECT_FILE_EXTENSIONS = ['.3docx', '.ocx', '.xml', '.zip'];

/** The version name of every revision (comments are keyed by project, version and revision). */
export const PROJECT_VERSION = 'MAIN';

/** URL of a revision's scene package. */
export function scUrl(name: string, revision: number | 'latest'): string {
  const n = encodeURIComponent(name);
  return `/api/keelson-static/models/${n}/${revision}/${n}.sc`;
}

function revisionEntry(name: string, r: RevisionRow) {
  return {
    revisionInfo: {
      revisionNumber: r.number,
      lastUpdatedDate: r.last_updated,
      description: r.description,
      projectInfo: { projectName: name },
    },
    image: r.thumbnail,
  };
}

export default async function projectRoutes(app: FastifyInstance): Promise<void> {
  const { projects, conversions, config, revisionCache } = app.ctx;
  const base = '/api/viewer/project';
  type NameQuery = v.InferOutput<typeof ProjectNameQuerySchema>;

  // The model list: projects with revisions (newest first), plus projects being converted and
  // first conversions that failed or were cancelled (cards with a Remove button).
  app.get(`${base}/models`, async (request): Promise<Model[]> => {
    requireUser(request);
    const list = await projects.list();
    const latest = await conversions.latestAll();
    const names = new Set(list.map((p) => p.name));
    for (const [name, row] of latest) {
      if (
        row.status === ConversionStatus.InProgress ||
        row.status === ConversionStatus.Error ||
        row.status === ConversionStatus.Canceled
      )
        names.add(name);
    }
    return [...names].sort().map((name) => {
      const revisions = list.find((p) => p.name === name)?.revisions ?? [];
      const running = conversions.running(name);
      const last = latest.get(name);
      const noRevisions = revisions.length === 0;
      return {
        name,
        revisions: revisions.map((r) => revisionEntry(name, r)),
        isConverting: running !== null,
        convertingMessage: running?.message ?? (noRevisions && last ? last.message : ''),
        convertingPercentage: running?.progress ?? 0,
        conversionStartedByEmail: running?.startedBy ?? last?.started_by ?? '',
        conversionFailed: !running && noRevisions && last?.status === ConversionStatus.Error,
        conversionCancelled: !running && noRevisions && last?.status === ConversionStatus.Canceled,
        conversionId: running?.id ?? last?.id ?? '',
      };
    });
  });

  app.post(
    `${base}/add/project-uploaded`,
    { preValidation: validate({ query: UploadQuerySchema }) },
    async (request): Promise<UploadResponse> => {
      const user = requirePermission(request, 'upload:model');
      const q = request.query as UploadQuery;
      // Refuse a second conversion of the same name before reading the upload.
      if (q.projectName) {
        const name = normaliseProjectName(q.projectName);
        if (conversions.running(name)) throw Errors.conversionInProgress(name);
      }
      if (!request.isMultipart()) throw Errors.missingFile();
      const file = await request.file();
      if (file?.fieldname !== 'file') {
        file?.file.resume();
        throw Errors.missingFile();
      }
      const ext = path.extname(file.filename).toLowerCase();
      if (!PROJECT_FILE_EXTENSIONS.includes(ext)) {
        file.file.resume();
        throw Errors.unsupportedFile(ext || file.filename);
      }
      let name: string;
      let conversionId: string;
      try {
        name = q.projectName ? normaliseProjectName(q.projectName) : projectNameFromFile(file.filename);
        conversionId = await conversions.reserve(name, user.email);
      } catch (e) {
        file.file.resume();
        throw e;
      }
      // Store the original, and extract a .zip's single OCX entry now so a bad archive is refused with
      // 400. Any failure here withdraws the reservation and removes what was written (nothing changes).
      const uploads = path.join(config.dataDir, 'uploads');
      const stored = path.join(uploads, `${conversionId}-${path.basename(file.filename).replace(/[^\w.-]/g, '_')}`);
      let input = stored;
      let scratch: string | null = null;
      try {
        await mkdir(uploads, { recursive: true });
        await pipeline(file.file, createWriteStream(stored));
        if (file.file.truncated) throw Errors.uploadTooLarge(config.maxUploadMb);
        if (ext === '.zip' || (await isZipFile(stored))) {
          scratch = path.join(uploads, `${conversionId}-extracted`);
          input = await extractSingleOcxFromZip(stored, scratch, maxUnpackedBytes(config.maxUploadMb));
        }
      } catch (e) {
        await rm(stored, { force: true });
        if (scratch) await rm(scratch, { recursive: true, force: true });
        await conversions.release(conversionId);
        if (e instanceof ZipArchiveError) throw Errors.badArchive(e.message);
        throw e;
      }
      if (!conversions.isActive(conversionId)) {
        // Cancelled by its starter while the file was arriving: keep nothing.
        await rm(stored, { force: true });
        if (scratch) await rm(scratch, { recursive: true, force: true });
        return { conversionId, projectName: name };
      }
      conversions.start(conversionId, {
        input,
        original: scratch ? stored : undefined,
        scratch: scratch ? [scratch] : [],
        description: q.description ?? '',
        replace: q.overwriteIfExists === true,
        deleteInputOnFailure: true,
      });
      return { conversionId, projectName: name };
    },
  );

  app.get(
    `${base}/model-conversion`,
    { preValidation: validate({ query: ProjectNameQuerySchema }) },
    async (request): Promise<ModelConversion> => {
      requireUser(request);
      const name = normaliseProjectName((request.query as NameQuery).projectName);
      const row = await conversions.latest(name);
      if (!row) throw Errors.conversionNotFound(name);
      const e = conversions.rowToEvent(row);
      return { ...e, startedByEmail: row.started_by, error: row.error };
    },
  );

  app.delete(
    `${base}/add/cancel-project`,
    { preValidation: validate({ query: ProjectNameQuerySchema }) },
    async (request) => {
      const user = requireUser(request);
      await conversions.cancel(normaliseProjectName((request.query as NameQuery).projectName), user.email);
      return { success: true };
    },
  );

  // Deleting a project needs admin:view; the starter of a failed or cancelled first conversion may
  // remove its card (application.md §2 "Start view": "the button reads Remove").
  app.delete(
    `${base}/delete-model`,
    { preValidation: validate({ query: ProjectNameQuerySchema }) },
    async (request) => {
      const user = requireUser(request);
      const name = normaliseProjectName((request.query as NameQuery).projectName);
      if (conversions.running(name)) throw Errors.conversionInProgress(name);
      const hasRevisions = await projects.exists(name);
      if (!hasRevisions) {
        const last = await conversions.latest(name);
        if (!last) throw Errors.projectNotFound(name);
        if (last.started_by !== user.email) requirePermission(request, 'admin:view');
        await conversions.forget(name);
        return { success: true };
      }
      requirePermission(request, 'admin:view');
      await projects.deleteProject(name);
      await conversions.forget(name);
      revisionCache.clear();
      return { success: true };
    },
  );

  app.delete(
    `${base}/delete-revision`,
    { preValidation: validate({ query: DeleteRevisionQuerySchema }) },
    async (request) => {
      requirePermission(request, 'admin:view');
      const q = request.query as v.InferOutput<typeof DeleteRevisionQuerySchema>;
      const name = normaliseProjectName(q.projectName);
      await projects.deleteRevision(name, q.revisionNumber);
      revisionCache.clear();
      return { success: true };
    },
  );

  app.get(
    `${base}/project-info`,
    { preValidation: validate({ query: ProjectInfoQuerySchema }) },
    async (request): Promise<ProjectRevisionInfo> => {
      requireUser(request);
      const q = request.query as v.InferOutput<typeof ProjectInfoQuerySchema>;
      const name = normaliseProjectName(q.projectName);
      const row = await projects.revision(name, q.revision ?? 'latest');
      const all = await projects.revisions(name);
      return {
        projectInfo: { projectName: name, projectVersion: PROJECT_VERSION, revisions: all.map((r) => r.number) },
        revision: row.number,
        description: row.description,
        url: scUrl(name, row.number),
        lastUpdatedDate: row.last_updated,
      };
    },
  );

  app.get(
    `${base}/highest-revision`,
    { preValidation: validate({ query: ProjectNameQuerySchema }) },
    async (request) => {
      requireUser(request);
      const name = normaliseProjectName((request.query as NameQuery).projectName);
      const row = await projects.revision(name, 'latest');
      return { projectName: name, highestRevision: row.number };
    },
  );
}
