/**
 * Review comment calls (viewer.md §7 "Comments" and "Users"; rules of §6 enforced here; paths and shapes
 * in api/contract/comments.ts). Every call needs access to the comment's project: calls that name a
 * project check it before the handler (404 'Project X not found' when the user may not see it); calls that
 * name a comment or attachment look it up and check its project the same way. After each stored change
 * the whole thread is pushed to the project's realtime room (CommentEvents → api/realtime.ts).
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Access, type AccessRule, enforceProject, hasPermission } from '../access/rules';
import type { User } from '../auth/UserStore';
import type { AttachmentRow } from '../comments/AttachmentStore';
import { attachmentToApi } from '../comments/AttachmentStore';
import { commentErrors, type CommentRow } from '../comments/CommentStore';
import {
  AddCommentBodySchema,
  AddReplyQuerySchema,
  AddThreadQuerySchema,
  AllCommentsQuerySchema,
  type AssigneeCandidate,
  type Attachment,
  AttachmentQuerySchema,
  ChangeStateBodySchema,
  ChangeStateQuerySchema,
  type Comment,
  CommentByIdQuerySchema,
  type CommentUser,
  DeleteRevisionCommentsQuerySchema,
  type DeleteRevisionCommentsResponse,
  FILE_NAME_MAX_LENGTH,
  type THREAD_CHANGES,
  UpdateCommentBodySchema,
  UploadAttachmentQuerySchema,
  UsersAllQuerySchema,
} from '../contract/comments';
import { ApiError, Errors } from '../errors';
import { normaliseProjectName } from '../projects/ProjectStore';
import { defineRoute } from './define';
import { registerBcfRoutes } from './commentsBcf';

/** Base path of the comment calls. */
export const COMMENTS_BASE = '/api/keelson-static/comments';

/** The rule of calls naming a comment or attachment: the handler checks the project it belongs to. */
const byStoredProject: AccessRule<unknown> = { kind: 'project', mode: 'read', project: () => undefined };

/** A comment user of the signed-in user (userName = e-mail, description = full name). */
export const commentUserOf = (user: User): CommentUser => ({
  userName: user.email.toLowerCase(),
  description: user.name,
});

/** Editing (§6): the author (e-mail, case-insensitive) or 'admin:view'. */
export function mayEdit(user: User, row: CommentRow): boolean {
  return row.author_user_name.toLowerCase() === user.email.toLowerCase() || hasPermission(user, 'admin:view');
}

/** State changes (§6): the author, an assignee or 'admin:view'. */
export function mayChangeState(user: User, thread: Comment): boolean {
  const me = user.email.toLowerCase();
  return (
    thread.author.userName.toLowerCase() === me ||
    thread.assignees.some((a) => a.userName.toLowerCase() === me) ||
    hasPermission(user, 'admin:view')
  );
}

/** Content types of attachments served inline-safe (anything else is application/octet-stream). */
const CONTENT_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain; charset=utf-8',
  '.bcf': 'application/octet-stream',
};

