/**
 * Comment attachments (viewer.md §3 "Attachment", §5 file limit, §7 attachment calls): streamed uploads
 * stored beside the database, server-made thumbnails, the 250 MB refusal while streaming with nothing
 * half-stored, and removal of the files with their comments, revision or project.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AttachmentSchema, type Comment, CommentSchema, MAX_ATTACHMENT_BYTES } from '../../api/contract';
import { BASE, type CommentsWorld, commentsWorld, place, type Who } from './commentsSetup';
import { multipartFile } from './helpers';

let w: CommentsWorld;
let dir: string;
beforeAll(async () => {
  w = await commentsWorld();
  dir = w.app.ctx.comments.attachments.dir;
}, 120_000);
afterAll(async () => {
  await w?.t.close();
});

/** A gradient PNG of the given size. */
function pngOf(width: number, height: number): Buffer {
  const png = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) png.data.set([i % 256, (i >> 8) % 256, 90, 255], i * 4);
  return PNG.sync.write(png);
}

async function upload(
  who: Who,
  name: string,
  content: Buffer,
): Promise<ReturnType<typeof v.parse<typeof AttachmentSchema>>> {
  const { payload, headers } = multipartFile(name, content);
  const r = await w.call(who, {
    method: 'POST',
    url: `${BASE}/upload-attachment?projectName=${w.project}`,
    payload,
    headers,
  });
  expect(r.statusCode, r.body).toBe(200);
  return v.parse(AttachmentSchema, r.json());
}

async function thread(who: Who, comment: Record<string, unknown>): Promise<{ status: number; body: Comment }> {
  const r = await w.call(who, { method: 'POST', url: `${BASE}/add-thread?${place(w.project)}`, payload: { comment } });
  return { status: r.statusCode, body: r.json() };
}

const VIEW = {
  visibleObjects: ['P1', 'P2'],
  referredObjects: ['P2'],
  isClippingEnabled: true,
  isWorkplaneEnabled: false,
  savedView: { longitude: 160, latitude: 10, distance: 40, target: { x: 10, y: 0, z: 5 }, width: 30, height: 20 },
  workplane: null,
  clippingBox: { xMin: 0, xMax: 20, yMin: -5, yMax: 5, zMin: 0, zMax: 10 },
};

describe('upload, attach, read back', () => {
  it('streams a file to disk, thumbnails an image, binds it to a thread with its VIEW data', async () => {
    const bytes = pngOf(640, 480);
    const up = await upload('author', 'view.png', bytes);
    expect(up).toMatchObject({ fileName: 'view.png', fileSize: bytes.length, isPersisted: false, hasThumbnail: true });
    expect(existsSync(path.join(dir, up.fileId))).toBe(true);
    const t = await thread('author', {
      message: 'See snapshot',
      attachments: [{ fileId: up.fileId, type: 1, ...VIEW }],
    });
    expect(t.status).toBe(200);
    const c = v.parse(CommentSchema, t.body);
    expect(c.attachments).toHaveLength(1);
    expect(c.attachments[0]).toMatchObject({ fileId: up.fileId, type: 1, isPersisted: true, ...VIEW });

    const data = await w.call('bystander', { url: `${BASE}/attachment-data?attachmentId=${up.fileId}` });
    expect(data.statusCode).toBe(200);
    expect(data.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(data.rawPayload, bytes)).toBe(0);
    const thumb = await w.call('bystander', { url: `${BASE}/attachment-thumbnail-data?attachmentId=${up.fileId}` });
    expect(thumb.statusCode).toBe(200);
    const img = PNG.sync.read(thumb.rawPayload);
    expect([img.width, img.height]).toEqual([320, 240]);
  });

  it('stores an inline base64 JPEG snapshot and thumbnails it; a text file gets no thumbnail', async () => {
    const raw = { width: 100, height: 400, data: Buffer.alloc(100 * 400 * 4, 128) };
    const jpg = jpeg.encode(raw, 80).data;
    const t = await thread('author', {
      message: 'inline',
      attachments: [
        { fileName: 'snap.jpg', type: 1, data: jpg.toString('base64') },
        { fileName: 'notes.txt', type: 2, data: Buffer.from('plain notes').toString('base64') },
      ],
    });
    expect(t.status).toBe(200);
    const [snap, notes] = v.parse(CommentSchema, t.body).attachments;
    expect(snap).toMatchObject({ fileName: 'snap.jpg', fileSize: jpg.length, hasThumbnail: true });
    const thumb = await w.call('author', { url: `${BASE}/attachment-thumbnail-data?attachmentId=${snap.fileId}` });
    const img = PNG.sync.read(thumb.rawPayload);
    expect([img.width, img.height]).toEqual([60, 240]);
    expect(notes.hasThumbnail).toBe(false);
    const none = await w.call('author', { url: `${BASE}/attachment-thumbnail-data?attachmentId=${notes.fileId}` });
    expect(none.statusCode).toBe(404);
    const text = await w.call('author', { url: `${BASE}/attachment-data?attachmentId=${notes.fileId}` });
    expect(text.body).toBe('plain notes');
  });

  it("refuses someone else's upload, one already attached, and hides attachments from outsiders", async () => {
    const up = await upload('author', 'mine.txt', Buffer.from('mine'));
    const stolen = await thread('bystander', { message: 'take it', attachments: [{ fileId: up.fileId }] });
    expect(stolen.status).toBe(404);
    expect((stolen.body as unknown as { message: string }).message).toBe(`Attachment ${up.fileId} not found`);
    const ok = await thread('author', { message: 'mine', attachments: [{ fileId: up.fileId }] });
    expect(ok.status).toBe(200);
    const again = await thread('author', { message: 'twice', attachments: [{ fileId: up.fileId }] });
    expect(again.status).toBe(404);
    const outsider = await w.call('outsider', { url: `${BASE}/attachment-data?attachmentId=${up.fileId}` });
    expect(outsider.statusCode).toBe(404);
    expect(outsider.json().message).toBe(`Project ${w.project} not found`);
  });
});

