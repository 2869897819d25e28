/**
 * Object approval status through inject (application.md §4 "Status options editing", §5 "Status option
 * name", §7 "Object status"; viewer.md §3 "Approval status"): option validation and permissions, statuses
 * following parts by GUID from NAPA-OCX_M8 into a next revision whose parts all have new OCX ids (the same
 * file with every id renamed, GUIDs kept), the removed status, per-revision counts and the history per object.
 * (The shared NAPA revision pairs, M2 and M2_v300rc3 etc., were re-exported with new GUIDs, so no part of
 * theirs is the same part by GUID.)
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApprovalHistorySchema,
  ApprovalStatusCountListSchema,
  ApprovalStatusListSchema,
  ApprovalStatusOptionsSchema,
  GeometryApprovalStatusListSchema,
  ModelObjectsResponseSchema,
  type ApiModelObject,
} from '../../api/contract';
import { bearer, grantProjects, login, makeApp, signUp, uploadSample, type TestApp } from './helpers';
import { multipartFile, SAMPLES } from './helpers';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** NAPA-OCX_M8 with every OCX id (and reference to it) renamed: the same parts by GUID, none by id. */
const M8_RENAMED = readFileSync(path.join(SAMPLES, 'NAPA-OCX_M8.3docx'), 'utf8').replaceAll('nplcid', 'rev2id');

let t: TestApp;
let admin: string;
let reader: string;
let uploader: string;
let project: string;
let rev1: ApiModelObject[];
let rev2: ApiModelObject[];
/** Parts whose status was set in revision 1 (a, b) and changed in revision 2 (a). */
let followed: { a: ApiModelObject; b: ApiModelObject };

const BASE = '/api/viewer/approval-status';
const GEO = '/api/viewer/geometry/approval-status';
const q = (p: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(p).map(([k, x]) => [k, String(x)])).toString();

async function call(
  token: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: InjectOptions['payload'],
): Promise<LightMyRequestResponse> {
  return t.app.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload } : {}) });
}

async function objects(revision: number): Promise<ApiModelObject[]> {
  const r = await call(admin, 'GET', `/api/keelson-instance/model/objects?${q({ modelName: project, revision })}`);
  expect(r.statusCode, r.body).toBe(200);
  return v.parse(ModelObjectsResponseSchema, r.json()).objects;
}

async function statusesOf(token: string, revision: number, ids: string[]) {
  const r = await call(token, 'POST', `${GEO}?${q({ projectName: project, revision })}`, ids);
  expect(r.statusCode, r.body).toBe(200);
  return new Map(v.parse(GeometryApprovalStatusListSchema, r.json()).map((s) => [s.geometry, s.approvalStatus.name]));
}

async function options() {
  const all = v.parse(ApprovalStatusListSchema, (await call(reader, 'GET', `${BASE}/all`)).json());
  const o = v.parse(ApprovalStatusOptionsSchema, (await call(reader, 'GET', `${BASE}/options`)).json());
  const byName = (n: string) => all.find((s) => s.name === n)!;
  return { all, o, byName };
}

