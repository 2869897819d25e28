/**
 * Calls of project locations and scheduled project updates (application.md §7 "Projects" add/project-
 * from-directory, add/project-from-server; "Admin" project-update-schedule), typed by api/contract.
 * The add calls are silent: the caller shows 409 as 'Adding the project {name} is already in progress'.
 */
import {
  AvailableProjectLocationsSchema,
  type ProjectUpdateJob,
  ProjectUpdateScheduleSchema,
  UploadResponseSchema,
} from '../../api/contract';
import { request } from './client';

/** GET /api/viewer/project/project-locations: directories and servers with their projects. */
export const getProjectLocations = () =>
  request('GET', '/api/viewer/project/project-locations', AvailableProjectLocationsSchema, { silent: true });

/** Name and description of the project, and whether an existing one has its latest revision replaced. */
export interface LocationAddParams {
  projectName: string;
  description: string;
  overwriteIfExists: boolean;
}

/** POST .../add/project-from-directory (a file in a server directory location). */
export const addProjectFromDirectory = (projectPath: string, p: LocationAddParams) =>
  request('POST', '/api/viewer/project/add/project-from-directory', UploadResponseSchema, {
    query: { projectPath, ...p, newRevision: !p.overwriteIfExists },
    silent: true,
  });

/** POST .../add/project-from-server (a project of another Keelson server, with the user's rights there). */
export const addProjectFromServer = (masterServerUri: string, keelsonUser: string, p: LocationAddParams) =>
  request('POST', '/api/viewer/project/add/project-from-server', UploadResponseSchema, {
    query: { masterServerUri, keelsonUser, ...p, newRevision: !p.overwriteIfExists },
    silent: true,
  });

const schedulePath = (instance: string) =>
  `/api/${encodeURIComponent(instance || 'default')}/scheduling/project-update-schedule`;

/** GET /api/{instance}/scheduling/project-update-schedule. */
export const getSchedule = (instance: string) => request('GET', schedulePath(instance), ProjectUpdateScheduleSchema);

/** POST /api/{instance}/scheduling/project-update-schedule: the whole list; answers the saved list. */
export const saveSchedule = (instance: string, jobs: ProjectUpdateJob[]) =>
  request('POST', schedulePath(instance), ProjectUpdateScheduleSchema, { body: jobs });
