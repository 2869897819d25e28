/**
 * BCF export and import (api/comments/bcf): Keelson → BCF 3.0 → Keelson keeps what BCF can carry; every
 * file Keelson writes validates against buildingSMART's BCF 3.0 XSDs (xmllint); buildingSMART's own 2.1 and
 * 3.0 test files import, their building components reported as unmatched.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { PNG } from 'pngjs';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orbitBasis } from '../../engine/interaction/cameraMath';
import { compressGuid, expandGuid } from '../../api/comments/bcf/ifcGuid';
import {
  BcfImportReportSchema,
  type Comment,
  CommentListSchema,
  CommentSchema,
  type SavedView,
} from '../../api/contract';
import { loadRevision } from '../../api/projects/loadRevision';
import { xmllintValidate } from '../support/xmllint';
import { BASE, type CommentsWorld, commentsWorld, EMAILS, place, type Who } from './commentsSetup';
import { multipartFile } from './helpers';

const BCF_DIR = path.resolve(__dirname, '../../../shared/models/bcf');
const SCHEMAS = path.join(BCF_DIR, 'schemas');

let w: CommentsWorld;
let withGuid: { id: string; guid: string }[];
/** An id no object has: written as AuthoringToolId only, reported unmatched on import. */
const UNKNOWN_ID = 'NO-SUCH-OBJECT';
let tmp: string;
beforeAll(async () => {
  // A model with several plates, some with GUIDs and some without.
  w = await commentsWorld({ model: 'AVEVA-TR03_TC12' });
  const rev = await loadRevision(w.app, w.project, 1);
  withGuid = rev.data.objects.filter((o) => o.guid).map((o) => ({ id: o.id, guid: o.guid as string }));
  tmp = mkdtempSync(path.join(os.tmpdir(), 'keelson-bcf-'));
}, 120_000);
afterAll(async () => {
  await w?.t.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

function snapshotPng(): Buffer {
  const png = new PNG({ width: 64, height: 48 });
  for (let i = 0; i < 64 * 48; i++) png.data.set([i % 251, 30, 200, 255], i * 4);
  return PNG.sync.write(png);
}

const VIEW_CAMERA: SavedView = {
  longitude: 160,
  latitude: 10,
  distance: 40,
  target: { x: 12, y: -1.5, z: 4 },
  width: 32,
  height: 18,
};

async function post(who: Who, url: string, payload: unknown): Promise<Comment> {
  const r = await w.call(who, { method: 'POST', url, payload: payload as Record<string, unknown> });
  expect(r.statusCode, r.body).toBe(200);
  return v.parse(CommentSchema, r.json());
}

async function exportBcf(query: Record<string, string> = {}): Promise<Record<string, Uint8Array>> {
  const r = await w.call('author', {
    url: `${BASE}/bcf?${new URLSearchParams({ projectName: w.project, ...query })}`,
  });
  expect(r.statusCode, r.body.slice(0, 200)).toBe(200);
  expect(r.headers['content-disposition']).toContain(`${w.project}.bcf`);
  return unzipSync(new Uint8Array(r.rawPayload));
}

async function importFile(who: Who, bytes: Buffer | Uint8Array, name = 'issues.bcf') {
  const { payload, headers } = multipartFile(name, Buffer.from(bytes));
  const r = await w.call(who, {
    method: 'POST',
    url: `${BASE}/bcf?${new URLSearchParams({ projectName: w.project, projectRevisionNumber: '1' })}`,
    payload,
    headers,
  });
  return r;
}

async function threadsById(ids: string[]): Promise<Comment[]> {
  const r = await w.call('author', { url: `${BASE}/all?projectName=${w.project}` });
  const all = v.parse(CommentListSchema, r.json());
  return ids.map((id) => all.find((c) => c.id === id) as Comment);
}

/** The camera eye of a saved view (target + distance · back), m. */
function eyeOf(s: SavedView): number[] {
  const { back } = orbitBasis(s.longitude, s.latitude);
  return [s.target.x, s.target.y, s.target.z].map((c, k) => c + back[k] * s.distance);
}

describe('IFC GUIDs', () => {
  it('compresses an OCX GUID to 22 characters and back', () => {
    for (const { guid } of withGuid.slice(0, 50)) {
      const ifc = compressGuid(guid) as string;
      expect(ifc).toMatch(/^[0-3][0-9A-Za-z_$]{21}$/);
      expect(expandGuid(ifc)).toBe(guid.toUpperCase());
    }
    // buildingSMART's example pair.
    expect(compressGuid('{2B7A8F4B-4E8A-4A3D-B8F0-1B3F0E2F5C11}')?.length).toBe(22);
    expect(expandGuid(compressGuid('00000000-0000-0000-0000-000000000000') as string)).toBe(
      '00000000-0000-0000-0000-000000000000',
    );
  });
});

describe('Keelson → BCF 3.0 → Keelson', () => {
  let original: Comment;
  let files: Record<string, Uint8Array>;
  const snapshot = snapshotPng();

  beforeAll(async () => {
    expect(withGuid.length).toBeGreaterThanOrEqual(5);
    const selected = [withGuid[0].id, withGuid[1].id];
    const visible = [...withGuid.slice(0, 4).map((o) => o.id), UNKNOWN_ID];
    const t = await post('author', `${BASE}/add-thread?${place(w.project)}`, {
      comment: {
        message: 'Bracket too close to the frame\nMove it 50 mm aft & check the <weld>.',
        labels: ['structure', 'weld'],
        assignees: [{ userName: EMAILS.assignee }],
        attachments: [
          {
            fileName: 'snapshot.png',
            type: 1,
            data: snapshot.toString('base64'),
            visibleObjects: visible,
            referredObjects: selected,
            isClippingEnabled: true,
            clippingBox: { xMin: 1, xMax: 20, yMin: -4, yMax: 4, zMin: 0.5, zMax: 9 },
            savedView: VIEW_CAMERA,
          },
        ],
      },
    });
    await post('bystander', `${BASE}/add-reply?${place(w.project, 1, { threadId: t.id })}`, {
      comment: {
        message: 'Agreed, see my view',
        attachments: [
          {
            fileName: 'reply.png',
            type: 1,
            data: snapshot.toString('base64'),
            referredObjects: [withGuid[4].id],
            savedView: { ...VIEW_CAMERA, perspective: true, fieldOfView: 45 },
          },
        ],
      },
    });
    original = await post('assignee', `${BASE}/change-state?threadId=${t.id}&newState=InProgress`, undefined);
    files = await exportBcf({ threadIds: original.id });
  });

  it('writes bcf.version, extensions.xml, markup, viewpoints and snapshots that validate against the 3.0 XSDs', () => {
    const names = Object.keys(files).sort();
    const dir = original.id;
    const [a1, a2] = [original.attachments[0].fileId, original.replies[0].attachments[0].fileId];
    expect(names).toEqual(
      [
        'bcf.version',
        'extensions.xml',
        `${dir}/markup.bcf`,
        `${dir}/snapshot-${a1}.png`,
        `${dir}/snapshot-${a2}.png`,
        `${dir}/viewpoint-${a1}.bcfv`,
        `${dir}/viewpoint-${a2}.bcfv`,
      ].sort(),
    );
    const schemaOf = (n: string) =>
      n === 'bcf.version'
        ? 'version.xsd'
        : n === 'extensions.xml'
          ? 'extensions.xsd'
          : n.endsWith('.bcf')
            ? 'markup.xsd'
            : n.endsWith('.bcfv')
              ? 'visinfo.xsd'
              : null;
    for (const n of names) {
      const schema = schemaOf(n);
      if (!schema) continue;
      const file = path.join(tmp, n.replace('/', '_'));
      writeFileSync(file, files[n]);
      const r = xmllintValidate(file, path.join(SCHEMAS, schema), 5);
      expect(r.tail, n).toContain('validates');
      expect(r.status, n).toBe(0);
    }
    expect(Buffer.compare(Buffer.from(files[`${dir}/snapshot-${a1}.png`]), snapshot)).toBe(0);
    const markup = new TextDecoder().decode(files[`${dir}/markup.bcf`]);
    expect(markup).toContain('&lt;weld&gt;');
    expect(markup).toContain(`<AssignedTo>${EMAILS.assignee}</AssignedTo>`);
    const vp = new TextDecoder().decode(files[`${dir}/viewpoint-${a1}.bcfv`]);
    expect(vp).toContain(`IfcGuid="${compressGuid(withGuid[0].guid)}"`);
    expect(vp).toContain(`<AuthoringToolId>${UNKNOWN_ID}</AuthoringToolId>`);
    expect(vp).toContain('<OrthogonalCamera>');
    expect((vp.match(/<ClippingPlane>/g) ?? []).length).toBe(6);
  });

  it('imports back everything BCF carries', async () => {
    const zip = await w.call('author', {
      url: `${BASE}/bcf?${new URLSearchParams({ projectName: w.project, threadIds: original.id })}`,
    });
    const r = await importFile('bystander', zip.rawPayload);
    expect(r.statusCode, r.body).toBe(200);
    const report = v.parse(BcfImportReportSchema, r.json());
    expect(report).toMatchObject({
      version: '3.0',
      topics: 1,
      comments: 2,
      viewpoints: 2,
      unmatchedComponents: [UNKNOWN_ID],
    });
    const [copy] = await threadsById(report.threadIds);
    expect(copy.id).not.toBe(original.id);
    const pick = (c: Comment) => ({
      type: c.type,
      message: c.message,
      labels: c.labels,
      state: c.state,
      author: c.author,
      timeStamp: c.timeStamp,
      assignees: c.assignees,
    });
    expect(pick(copy)).toEqual(pick(original));
    expect(copy.replies.map(pick)).toEqual(original.replies.map(pick));
    const [a, b] = [original.attachments[0], copy.attachments[0]];
    expect(b).toMatchObject({
      type: 1,
      referredObjects: a.referredObjects,
      visibleObjects: a.visibleObjects.filter((id) => id !== UNKNOWN_ID),
      isClippingEnabled: true,
      clippingBox: a.clippingBox,
    });
    const sv = b.savedView as SavedView;
    expect(sv.longitude).toBeCloseTo(VIEW_CAMERA.longitude, 6);
    expect(sv.latitude).toBeCloseTo(VIEW_CAMERA.latitude, 6);
    expect(sv.height).toBeCloseTo(VIEW_CAMERA.height, 6);
    expect(sv.width).toBeCloseTo(VIEW_CAMERA.width, 6);
    eyeOf(sv).forEach((c, k) => expect(c).toBeCloseTo(eyeOf(VIEW_CAMERA)[k], 6));
    const replyView = copy.replies[0].attachments[0].savedView as SavedView;
    expect(replyView).toMatchObject({ perspective: true, fieldOfView: 45 });
    expect(copy.replies[0].attachments[0].referredObjects).toEqual([withGuid[4].id]);
    const img = await w.call('author', { url: `${BASE}/attachment-data?attachmentId=${b.fileId}` });
    expect(Buffer.compare(img.rawPayload, snapshot)).toBe(0);
  });

  it('writes BCF 2.1 on request (comments and viewpoints beside the topic) and reads it back', async () => {
    const f21 = await exportBcf({ threadIds: original.id, version: '2.1' });
    expect(new TextDecoder().decode(f21['bcf.version'])).toContain('VersionId="2.1"');
    const markup = new TextDecoder().decode(f21[`${original.id}/markup.bcf`]);
    expect(markup).toMatch(/<\/Topic>\s*<Comment Guid=/);
    const { zipSync } = await import('fflate');
    const r = await importFile('author', zipSync(f21));
    expect(r.statusCode, r.body).toBe(200);
    const [copy] = await threadsById(v.parse(BcfImportReportSchema, r.json()).threadIds);
    expect(copy.message).toBe(original.message);
    expect(copy.labels).toEqual(original.labels);
    expect(copy.replies.map((c) => c.message)).toEqual(original.replies.map((c) => c.message));
    expect(copy.attachments[0].referredObjects).toEqual(original.attachments[0].referredObjects);
  });
});

describe("buildingSMART's test files", () => {
  const files = readdirSync(BCF_DIR).filter((f) => f.endsWith('.bcf'));

  it.each(files)('imports %s', async (name) => {
    const r = await importFile('author', readFileSync(path.join(BCF_DIR, name)), name);
    expect(r.statusCode, r.body).toBe(200);
    const report = v.parse(BcfImportReportSchema, r.json());
    expect(report.version).toBe(name.startsWith('v2.1') ? '2.1' : '3.0');
    expect(report.topics).toBeGreaterThan(0);
    const threads = await threadsById(report.threadIds);
    for (const t of threads) expect(t.message.trim()).not.toBe('');
    if (name.includes('Component_selection')) {
      expect(report.unmatchedComponents).toEqual(
        expect.arrayContaining(['0KkZ20so9BsO1d1hFcfLOl', '1XbKhGD91DvhOpYZbhzGTI', '3D9pjHJ0HCnggyepvsht8s']),
      );
      expect(threads[0].attachments[0].savedView).not.toBeNull();
    }
    if (name.includes('MaximumInformation')) {
      const t = threads.find((c) => c.message.startsWith('Maximum Content')) as Comment;
      expect(t.labels).toEqual(['Structural', 'IT Development']);
      expect(t.assignees.map((a) => a.userName)).toEqual(['linhard@iabi.eu']);
      expect(t.state).toBe('New');
      expect(t.replies).toHaveLength(4);
      const withView = t.replies.find((c) => c.message.startsWith('This comment again'));
      expect(withView?.attachments).toHaveLength(1);
      expect(t.attachments).toHaveLength(2);
      expect(report.unmatchedComponents.length).toBeGreaterThan(0);
      expect(report.warnings.join('\n')).toContain('Bitmaps');
    }
    if (name.includes('Labels')) expect(threads[0].labels).toEqual(['Architects']);
    if (name.includes('User_assignment'))
      expect(threads[0].assignees.map((a) => a.userName)).toEqual(['architect@example.com']);
    if (name.includes('Perspective'))
      expect(
        threads.flatMap((t) => [...t.attachments, ...t.replies.flatMap((c) => c.attachments)])[0].savedView,
      ).toMatchObject({
        perspective: true,
      });
  });

  it('refuses a file that is no BCF package and a project the user may not see', async () => {
    const bad = await importFile('author', Buffer.from('not a zip'));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('The file is not a BCF package (a zip archive)');
    const out = await importFile('outsider', readFileSync(path.join(BCF_DIR, files[0])));
    expect(out.statusCode).toBe(404);
    const exp = await w.call('outsider', { url: `${BASE}/bcf?projectName=${w.project}` });
    expect(exp.statusCode).toBe(404);
  });
});