beforeAll(async () => {
  t = await makeApp({ organizationDomain: 'yard.com' });
  admin = await signUp(t.app, 'admin@yard.com', { admin: true });
  await signUp(t.app, 'reader@yard.com');
  await signUp(t.app, 'uploader@yard.com');
  project = await uploadSample(t, admin, 'NAPA-OCX_M8');
  await grantProjects(t.app, admin, 'reader@yard.com', [project], { fixed: [] });
  await grantProjects(t.app, admin, 'uploader@yard.com', [project], { fixed: ['upload:model'] });
  reader = await login(t.app, 'reader@yard.com');
  uploader = await login(t.app, 'uploader@yard.com');
  rev1 = await objects(1);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('status options', () => {
  it('lists the fixed default and removed statuses and the editable options', async () => {
    const { all, o } = await options();
    const def = all.find((s) => s.id === o.defaultStatus)!;
    const removed = all.find((s) => s.id === o.removedStatus)!;
    expect(def.isEditable).toBe(false);
    expect(removed.isEditable).toBe(false);
    expect(o.order).toEqual(all.map((s) => s.id));
    expect(all.filter((s) => s.isEditable).length).toBeGreaterThan(0);
    const one = await call(reader, 'GET', `${BASE}?id=${def.id}`);
    expect(one.json()).toEqual(def);
    expect((await call(reader, 'GET', `${BASE}?id=9999`)).statusCode).toBe(404);
  });

  it('validates names with the texts of application.md §5 and gives new options #eeeeee', async () => {
    const cases: [unknown, string][] = [
      ['   ', 'Name is required.'],
      ['ab', 'Minimum 3 and maximum 20 characters'],
      ['a'.repeat(21), 'Minimum 3 and maximum 20 characters'],
      ['approved', 'There is another status option with the same name. Try another name.'],
      ['Needs work!', 'Name contains special characters.'],
    ];
    for (const [name, message] of cases) {
      const r = await call(admin, 'POST', BASE, { name });
      expect(r.statusCode, String(name)).toBe(400);
      expect(r.json().message).toBe(message);
    }
    const made = await call(admin, 'POST', BASE, { name: 'Needs work 2' });
    expect(made.statusCode, made.body).toBe(200);
    const id = made.json().id as number;
    const got = (await call(reader, 'GET', `${BASE}?id=${id}`)).json();
    expect(got).toEqual({ id, name: 'Needs work 2', color: '#eeeeee', isEditable: true });
    const renamed = await call(admin, 'PUT', `${BASE}?id=${id}`, { name: 'Needs work', color: '#123ABC' });
    expect(renamed.json()).toEqual({ id, name: 'Needs work', color: '#123abc', isEditable: true });
    // Its own name again is not a duplicate.
    expect((await call(admin, 'PUT', `${BASE}?id=${id}`, { name: 'needs WORK' })).statusCode).toBe(200);
    const dup = await call(admin, 'PUT', `${BASE}?id=${id}`, { name: 'Approved' });
    expect(dup.json().message).toBe('There is another status option with the same name. Try another name.');
    expect((await call(admin, 'DELETE', `${BASE}?id=${id}`)).statusCode).toBe(200);
    expect((await call(reader, 'GET', `${BASE}?id=${id}`)).statusCode).toBe(404);
  });

  it('needs admin:view to change options; the fixed statuses cannot be changed', async () => {
    const { o, byName } = await options();
    for (const [method, url, payload] of [
      ['POST', BASE, { name: 'Sneaky' }],
      ['PUT', `${BASE}?id=${byName('Approved').id}`, { name: 'Sneaky' }],
      ['DELETE', `${BASE}?id=${byName('Approved').id}`, undefined],
      ['GET', `${BASE}/usage?id=${byName('Approved').id}`, undefined],
    ] as const) {
      const r = await call(uploader, method, url, payload);
      expect(r.statusCode, `${method} ${url}`).toBe(403);
      expect(r.json().message).toBe('Missing permission admin:view');
    }
    expect((await call(admin, 'PUT', `${BASE}?id=${o.defaultStatus}`, { name: 'Other' })).statusCode).toBe(403);
    expect((await call(admin, 'DELETE', `${BASE}?id=${o.removedStatus}`)).statusCode).toBe(403);
  });
});

describe('object statuses', () => {
  it('reads the default status, changes it with upload:model and records who, when, from and to', async () => {
    const { byName } = await options();
    const parts = rev1
      .filter((o) => o.bounds !== null)
      .slice(0, 3)
      .map((o) => o.id);
    expect(parts.length).toBe(3);
    expect([...(await statusesOf(reader, 1, parts)).values()]).toEqual(['Not set', 'Not set', 'Not set']);

    const url = `${GEO}?${q({ projectName: project, revision: 1, approvalStatusId: byName('In review').id })}`;
    const denied = await call(reader, 'POST', url, parts);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe('Missing permission upload:model');
    expect([...(await statusesOf(reader, 1, parts)).values()]).toEqual(['Not set', 'Not set', 'Not set']);

    const ok = await call(uploader, 'POST', url, parts);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(v.parse(GeometryApprovalStatusListSchema, ok.json()).map((s) => s.approvalStatus.name)).toEqual([
      'In review',
      'In review',
      'In review',
    ]);
    const approve = `${GEO}?${q({ projectName: project, revision: 1, approvalStatusId: byName('Approved').id })}`;
    expect((await call(admin, 'POST', approve, [parts[0]])).statusCode).toBe(200);
    // Unknown ids are left out.
    expect([...(await statusesOf(reader, 1, [...parts, 'no-such-id'])).entries()]).toEqual([
      [parts[0], 'Approved'],
      [parts[1], 'In review'],
      [parts[2], 'In review'],
    ]);

    const h = await call(
      reader,
      'GET',
      `${GEO}/history?${q({ projectName: project, revision: 1, geometry: parts[0] })}`,
    );
    const history = v.parse(ApprovalHistorySchema, h.json());
    expect(history.map((e) => [e.from.name, e.to.name, e.changedBy])).toEqual([
      ['Not set', 'In review', 'uploader@yard.com'],
      ['In review', 'Approved', 'admin@yard.com'],
    ]);
    expect(Date.parse(history[1].changedAt)).toBeGreaterThanOrEqual(Date.parse(history[0].changedAt));

    const all = await call(reader, 'GET', `${GEO}/all?${q({ projectName: project, revision: 1 })}`);
    expect(
      v
        .parse(GeometryApprovalStatusListSchema, all.json())
        .map((s) => s.geometry)
        .sort(),
    ).toEqual([...parts].sort());
  });

  it('counts the parts of the revision per status', async () => {
    const r = await call(
      reader,
      'GET',
      `${GEO}/revision-geometry-approval-status-count?${q({ projectName: project, revision: 1 })}`,
    );
    const counts = new Map(v.parse(ApprovalStatusCountListSchema, r.json()).map((c) => [c.name, c.count]));
    const parts = rev1.filter((o) => o.bounds !== null).length;
    expect(counts.get('Approved')).toBe(1);
    expect(counts.get('In review')).toBe(2);
    expect(counts.get('Not set')).toBe(parts - 3);
    expect(counts.get('Removed')).toBe(0);
  });

  it('follows parts by GUID into the next revision; later changes leave the earlier revision as it was', async () => {
    const { payload, headers } = multipartFile('NAPA-OCX_M8_renamed.ocx', M8_RENAMED);
    const up = await t.app.inject({
      method: 'POST',
      url: `/api/viewer/project/add/project-uploaded?${q({ projectName: project })}`,
      payload,
      headers: { ...headers, ...bearer(admin) },
    });
    expect(up.statusCode, up.body).toBe(200);
    await t.app.ctx.conversions.wait(up.json().conversionId);
    rev2 = await objects(2);
    const byGuid = new Map(rev2.filter((o) => o.guid).map((o) => [o.guid, o]));
    const shared = rev1.filter((o) => o.bounds && o.guid && byGuid.has(o.guid));
    expect(shared.length).toBe(rev1.filter((o) => o.bounds).length);
    expect(rev2.some((o) => rev1.some((p) => p.id === o.id))).toBe(false);
    const { byName } = await options();
    const [a, b] = [shared[3], shared[4]];
    followed = { a, b };
    const set = (rev: number, status: string, ids: string[]) =>
      call(
        uploader,
        'POST',
        `${GEO}?${q({ projectName: project, revision: rev, approvalStatusId: byName(status).id })}`,
        ids,
      );
    expect((await set(1, 'Rejected', [a.id, b.id])).statusCode).toBe(200);
    const a2 = byGuid.get(a.guid)!;
    const b2 = byGuid.get(b.guid)!;
    expect([...(await statusesOf(reader, 2, [a2.id, b2.id])).values()]).toEqual(['Rejected', 'Rejected']);
    expect((await set(2, 'Approved', [a2.id])).statusCode).toBe(200);
    expect([...(await statusesOf(reader, 2, [a2.id, b2.id])).values()]).toEqual(['Approved', 'Rejected']);
    expect([...(await statusesOf(reader, 1, [a.id, b.id])).values()]).toEqual(['Rejected', 'Rejected']);
    const h = await call(reader, 'GET', `${GEO}/history?${q({ projectName: project, revision: 2, geometry: a2.id })}`);
    expect(v.parse(ApprovalHistorySchema, h.json()).map((e) => [e.revision, e.to.name])).toEqual([
      [1, 'Rejected'],
      [2, 'Approved'],
    ]);
  });

  it('deleting an option leaves its objects with the removed status; renaming relabels them', async () => {
    const made = await call(admin, 'POST', BASE, { name: 'Temporary', color: '#00ff00' });
    const id = made.json().id as number;
    const part = rev2.filter((o) => o.bounds)[7].id;
    const set = await call(
      uploader,
      'POST',
      `${GEO}?${q({ projectName: project, revision: 2, approvalStatusId: id })}`,
      [part],
    );
    expect(set.statusCode, set.body).toBe(200);
    expect((await call(admin, 'GET', `${BASE}/usage?id=${id}`)).json()).toEqual({ geometries: 1 });
    await call(admin, 'PUT', `${BASE}?id=${id}`, { name: 'Kept for now' });
    expect((await statusesOf(reader, 2, [part])).get(part)).toBe('Kept for now');
    expect((await call(admin, 'DELETE', `${BASE}?id=${id}`)).statusCode).toBe(200);
    expect((await statusesOf(reader, 2, [part])).get(part)).toBe('Removed');
    const h = await call(reader, 'GET', `${GEO}/history?${q({ projectName: project, revision: 2, geometry: part })}`);
    expect(v.parse(ApprovalHistorySchema, h.json()).map((e) => [e.from.name, e.to.name, e.changedBy])).toEqual([
      ['Not set', 'Temporary', 'uploader@yard.com'],
      ['Kept for now', 'Removed', 'admin@yard.com'],
    ]);
    const counts = await call(
      reader,
      'GET',
      `${GEO}/revision-geometry-approval-status-count?${q({ projectName: project, revision: 2 })}`,
    );
    expect(v.parse(ApprovalStatusCountListSchema, counts.json()).find((c) => c.name === 'Removed')?.count).toBe(1);
    // The removed status cannot be given.
    const { o } = await options();
    const refused = await call(
      admin,
      'POST',
      `${GEO}?${q({ projectName: project, revision: 2, approvalStatusId: o.removedStatus })}`,
      [part],
    );
    expect(refused.statusCode).toBe(400);
  });

  it('a revision that replaces a deleted latest one inherits only what earlier revisions set', async () => {
    const del = await call(
      admin,
      'DELETE',
      `/api/viewer/project/delete-revision?${q({ projectName: project, revisionNumber: 2 })}`,
    );
    expect(del.statusCode, del.body).toBe(200);
    const { payload, headers } = multipartFile('NAPA-OCX_M8_renamed.ocx', M8_RENAMED);
    const up = await t.app.inject({
      method: 'POST',
      url: `/api/viewer/project/add/project-uploaded?${q({ projectName: project })}`,
      payload,
      headers: { ...headers, ...bearer(admin) },
    });
    expect(up.statusCode, up.body).toBe(200);
    await t.app.ctx.conversions.wait(up.json().conversionId);
    const again = await objects(2);
    const byGuid = new Map(again.map((o) => [o.guid, o.id]));
    const ids = [byGuid.get(followed.a.guid)!, byGuid.get(followed.b.guid)!, again.filter((o) => o.bounds)[7].id];
    // a was Approved in the deleted revision 2: back to Rejected from revision 1; the removed one is Not set.
    expect([...(await statusesOf(reader, 2, ids)).values()]).toEqual(['Rejected', 'Rejected', 'Not set']);
  });

  it('bounds the lists it accepts and hides projects the user may not see', async () => {
    const many = Array.from({ length: 10_001 }, (_, i) => `id${i}`);
    const r = await call(reader, 'POST', `${GEO}?${q({ projectName: project, revision: 1 })}`, many);
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toContain('At most 10000 object ids per call');
    await signUp(t.app, 'outsider@other.org');
    const outsider = await login(t.app, 'outsider@other.org');
    const hidden = await call(outsider, 'GET', `${GEO}/all?${q({ projectName: project, revision: 1 })}`);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().message).toBe(`Project ${project} not found`);
  });
});
