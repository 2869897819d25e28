/** Authorization-matrix sample requests: projects, uploads, CAD files, comparison, locations and model files. */
import { UploadResponseSchema } from '../../../api/contract';
import * as v from 'valibot';
import { multipartFile } from '../helpers';
import { M1, model, q, type Sample, SHIP, state } from './context';

/** Sample request per route ('METHOD /url'). */
export const PROJECTS_ROWS: Record<string, Sample> = {
  'GET /api/viewer/project/models': {
    who: 'signedIn',
    req: () => ({ url: '/api/viewer/project/models' }),
  },
  'POST /api/viewer/project/add/project-uploaded': {
    who: 'upload',
    project: SHIP,
    req: () => {
      const { payload, headers } = multipartFile('m1.3docx', M1);
      return {
        method: 'POST',
        url: `/api/viewer/project/add/project-uploaded?${q({ projectName: SHIP })}`,
        payload,
        headers,
      };
    },
    after: async (_role, res) => {
      if (res.statusCode === 200)
        await state.t.app.ctx.conversions.wait(v.parse(UploadResponseSchema, res.json()).conversionId);
    },
  },
  'GET /api/viewer/project/model-conversion': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/viewer/project/model-conversion?${q({ projectName: SHIP })}` }),
  },
  // Nothing runs: a user who may cancel learns that, with the handler's own 404 message.
  'DELETE /api/viewer/project/add/cancel-project': {
    who: 'upload',
    project: SHIP,
    req: () => ({ method: 'DELETE', url: `/api/viewer/project/add/cancel-project?${q({ projectName: SHIP })}` }),
    ok: [404],
  },
  'DELETE /api/viewer/project/delete-model': {
    who: 'remove',
    project: 'GONE',
    req: () => ({ method: 'DELETE', url: `/api/viewer/project/delete-model?${q({ projectName: 'GONE' })}` }),
  },
  'DELETE /api/viewer/project/delete-revision': {
    who: 'delete',
    project: 'DOOMED',
    req: () => ({
      method: 'DELETE',
      url: `/api/viewer/project/delete-revision?${q({ projectName: 'DOOMED', revisionNumber: '1' })}`,
    }),
  },
  'GET /api/viewer/project/project-info': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/viewer/project/project-info?${q({ projectName: SHIP })}` }),
  },
  'GET /api/viewer/project/highest-revision': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/viewer/project/highest-revision?${q({ projectName: SHIP })}` }),
  },
  'GET /api/viewer/project/cad-files-available': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/viewer/project/cad-files-available?${q({ projectName: SHIP })}` }),
  },
  // No conversion of SHIP waits for CAD files: a user who may upload learns that, with the handler's 409.
  'POST /api/viewer/project/upload-cad-files': {
    who: 'upload',
    project: SHIP,
    req: () => {
      const { payload, headers } = multipartFile('pump.stl', 'solid pump\nendsolid pump\n');
      const body = payload.toString('latin1').replace('name="file"', 'name="cadFiles"');
      return {
        method: 'POST',
        url: `/api/viewer/project/upload-cad-files?${q({ projectName: SHIP })}`,
        payload: Buffer.from(body, 'latin1'),
        headers,
      };
    },
    ok: [409],
  },
  'POST /api/viewer/project/notify-cad-files-uploaded': {
    who: 'upload',
    project: SHIP,
    req: () => ({
      method: 'POST',
      url: `/api/viewer/project/notify-cad-files-uploaded?${q({ projectName: SHIP })}`,
      payload: { fileNames: ['pump.stl'] },
    }),
    ok: [409],
  },
  'GET /api/viewer/project/cad-files-state': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/viewer/project/cad-files-state?${q({ projectName: SHIP })}` }),
    ok: [409],
  },
  'GET /api/keelson-instance/cad-components/all': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/cad-components/all?${model()}` }),
  },
  'GET /api/keelson-instance/cad-components/file-names': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/cad-components/file-names?${model()}` }),
  },
  // SHIP may hold one revision only (uploads by the matrix itself add more): 404 names the revision then.
  'GET /api/viewer/compare': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/viewer/compare?${q({ projectName: SHIP, fromRevision: '1', toRevision: '2' })}` }),
    ok: [200, 404],
  },
  'POST /api/viewer/compare/checkData': {
    who: 'read',
    project: SHIP,
    req: () => ({
      method: 'POST',
      url: '/api/viewer/compare/checkData',
      payload: { projectName: SHIP, fromRevision: 1, toRevision: 2 },
    }),
    ok: [200, 404],
  },
  'GET /api/viewer/compare/comment-changes': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/viewer/compare/comment-changes?${q({ projectName: SHIP, revision: '1' })}` }),
  },
  // No location is configured here: a caller who may add projects hears that the path is outside them.
  'GET /api/viewer/project/project-locations': {
    who: 'upload',
    req: () => ({ url: '/api/viewer/project/project-locations' }),
  },
  'POST /api/viewer/project/add/project-from-directory': {
    who: 'upload',
    req: () => ({
      method: 'POST',
      url: `/api/viewer/project/add/project-from-directory?${q({ projectPath: '/etc/passwd', projectName: SHIP })}`,
    }),
    ok: [400],
  },
  'POST /api/viewer/project/add/project-from-server': {
    who: 'upload',
    req: () => ({
      method: 'POST',
      url: `/api/viewer/project/add/project-from-server?${q({ masterServerUri: 'http://127.0.0.1:9', projectName: SHIP })}`,
    }),
    ok: [400],
  },
  'GET /api/viewer/project/project-file': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/viewer/project/project-file?${q({ projectName: SHIP })}` }),
  },
  'GET /api/keelson-static/models/:modelName/:revision/:file': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-static/models/${SHIP}/latest/${SHIP}.sc` }),
  },
};
