/**
 * CAD components contract (application.md §2 "Upload CAD components", §4 "CAD upload dialog", §5 "Upload
 * and project files", §7 "Projects" and "CAD components"; viewer.md §3 CAD COMPONENT, §7 "CAD components").
 *
 * - POST /api/viewer/project/upload-cad-files?projectName&overwrite  multipart, one or more `cadFiles` parts
 *   → CadFilesState (only names the paused conversion requires; no duplicates; an existing file only with
 *   overwrite=true)
 * - POST /api/viewer/project/notify-cad-files-uploaded?projectName  body { fileNames } → CadFilesState (the
 *   conversion goes on)
 * - socket.io 'cadfiles' event (room = the conversion id) → CadUploadEvent
 * - GET /api/keelson-instance/cad-components/all?modelName&revision → CadComponent[] (bounds in m)
 * - GET /api/keelson-instance/cad-components/file-names?modelName&revision → CadFileNames
 */
import * as v from 'valibot';
import { requiredString } from './common';
import { BoxMSchema } from './models';

/**
 * The CAD formats Keelson converts, by lower-case file extension with the dot (api/cad/types.ts re-exports
 * it for the converters; the upload dialog's picker offers them).
 */
export const CAD_FORMATS = [
  '.stp',
  '.step',
  '.igs',
  '.iges',
  '.brep',
  '.brp',
  '.ifc',
  '.stl',
  '.gltf',
  '.glb',
  '.obj',
] as const;

/** Longest CAD file name, characters (engine/ocx/cadRefs.ts MAX_CAD_FILE_NAME). */
export const CAD_FILE_NAME_MAX_LENGTH = 255;
/** Most file names one notify call or one dialog lists. */
export const CAD_FILES_MAX = 1000;

/** The socket.io event that carries the upload state of a paused conversion (application.md §4). */
export const CAD_FILES_EVENT = 'cadfiles';

/**
 * Status of one file in the upload dialog (application.md §4 "CAD upload dialog"): missing (required, not on
 * the server), exists (on the server), uploading (a new file was supplied), updating (overwrite of an
 * existing file), extra (on the server, not required by this model).
 */
export const CadFileStatusSchema = v.picklist(['missing', 'exists', 'uploading', 'updating', 'extra'] as const);
export type CadFileStatus = v.InferOutput<typeof CadFileStatusSchema>;

/** One file of the dialog's list. */
export const CadFileStateSchema = v.object({
  fileName: v.string(),
  status: CadFileStatusSchema,
  /** The model's objects (Equipment ...) naming the file; empty for an extra file. */
  objects: v.array(v.object({ type: v.string(), id: v.string(), name: v.string() })),
});
export type CadFileState = v.InferOutput<typeof CadFileStateSchema>;

/** The upload state of a conversion paused for its CAD files. */
export const CadFilesStateSchema = v.object({
  conversionId: v.string(),
  projectName: v.string(),
  /** True while the conversion waits for Continue (notify) or Cancel. */
  waiting: v.boolean(),
  files: v.array(CadFileStateSchema),
});
export type CadFilesState = v.InferOutput<typeof CadFilesStateSchema>;

/** socket.io 'cadfiles' event: the Cad upload event fields (application.md §4) = the state. */
export const CadUploadEventSchema = CadFilesStateSchema;
export type CadUploadEvent = CadFilesState;

/** A CAD file name: no directory part, at most CAD_FILE_NAME_MAX_LENGTH characters. */
export const CadFileNameSchema = v.pipe(
  v.string('Must be a file name'),
  v.nonEmpty('Must be a file name'),
  v.maxLength(CAD_FILE_NAME_MAX_LENGTH, `At most ${CAD_FILE_NAME_MAX_LENGTH} characters`),
  v.check((s) => !/[\\/\0]/.test(s) && s !== '.' && s !== '..', 'Must be a file name without a directory'),
);

/** POST .../upload-cad-files query: overwrite = replace files already on the server. */
export const UploadCadFilesQuerySchema = v.object({
  projectName: requiredString(),
  overwrite: v.optional(
    v.pipe(
      v.union([v.boolean(), v.picklist(['true', 'false'])], "Must be 'true' or 'false'"),
      v.transform((x) => x === true || x === 'true'),
    ),
    false,
  ),
});

/** POST .../notify-cad-files-uploaded query and body. */
export const NotifyCadFilesQuerySchema = v.object({ projectName: requiredString() });
export const NotifyCadFilesBodySchema = v.object({
  fileNames: v.pipe(v.array(CadFileNameSchema), v.maxLength(CAD_FILES_MAX, `At most ${CAD_FILES_MAX} file names`)),
});
export type NotifyCadFilesBody = v.InferOutput<typeof NotifyCadFilesBodySchema>;

/** GET .../cad-files-state query (the dialog's first state; then 'cadfiles' events). */
export const CadFilesStateQuerySchema = NotifyCadFilesQuerySchema;

/** One CAD component of a revision (GET .../cad-components/all). */
export const CadComponentSchema = v.object({
  /** keelsonId (the referring Equipment's OCX id, or '@' + file name). */
  id: v.string(),
  /** Display name with the '@' prefix (viewer.md §3). */
  name: v.string(),
  /** Object table index (the engine's node id). */
  index: v.number(),
  fileName: v.string(),
  /** Lower-case extension with the dot ('.stp', '.stl'). */
  format: v.string(),
  triangles: v.number(),
  /** Bounds in metres, or null when the file gave no geometry (failed or empty). */
  bounds: v.nullable(BoxMSchema),
  /** Names of the component's parts (STEP products, IFC products, glTF nodes), in object-table order. */
  parts: v.array(v.string()),
  /** Why the component has no geometry ('' when it has). */
  error: v.string(),
});
export type CadComponent = v.InferOutput<typeof CadComponentSchema>;
export const CadComponentsResponseSchema = v.array(CadComponentSchema);

/** GET .../cad-components/file-names: the CAD files the revision's components came from. */
export const CadFileNamesSchema = v.object({ fileNames: v.array(v.string()) });
export type CadFileNames = v.InferOutput<typeof CadFileNamesSchema>;
