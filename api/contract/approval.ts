/**
 * Object approval status contract (application.md §3 "Approval status", §4 "Status options editing", §5
 * "Status option name", §7 "Object status"; viewer.md §3 "Approval status", §7 "Geometry approval").
 *
 * Status options (/api/viewer/approval-status):
 * - GET /all → ApprovalStatus[] (every option, the fixed default and removed statuses included, in order)
 * - GET ?id → ApprovalStatus; GET /options → ApprovalStatusOptions (defaultStatus, removedStatus, order)
 * - POST body ApprovalStatusBody → { id }; PUT ?id body ApprovalStatusBody; DELETE ?id (admin:view)
 * - GET /usage?id → { geometries } (how many object statuses use the option; the editor's confirm dialogs)
 *
 * Object status (/api/viewer/geometry/approval-status), objects named by their OCX id:
 * - GET /all?projectName&revision → GeometryApprovalStatus[] of every part with a status other than the default
 * - POST ?projectName&revision body ids → GeometryApprovalStatus[] (one per known id; read)
 * - POST ?projectName&revision&approvalStatusId body ids → GeometryApprovalStatus[] (change; project write)
 * - GET /revision-geometry-approval-status-count?projectName&revision → ApprovalStatusCount[]
 * - GET /history?projectName&revision&geometry → ApprovalHistoryEntry[] (oldest first)
 */
import * as v from 'valibot';
import { PROJECT_NAME_MAX_LENGTH, intParam, requiredString } from './common';
import { OBJECT_ID_MAX_LENGTH, revisionParam } from './models';

/** Status name length (application.md §9 "Status name length"). */
export const STATUS_NAME_MIN_LENGTH = 3;
export const STATUS_NAME_MAX_LENGTH = 20;
/** Colour of a new option (application.md §9 "Default status colour"). */
export const DEFAULT_STATUS_COLOR = '#eeeeee';
/** Name of a new option in the admin editor (application.md §4 "Status options editing"). */
export const NEW_STATUS_NAME = 'New status option';
/**
 * The fixed permission that, with access to the project, lets a user change its objects' statuses: those
 * who may change a project's model may also approve its parts.
 */
export const APPROVAL_CHANGE_PERMISSION = 'upload:model';
/** Most object ids one read or change may name. */
export const MAX_APPROVAL_GEOMETRIES = 10_000;
/** Status polling while a change is in progress, ms (viewer.md §9 "status polling"). */
export const STATUS_POLL_MS = 2500;

/** The texts of application.md §5 "Status option name". */
export const STATUS_NAME_MESSAGES = {
  required: 'Name is required.',
  length: 'Minimum 3 and maximum 20 characters',
  unique: 'There is another status option with the same name. Try another name.',
  characters: 'Name contains special characters.',
} as const;

/**
 * The first rule of application.md §5 "Status option name" that `name` breaks (uniqueness against
 * `others`, case-insensitively, trimmed), or null when it is valid. Shared by the server and the editor.
 */
export function statusNameError(name: string, others: readonly string[] = []): string | null {
  const n = name.trim();
  if (n === '') return STATUS_NAME_MESSAGES.required;
  if (n.length < STATUS_NAME_MIN_LENGTH || n.length > STATUS_NAME_MAX_LENGTH) return STATUS_NAME_MESSAGES.length;
  if (!/^[\p{L}\p{N}\s]+$/u.test(n)) return STATUS_NAME_MESSAGES.characters;
  if (others.some((o) => o.trim().toLowerCase() === n.toLowerCase())) return STATUS_NAME_MESSAGES.unique;
  return null;
}

