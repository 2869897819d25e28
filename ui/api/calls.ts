/**
 * The calls of application.md §7 and viewer.md §7 that the first slice uses, typed by the valibot
 * contract (api/contract). Lengths from the model calls are metres (the API's unit).
 */
import * as v from 'valibot';
import {
  AuthorizedUserSchema,
  ChangePasswordResponseSchema,
  ClientConfigSchema,
  LoginResponseSchema,
  OidcAuthorizeResponseSchema,
  MaintenanceStatusSchema,
  ModelListSchema,
  ModelObjectsResponseSchema,
  PropertiesResponseSchema,
  PropertyColumnsResponseSchema,
  ProjectRevisionInfoSchema,
  SuccessResponseSchema,
  UploadResponseSchema,
  CoordinateResponseSchema,
  ShipSectionSchema,
  ShipSectionsResponseSchema,
  SurfaceObjectsResponseSchema,
  type ShipSectionBody,
  type UploadResponse,
} from '../../api/contract';
import { authHeaders, handleFailure, request, withQuery } from './client';

/** The instance name used in auth paths ({instance}); set from the client config. */
let instance = 'default';
export function setInstance(name: string): void {
  instance = name || 'default';
}
/** The instance name of the paths ({instance}). */
export const instanceName = (): string => instance;
const authPath = (p: string) => `/api/auth/viewer/${encodeURIComponent(instance)}/${p}`;

/** GET /api/config: the client config. */
export const getConfig = () => request('GET', '/api/config', ClientConfigSchema);

/** POST .../login. 401 is the caller's to show (the server's message under the password field). */
export const login = (email: string, password: string) =>
  request('POST', authPath('login'), LoginResponseSchema, {
    body: { email, password },
    allow401: true,
    silent: true,
    expected: true,
  });

/**
 * POST .../oidc/authorize: the identity provider's authorization URL for a sign-in that returns to
 * `redirectUri` (the UI's /login/callback). Silent: a failure goes to the error view.
 */
export const oidcAuthorize = (redirectUri: string, signal?: AbortSignal) =>
  request('POST', authPath('oidc/authorize'), OidcAuthorizeResponseSchema, {
    body: { redirectUri },
    silent: true,
    allow401: true,
    signal,
  });

/** POST .../oidc/token: the callback's code and state for Keelson's bearer token (as a login answers). */
export const oidcToken = (code: string, state: string, signal?: AbortSignal) =>
  request('POST', authPath('oidc/token'), LoginResponseSchema, {
    body: { code, state },
    silent: true,
    allow401: true,
    signal,
  });

/** POST .../register (application.md §3 "Registration payload"); registerAdmin for the admin account. */
export const register = (body: { email: string; password: string; fullName: string; registerAdmin?: boolean }) =>
  request('POST', authPath('register'), SuccessResponseSchema, {
    body: { ...body, requirePasswordReset: false, adminEmail: '' },
    silent: true,
  });

/**
 * POST .../changePassword. The change revokes every older token; the reply's `token` continues this
 * session (the caller stores it).
 */
export const changePassword = (body: {
  email: string;
  currentPassword: string;
  newPassword: string;
  confirmNewPassword: string;
}) => request('POST', authPath('changePassword'), ChangePasswordResponseSchema, { body, silent: true, allow401: true });

/** POST /api/authorize-user with the bearer token. */
export const authorizeUser = () =>
  request('POST', '/api/authorize-user', AuthorizedUserSchema, { body: {}, silent: true });

/** GET /api/viewer/project/models. */
export const getModels = () => request('GET', '/api/viewer/project/models', ModelListSchema);

/**
 * DELETE /api/viewer/project/add/cancel-project?projectName. With `expected`, a refusal (no such
 * conversion) is returned as the rejected ApiError without a toast.
 */
export const cancelProject = (projectName: string, opts: { expected?: boolean } = {}) =>
  request('DELETE', '/api/viewer/project/add/cancel-project', null, { query: { projectName }, ...opts });

/** DELETE /api/viewer/project/delete-model?projectName (also removes a failed first conversion's card). */
export const deleteModel = (projectName: string) =>
  request('DELETE', '/api/viewer/project/delete-model', null, { query: { projectName } });

/** GET /api/viewer/project/project-info?projectName&revision (revision absent = latest). */
export const getProjectInfo = (projectName: string, revision: number | null) =>
  request('GET', '/api/viewer/project/project-info', ProjectRevisionInfoSchema, {
    query: { projectName, revision },
    message: 'Could not fetch project revision info',
  });

/** GET /api/keelson-instance/maintenance/status. */
export const getMaintenanceStatus = (modelName: string, modelRevision: number | null, keelsonUser: string) =>
  request('GET', '/api/keelson-instance/maintenance/status', MaintenanceStatusSchema, {
    query: { modelName, modelRevision: modelRevision ?? 'latest', keelsonUser },
    silent: true,
  });

/** GET /api/keelson-instance/model/objects: the object table (bounds in m). */
export const getModelObjects = (modelName: string, revision: number) =>
  request('GET', '/api/keelson-instance/model/objects', ModelObjectsResponseSchema, { query: { modelName, revision } });

