/**
 * Project locations contract (application.md §3 "Available project location", §7 "Projects"):
 * - GET  /api/viewer/project/project-locations            → AvailableProjectLocation[]
 * - POST /api/viewer/project/add/project-from-directory   query FromDirectoryQuery → UploadResponse
 * - POST /api/viewer/project/add/project-from-server      query FromServerQuery → UploadResponse
 * - GET  /api/viewer/project/project-file?projectName     → the latest revision's original file (bytes)
 * A directory node's filePath is the file's path on the server; a server's project is 'url->project'.
 */
import * as v from 'valibot';
import { DESCRIPTION_MAX_LENGTH, PROJECT_NAME_MAX_LENGTH, boolParam, boundedString, requiredString } from './common';

/** Longest server path or 'url->project' source accepted, characters. */
export const SOURCE_PATH_MAX_LENGTH = 1024;
/** Separator of a server source: '{server url}->{project name}' (application.md §3). */
export const SERVER_SOURCE_SEPARATOR = '->';

/** A node of the location tree: a directory (with children) or a project file / remote project (none). */
export interface LocationNode {
  id: string;
  /** Last path segment (directories, files) or the project name (servers). */
  name: string;
  /** Server path of a directory or file; 'url->project' for another server's project. */
  filePath: string;
  children: LocationNode[];
}
export const LocationNodeSchema: v.GenericSchema<LocationNode> = v.object({
  id: v.string(),
  name: v.string(),
  filePath: v.string(),
  children: v.array(v.lazy(() => LocationNodeSchema)),
});

/**
 * One configured location with the projects found there. `error` says why a server's projects could not
 * be listed (unreachable, refused the user); the location is listed with no projects then.
 */
export const AvailableProjectLocationSchema = v.object({
  location: v.string(),
  locationType: v.picklist(['Directory', 'Server']),
  projects: v.array(LocationNodeSchema),
  error: v.optional(v.string()),
});
export type AvailableProjectLocation = v.InferOutput<typeof AvailableProjectLocationSchema>;
export const AvailableProjectLocationsSchema = v.array(AvailableProjectLocationSchema);

const projectName = () =>
  v.pipe(v.string(), v.trim(), v.maxLength(PROJECT_NAME_MAX_LENGTH, `At most ${PROJECT_NAME_MAX_LENGTH} characters`));

/**
 * How an existing project takes the new file (application.md §4 "overwrite choice"): `newRevision`
 * 'true' adds a revision whatever `overwriteIfExists` says; otherwise overwriteIfExists 'true' replaces
 * the latest revision (as on upload); both absent: a new revision.
 */
const revisionChoice = {
  description: v.optional(boundedString(DESCRIPTION_MAX_LENGTH), ''),
  overwriteIfExists: v.optional(boolParam(), 'false'),
  newRevision: v.optional(boolParam(), 'false'),
};

/** POST .../add/project-from-directory query; projectName defaults to the file's base name. */
export const FromDirectoryQuerySchema = v.object({
  projectPath: requiredString('Field is required', SOURCE_PATH_MAX_LENGTH),
  projectName: v.optional(projectName()),
  ...revisionChoice,
});
export type FromDirectoryQuery = v.InferOutput<typeof FromDirectoryQuerySchema>;

/**
 * POST .../add/project-from-server query: `masterServerUri` is a configured server location, projectName the
 * project there (also the name here); keelsonUser, when given, must be the signed-in user's e-mail.
 */
export const FromServerQuerySchema = v.object({
  keelsonUser: v.optional(boundedString(254)),
  masterServerUri: requiredString('Field is required', SOURCE_PATH_MAX_LENGTH),
  projectName: requiredString('Field is required', PROJECT_NAME_MAX_LENGTH),
  ...revisionChoice,
});
export type FromServerQuery = v.InferOutput<typeof FromServerQuerySchema>;

/** True when a source is another server's project ('url->project'). */
export function isServerSource(source: string): boolean {
  return /^https?:\/\//i.test(source) && source.includes(SERVER_SOURCE_SEPARATOR);
}

/** Splits 'url->project' into its server URL and project name. */
export function splitServerSource(source: string): { url: string; project: string } {
  const i = source.lastIndexOf(SERVER_SOURCE_SEPARATOR);
  return { url: source.slice(0, i), project: source.slice(i + SERVER_SOURCE_SEPARATOR.length) };
}
