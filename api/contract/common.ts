/**
 * Shared pieces of the REST contract (application.md §3 "Error object", "Progress report").
 * Imported by the server (validation) and the UI client (response parsing); no Node or DOM imports.
 */
import * as v from 'valibot';

/** Error reply of every failing call: application.md §3 "Error object" `{ error, message, type }`. */
export const ErrorResponseSchema = v.object({
  error: v.string(),
  message: v.string(),
  type: v.string(),
});
export type ErrorResponse = v.InferOutput<typeof ErrorResponseSchema>;

/** `{ success: true }` replies (registration, password change). */
export const SuccessResponseSchema = v.object({ success: v.boolean() });
export type SuccessResponse = v.InferOutput<typeof SuccessResponseSchema>;

/** Conversion status values, application.md §3 "Progress report" and §9. */
export const ConversionStatus = {
  InProgress: 1,
  Ready: 2,
  Canceled: 3,
  Error: 4,
  Warning: 5,
} as const;
export type ConversionStatusValue = (typeof ConversionStatus)[keyof typeof ConversionStatus];

/** Status codes 1..5 as a schema. */
export const ConversionStatusSchema = v.picklist([1, 2, 3, 4, 5] as const);

/**
 * socket.io 'progress' event (room = conversionId). `progress` is the server progress 0..100 (the
 * client maps it to 20 + 0.8·p, application.md §4 "Model conversion"); never decreases within a conversion.
 */
export const ProgressEventSchema = v.object({
  conversionId: v.string(),
  projectName: v.string(),
  status: ConversionStatusSchema,
  message: v.string(),
  subMessages: v.array(v.string()),
  progress: v.pipe(v.number(), v.minValue(0), v.maxValue(100)),
  /**
   * True while the conversion is paused until its CAD files are uploaded (application.md §4 "CAD upload
   * dialog"): the starter's page opens the upload dialog; status stays InProgress.
   */
  waitingForCadFiles: v.optional(v.boolean()),
});
export type ProgressEvent = v.InferOutput<typeof ProgressEventSchema>;

/**
 * socket.io 'projectsChanged' event: a conversion of project `projectName` started or ended (any user's),
 * sent to every signed-in socket whose user may see the project, so that start pages refresh their list
 * and follow the conversion live (application.md issue "Other users' conversions appear live").
 */
export const PROJECTS_CHANGED_EVENT = 'projectsChanged';
export const ProjectsChangedEventSchema = v.object({ projectName: v.string() });
export type ProjectsChangedEvent = v.InferOutput<typeof ProjectsChangedEventSchema>;

/** socket.io 'userNotification' event (application.md §4 "Authentication and session"). */
export const UserNotificationSchema = v.object({
  kind: v.picklist(['user-updated', 'user-deleted']),
  email: v.string(),
});
export type UserNotification = v.InferOutput<typeof UserNotificationSchema>;

/** Default bound of a required string field, characters. */
export const STRING_MAX_LENGTH = 200;
/** Project names (api/projects/ProjectStore.ts normaliseProjectName), characters. */
export const PROJECT_NAME_MAX_LENGTH = 100;
/** Revision descriptions, characters. */
export const DESCRIPTION_MAX_LENGTH = 1000;

/** A string of at most `max` characters ('At most N characters'). */
export const boundedString = (max: number, message = 'Field is required') =>
  v.pipe(v.string(message), v.maxLength(max, `At most ${max} characters`));

/**
 * A required, trimmed, non-empty string query/body field ('Field is required' when missing or empty) of at
 * most `max` characters.
 */
export const requiredString = (message = 'Field is required', max = STRING_MAX_LENGTH) =>
  v.pipe(v.string(message), v.trim(), v.nonEmpty(message), v.maxLength(max, `At most ${max} characters`));

/** An optional string field that may be absent (at most STRING_MAX_LENGTH characters). */
export const optionalString = () => v.optional(boundedString(STRING_MAX_LENGTH));

/** The optional viewerId (client id) every instance call carries, at most 100 characters. */
export const viewerIdParam = () => v.optional(boundedString(100));

/** A non-negative integer given as a query string ("3") or a number. */
export const intParam = (message = 'Must be a non-negative integer') =>
  v.pipe(
    v.union([v.string(message), v.number(message)], message),
    v.transform((x) => (typeof x === 'number' ? x : x.trim() === '' ? NaN : Number(x))),
    v.number(message),
    v.integer(message),
    v.minValue(0, message),
  );

/** A boolean given as a query string ('true' / 'false') or a boolean. */
export const boolParam = (message = "Must be 'true' or 'false'") =>
  v.pipe(
    v.union([v.boolean(), v.picklist(['true', 'false'])], message),
    v.transform((x) => x === true || x === 'true'),
  );
