/**
 * Review comments contract (viewer.md §3 "Comment", "Attachment", "User"; §5; §6; §7 "Comments" and
 * "Users"; §8). Lengths are metres (the API's unit; the viewer divides its millimetres by 1000), angles
 * degrees, times ISO 8601 UTC strings, sizes bytes.
 *
 * Calls under /api/keelson-static/comments (every one needs access to the comment's project; a project the
 * user may not see, and a comment or attachment of one, answers 404 as if missing):
 * - GET  /all?projectName&projectVersionName                       → Comment[] (threads with their replies)
 * - GET  /by-id?commentId                                           → Comment
 * - GET  /attachment-data?attachmentId                              → the file's bytes (streamed)
 * - GET  /attachment-thumbnail-data?attachmentId                    → PNG thumbnail (404 when not an image)
 * - POST /upload-attachment?projectName   multipart field 'file'    → Attachment (isPersisted false until a
 *        comment refers to its fileId; at most MAX_ATTACHMENT_BYTES, refused while streaming with 413
 *        ATTACHMENT_TOO_LARGE_MESSAGE and nothing stored)
 * - POST /add-thread?projectName&projectVersionName&projectRevisionNumber  body AddCommentBody → Comment
 * - POST /add-reply?projectName&projectVersionName&projectRevisionNumber&threadId  body AddCommentBody → Comment
 *        (the whole thread, the new reply among its replies)
 * - POST /change-state?threadId&newState  body { user? }            → Comment (the thread; a
 *        StateChangeMessage reply records the change)
 * - POST /update  body UpdateCommentBody                            → Comment (the thread holding it)
 * - POST /delete-revision-comments?projectName&projectVersionName&projectRevisionNumber → { success, deleted }
 * - GET  /bcf?projectName[&projectVersionName][&version=3.0|2.1][&threadIds=a,b]  → BCF zip (application/octet-stream)
 * - POST /bcf?projectName[&projectVersionName][&projectRevisionNumber]  multipart field 'file' → BcfImportReport
 * And GET /api/keelson-instance/users/all?modelName → AssigneeCandidate[] (the users who may see the project).
 *
 * Rules (§6, enforced by the server): editing (update, delete) a Thread or Reply by its author (e-mail,
 * case-insensitive) or a user with 'admin:view' (403 otherwise); state changes by the author, an assignee or
 * 'admin:view'; StateChangeMessage entries cannot be edited; messages must be non-empty
 * ('Comment message must not be empty'); deleting a revision's comments needs 'admin:view'.
 *
 * Realtime: every change is pushed as COMMENT_EVENT ('comment', CommentEvent) to the project's socket.io
 * room `project:{NAME}` (api/realtime.ts; join it with 'join').
 */
import * as v from 'valibot';
import { PROJECT_NAME_MAX_LENGTH, STRING_MAX_LENGTH, boundedString, intParam, requiredString } from './common';
import { ColouringViewOutputSchema, ColouringViewSchema } from './colouring';
import { OBJECT_ID_MAX_LENGTH } from './models';

/** Largest attachment, bytes (viewer.md §5, §9: 250 MB). */
export const MAX_ATTACHMENT_BYTES = 262_144_000;
/** The refusal of a larger attachment (viewer.md §5, §8). */
export const ATTACHMENT_TOO_LARGE_MESSAGE = 'Upload failed because the file was larger than 250 MB.';
/** Longest comment message, characters. */
export const MESSAGE_MAX_LENGTH = 20_000;
/** Longest label, characters; most labels per comment. */
export const LABEL_MAX_LENGTH = 100;
export const MAX_LABELS = 50;
/** Most assignees per thread. */
export const MAX_ASSIGNEES = 100;
/** Most attachments per comment. */
export const MAX_ATTACHMENTS = 20;
/** Most object ids in a view's visibleObjects / referredObjects. */
export const MAX_VIEW_OBJECTS = 200_000;
/** Longest file name; comment / attachment ids. */
export const FILE_NAME_MAX_LENGTH = 255;
export const ID_MAX_LENGTH = 100;
/** Largest inline base64 `data` of an attachment in a request, characters (bigger files: upload-attachment). */
export const INLINE_DATA_MAX_LENGTH = 8_000_000;
/** Most thread ids in a BCF export filter. */
export const MAX_EXPORT_THREADS = 2_000;
/** The version name every Keelson revision carries (api/routes/projects.ts PROJECT_VERSION). */
export const DEFAULT_VERSION_NAME = 'MAIN';

