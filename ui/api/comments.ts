/**
 * The comment calls of viewer.md §7 "Comments" and "Users", typed by api/contract/comments.ts. Lengths in
 * the bodies are metres. Failures go through the central handling of ui/api/client.ts (toast, ApiError).
 */
import {
  AssigneeCandidatesSchema,
  AttachmentSchema,
  BcfImportReportSchema,
  CommentChangesResponseSchema,
  CommentListSchema,
  CommentSchema,
  type AddCommentBody,
  type CommentState,
  type UpdateCommentBody,
} from '../../api/contract';
import { fetchOk, request, withQuery } from './client';

const BASE = '/api/keelson-static/comments';

/** The project, version and revision a comment is written on. */
export interface CommentTarget {
  projectName: string;
  projectVersionName: string;
  projectRevisionNumber: number;
}

/** GET /all: the project's threads with their replies. Silent: the panel logs a failure (viewer.md §8). */
export const getAllComments = (projectName: string, projectVersionName: string) =>
  request('GET', `${BASE}/all`, CommentListSchema, { query: { projectName, projectVersionName }, silent: true });

/**
 * GET /api/viewer/compare/comment-changes: threads whose referred objects changed or vanished after their
 * revision, up to `revision`. Silent: the flags are an extra, the panel works without them.
 */
export const getCommentChanges = (projectName: string, revision: number) =>
  request('GET', '/api/viewer/compare/comment-changes', CommentChangesResponseSchema, {
    query: { projectName, revision: String(revision) },
    silent: true,
  });

/** GET /by-id: one comment (a thread with its replies). */
export const getCommentById = (commentId: string) =>
  request('GET', `${BASE}/by-id`, CommentSchema, { query: { commentId } });

/** POST /add-thread: the new thread. */
export const addThread = (target: CommentTarget, body: AddCommentBody) =>
  request('POST', `${BASE}/add-thread`, CommentSchema, { query: { ...target }, body });

/** POST /add-reply: the whole thread with the new reply. */
export const addReply = (target: CommentTarget, threadId: string, body: AddCommentBody) =>
  request('POST', `${BASE}/add-reply`, CommentSchema, { query: { ...target, threadId }, body });

/** POST /change-state: the thread after the change. */
export const changeCommentState = (threadId: string, newState: CommentState) =>
  request('POST', `${BASE}/change-state`, CommentSchema, { query: { threadId, newState }, body: {} });

/** POST /update (also deleting: state 'Deleted'): the thread holding the comment. */
export const updateComment = (body: UpdateCommentBody) => request('POST', `${BASE}/update`, CommentSchema, { body });

/** POST /upload-attachment (multipart 'file'): the stored attachment, not yet persisted. */
export function uploadAttachment(projectName: string, file: Blob, fileName: string) {
  const form = new FormData();
  form.append('file', file, fileName);
  return request('POST', `${BASE}/upload-attachment`, AttachmentSchema, { query: { projectName }, body: form });
}

/** POST /bcf (multipart 'file'): imports a BCF 2.1 / 3.0 file into the project; the import report. */
export function importBcfFile(target: CommentTarget, file: Blob, fileName: string) {
  const form = new FormData();
  form.append('file', file, fileName);
  return request('POST', `${BASE}/bcf`, BcfImportReportSchema, { query: { ...target }, body: form });
}

/**
 * GET /bcf: the project's threads (or only `threadIds`) as a BCF package of `version`.
 * @throws ApiError (toast shown).
 */
export async function exportBcfFile(
  projectName: string,
  projectVersionName: string,
  version: '3.0' | '2.1',
  threadIds: readonly string[] | null,
): Promise<Blob> {
  const query = { projectName, projectVersionName, version, threadIds: threadIds ? threadIds.join(',') : undefined };
  return fetchBlob(withQuery(`${BASE}/bcf`, query), false);
}

/**
 * GET /attachment-data or /attachment-thumbnail-data as a Blob (bearer token in the header, so no plain
 * URL works in an <img>). @throws ApiError (toast unless `silent`).
 */
export async function getAttachmentBlob(attachmentId: string, thumbnail: boolean, silent = false): Promise<Blob> {
  const path = withQuery(`${BASE}/${thumbnail ? 'attachment-thumbnail-data' : 'attachment-data'}`, { attachmentId });
  return fetchBlob(path, silent);
}

/** GETs `path` with the bearer token as a Blob; failures through the central handling. */
async function fetchBlob(path: string, silent: boolean): Promise<Blob> {
  return (await fetchOk(path, silent)).blob();
}

/** GET /api/keelson-instance/users/all: assignee candidates. Silent (viewer.md §8: a failure is silent). */
export const getAssigneeCandidates = (modelName: string) =>
  request('GET', '/api/keelson-instance/users/all', AssigneeCandidatesSchema, { query: { modelName }, silent: true });