/** GET /api/keelson-instance/model/properties for one object index. */
export const getProperties = (modelName: string, revision: number, index: number, signal?: AbortSignal) =>
  request('GET', '/api/keelson-instance/model/properties', PropertiesResponseSchema, {
    query: { modelName, revision, index },
    signal,
  });

/**
 * Property columns parallel to the object table (GET .../model/property-columns), e.g. PLTH and PURP for
 * the engine's section labels and annotations; values in catalogue units (m, t, ...), null where absent.
 */
export const getPropertyColumns = (modelName: string, revision: number, codes: string[], signal?: AbortSignal) =>
  request('GET', '/api/keelson-instance/model/property-columns', PropertyColumnsResponseSchema, {
    query: { modelName, revision, codes: codes.join(',') },
    signal,
  });

/** Absolute URL of a revision's scene package (fetched by the render worker with the bearer header). */
export function sceneUrl(modelName: string, revision: number): string {
  const m = encodeURIComponent(modelName);
  return new URL(`/api/keelson-static/models/${m}/${revision}/${m}.sc`, window.location.origin).href;
}

/** Upload parameters of POST .../add/project-uploaded (application.md §7). */
export interface UploadParams {
  file: File;
  projectName: string;
  description: string;
  overwriteIfExists: boolean;
  keelsonUser: string;
}

/**
 * Uploads a project file with XMLHttpRequest so that upload progress is reported (application.md §4:
 * the upload counts as 0–20 %). `onProgress(loaded, total)` in bytes. A 409 is shown with the spec's
 * message 'Adding the project {name} is already in progress'. `signal` cancels the upload.
 * @throws ApiError on failure (after the central handling); DOMException 'AbortError' when cancelled.
 */
export function uploadProject(
  p: UploadParams,
  onProgress: (loaded: number, total: number) => void,
  signal?: AbortSignal,
): Promise<UploadResponse> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    // Cancel during the upload (application.md §2: Cancel for the user who started it): the aborted request
    // makes the server withdraw its reservation; the promise rejects with an AbortError.
    if (signal?.aborted) return reject(new DOMException('Upload canceled', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.onabort = () => reject(new DOMException('Upload canceled', 'AbortError'));
    const url = withQuery('/api/viewer/project/add/project-uploaded', {
      keelsonUser: p.keelsonUser,
      projectName: p.projectName,
      description: p.description,
      overwriteIfExists: p.overwriteIfExists,
    });
    xhr.open('POST', url);
    for (const [k, val] of Object.entries(authHeaders())) xhr.setRequestHeader(k, val);
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : p.file.size);
    xhr.onerror = () => reject(handleFailure(0, null, {}));
    xhr.onload = () => {
      let data: unknown = null;
      try {
        data = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        data = xhr.responseText;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        const r = v.safeParse(UploadResponseSchema, data);
        if (r.success) resolve(r.output);
        else reject(handleFailure(0, { message: 'Unexpected response from the upload call' }, {}));
        return;
      }
      const message = xhr.status === 409 ? `Adding the project ${p.projectName} is already in progress` : undefined;
      reject(handleFailure(xhr.status, data, { message }));
    };
    const form = new FormData();
    form.append('file', p.file, p.file.name);
    xhr.send(form);
  });
}

/**
 * GET /api/keelson-instance/reference-system/coordinate?value: the frame-syntax text (viewer.md §5)
 * evaluated by the server; coordinate in m. Silent: the caller shows the error under its input.
 */
export const getCoordinate = (modelName: string, revision: number, value: string) =>
  request('GET', '/api/keelson-instance/reference-system/coordinate', CoordinateResponseSchema, {
    query: { modelName, revision, value },
    silent: true,
  });

/** GET /api/viewer/ship-sections?projectName: the saved sections (viewer.md §7). */
export const getShipSections = (projectName: string) =>
  request('GET', '/api/viewer/ship-sections', ShipSectionsResponseSchema, { query: { projectName } });

/** POST /api/viewer/ship-sections: saves a section (name = axis + '=' + upper-cased location). */
export const saveShipSection = (body: ShipSectionBody) =>
  request('POST', '/api/viewer/ship-sections', ShipSectionSchema, { body });

/** DELETE /api/viewer/ship-sections: deletes a saved section for all users. */
export const deleteShipSection = (body: ShipSectionBody) =>
  request('DELETE', '/api/viewer/ship-sections', null, { body });

/**
 * POST /api/keelson-instance/geometry/surface-objects (viewer.md §7 "Geometry"): surface objects of the
 * named objects (names or OCX ids); points in m, angles in degrees. Silent: annotations are best effort.
 */
export const getSurfaceObjects = (modelName: string, revision: number, names: string[], signal?: AbortSignal) =>
  request('POST', '/api/keelson-instance/geometry/surface-objects', SurfaceObjectsResponseSchema, {
    query: { modelName, revision },
    body: names,
    silent: true,
    signal,
  });