/** Comment states (viewer.md §3), in their numeric order (index = number; sorting uses it). */
export const COMMENT_STATES = ['New', 'InProgress', 'Resolved', 'Closed', 'Undetermined', 'Deleted'] as const;
export type CommentState = (typeof COMMENT_STATES)[number];
export const CommentStateSchema = v.picklist(
  COMMENT_STATES,
  `Must be one of ${COMMENT_STATES.map((s) => `'${s}'`).join(', ')}`,
);
/** Display names of the states ('In progress'), viewer.md §4 "Comments". */
export const COMMENT_STATE_LABELS: Record<CommentState, string> = {
  New: 'New',
  InProgress: 'In progress',
  Resolved: 'Resolved',
  Closed: 'Closed',
  Undetermined: 'Undetermined',
  Deleted: 'Deleted',
};

/** Comment types (viewer.md §3). */
export const COMMENT_TYPES = ['Thread', 'Reply', 'StateChangeMessage'] as const;
export type CommentType = (typeof COMMENT_TYPES)[number];
export const CommentTypeSchema = v.picklist(COMMENT_TYPES);

/** Attachment types (viewer.md §3, §9): VIEW = 1 (snapshot with a saved view), FILE = 2. */
export const AttachmentType = { View: 1, File: 2 } as const;
export const AttachmentTypeSchema = v.picklist([1, 2] as const, 'Must be 1 (VIEW) or 2 (FILE)');

const finite = () => v.pipe(v.number('Must be a number'), v.finite('Must be a finite number'));
const idString = () => requiredString('Field is required', ID_MAX_LENGTH);

/**
 * A user as comments show them (viewer.md §3 "User", assignee lists): `userName` is the e-mail (lower
 * case), `description` the full name.
 */
export const CommentUserSchema = v.object({
  userName: v.pipe(boundedString(254), v.trim(), v.toLowerCase()),
  description: v.optional(boundedString(STRING_MAX_LENGTH), ''),
});
export type CommentUser = v.InferOutput<typeof CommentUserSchema>;

/** A point in metres. */
export const PointSchema = v.object({ x: finite(), y: finite(), z: finite() });
export type Point = v.InferOutput<typeof PointSchema>;

/** Saved camera (viewer.md §3 savedView): orbit angles in degrees; distance, width, height, target in m. */
export const SavedViewSchema = v.object({
  longitude: finite(),
  latitude: finite(),
  distance: finite(),
  target: PointSchema,
  width: finite(),
  height: finite(),
  /** Keelson addition: perspective (walk mode) or orthographic; absent = orthographic. */
  perspective: v.optional(v.boolean()),
  /** Keelson addition: vertical field of view of a perspective camera, degrees. */
  fieldOfView: v.optional(finite()),
});
export type SavedView = v.InferOutput<typeof SavedViewSchema>;

/** Workplane (viewer.md §3): a point in m and a unit normal. */
export const WorkplaneSchema = v.object({
  point: PointSchema,
  normal: v.object({ nx: finite(), ny: finite(), nz: finite() }),
});
export type Workplane = v.InferOutput<typeof WorkplaneSchema>;

/** Clipping box (viewer.md §3), m. */
export const ClippingBoxSchema = v.object({
  xMin: finite(),
  xMax: finite(),
  yMin: finite(),
  yMax: finite(),
  zMin: finite(),
  zMax: finite(),
});
export type ClippingBox = v.InferOutput<typeof ClippingBoxSchema>;

