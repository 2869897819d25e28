/**
 * Comment attachment files (viewer.md §3 "Attachment", §5 file limit): the bytes live beside the database
 * in DATA_DIR/comment-attachments/{id}, a PNG thumbnail in {id}.thumb.png, the metadata in the
 * comment_attachments table. Uploads are streamed to a `.part` file and counted as they arrive: past
 * MAX_ATTACHMENT_BYTES the stream is abandoned and the part file removed, so nothing half-stored remains.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Kysely, Selectable } from 'kysely';
import {
  ATTACHMENT_TOO_LARGE_MESSAGE,
  EMPTY_ATTACHMENT_VIEW,
  type Attachment,
  type AttachmentView,
  MAX_ATTACHMENT_BYTES,
} from '../contract/comments';
import type { CommentAttachmentsTable, DB } from '../db/database';
import { ApiError } from '../errors';
import { makeThumbnail } from './thumbnail';

export type AttachmentRow = Selectable<CommentAttachmentsTable>;

/** 413 with the spec's text (viewer.md §8). */
export const attachmentTooLarge = () =>
  new ApiError('PayloadTooLarge', 413, ATTACHMENT_TOO_LARGE_MESSAGE, 'validation');

/** The view fields of an attachment with nothing set. */
export const EMPTY_VIEW: AttachmentView = EMPTY_ATTACHMENT_VIEW;

/** A row as the API answers it (the view fields spread, no data). */
export function attachmentToApi(r: AttachmentRow): Attachment {
  const view = { ...EMPTY_VIEW, ...(JSON.parse(r.view) as Partial<AttachmentView>) };
  return {
    fileId: r.id,
    fileName: r.file_name,
    fileSize: r.file_size,
    type: r.type === 1 ? 1 : 2,
    timestamp: r.timestamp,
    lastModifiedTimestamp: r.last_modified,
    isPersisted: r.comment_id !== null,
    hasThumbnail: r.has_thumbnail === 1,
    ...view,
    coloring: view.coloring ?? null,
  };
}

/** Counts bytes through; errors with attachmentTooLarge() past `limit`. */
function byteLimit(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > limit) done(attachmentTooLarge());
      else done(null, chunk);
    },
  });
}

/** Stores and removes attachment files and their rows. */
export class AttachmentStore {
  readonly dir: string;

  constructor(
    private readonly db: Kysely<DB>,
    dataDir: string,
    /** Largest file, bytes (tests lower it to exercise the refusal cheaply). */
    readonly maxBytes = MAX_ATTACHMENT_BYTES,
  ) {
    this.dir = path.join(dataDir, 'comment-attachments');
  }

  /** Path of an attachment's bytes. */
  file(id: string): string {
    return path.join(this.dir, id);
  }

  /** Path of an attachment's PNG thumbnail (present when has_thumbnail is 1). */
  thumbnailFile(id: string): string {
    return path.join(this.dir, `${id}.thumb.png`);
  }

  /**
   * Streams `source` into a new attachment not yet part of a comment (comment_id null).
   * @throws ApiError 413 ATTACHMENT_TOO_LARGE_MESSAGE past maxBytes (or when `source` reports truncation);
   *   nothing is stored then, nor on any other stream error.
   */
  async saveStream(
    project: string,
    uploader: string,
    fileName: string,
    source: Readable & { truncated?: boolean },
    type: 1 | 2 = 2,
  ): Promise<AttachmentRow> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const id = randomUUID();
    const part = `${this.file(id)}.part`;
    let size = 0;
    const count = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    try {
      await pipeline(source, byteLimit(this.maxBytes), count, createWriteStream(part, { mode: 0o600 }));
      if (source.truncated) throw attachmentTooLarge();
    } catch (e) {
      // The rest of the request body is drained by the multipart reader; only the part file is ours.
      source.resume();
      await rm(part, { force: true });
      if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw attachmentTooLarge();
      throw e;
    }
    await rename(part, this.file(id));
    return this.insert(id, project, uploader, fileName, size, type);
  }

  /** Stores bytes held in memory (an inline base64 snapshot) as a new unattached attachment. */
  async saveBytes(
    project: string,
    uploader: string,
    fileName: string,
    bytes: Buffer,
    type: 1 | 2,
  ): Promise<AttachmentRow> {
    if (bytes.length > this.maxBytes) throw attachmentTooLarge();
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const id = randomUUID();
    await writeFile(`${this.file(id)}.part`, bytes, { mode: 0o600 });
    await rename(`${this.file(id)}.part`, this.file(id));
    return this.insert(id, project, uploader, fileName, bytes.length, type);
  }

  private async insert(
    id: string,
    project: string,
    uploader: string,
    fileName: string,
    size: number,
    type: 1 | 2,
  ): Promise<AttachmentRow> {
    const thumb = await makeThumbnail(this.file(id), size);
    if (thumb) await writeFile(this.thumbnailFile(id), thumb, { mode: 0o600 });
    const now = new Date().toISOString();
    const row: AttachmentRow = {
      id,
      comment_id: null,
      project_name: project,
      uploaded_by: uploader,
      file_name: fileName,
      file_size: size,
      type,
      timestamp: now,
      last_modified: now,
      view: '{}',
      has_thumbnail: thumb ? 1 : 0,
      position: 0,
    };
    try {
      await this.db.insertInto('comment_attachments').values(row).execute();
    } catch (e) {
      await this.removeFiles([id]);
      throw e;
    }
    return row;
  }

  /** The row of attachment `id`, or undefined. */
  async row(id: string): Promise<AttachmentRow | undefined> {
    return this.db.selectFrom('comment_attachments').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** A read stream of the attachment's bytes (or its thumbnail). */
  open(id: string, thumbnail = false): ReadStream {
    return createReadStream(thumbnail ? this.thumbnailFile(id) : this.file(id));
  }

  /** Removes the files of attachments (rows are the caller's: they go with their comments). */
  async removeFiles(ids: string[]): Promise<void> {
    for (const id of ids) {
      await rm(this.file(id), { force: true });
      await rm(this.thumbnailFile(id), { force: true });
    }
  }
}