describe('the 250 MB limit (262,144,000 bytes)', () => {
  it('refuses a larger file while streaming, with the spec text, and stores nothing', async () => {
    const before = readdirSync(dir).sort();
    const rows = await w.app.ctx.db.selectFrom('comment_attachments').select('id').execute();
    const boundary = '----keelsonLimit';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const chunk = Buffer.alloc(1 << 20, 7);
    let left = MAX_ATTACHMENT_BYTES + 1;
    let sent = 0;
    const body = Readable.from(
      (function* () {
        yield head;
        while (left > 0) {
          const n = Math.min(left, chunk.length);
          left -= n;
          sent += n;
          yield n === chunk.length ? chunk : chunk.subarray(0, n);
        }
        yield tail;
      })(),
    );
    const r = await w.call('author', {
      method: 'POST',
      url: `${BASE}/upload-attachment?projectName=${w.project}`,
      payload: body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(r.statusCode).toBe(413);
    expect(r.json().message).toBe('Upload failed because the file was larger than 250 MB.');
    expect(sent).toBeGreaterThan(MAX_ATTACHMENT_BYTES);
    expect(readdirSync(dir).sort()).toEqual(before);
    expect(await w.app.ctx.db.selectFrom('comment_attachments').select('id').execute()).toEqual(rows);
  }, 120_000);
});

describe('removal with comments, revisions and projects', () => {
  it('removes a file dropped from a comment by update', async () => {
    const a = await upload('author', 'a.txt', Buffer.from('a'));
    const b = await upload('author', 'b.txt', Buffer.from('b'));
    const t = await thread('author', {
      message: 'two files',
      attachments: [{ fileId: a.fileId }, { fileId: b.fileId }],
    });
    const r = await w.call('author', {
      method: 'POST',
      url: `${BASE}/update`,
      payload: { comment: { id: t.body.id, attachments: [{ fileId: b.fileId }] } },
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(v.parse(CommentSchema, r.json()).attachments.map((x) => x.fileId)).toEqual([b.fileId]);
    expect(existsSync(path.join(dir, a.fileId))).toBe(false);
    expect(existsSync(path.join(dir, b.fileId))).toBe(true);
  });

  it("deleting a revision's comments removes their attachment files", async () => {
    const up = await upload('author', 'rev2.png', pngOf(8, 8));
    const r = await w.call('author', {
      method: 'POST',
      url: `${BASE}/add-thread?${place(w.project, 2)}`,
      payload: { comment: { message: 'rev 2', attachments: [{ fileId: up.fileId }] } },
    });
    expect(r.statusCode).toBe(200);
    expect(existsSync(path.join(dir, `${up.fileId}.thumb.png`))).toBe(true);
    const del = await w.call('admin', {
      method: 'POST',
      url: `${BASE}/delete-revision-comments?${place(w.project, 2)}`,
    });
    expect(del.statusCode).toBe(200);
    expect(existsSync(path.join(dir, up.fileId))).toBe(false);
    expect(existsSync(path.join(dir, `${up.fileId}.thumb.png`))).toBe(false);
    const gone = await w.call('author', { url: `${BASE}/attachment-data?attachmentId=${up.fileId}` });
    expect(gone.statusCode).toBe(404);
  });

  it('deleting the project removes its comments and attachment files', async () => {
    const r = await w.call('admin', {
      method: 'POST',
      url: `${BASE}/add-thread?${place(w.other)}`,
      payload: { comment: { message: 'on OTHER', attachments: [{ fileName: 'o.txt', data: 'b3RoZXI=' }] } },
    });
    expect(r.statusCode, r.body).toBe(200);
    const fileId = v.parse(CommentSchema, r.json()).attachments[0].fileId;
    const del = await w.call('admin', {
      method: 'DELETE',
      url: `/api/viewer/project/delete-model?projectName=${w.other}`,
    });
    expect(del.statusCode, del.body).toBe(200);
    expect(existsSync(path.join(dir, fileId))).toBe(false);
    const rows = await w.app.ctx.db.selectFrom('comments').select('id').where('project_name', '=', w.other).execute();
    expect(rows).toEqual([]);
  });
});