const objectIds = () =>
  v.optional(
    v.pipe(
      v.array(boundedString(OBJECT_ID_MAX_LENGTH)),
      v.maxLength(MAX_VIEW_OBJECTS, `At most ${MAX_VIEW_OBJECTS} objects`),
    ),
    [],
  );

/**
 * The VIEW part of an attachment (viewer.md §3 "Attachment"; a snapshot restores all of it):
 * visibleObjects / referredObjects (the selection) are object ids of the model (ApiModelObject.id; BCF
 * maps them to the objects' OCX GUIDs).
 */
export const AttachmentViewSchema = v.object({
  visibleObjects: objectIds(),
  referredObjects: objectIds(),
  isClippingEnabled: v.optional(v.boolean(), false),
  isWorkplaneEnabled: v.optional(v.boolean(), false),
  savedView: v.optional(v.nullable(SavedViewSchema), null),
  workplane: v.optional(v.nullable(WorkplaneSchema), null),
  clippingBox: v.optional(v.nullable(ClippingBoxSchema), null),
  /** Keelson addition: the colouring by quantities shown (null: the model's own colours). */
  coloring: v.optional(v.nullable(ColouringViewSchema)),
});
export type AttachmentView = v.InferOutput<typeof AttachmentViewSchema>;

/**
 * An attachment as the server answers it (viewer.md §3): `fileId` names it in attachment-data /
 * attachment-thumbnail-data; `data` is never sent back (fetch the bytes with attachment-data);
 * `hasThumbnail` (Keelson addition) says whether attachment-thumbnail-data has an image.
 */
export const AttachmentSchema = v.object({
  fileId: v.string(),
  fileName: v.string(),
  fileSize: v.number(),
  type: AttachmentTypeSchema,
  timestamp: v.string(),
  lastModifiedTimestamp: v.string(),
  isPersisted: v.boolean(),
  hasThumbnail: v.boolean(),
  visibleObjects: v.array(v.string()),
  referredObjects: v.array(v.string()),
  isClippingEnabled: v.boolean(),
  isWorkplaneEnabled: v.boolean(),
  savedView: v.nullable(SavedViewSchema),
  workplane: v.nullable(WorkplaneSchema),
  clippingBox: v.nullable(ClippingBoxSchema),
  coloring: v.nullable(ColouringViewOutputSchema),
});
export type Attachment = v.InferOutput<typeof AttachmentSchema>;

/** The view fields of an attachment with nothing set (a FILE attachment, or a VIEW before capture). */
export const EMPTY_ATTACHMENT_VIEW: AttachmentView = {
  visibleObjects: [],
  referredObjects: [],
  isClippingEnabled: false,
  isWorkplaneEnabled: false,
  savedView: null,
  workplane: null,
  clippingBox: null,
  coloring: null,
};

/** The view fields of an attachment (viewer.md §3 Attachment), without its file fields. */
export function attachmentViewOf(a: AttachmentView): AttachmentView {
  return {
    visibleObjects: a.visibleObjects,
    referredObjects: a.referredObjects,
    isClippingEnabled: a.isClippingEnabled,
    isWorkplaneEnabled: a.isWorkplaneEnabled,
    savedView: a.savedView,
    workplane: a.workplane,
    clippingBox: a.clippingBox,
    coloring: a.coloring ?? null,
  };
}

/**
 * An attachment in a comment sent to the server: either `fileId` of an upload-attachment result (or of an
 * attachment the comment already has), or `fileName` + base64 `data` (a snapshot PNG; at most
 * INLINE_DATA_MAX_LENGTH characters). The view fields count for type VIEW.
 */
