/**
 * Projects (application.md §2 "Start view", §3 "Model / project", "Current project
 * revision", §4 "Model conversion", §7 "Projects"). All under /api/viewer/project:
 * GET /models, POST /add/project-uploaded, GET /model-conversion, DELETE /add/cancel-project,
 * DELETE /delete-model, DELETE /delete-revision, GET /project-info, GET /highest-revision,
 * GET /cad-files-available.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
import { Access, enforceProject, starterMaySee } from '../access/rules';
import { ObjectStatuses } from '../approval/ObjectStatuses';
import { ConversionStatus } from '../contract/common';
import {
  DeleteRevisionQuerySchema,
  ProjectInfoQuerySchema,
  ProjectNameQuerySchema,
  UploadQuerySchema,
  type CadFilesAvailable,
  type HighestRevision,
  type Model,
  type ModelConversion,
  type ProjectRevisionInfo,
  type UploadResponse,
  checkUploadFileName,
} from '../contract/projects';
import { defineRoute } from './define';
import { Errors } from '../errors';
import { readCadFiles } from '../conversion/cadFiles';
import { startStoredConversion, storedOriginalPath, withdrawStored } from '../conversion/startStored';
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
  const { projects, conversions, config, revisionCache, access } = app.ctx;
  const base = '/api/viewer/project';

  // The model list: the projects the user may see, with revisions (newest first), plus projects being
  // converted and first conversions that failed or were cancelled (cards with a Remove button).
  defineRoute(app, {
    method: 'GET',
    url: `${base}/models`,
    access: Access.signedIn,
    handler: async ({ user }): Promise<Model[]> => {
      // Three independent reads: on PostgreSQL each takes its own pooled connection, at the same time.
      const [visible, list, latest] = await Promise.all([
        access.visible(user),
        projects.list(),
        conversions.latestAll(),
      ]);
      const names = new Set(list.map((p) => p.name));
      for (const [name, row] of latest) {
        if (
          row.status === ConversionStatus.InProgress ||
          row.status === ConversionStatus.Error ||
          row.status === ConversionStatus.Canceled
        )
          names.add(name);
      }
      const revisionsOf = new Map(list.map((p) => [p.name, p.revisions]));
      // maySee on what is read above (no query per project): access row, else no revision and the starter.
      const shown = [...names]
        .sort()
        .filter(
          (name) =>
            visible === 'all' ||
            visible.has(name) ||
            (!revisionsOf.get(name)?.length &&
              starterMaySee(
                user,
                conversions.current(name, latest.get(name))?.startedBy ?? latest.get(name)?.started_by,
              )),
        );
      return shown.map((name) => {
        const revisions = revisionsOf.get(name) ?? [];
        const last = latest.get(name);
        const running = conversions.current(name, last);
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
          waitingForCadFiles: running?.waitingForCadFiles ?? false,
        };
      });
    },
  });

  // Adding to an existing project needs access to it plus upload:model; a new name needs upload:model.
  // Without a projectName the name comes from the file, so the handler checks the project itself.
  const uploadRule = Access.write<{ query: { projectName?: string } }>((i) => i.query.projectName, 'upload:model');
  defineRoute(app, {
    method: 'POST',
    url: `${base}/add/project-uploaded`,
    access: uploadRule,
    query: UploadQuerySchema,
    handler: async ({ query: q, user, request }): Promise<UploadResponse> => {
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
      // Name and type are checked before anything is stored or reserved.
      const bad = checkUploadFileName(file.filename);
      const ext = path.extname(file.filename).toLowerCase();
      if (bad || !PROJECT_FILE_EXTENSIONS.includes(ext)) {
        file.file.resume();
        throw bad ? Errors.badFileName(bad) : Errors.unsupportedFile(ext || file.filename);
      }
      let name: string;
      let conversionId: string;
      try {
        name = q.projectName ? normaliseProjectName(q.projectName) : projectNameFromFile(file.filename);
        if (uploadRule.kind === 'project') await enforceProject(app.ctx, user, name, uploadRule);
        conversionId = await conversions.reserve(name, user.email);
      } catch (e) {
        file.file.resume();
        throw e;
      }
      // Store the original; a failure withdraws the reservation and removes what was written. A cancel
      // while the file arrives withdraws it too and stops the writing there, not at the body's end.
      const stored = storedOriginalPath(config.dataDir, conversionId, file.filename);
      const withdrawn = conversions.storingSignal(conversionId);
      try {
        await mkdir(path.dirname(stored), { recursive: true, mode: 0o700 });
        await pipeline(file.file, createWriteStream(stored, { mode: 0o600 }), { signal: withdrawn });
        if (file.file.truncated) throw Errors.uploadTooLarge(config.maxUploadMb);
      } catch (e) {
        throw await withdrawStored(conversions, conversionId, [stored], e, (left) =>
          request.log.warn({ left }, 'upload: a stored part could not be removed'),
        );
      }
      await startStoredConversion(conversions, config, conversionId, stored, {
        description: q.description ?? '',
        replace: q.overwriteIfExists === true,
        waitForCadFiles: true,
      });
      return { conversionId, projectName: name };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `${base}/model-conversion`,
    access: Access.byProject,
    query: ProjectNameQuerySchema,
    handler: async ({ query }): Promise<ModelConversion> => {
      const name = normaliseProjectName(query.projectName);
      const row = await conversions.latest(name);
      if (!row) throw Errors.conversionNotFound(name);
      const e = conversions.rowToEvent(row);
      return { ...e, startedByEmail: row.started_by, error: row.error };
    },
  });

  defineRoute(app, {
    method: 'DELETE',
    url: `${base}/add/cancel-project`,
    access: Access.write((i: { query: { projectName: string } }) => i.query.projectName, 'upload:model'),
    query: ProjectNameQuerySchema,
    handler: async ({ query, user }) => {
      await conversions.cancel(normaliseProjectName(query.projectName), user.email);
      return { success: true };
    },
  });

  // Deleting a project needs admin:view; the starter of a failed or cancelled first conversion may
  // remove its card (application.md §2 "Start view": "the button reads Remove").
  defineRoute(app, {
    method: 'DELETE',
    url: `${base}/delete-model`,
    access: Access.write((i: { query: { projectName: string } }) => i.query.projectName, 'admin:view', {
      starterMayRemove: true,
    }),
    query: ProjectNameQuerySchema,
    handler: async ({ query }) => {
      const name = normaliseProjectName(query.projectName);
      if (conversions.running(name)) throw Errors.conversionInProgress(name);
      if (!(await projects.exists(name))) {
        if (!(await conversions.latest(name))) throw Errors.projectNotFound(name);
        await conversions.forget(name);
        return { success: true };
      }
      await projects.deleteProject(name);
      await app.ctx.comments.deleteProject(name);
      await new ObjectStatuses(app.ctx.db).forgetAfter(name, 0);
      await access.removeProject(name);
      await conversions.forget(name);
      revisionCache.clear();
      return { success: true };
    },
  });

  defineRoute(app, {
    method: 'DELETE',
    url: `${base}/delete-revision`,
    access: Access.write((i: { query: { projectName: string } }) => i.query.projectName, 'admin:view'),
    query: DeleteRevisionQuerySchema,
    handler: async ({ query }) => {
      const name = normaliseProjectName(query.projectName);
      await projects.deleteRevision(name, query.revisionNumber);
      await new ObjectStatuses(app.ctx.db).forgetAfter(name, (await projects.revision(name, 'latest')).number);
      revisionCache.clear();
      return { success: true };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `${base}/project-info`,
    access: Access.byProject,
    query: ProjectInfoQuerySchema,
    handler: async ({ query }): Promise<ProjectRevisionInfo> => {
      const name = normaliseProjectName(query.projectName);
      const row = await projects.revision(name, query.revision ?? 'latest');
      const all = await projects.revisions(name);
      return {
        projectInfo: { projectName: name, projectVersion: PROJECT_VERSION, revisions: all.map((r) => r.number) },
        revision: row.number,
        description: row.description,
        url: scUrl(name, row.number),
        lastUpdatedDate: row.last_updated,
      };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `${base}/highest-revision`,
    access: Access.byProject,
    query: ProjectNameQuerySchema,
    handler: async ({ query }): Promise<HighestRevision> => {
      const name = normaliseProjectName(query.projectName);
      const row = await projects.revision(name, 'latest');
      return { projectName: name, highestRevision: row.number };
    },
  });

  // The CAD files the latest revision needs and which of them are in DATA_DIR/projects/{NAME}/cad/.
  defineRoute(app, {
    method: 'GET',
    url: `${base}/cad-files-available`,
    access: Access.byProject,
    query: ProjectNameQuerySchema,
    handler: async ({ query }): Promise<CadFilesAvailable> => {
      const name = normaliseProjectName(query.projectName);
      const row = await projects.revision(name, 'latest');
      const { files } = await readCadFiles(await projects.revisionDir(row));
      const entries = await readdir(projects.cadDir(name), { withFileTypes: true }).catch(() => []);
      const present = new Set(entries.filter((e) => e.isFile()).map((e) => e.name));
      return {
        projectName: name,
        revision: row.number,
        files: files.map((f) => ({ ...f, exists: present.has(f.fileName) })),
      };
    },
  });
}
