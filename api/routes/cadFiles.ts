/**
 * CAD components calls (application.md §4 "CAD upload dialog", §5 "Upload and project files", §7 "Projects"
 * and "CAD components"; viewer.md §7 "CAD components"; contract in api/contract/cad.ts).
 *
 * POST /api/viewer/project/upload-cad-files?projectName&overwrite   multipart `cadFiles` (one or more)
 * POST /api/viewer/project/notify-cad-files-uploaded?projectName    body { fileNames }
 * GET  /api/viewer/project/cad-files-state?projectName              the paused conversion's upload state
 * GET  /api/keelson-instance/cad-components/all?modelName&revision
 * GET  /api/keelson-instance/cad-components/file-names?modelName&revision
 *
 * Uploading and continuing need write access to the project with upload:model, and only the user who
 * started the conversion may do them (403 otherwise, as for cancelling). A request's files are checked
 * before anything is kept: each must be a name the model requires, given once, of a format Keelson
 * converts, and not on the server already unless overwrite is set; a refusal keeps none of the request's
 * files. A file is stored under a temporary '.'-name and renamed into DATA_DIR/projects/{NAME}/cad/ once
 * complete, so a conversion never reads half a file.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { Access } from '../access/rules';
import {
  CAD_FILES_MAX,
  CadFileNameSchema,
  type CadComponent,
  type CadFileNames,
  type CadFilesState,
  CadFilesStateQuerySchema,
  NotifyCadFilesBodySchema,
  NotifyCadFilesQuerySchema,
  UploadCadFilesQuerySchema,
} from '../contract/cad';
import { ModelQuerySchema } from '../contract/models';
import { readCadComponents } from '../conversion/cadComponents';
import { ApiError, Errors } from '../errors';
import { normaliseProjectName } from '../projects/ProjectStore';
import { defineRoute } from './define';

export default async function cadRoutes(app: FastifyInstance): Promise<void> {
  const { cadWaits, config, projects } = app.ctx;
  const base = '/api/viewer/project';
  const writeRule = Access.write((i: { query: { projectName: string } }) => i.query.projectName, 'upload:model');

  /** The state, or 409 when no conversion of the project waits for CAD files. */
  async function stateOf(name: string): Promise<CadFilesState> {
    const s = await cadWaits.state(name);
    if (!s) throw new ApiError('Conflict', 409, `No conversion of ${name} is waiting for CAD files`, 'conflict');
    return s;
  }

  defineRoute(app, {
    method: 'POST',
    url: `${base}/upload-cad-files`,
    access: writeRule,
    query: UploadCadFilesQuerySchema,
    handler: async ({ query, user, request }): Promise<CadFilesState> => {
      const name = normaliseProjectName(query.projectName);
      if (!request.isMultipart()) throw Errors.badRequest("Invalid field 'cadFiles': Field is required");
      const dir = cadWaits.cadDir(name);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const begun: string[] = [];
      const stored: { tmp: string; final: string }[] = [];
      try {
        for await (const part of request.parts({
          limits: { files: CAD_FILES_MAX, fileSize: config.maxUploadMb * 2 ** 20 },
        })) {
          if (part.type !== 'file') continue;
          if (part.fieldname !== 'cadFiles') {
            part.file.resume();
            throw Errors.badRequest(`Invalid field '${part.fieldname}': only 'cadFiles' is accepted`);
          }
          const fileName = part.filename;
          const check = v.safeParse(CadFileNameSchema, fileName);
          if (!check.success) {
            part.file.resume();
            throw Errors.badFileName(check.issues[0].message);
          }
          if (begun.includes(fileName)) {
            part.file.resume();
            throw Errors.badRequest(`${fileName} is given twice`);
          }
          try {
            await cadWaits.begin(name, user.email, fileName, query.overwrite);
          } catch (e) {
            part.file.resume();
            throw e;
          }
          begun.push(fileName);
          const tmp = path.join(dir, `.upload-${randomUUID()}`);
          stored.push({ tmp, final: path.join(dir, fileName) });
          await pipeline(part.file, createWriteStream(tmp, { mode: 0o600 }));
          if (part.file.truncated) throw Errors.uploadTooLarge(config.maxUploadMb);
        }
        if (begun.length === 0) throw Errors.badRequest("Invalid field 'cadFiles': Field is required");
        for (const s of stored) await rename(s.tmp, s.final);
      } catch (e) {
        for (const s of stored) await rm(s.tmp, { force: true });
        throw e;
      } finally {
        for (const f of begun) await cadWaits.end(name, f);
      }
      return stateOf(name);
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: `${base}/notify-cad-files-uploaded`,
    access: writeRule,
    query: NotifyCadFilesQuerySchema,
    body: NotifyCadFilesBodySchema,
    handler: async ({ query, body, user }): Promise<{ success: boolean }> => {
      await cadWaits.resume(normaliseProjectName(query.projectName), user.email, body.fileNames);
      return { success: true };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `${base}/cad-files-state`,
    access: Access.byProject,
    query: CadFilesStateQuerySchema,
    handler: async ({ query }): Promise<CadFilesState> => stateOf(normaliseProjectName(query.projectName)),
  });

  const toM = (b: number[] | null) =>
    b ? (b.map((x) => Math.round(x * 10) / 1e4) as [number, number, number, number, number, number]) : null;
  async function components(modelName: string, revision: number | 'latest') {
    const row = await projects.revision(normaliseProjectName(modelName), revision);
    return readCadComponents(await projects.revisionDir(row));
  }

  defineRoute(app, {
    method: 'GET',
    url: '/api/keelson-instance/cad-components/all',
    access: Access.byModel,
    query: ModelQuerySchema,
    handler: async ({ query }): Promise<CadComponent[]> =>
      (await components(query.modelName, query.revision)).map((c) => ({ ...c, bounds: toM(c.bounds) })),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/api/keelson-instance/cad-components/file-names',
    access: Access.byModel,
    query: ModelQuerySchema,
    handler: async ({ query }): Promise<CadFileNames> => ({
      fileNames: [...new Set((await components(query.modelName, query.revision)).map((c) => c.fileName))],
    }),
  });
}