export const AttachmentInputSchema = v.pipe(
  v.object({
    fileId: v.optional(idString()),
    fileName: v.optional(requiredString('Field is required', FILE_NAME_MAX_LENGTH)),
    type: v.optional(AttachmentTypeSchema, 2),
    data: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(INLINE_DATA_MAX_LENGTH, `At most ${INLINE_DATA_MAX_LENGTH} characters`),
        v.regex(/^[A-Za-z0-9+/=\s]*$/, 'Must be base64'),
      ),
    ),
    ...AttachmentViewSchema.entries,
  }),
  v.check(
    (a) => a.fileId !== undefined || (a.data !== undefined && a.fileName !== undefined),
    'An attachment needs fileId, or fileName and data',
  ),
);
export type AttachmentInput = v.InferOutput<typeof AttachmentInputSchema>;

/** A non-empty message (viewer.md §5 "Comment message must be non-empty to submit"). */
export const MessageSchema = v.pipe(
  v.string('Comment message must not be empty'),
  v.check((s) => s.trim().length > 0, 'Comment message must not be empty'),
  v.maxLength(MESSAGE_MAX_LENGTH, `At most ${MESSAGE_MAX_LENGTH} characters`),
);

/** Labels: free text, trimmed, non-empty, duplicates (case-insensitive) dropped. */
export const LabelsSchema = v.pipe(
  v.array(v.pipe(v.string(), v.trim(), v.nonEmpty('A label must not be empty'), v.maxLength(LABEL_MAX_LENGTH))),
  v.maxLength(MAX_LABELS, `At most ${MAX_LABELS} labels`),
  v.transform((ls) => ls.filter((l, i) => ls.findIndex((o) => o.toLowerCase() === l.toLowerCase()) === i)),
);

/**
 * The comment part of add-thread / add-reply (viewer.md §7 "body comment, user"): the client may send a
 * whole Comment; only these fields are read (the author, ids and times are the server's). `assignees` and
 * `state` count for threads only (a reply is 'New' and has none).
 */
export const CommentInputSchema = v.object({
  message: MessageSchema,
  assignees: v.optional(
    v.pipe(v.array(CommentUserSchema), v.maxLength(MAX_ASSIGNEES, `At most ${MAX_ASSIGNEES} assignees`)),
    [],
  ),
  labels: v.optional(LabelsSchema, []),
  markerLocation: v.optional(v.nullable(PointSchema), null),
  attachments: v.optional(
    v.pipe(v.array(AttachmentInputSchema), v.maxLength(MAX_ATTACHMENTS, `At most ${MAX_ATTACHMENTS} attachments`)),
    [],
  ),
  state: v.optional(CommentStateSchema),
});
export type CommentInput = v.InferOutput<typeof CommentInputSchema>;

/** Body of add-thread and add-reply. `user` is accepted for the spec's shape; the author is the signed-in user. */
export const AddCommentBodySchema = v.object({
  comment: CommentInputSchema,
  user: v.optional(CommentUserSchema),
});
export type AddCommentBody = v.InferOutput<typeof AddCommentBodySchema>;

/** Query of add-thread (viewer.md §7). */
export const AddThreadQuerySchema = v.object({
  projectName: requiredString('Field is required', PROJECT_NAME_MAX_LENGTH),
  projectVersionName: v.optional(requiredString('Field is required', STRING_MAX_LENGTH), DEFAULT_VERSION_NAME),
  projectRevisionNumber: intParam(),
});
export type AddThreadQuery = v.InferOutput<typeof AddThreadQuerySchema>;

/** Query of add-reply: add-thread's plus the thread. */
export const AddReplyQuerySchema = v.object({ ...AddThreadQuerySchema.entries, threadId: idString() });
export type AddReplyQuery = v.InferOutput<typeof AddReplyQuerySchema>;

/**
 * Body of update: the changed comment (by `id`) and the spec's optional `user`. Fields left out keep their
 * value. `state` may only stay as it is or become 'Deleted' (deleting = an update to Deleted, which also
 * removes the marker); other state changes go through change-state. Attachments listed replace the
 * comment's (by fileId; new ones as in add-thread); ones left out are removed with their files.
 */