const ColorSchema = v.pipe(v.string('Must be a colour'), v.regex(/^#[0-9a-fA-F]{6}$/, "Must be a colour '#rrggbb'"));

/** A status option (application.md §3): color '#rrggbb'. */
export const ApprovalStatusSchema = v.object({
  id: v.number(),
  name: v.string(),
  color: v.string(),
  isEditable: v.boolean(),
});
export type ApprovalStatus = v.InferOutput<typeof ApprovalStatusSchema>;
export const ApprovalStatusListSchema = v.array(ApprovalStatusSchema);

/** GET /options: the default and removed statuses' ids and the options' order (ids). */
export const ApprovalStatusOptionsSchema = v.object({
  defaultStatus: v.number(),
  removedStatus: v.number(),
  order: v.array(v.number()),
});
export type ApprovalStatusOptions = v.InferOutput<typeof ApprovalStatusOptionsSchema>;

/** POST / PUT body: the name (checked by statusNameError on the server) and an optional colour. */
export const ApprovalStatusBodySchema = v.object({
  name: v.pipe(v.string(STATUS_NAME_MESSAGES.required), v.maxLength(100, STATUS_NAME_MESSAGES.length)),
  color: v.optional(ColorSchema),
});
export type ApprovalStatusBody = v.InferOutput<typeof ApprovalStatusBodySchema>;

export const ApprovalStatusIdQuerySchema = v.object({ id: intParam() });
export const ApprovalStatusIdResponseSchema = v.object({ id: v.number() });
export const ApprovalStatusUsageSchema = v.object({ geometries: v.number() });
export type ApprovalStatusUsage = v.InferOutput<typeof ApprovalStatusUsageSchema>;

/** The revision a geometry call acts on. */
export const GeometryApprovalQuerySchema = v.object({
  projectName: requiredString('Field is required', PROJECT_NAME_MAX_LENGTH),
  revision: revisionParam(),
  approvalStatusId: v.optional(intParam()),
});
export type GeometryApprovalQuery = v.InferOutput<typeof GeometryApprovalQuerySchema>;

export const GeometryApprovalRevisionQuerySchema = v.object({
  projectName: requiredString('Field is required', PROJECT_NAME_MAX_LENGTH),
  revision: revisionParam(),
});

export const GeometryHistoryQuerySchema = v.object({
  projectName: requiredString('Field is required', PROJECT_NAME_MAX_LENGTH),
  revision: revisionParam(),
  geometry: requiredString('Field is required', OBJECT_ID_MAX_LENGTH),
});

/** Body of the read and change calls: object ids (OCX @id). */
export const GeometryIdsBodySchema = v.pipe(
  v.array(
    v.pipe(
      v.string('Must be a list of object ids'),
      v.maxLength(OBJECT_ID_MAX_LENGTH, `Object ids have at most ${OBJECT_ID_MAX_LENGTH} characters`),
    ),
    'Must be a list of object ids',
  ),
  v.maxLength(MAX_APPROVAL_GEOMETRIES, `At most ${MAX_APPROVAL_GEOMETRIES} object ids per call`),
);

/**
 * One object's status: `geometry` is its OCX id; `approvalStatus` the option (the default status when never
 * set, the removed status when its option was deleted). `changeInProgress` is true while another change of
 * this object is being written (the viewer shows a spinner and polls every STATUS_POLL_MS).
 */
export const GeometryApprovalStatusSchema = v.object({
  geometry: v.string(),
  approvalStatus: ApprovalStatusSchema,
  changeInProgress: v.boolean(),
});
export type GeometryApprovalStatus = v.InferOutput<typeof GeometryApprovalStatusSchema>;
export const GeometryApprovalStatusListSchema = v.array(GeometryApprovalStatusSchema);

/** Parts of the revision per status (every option listed, also with count 0). */
export const ApprovalStatusCountSchema = v.object({
  approvalStatusId: v.number(),
  name: v.string(),
  color: v.string(),
  count: v.number(),
});
export const ApprovalStatusCountListSchema = v.array(ApprovalStatusCountSchema);
export type ApprovalStatusCount = v.InferOutput<typeof ApprovalStatusCountSchema>;

/** One recorded change (who, when, from, to); names as they were at the time. */
export const ApprovalHistoryEntrySchema = v.object({
  revision: v.number(),
  from: v.object({ id: v.nullable(v.number()), name: v.string() }),
  to: v.object({ id: v.number(), name: v.string() }),
  changedBy: v.string(),
  changedByName: v.string(),
  changedAt: v.string(),
});
export type ApprovalHistoryEntry = v.InferOutput<typeof ApprovalHistoryEntrySchema>;
export const ApprovalHistorySchema = v.array(ApprovalHistoryEntrySchema);
