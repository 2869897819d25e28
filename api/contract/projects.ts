/**
 * Projects contract: application.md §3 "Model / project", "Current project revision", "Progress
 * report" and §7 "Projects". All paths under /api/viewer/project. Dates are ISO 8601 strings.
 */
import * as v from 'valibot';
import {
  ConversionStatusSchema,
  DESCRIPTION_MAX_LENGTH,
  PROJECT_NAME_MAX_LENGTH,
  boolParam,
  boundedString,
  intParam,
  requiredString,
  viewerIdParam,
} from './common';

/** Revision information of one revision (application.md §3). */
export const RevisionInfoSchema = v.object({
  revisionNumber: v.number(),
  lastUpdatedDate: v.string(),
  description: v.string(),
  projectInfo: v.object({ projectName: v.string() }),
});
export type RevisionInfo = v.InferOutput<typeof RevisionInfoSchema>;

/** A revision in the model list; `image` is a base64 PNG of 160×120, or '' when none. */
export const ModelRevisionSchema = v.object({
  revisionInfo: RevisionInfoSchema,
  image: v.string(),
});
export type ModelRevision = v.InferOutput<typeof ModelRevisionSchema>;

/** One project of GET /api/viewer/project/models; revisions newest first. */
export const ModelSchema = v.object({
  name: v.string(),
  revisions: v.array(ModelRevisionSchema),
  isConverting: v.boolean(),
  convertingMessage: v.string(),
  convertingPercentage: v.number(),
  conversionStartedByEmail: v.string(),
  conversionFailed: v.boolean(),
  conversionCancelled: v.boolean(),
  conversionId: v.string(),
  /** True while the running conversion waits for its CAD files (application.md §4 "CAD upload dialog"). */
  waitingForCadFiles: v.optional(v.boolean()),
});
export type Model = v.InferOutput<typeof ModelSchema>;
export const ModelListSchema = v.array(ModelSchema);

/**
 * POST /api/viewer/project/add/project-uploaded query. overwriteIfExists: 'true' = Replace latest,
 * 'false' (default) = Add new revision. projectName defaults to the file's base name; upper-cased.
 */
export const UploadQuerySchema = v.object({
  keelsonUser: v.optional(boundedString(254)),
  projectName: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(PROJECT_NAME_MAX_LENGTH, 'At most 100 characters'))),
  description: v.optional(boundedString(DESCRIPTION_MAX_LENGTH), ''),
  overwriteIfExists: v.optional(boolParam(), 'false'),
});

/** Longest upload file name, in characters. */
export const UPLOAD_FILE_NAME_MAX_LENGTH = 200;
/** Upload file names: letters, digits, space and _ - . , + ( ) [ ]; no path separators or control characters. */
const UPLOAD_FILE_NAME_RE = /^[\p{L}\p{N} _\-.,+()[\]]+$/u;

/**
 * Checks an upload's file name before anything is stored.
 * @returns null when acceptable, else the reason ("longer than 200 characters", ...).
 */
export function checkUploadFileName(name: string): string | null {
  if (name.length === 0) return 'the name is empty';
  if (name.length > UPLOAD_FILE_NAME_MAX_LENGTH) return `longer than ${UPLOAD_FILE_NAME_MAX_LENGTH} characters`;
  if (name.startsWith('.')) return 'it starts with a dot';
  if (!UPLOAD_FILE_NAME_RE.test(name))
    return 'use letters, digits, spaces and _ - . , + ( ) [ ] only (no path separators or control characters)';
  return null;
}
export type UploadQuery = v.InferOutput<typeof UploadQuerySchema>;

/** Upload response: observe progress by joining the socket.io room `conversionId`. */
export const UploadResponseSchema = v.object({ conversionId: v.string(), projectName: v.string() });
export type UploadResponse = v.InferOutput<typeof UploadResponseSchema>;

/** `?projectName=` queries (model-conversion, cancel-project, delete-model, highest-revision). */
export const ProjectNameQuerySchema = v.object({ projectName: requiredString() });

/** DELETE .../delete-revision query. */
export const DeleteRevisionQuerySchema = v.object({ projectName: requiredString(), revisionNumber: intParam() });

/** GET .../project-info query; revision absent = latest. */
export const ProjectInfoQuerySchema = v.object({
  projectName: requiredString(),
  revision: v.optional(intParam()),
  viewerId: viewerIdParam(),
});

/** GET .../model-conversion response: the conversion state of a project (or of its last conversion). */
export const ModelConversionSchema = v.object({
  conversionId: v.string(),
  projectName: v.string(),
  status: ConversionStatusSchema,
  message: v.string(),
  subMessages: v.array(v.string()),
  progress: v.number(),
  startedByEmail: v.string(),
  error: v.nullable(v.string()),
});
export type ModelConversion = v.InferOutput<typeof ModelConversionSchema>;

/** GET .../project-info response: application.md §3 "Current project revision". */
export const ProjectRevisionInfoSchema = v.object({
  projectInfo: v.object({
    projectName: v.string(),
    projectVersion: v.string(),
    revisions: v.array(v.number()),
  }),
  revision: v.number(),
  description: v.string(),
  url: v.string(),
  lastUpdatedDate: v.string(),
});
export type ProjectRevisionInfo = v.InferOutput<typeof ProjectRevisionInfoSchema>;

/** GET .../highest-revision response. */
export const HighestRevisionSchema = v.object({ projectName: v.string(), highestRevision: v.number() });
export type HighestRevision = v.InferOutput<typeof HighestRevisionSchema>;

/**
 * GET .../cad-files-available response (application.md §7; issue "CAD components" §1): the CAD files the
 * project's latest revision needs (recorded by a conversion with the "CAD components" option on; none
 * otherwise), each with whether it is on the server and the objects that refer to it.
 */
export const CadFilesAvailableSchema = v.object({
  projectName: v.string(),
  revision: v.number(),
  files: v.array(
    v.object({
      /** The file name the model names (externalRef). */
      fileName: v.string(),
      /** geometryFormat ('.stp', '.igs', '.jt'), '' when absent. */
      format: v.string(),
      /** True when the file is in the project's CAD directory on the server. */
      exists: v.boolean(),
      /** The objects (Equipment, Plate ...) whose ExternalGeometryRef names the file. */
      objects: v.array(v.object({ type: v.string(), id: v.string(), name: v.string() })),
    }),
  ),
});
export type CadFilesAvailable = v.InferOutput<typeof CadFilesAvailableSchema>;