export const UpdateCommentBodySchema = v.object({
  comment: v.object({
    id: idString(),
    message: v.optional(MessageSchema),
    assignees: v.optional(CommentInputSchema.entries.assignees.wrapped),
    labels: v.optional(LabelsSchema),
    markerLocation: v.optional(v.nullable(PointSchema)),
    attachments: v.optional(CommentInputSchema.entries.attachments.wrapped),
    state: v.optional(CommentStateSchema),
  }),
  user: v.optional(CommentUserSchema),
});
export type UpdateCommentBody = v.InferOutput<typeof UpdateCommentBodySchema>;

/** Query of change-state: the thread and the new state's name (COMMENT_STATES). */
export const ChangeStateQuerySchema = v.object({
  threadId: idString(),
  newState: CommentStateSchema,
});
export type ChangeStateQuery = v.InferOutput<typeof ChangeStateQuerySchema>;
export const ChangeStateBodySchema = v.optional(v.object({ user: v.optional(CommentUserSchema) }), {});

/** Query of GET /all. */
export const AllCommentsQuerySchema = v.object({
  projectName: requiredString('Field is required', PROJECT_NAME_MAX_LENGTH),
  projectVersionName: v.optional(requiredString('Field is required', STRING_MAX_LENGTH), DEFAULT_VERSION_NAME),
});
export type AllCommentsQuery = v.InferOutput<typeof AllCommentsQuerySchema>;

export const CommentByIdQuerySchema = v.object({ commentId: idString() });
export const AttachmentQuerySchema = v.object({ attachmentId: idString() });
export const UploadAttachmentQuerySchema = v.object({
  projectName: requiredString('Field is required', PROJECT_NAME_MAX_LENGTH),
});

/** Query of delete-revision-comments (needs 'admin:view'). */
export const DeleteRevisionCommentsQuerySchema = AddThreadQuerySchema;
export const DeleteRevisionCommentsResponseSchema = v.object({ success: v.boolean(), deleted: v.number() });
export type DeleteRevisionCommentsResponse = v.InferOutput<typeof DeleteRevisionCommentsResponseSchema>;

/**
 * A comment (viewer.md §3). Threads carry their replies (Reply and StateChangeMessage, oldest first;
 * deleted replies are left out); a reply's `replies` is empty. `threadId` (Keelson addition) is the
 * thread's id (its own for a thread). `seenBy` lists user names (e-mails). `markerLocation` in m.
 * `hasModifications` is true once the message, labels, assignees, marker or attachments were edited.
 */
export interface Comment {
  id: string;
  threadId: string;
  projectName: string;
  projectVersionName: string;
  projectRevisionNumber: number;
  type: CommentType;
  timeStamp: string;
  author: CommentUser;
  lastModificationTime: string;
  assignees: CommentUser[];
  labels: string[];
  message: string;
  attachments: Attachment[];
  replies: Comment[];
  seenBy: string[];
  state: CommentState;
  markerLocation: Point | null;
  hasModifications: boolean;
}
export const CommentSchema: v.GenericSchema<Comment> = v.object({
  id: v.string(),
  threadId: v.string(),
  projectName: v.string(),
  projectVersionName: v.string(),
  projectRevisionNumber: v.number(),
  type: CommentTypeSchema,
  timeStamp: v.string(),
  author: v.object({ userName: v.string(), description: v.string() }),
  lastModificationTime: v.string(),
  assignees: v.array(v.object({ userName: v.string(), description: v.string() })),
  labels: v.array(v.string()),
  message: v.string(),
  attachments: v.array(AttachmentSchema),
  replies: v.array(v.lazy(() => CommentSchema)),
  seenBy: v.array(v.string()),
  state: CommentStateSchema,
  markerLocation: v.nullable(PointSchema),
  hasModifications: v.boolean(),
});
export const CommentListSchema = v.array(CommentSchema);

