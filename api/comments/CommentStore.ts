/**
 * Review comments in the database (viewer.md §3 "Comment", §4 "Comments"): threads, replies and the
 * StateChangeMessage entries that record state changes, with their attachments (AttachmentStore).
 * Every write runs in one transaction (SQLite serialises them, so concurrent reviewers lose no write) and
 * answers the whole thread after the change. Permission checks are the caller's (api/routes/comments.ts);
 * this layer checks consistency: known ids, a thread for replies, attachments of the same project.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import {
  type AttachmentInput,
  type AttachmentView,
  COMMENT_STATE_LABELS,
  type Comment,
  type CommentInput,
  type CommentState,
  type CommentUser,
  type Point,
  type UpdateCommentBody,
} from '../contract/comments';
import type { CommentsTable, DB } from '../db/database';
import { ApiError } from '../errors';
import { type AttachmentRow, AttachmentStore, attachmentToApi } from './AttachmentStore';
import type { ImportedComment, ImportedThread } from './bcf/importBcf';

export type CommentRow = Selectable<CommentsTable>;

/** How long an upload may wait for a comment before removeStaleUploads drops it, ms (one day). */
export const STALE_UPLOAD_MS = 24 * 60 * 60 * 1000;

/** Where a new comment belongs. */
export interface CommentPlace {
  project: string;
  version: string;
  revision: number;
}

/** The comment errors of the catalogue (answers `{ error, message, type }` like api/errors.ts). */
export const commentErrors = {
  commentNotFound: (id: string) => new ApiError('NotFound', 404, `Comment ${id} not found`, 'notFound'),
  threadNotFound: (id: string) => new ApiError('NotFound', 404, `Thread ${id} not found`, 'notFound'),
  attachmentNotFound: (id: string) => new ApiError('NotFound', 404, `Attachment ${id} not found`, 'notFound'),
  notEditable: () => new ApiError('BadRequest', 400, 'A state change message cannot be edited', 'validation'),
  stateViaUpdate: () =>
    new ApiError(
      'BadRequest',
      400,
      "An update may only delete a comment; change its state with 'change-state'",
      'validation',
    ),
};

const parseList = <T>(s: string): T[] => JSON.parse(s) as T[];

function markerOf(r: CommentRow): Point | null {
  return r.marker_x === null || r.marker_y === null || r.marker_z === null
    ? null
    : { x: r.marker_x, y: r.marker_y, z: r.marker_z };
}

function markerColumns(p: Point | null) {
  return { marker_x: p?.x ?? null, marker_y: p?.y ?? null, marker_z: p?.z ?? null };
}

/** Reads and writes comments. */
export class CommentStore {
  readonly attachments: AttachmentStore;

  constructor(
    private readonly db: Kysely<DB>,
    dataDir: string,
    maxAttachmentBytes?: number,
  ) {
    this.attachments = new AttachmentStore(db, dataDir, maxAttachmentBytes);
  }

  private toApi(r: CommentRow, atts: AttachmentRow[], replies: Comment[]): Comment {
    return {
      id: r.id,
      threadId: r.thread_id,
      projectName: r.project_name,
      projectVersionName: r.version_name,
      projectRevisionNumber: r.revision_number,
      type: r.type,
      timeStamp: r.time_stamp,
      author: { userName: r.author_user_name, description: r.author_description },
      lastModificationTime: r.last_modification_time,
      assignees: parseList<CommentUser>(r.assignees),
      labels: parseList<string>(r.labels),
      message: r.message,
      attachments: atts.map(attachmentToApi),
      replies,
      seenBy: parseList<string>(r.seen_by),
      state: r.state as CommentState,
      markerLocation: markerOf(r),
      hasModifications: r.has_modifications === 1,
    };
  }

  /** Threads of rows (thread rows first in `rows` order, replies oldest first, deleted replies left out). */
  private async assemble(rows: CommentRow[]): Promise<Comment[]> {
    const ids = rows.map((r) => r.id);
    const atts: AttachmentRow[] = [];
    for (let i = 0; i < ids.length; i += 500) {
      atts.push(
        ...(await this.db
          .selectFrom('comment_attachments')
          .selectAll()
          .where('comment_id', 'in', ids.slice(i, i + 500))
          .orderBy('position')
          .execute()),
      );
    }
    const byComment = new Map<string, AttachmentRow[]>();
    for (const a of atts) {
      const list = byComment.get(a.comment_id ?? '') ?? [];
      list.push(a);
      byComment.set(a.comment_id ?? '', list);
    }
    const replies = new Map<string, Comment[]>();
    for (const r of rows) {
      if (r.type === 'Thread' || r.state === 'Deleted') continue;
      const list = replies.get(r.thread_id) ?? [];
      list.push(this.toApi(r, byComment.get(r.id) ?? [], []));
      replies.set(r.thread_id, list);
    }
    return rows
      .filter((r) => r.type === 'Thread')
      .map((r) => this.toApi(r, byComment.get(r.id) ?? [], replies.get(r.id) ?? []));
  }