export default async function commentRoutes(app: FastifyInstance): Promise<void> {
  const { comments, commentEvents, projects, users, access } = app.ctx;
  const readRule = byStoredProject as Extract<AccessRule<never>, { kind: 'project' }>;

  /** The comment row `id` after checking its project. @throws 404 unknown comment / invisible project. */
  async function visibleComment(user: User, id: string): Promise<CommentRow> {
    const row = await comments.row(id);
    if (!row) throw commentErrors.commentNotFound(id);
    await enforceProject(app.ctx, user, row.project_name, readRule);
    return row;
  }

  async function visibleAttachment(user: User, id: string): Promise<AttachmentRow> {
    const row = await comments.attachments.row(id);
    if (!row) throw commentErrors.attachmentNotFound(id);
    await enforceProject(app.ctx, user, row.project_name, readRule);
    return row;
  }

  function push(change: (typeof THREAD_CHANGES)[number], thread: Comment, commentId: string, by: User): void {
    commentEvents.send({
      kind: 'threadChanged',
      projectName: thread.projectName,
      projectVersionName: thread.projectVersionName,
      change,
      threadId: thread.id,
      commentId,
      by: by.email,
      thread,
    });
  }

  defineRoute(app, {
    method: 'GET',
    url: `${COMMENTS_BASE}/all`,
    access: Access.byProject,
    query: AllCommentsQuerySchema,
    handler: async ({ query, project }): Promise<Comment[]> =>
      comments.threads(project ?? normaliseProjectName(query.projectName), query.projectVersionName),
  });

  defineRoute(app, {
    method: 'GET',
    url: `${COMMENTS_BASE}/by-id`,
    access: byStoredProject,
    query: CommentByIdQuerySchema,
    handler: async ({ query, user }): Promise<Comment> => {
      await visibleComment(user, query.commentId);
      return comments.byId(query.commentId);
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `${COMMENTS_BASE}/attachment-data`,
    access: byStoredProject,
    query: AttachmentQuerySchema,
    handler: async ({ query, user, reply }) => {
      const row = await visibleAttachment(user, query.attachmentId);
      const type = CONTENT_TYPES[path.extname(row.file_name).toLowerCase()] ?? 'application/octet-stream';
      reply
        .header('content-type', type)
        .header('content-length', String(row.file_size))
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(row.file_name)}`)
        .header('x-content-type-options', 'nosniff');
      return reply.send(comments.attachments.open(row.id));
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `${COMMENTS_BASE}/attachment-thumbnail-data`,
    access: byStoredProject,
    query: AttachmentQuerySchema,
    handler: async ({ query, user, reply }) => {
      const row = await visibleAttachment(user, query.attachmentId);
      if (row.has_thumbnail !== 1)
        throw new ApiError('NotFound', 404, `Attachment ${row.id} has no thumbnail`, 'notFound');
      reply.header('content-type', 'image/png');
      return reply.send(comments.attachments.open(row.id, true));
    },
  });

  // Files go up before the comment that holds them (streamed to disk; a comment names them by fileId).
  defineRoute(app, {
    method: 'POST',
    url: `${COMMENTS_BASE}/upload-attachment`,
    access: Access.byProject,
    query: UploadAttachmentQuerySchema,
    handler: async ({ user, request, project }): Promise<Attachment> => {
      if (!request.isMultipart()) throw Errors.missingFile();
      const file = await request.file({ limits: { fileSize: comments.attachments.maxBytes, files: 1 } });
      if (file?.fieldname !== 'file') {
        file?.file.resume();
        throw Errors.missingFile();
      }
      const name = path.basename(file.filename || 'file').slice(0, FILE_NAME_MAX_LENGTH);
      const row = await comments.attachments.saveStream(project ?? '', user.email, name, file.file);
      return attachmentToApi(row);
    },
  });

  /** Assignees with the full names of the users Keelson knows (the client may send user names only). */
  async function named(list: CommentUser[]): Promise<CommentUser[]> {
    const out: CommentUser[] = [];
    for (const a of list) {
      const u = await users.find(a.userName);
      out.push({ userName: a.userName, description: u?.name ?? a.description });
    }
    return out.filter((a, i) => out.findIndex((b) => b.userName === a.userName) === i);
  }

  /** The revision a comment is made on must exist (404 'Revision N of project X not found'). */
  async function checkRevision(project: string, revision: number): Promise<void> {
    await projects.revision(project, revision);
  }

  defineRoute(app, {
    method: 'POST',
    url: `${COMMENTS_BASE}/add-thread`,
    access: Access.byProject,
    query: AddThreadQuerySchema,
    body: AddCommentBodySchema,
    handler: async ({ query, body, user, project }): Promise<Comment> => {
      const name = project ?? normaliseProjectName(query.projectName);
      await checkRevision(name, query.projectRevisionNumber);
      const place = { project: name, version: query.projectVersionName, revision: query.projectRevisionNumber };
      const input = { ...body.comment, assignees: await named(body.comment.assignees) };
      const { thread, id } = await comments.add(place, commentUserOf(user), input);
      push('added', thread, id, user);
      return thread;
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: `${COMMENTS_BASE}/add-reply`,
    access: Access.byProject,
    query: AddReplyQuerySchema,
    body: AddCommentBodySchema,
    handler: async ({ query, body, user, project }): Promise<Comment> => {
      const name = project ?? normaliseProjectName(query.projectName);
      await checkRevision(name, query.projectRevisionNumber);
      const place = { project: name, version: query.projectVersionName, revision: query.projectRevisionNumber };
      const { thread, id } = await comments.add(place, commentUserOf(user), body.comment, query.threadId);
      push('replied', thread, id, user);
      return thread;
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: `${COMMENTS_BASE}/change-state`,
    access: byStoredProject,
    query: ChangeStateQuerySchema,
    body: ChangeStateBodySchema,
    handler: async ({ query, user }): Promise<Comment> => {
      const row = await visibleComment(user, query.threadId).catch((e: unknown) => {
        throw e instanceof ApiError && e.message.startsWith('Comment ')
          ? commentErrors.threadNotFound(query.threadId)
          : e;
      });
      if (row.type !== 'Thread') throw commentErrors.threadNotFound(query.threadId);
      const before = await comments.thread(row.id);
      if (!mayChangeState(user, before))
        throw Errors.forbidden('Only the author, an assignee or an administrator may change the state of this thread');
      const { thread, id } = await comments.changeState(row.id, query.newState, commentUserOf(user));
      push(query.newState === 'Deleted' ? 'deleted' : 'stateChanged', thread, id, user);
      return thread;
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: `${COMMENTS_BASE}/update`,
    access: byStoredProject,
    body: UpdateCommentBodySchema,
    handler: async ({ body, user }): Promise<Comment> => {
      const row = await visibleComment(user, body.comment.id);
      if (row.type === 'StateChangeMessage') throw commentErrors.notEditable();
      if (!mayEdit(user, row)) throw Errors.forbidden('Only the author or an administrator may edit this comment');
      const patch = body.comment.assignees
        ? { ...body.comment, assignees: await named(body.comment.assignees) }
        : body.comment;
      const thread = await comments.update(row, patch, user.email);
      const deleted = body.comment.state === 'Deleted' && row.state !== 'Deleted';
      push(deleted ? 'deleted' : 'updated', thread, row.id, user);
      return thread;
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: `${COMMENTS_BASE}/delete-revision-comments`,
    access: Access.write((i: { query: { projectName: string } }) => i.query.projectName, 'admin:view'),
    query: DeleteRevisionCommentsQuerySchema,
    handler: async ({ query, user, project }): Promise<DeleteRevisionCommentsResponse> => {
      const name = project ?? normaliseProjectName(query.projectName);
      const place = { project: name, version: query.projectVersionName, revision: query.projectRevisionNumber };
      const r = await comments.deleteRevision(place);
      if (r.threadIds.length)
        commentEvents.send({
          kind: 'threadsRemoved',
          projectName: name,
          projectVersionName: query.projectVersionName,
          threadIds: r.threadIds,
          by: user.email,
        });
      for (const id of r.changedThreadIds) push('updated', await comments.thread(id), id, user);
      return { success: true, deleted: r.deleted };
    },
  });

  // Assignee candidates: the users who may see the project (an assignee must be able to read the thread).
  defineRoute(app, {
    method: 'GET',
    url: '/api/keelson-instance/users/all',
    access: Access.byModel,
    query: UsersAllQuerySchema,
    handler: async ({ query, project }): Promise<AssigneeCandidate[]> => {
      const name = project ?? normaliseProjectName(query.modelName);
      const out: AssigneeCandidate[] = [];
      for (const u of await users.list())
        if (await access.canSee(u, name)) out.push({ userName: u.email, description: u.name });
      return out.sort((a, b) => a.description.localeCompare(b.description) || a.userName.localeCompare(b.userName));
    },
  });

  registerBcfRoutes(app, { push });
}
