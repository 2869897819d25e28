/**
 * Projects from project locations (application.md §2 "Dialogs of the start page", §3 "Available project
 * location", §7 "Projects"), under /api/viewer/project:
 * GET /project-locations, POST /add/project-from-directory, POST /add/project-from-server, and
 * GET /project-file (the latest revision's original, which another Keelson server pulls).
 */
import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Access } from '../access/rules';
import {
  type AvailableProjectLocation,
  FromDirectoryQuerySchema,
  FromServerQuerySchema,
  isServerSource,
  SERVER_SOURCE_SEPARATOR,
} from '../contract/locations';
import { ProjectNameQuerySchema, type UploadResponse } from '../contract/projects';
import { Errors } from '../errors';
import { importFromLocation } from '../locations/importSource';
import { normaliseProjectName } from '../projects/ProjectStore';
import { defineRoute } from './define';

/** Replace the latest revision: asked for with overwriteIfExists, unless newRevision insists on a new one. */
function replaceLatest(q: { overwriteIfExists: boolean; newRevision: boolean }): boolean {
  return q.overwriteIfExists && !q.newRevision;
}

export default async function locationRoutes(app: FastifyInstance): Promise<void> {
  const { locations, projects, config } = app.ctx;
  const base = '/api/viewer/project';
  // Who adds projects sees where they can come from; the scheduler's administrators hold upload:model.
  const adders = Access.permission('upload:model');

  defineRoute(app, {
    method: 'GET',
    url: `${base}/project-locations`,
    access: adders,
    handler: async ({ user }): Promise<AvailableProjectLocation[]> => locations.tree(user.email),
  });

  // The project is named in the query or by the file; importFromLocation checks access to that name.
  defineRoute(app, {
    method: 'POST',
    url: `${base}/add/project-from-directory`,
    access: adders,
    query: FromDirectoryQuerySchema,
    handler: async ({ query: q, user }): Promise<UploadResponse> => {
      // A server path only: another server's project comes through add/project-from-server.
      if (isServerSource(q.projectPath)) throw Errors.pathOutsideLocations();
      return importFromLocation(app.ctx, user, {
        source: q.projectPath,
        projectName: q.projectName,
        description: q.description ?? '',
        replace: replaceLatest(q),
        waitForCadFiles: true,
      });
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: `${base}/add/project-from-server`,
    access: adders,
    query: FromServerQuerySchema,
    handler: async ({ query: q, user }): Promise<UploadResponse> => {
      if (q.keelsonUser && q.keelsonUser.trim().toLowerCase() !== user.email) throw Errors.emailMismatch();
      const url = locations.server(q.masterServerUri).url;
      return importFromLocation(app.ctx, user, {
        source: `${url}${SERVER_SOURCE_SEPARATOR}${q.projectName}`,
        description: q.description ?? '',
        replace: replaceLatest(q),
        waitForCadFiles: true,
      });
    },
  });

  // The file the latest revision was converted from, as it was added (an OCX file or the .zip holding it).
  defineRoute(app, {
    method: 'GET',
    url: `${base}/project-file`,
    access: Access.byProject,
    query: ProjectNameQuerySchema,
    handler: async ({ query, reply }) => {
      const name = normaliseProjectName(query.projectName);
      const row = await projects.revision(name, 'latest');
      const uploads = path.join(config.dataDir, 'uploads');
      const prefix = `${row.conversion_id}-`;
      const file = row.conversion_id
        ? (await readdir(uploads).catch(() => [] as string[])).find(
            (f) => f.startsWith(prefix) && f !== `${prefix}extracted`,
          )
        : undefined;
      if (!file) throw Errors.originalNotKept(name);
      const fileName = file.slice(prefix.length);
      return reply
        .type('application/octet-stream')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .send(createReadStream(path.join(uploads, file)));
    },
  });
}