  private orderedRows(db: Kysely<DB> = this.db) {
    return db.selectFrom('comments').selectAll().orderBy('time_stamp').orderBy(sql`rowid`);
  }

  /** Every thread of a project version (deleted threads included: the panel's filter hides them). */
  async threads(project: string, version: string): Promise<Comment[]> {
    const rows = await this.orderedRows()
      .where('project_name', '=', project)
      .where('version_name', '=', version)
      .execute();
    return this.assemble(rows);
  }

  /** Threads by id (those of `project` only), in creation order. */
  async threadsById(project: string, ids: string[]): Promise<Comment[]> {
    const out: Comment[] = [];
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await this.orderedRows()
        .where('project_name', '=', project)
        .where('thread_id', 'in', ids.slice(i, i + 500))
        .execute();
      out.push(...(await this.assemble(rows)));
    }
    return out;
  }

  /** The row of comment `id`, or undefined. */
  async row(id: string): Promise<CommentRow | undefined> {
    return this.db.selectFrom('comments').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** A thread with its replies. @throws ApiError 404 'Thread X not found'. */
  async thread(threadId: string): Promise<Comment> {
    const rows = await this.orderedRows().where('thread_id', '=', threadId).execute();
    const [t] = await this.assemble(rows);
    if (!t) throw commentErrors.threadNotFound(threadId);
    return t;
  }

  /** One comment: a thread with its replies, or a reply. @throws ApiError 404 'Comment X not found'. */
  async byId(id: string): Promise<Comment> {
    const r = await this.row(id);
    if (!r) throw commentErrors.commentNotFound(id);
    const t = await this.thread(r.thread_id);
    if (r.type === 'Thread') return t;
    const reply = t.replies.find((c) => c.id === id);
    if (reply) return reply;
    // A deleted reply is no longer part of its thread but can still be read by id.
    const atts = await this.db
      .selectFrom('comment_attachments')
      .selectAll()
      .where('comment_id', '=', id)
      .orderBy('position')
      .execute();
    return this.toApi(r, atts, []);
  }

  /**
   * Turns inline-data attachments into stored uploads (before the transaction: files are written outside
   * it). @returns the inputs with fileIds and the ids created (removed again if the write fails).
   */
  private async storeInline(
    project: string,
    user: string,
    inputs: AttachmentInput[],
  ): Promise<{ inputs: (AttachmentInput & { fileId: string })[]; created: string[] }> {
    const created: string[] = [];
    const out: (AttachmentInput & { fileId: string })[] = [];
    try {
      for (const a of inputs) {
        if (a.fileId !== undefined) {
          out.push({ ...a, fileId: a.fileId });
          continue;
        }
        const bytes = Buffer.from(a.data ?? '', 'base64');
        const row = await this.attachments.saveBytes(project, user, a.fileName ?? 'file', bytes, a.type);
        created.push(row.id);
        out.push({ ...a, fileId: row.id });
      }
    } catch (e) {
      await this.dropUploads(created);
      throw e;
    }
    return { inputs: out, created };
  }

  private async dropUploads(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.deleteFrom('comment_attachments').where('id', 'in', ids).execute();
    await this.attachments.removeFiles(ids);
  }

  /**
   * Binds attachments to comment `commentId` in list order: each must be an unattached upload of `user` in
   * `project`, or already this comment's. @returns the ids of this comment's attachments no longer listed.
   * @throws ApiError 404 'Attachment X not found' otherwise.
   */
  private async bind(
    trx: Transaction<DB>,
    commentId: string,
    project: string,
    user: string,
    inputs: (AttachmentInput & { fileId: string })[],
    now: string,
  ): Promise<string[]> {
    const listed = new Set<string>();
    for (const [position, a] of inputs.entries()) {
      const row = await trx.selectFrom('comment_attachments').selectAll().where('id', '=', a.fileId).executeTakeFirst();
      const mine = row?.comment_id === commentId;
      const freeUpload = row?.comment_id === null && row.uploaded_by === user;
      if (!row || row.project_name !== project || !(mine || freeUpload) || listed.has(a.fileId))
        throw commentErrors.attachmentNotFound(a.fileId);
      listed.add(a.fileId);
      const view = {
        visibleObjects: a.visibleObjects,
        referredObjects: a.referredObjects,
        isClippingEnabled: a.isClippingEnabled,
        isWorkplaneEnabled: a.isWorkplaneEnabled,
        savedView: a.savedView,
        workplane: a.workplane,
        clippingBox: a.clippingBox,
        // Only when set: the views stored before colouring existed stay byte-identical (not "modified").
        ...(a.coloring ? { coloring: a.coloring } : {}),
      };
      const changed = !mine || row.view !== JSON.stringify(view) || row.type !== a.type || row.position !== position;
      await trx
        .updateTable('comment_attachments')
        .set({
          comment_id: commentId,
          type: a.type,
          view: JSON.stringify(view),
          position,
          ...(a.fileName !== undefined ? { file_name: a.fileName } : {}),
          ...(changed && mine ? { last_modified: now } : {}),
        })
        .where('id', '=', a.fileId)
        .execute();
    }
    const old = await trx.selectFrom('comment_attachments').select('id').where('comment_id', '=', commentId).execute();
    return old.map((r) => r.id).filter((id) => !listed.has(id));
  }

  /**
   * Adds a thread (viewer.md §4: new comments start as New unless the input names a state) or a reply to
   * `threadId`. @returns the thread after the change and the new comment's id.
   * @throws ApiError 404 for an unknown thread (or one of another project) or attachment.
   */
  async add(
    place: CommentPlace,
    author: CommentUser,
    input: CommentInput,
    threadId?: string,
  ): Promise<{ thread: Comment; id: string }> {
    if (threadId !== undefined) {
      const t = await this.row(threadId);
      if (!t || t.type !== 'Thread' || t.project_name !== place.project || t.state === 'Deleted')
        throw commentErrors.threadNotFound(threadId);
    }
    const { inputs, created } = await this.storeInline(place.project, author.userName, input.attachments);
    const id = randomUUID();
    const now = new Date().toISOString();
    try {
      await this.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('comments')
          .values({
            id,
            thread_id: threadId ?? id,
            project_name: place.project,
            version_name: place.version,
            revision_number: place.revision,
            type: threadId === undefined ? 'Thread' : 'Reply',
            time_stamp: now,
            author_user_name: author.userName,
            author_description: author.description,
            last_modification_time: now,
            assignees: JSON.stringify(threadId === undefined ? input.assignees : []),
            labels: JSON.stringify(input.labels),
            message: input.message,
            seen_by: JSON.stringify([author.userName]),
            state: threadId === undefined ? (input.state ?? 'New') : 'New',
            ...markerColumns(input.markerLocation),
            has_modifications: 0,
          })
          .execute();
        await this.bind(trx, id, place.project, author.userName, inputs, now);
        if (threadId !== undefined) await this.touchThread(trx, threadId, author.userName, now);
      });
    } catch (e) {
      await this.dropUploads(created);
      throw e;
    }
    return { thread: await this.thread(threadId ?? id), id };
  }

  /** Marks a thread seen by `user` and modified at `now` (a reply or state change happened in it). */
  private async touchThread(trx: Transaction<DB>, threadId: string, user: string, now: string): Promise<void> {
    const t = await trx.selectFrom('comments').select('seen_by').where('id', '=', threadId).executeTakeFirstOrThrow();
    const seen = parseList<string>(t.seen_by);
    await trx
      .updateTable('comments')
      .set({ last_modification_time: now, seen_by: JSON.stringify(seen.includes(user) ? seen : [...seen, user]) })
      .where('id', '=', threadId)
      .execute();
  }

  /**
   * Sets a thread's state and records a StateChangeMessage reply ('State changed from New to In progress')
   * by `by`. A change to the current state records nothing. @returns the thread and the message's id.
   * @throws ApiError 404 'Thread X not found'.
   */
  async changeState(threadId: string, state: CommentState, by: CommentUser): Promise<{ thread: Comment; id: string }> {
    const t = await this.row(threadId);
    if (!t || t.type !== 'Thread') throw commentErrors.threadNotFound(threadId);
    if (t.state === state) return { thread: await this.thread(threadId), id: threadId };
    const id = randomUUID();
    const now = new Date().toISOString();
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('comments').set({ state }).where('id', '=', threadId).execute();
      await trx
        .insertInto('comments')
        .values({
          id,
          thread_id: threadId,
          project_name: t.project_name,
          version_name: t.version_name,
          revision_number: t.revision_number,
          type: 'StateChangeMessage',
          time_stamp: now,
          author_user_name: by.userName,
          author_description: by.description,
          last_modification_time: now,
          assignees: '[]',
          labels: '[]',
          message: `State changed from ${COMMENT_STATE_LABELS[t.state as CommentState] ?? t.state} to ${COMMENT_STATE_LABELS[state]}`,
          seen_by: JSON.stringify([by.userName]),
          state,
          ...markerColumns(null),
          has_modifications: 0,
        })
        .execute();
      await this.touchThread(trx, threadId, by.userName, now);
    });
    return { thread: await this.thread(threadId), id };
  }

  /**
   * Updates a Thread or Reply (fields left out keep their value; deleting = state 'Deleted', which also
   * removes the marker). Attachments no longer listed are removed with their files.
   * @returns the thread after the change. @throws ApiError 404 unknown comment, 400 for a state change
   *   message or a state other than the current one or 'Deleted'.
   */
  async update(row: CommentRow, patch: UpdateCommentBody['comment'], by: string): Promise<Comment> {
    if (row.type === 'StateChangeMessage') throw commentErrors.notEditable();
    if (patch.state !== undefined && patch.state !== row.state && patch.state !== 'Deleted')
      throw commentErrors.stateViaUpdate();
    const deleting = patch.state === 'Deleted' && row.state !== 'Deleted';
    const { inputs, created } = patch.attachments
      ? await this.storeInline(row.project_name, by, patch.attachments)
      : { inputs: undefined, created: [] };
    const now = new Date().toISOString();
    let removed: string[] = [];
    try {
      await this.db.transaction().execute(async (trx) => {
        const edits: Partial<CommentRow> = {};
        if (patch.message !== undefined && patch.message !== row.message) edits.message = patch.message;
        if (patch.labels && JSON.stringify(patch.labels) !== row.labels) edits.labels = JSON.stringify(patch.labels);
        if (patch.assignees && row.type === 'Thread' && JSON.stringify(patch.assignees) !== row.assignees)
          edits.assignees = JSON.stringify(patch.assignees);
        const marker = deleting ? null : patch.markerLocation;
        if (marker !== undefined && JSON.stringify(marker) !== JSON.stringify(markerOf(row)))
          Object.assign(edits, markerColumns(marker));
        if (inputs) removed = await this.bind(trx, row.id, row.project_name, by, inputs, now);
        const modified = Object.keys(edits).length > 0 || removed.length > 0 || created.length > 0;
        const seen = parseList<string>(row.seen_by);
        await trx
          .updateTable('comments')
          .set({
            ...edits,
            ...(deleting ? { state: 'Deleted' } : {}),
            ...(modified ? { has_modifications: 1 } : {}),
            last_modification_time: now,
            seen_by: JSON.stringify(seen.includes(by) ? seen : [...seen, by]),
          })
          .where('id', '=', row.id)
          .execute();
        if (removed.length) await trx.deleteFrom('comment_attachments').where('id', 'in', removed).execute();
        if (row.type !== 'Thread') await this.touchThread(trx, row.thread_id, by, now);
      });
    } catch (e) {
      await this.dropUploads(created);
      throw e;
    }
    await this.attachments.removeFiles(removed);
    return this.thread(row.thread_id);
  }

  /**
   * Deletes every comment made on one revision of a project version, whole threads with their replies (a
   * reply made on that revision to an older thread goes too), and their attachment files.
   * @returns the ids of the threads removed and of the replies removed from other threads.
   */
  async deleteRevision(
    place: CommentPlace,
  ): Promise<{ threadIds: string[]; changedThreadIds: string[]; deleted: number }> {
    const rows = await this.db
      .selectFrom('comments')
      .select(['id', 'thread_id', 'type'])
      .where('project_name', '=', place.project)
      .where('version_name', '=', place.version)
      .where('revision_number', '=', place.revision)
      .execute();
    const threadIds = rows.filter((r) => r.type === 'Thread').map((r) => r.id);
    const gone = new Set(threadIds);
    const changedThreadIds = [...new Set(rows.filter((r) => !gone.has(r.thread_id)).map((r) => r.thread_id))];
    const ids = [...new Set([...rows.map((r) => r.id)])];
    const removedIds: string[] = [];
    let deleted = 0;
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < threadIds.length; i += 500) {
        const chunk = threadIds.slice(i, i + 500);
        const all = await trx.selectFrom('comments').select('id').where('thread_id', 'in', chunk).execute();
        ids.push(...all.map((r) => r.id));
      }
      const unique = [...new Set(ids)];
      for (let i = 0; i < unique.length; i += 500) {
        const chunk = unique.slice(i, i + 500);
        const atts = await trx
          .selectFrom('comment_attachments')
          .select('id')
          .where('comment_id', 'in', chunk)
          .execute();
        removedIds.push(...atts.map((a) => a.id));
        await trx.deleteFrom('comment_attachments').where('comment_id', 'in', chunk).execute();
        const r = await trx.deleteFrom('comments').where('id', 'in', chunk).executeTakeFirst();
        deleted += Number(r.numDeletedRows);
      }
    });
    await this.attachments.removeFiles(removedIds);
    return { threadIds, changedThreadIds, deleted };
  }

  /**
   * Stores threads read from a BCF package (bcf/importBcf.ts) on `place`, with their authors, times, states
   * and VIEW attachments; `describe` gives a user's full name (the e-mail when unknown). All or nothing.
   * @returns the new thread ids, in package order.
   */
  async insertImported(
    place: CommentPlace,
    threads: ImportedThread[],
    uploader: string,
    describe: (userName: string) => string,
  ): Promise<string[]> {
    const created: string[] = [];
    type Bound = { id: string; view: AttachmentView };
    const stored = new Map<ImportedComment, Bound[]>();
    try {
      for (const t of threads)
        for (const c of [t, ...t.replies]) {
          const list: Bound[] = [];
          for (const a of c.attachments) {
            const row = await this.attachments.saveBytes(place.project, uploader, a.fileName, Buffer.from(a.bytes), 1);
            created.push(row.id);
            list.push({ id: row.id, view: a.view });
          }
          stored.set(c, list);
        }
      const ids: string[] = [];
      await this.db.transaction().execute(async (trx) => {
        for (const t of threads) {
          const threadId = randomUUID();
          ids.push(threadId);
          for (const c of [t, ...t.replies]) {
            const id = c === t ? threadId : randomUUID();
            await trx
              .insertInto('comments')
              .values({
                id,
                thread_id: threadId,
                project_name: place.project,
                version_name: place.version,
                revision_number: place.revision,
                type: c.type,
                time_stamp: c.timeStamp,
                author_user_name: c.author,
                author_description: describe(c.author),
                last_modification_time: c.lastModificationTime,
                assignees: JSON.stringify(c.assignees.map((u) => ({ userName: u, description: describe(u) }))),
                labels: JSON.stringify(c.labels),
                message: c.message,
                seen_by: JSON.stringify([c.author]),
                state: c.state,
                ...markerColumns(null),
                has_modifications: c.hasModifications ? 1 : 0,
              })
              .execute();
            for (const [position, a] of (stored.get(c) ?? []).entries())
              await trx
                .updateTable('comment_attachments')
                .set({ comment_id: id, view: JSON.stringify(a.view), position })
                .where('id', '=', a.id)
                .execute();
          }
        }
      });
      return ids;
    } catch (e) {
      await this.dropUploads(created);
      throw e;
    }
  }

  /**
   * Removes uploads no comment took up within `maxAgeMs` (a panel closed before Submit), rows and files.
   * @returns how many were removed.
   */
  async removeStaleUploads(maxAgeMs: number, now = Date.now()): Promise<number> {
    const before = new Date(now - maxAgeMs).toISOString();
    const stale = await this.db
      .selectFrom('comment_attachments')
      .select('id')
      .where('comment_id', 'is', null)
      .where('timestamp', '<', before)
      .execute();
    await this.dropUploads(stale.map((r) => r.id));
    return stale.length;
  }

  /** Deletes every comment and attachment (bound or not) of a project, files included. */
  async deleteProject(project: string): Promise<void> {
    const atts = await this.db
      .selectFrom('comment_attachments')
      .select('id')
      .where('project_name', '=', project)
      .execute();
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('comment_attachments').where('project_name', '=', project).execute();
      await trx.deleteFrom('comments').where('project_name', '=', project).execute();
    });
    await this.attachments.removeFiles(atts.map((a) => a.id));
  }
}