/** GET /api/keelson-instance/users/all query: the project the assignees are picked for. */
export const UsersAllQuerySchema = v.object({
  modelName: requiredString('Field is required', PROJECT_NAME_MAX_LENGTH),
  viewerId: v.optional(boundedString(100)),
});
/** An assignee candidate (viewer.md §7 "Users"), shown as 'description (userName)' (§5). */
export const AssigneeCandidateSchema = v.object({ userName: v.string(), description: v.string() });
export type AssigneeCandidate = v.InferOutput<typeof AssigneeCandidateSchema>;
export const AssigneeCandidatesSchema = v.array(AssigneeCandidateSchema);

/** BCF versions written by export (3.0 is the default) and read by import (2.1 and 3.0). */
export const BCF_VERSIONS = ['3.0', '2.1'] as const;
export const BcfExportQuerySchema = v.object({
  projectName: requiredString('Field is required', PROJECT_NAME_MAX_LENGTH),
  projectVersionName: v.optional(requiredString('Field is required', STRING_MAX_LENGTH), DEFAULT_VERSION_NAME),
  version: v.optional(v.picklist(BCF_VERSIONS, "Must be '3.0' or '2.1'"), '3.0'),
  /** Comma-separated thread ids (the panel's filtered threads); absent = every thread not Deleted. */
  threadIds: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(MAX_EXPORT_THREADS * (ID_MAX_LENGTH + 1)),
      v.transform((s) =>
        s
          .split(',')
          .map((x) => x.trim())
          .filter((x) => x !== ''),
      ),
      v.maxLength(MAX_EXPORT_THREADS, `At most ${MAX_EXPORT_THREADS} threads`),
    ),
  ),
});
export type BcfExportQuery = v.InferOutput<typeof BcfExportQuerySchema>;

/** POST /bcf query: imported topics land on this version and revision (default: the latest revision). */
export const BcfImportQuerySchema = v.object({
  projectName: requiredString('Field is required', PROJECT_NAME_MAX_LENGTH),
  projectVersionName: v.optional(requiredString('Field is required', STRING_MAX_LENGTH), DEFAULT_VERSION_NAME),
  projectRevisionNumber: v.optional(intParam()),
});
export type BcfImportQuery = v.InferOutput<typeof BcfImportQuerySchema>;

/**
 * What a BCF import did: the BCF version read, the threads created (ids), counts, and what could not be
 * carried: component GUIDs that match no object of the revision (kept out of the view, listed here) and
 * other warnings (an unreadable viewpoint, an unknown status mapped to 'New').
 */
export const BcfImportReportSchema = v.object({
  version: v.string(),
  threadIds: v.array(v.string()),
  topics: v.number(),
  comments: v.number(),
  viewpoints: v.number(),
  unmatchedComponents: v.array(v.string()),
  warnings: v.array(v.string()),
});
export type BcfImportReport = v.InferOutput<typeof BcfImportReportSchema>;

/** socket.io event name of comment changes (to the room `project:{NAME}`). */
export const COMMENT_EVENT = 'comment';

/** What changed in a thread. */
export const THREAD_CHANGES = ['added', 'replied', 'updated', 'stateChanged', 'deleted', 'imported'] as const;

/**
 * A comment change pushed to the project's room: `threadChanged` carries the whole thread after the change
 * (replace it by id; a thread in state Deleted is to be removed from view); `threadsRemoved` lists threads
 * gone for good (their revision's comments were deleted). `by` is the acting user's name (e-mail).
 */
export const CommentEventSchema = v.variant('kind', [
  v.object({
    kind: v.literal('threadChanged'),
    projectName: v.string(),
    projectVersionName: v.string(),
    change: v.picklist(THREAD_CHANGES),
    threadId: v.string(),
    /** The changed comment (the new reply, the updated reply, or the thread itself). */
    commentId: v.string(),
    by: v.string(),
    thread: CommentSchema,
  }),
  v.object({
    kind: v.literal('threadsRemoved'),
    projectName: v.string(),
    projectVersionName: v.string(),
    threadIds: v.array(v.string()),
    by: v.string(),
  }),
]);
export type CommentEvent = v.InferOutput<typeof CommentEventSchema>;
