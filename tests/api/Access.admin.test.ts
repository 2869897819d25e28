/**
 * The admin API (application.md §7 "Admin"; §3 "Permission", "Project in admin", "User") through inject,
 * parsed with the contract's schemas, and the write rules of §6: adding to, replacing or cancelling an
 * existing project needs access to it plus upload:model, also when the project is named by the file.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminUserSchema, PermissionSchema, PermissionWithUsersSchema } from '../../api/contract';
import {
  bearer,
  grantProjects,
  login,
  makeApp,
  multipartFile,
  SAMPLES,
  signUp,
  type TestApp,
  uploadSample,
} from './helpers';

let t: TestApp;
let admin: string;
let ship: string;
const ADMIN = '/api/default/viewer';

beforeAll(async () => {
  t = await makeApp({ organizationDomain: 'yard.com' });
  admin = await signUp(t.app, 'admin@yard.com', { admin: true });
  ship = await uploadSample(t, admin, 'NAPA-OCX_M1');
  await signUp(t.app, 'eng@yard.com');
  await signUp(t.app, 'guest@other.org');
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const get = (url: string, token = admin) => t.app.inject({ url, headers: bearer(token) });

describe('admin API', () => {
  it('lists the fixed permissions and one project permission per project', async () => {
    const r = await get(`${ADMIN}/permissions/all`);
    expect(r.statusCode).toBe(200);
    const all = v.parse(v.array(PermissionSchema), r.json());
    expect(all.map((p) => p.identifier)).toEqual([
      'admin:view',
      'upload:model',
      'comment:view',
      'comment:edit',
      'miscellaneous:view',
      `project:${ship}`,
    ]);
    expect(all.at(-1)).toMatchObject({ name: ship, category: 'project' });
  });

  it('lists project permissions with their users, valid-until and the newest revision date', async () => {
    const until = '2999-01-01T00:00:00.000Z';
    await grantProjects(t.app, admin, 'guest@other.org', [ship], { validUntil: until, fixed: [] });
    const r = await get(`${ADMIN}/permissions/with-users?category=project`);
    expect(r.statusCode).toBe(200);
    const [p] = v.parse(v.array(PermissionWithUsersSchema), r.json());
    expect(p.identifier).toBe(`project:${ship}`);
    expect(p.date).toMatch(/^\d{4}-\d\d-\d\dT/);
    // sorted by name; the administrator always among them
    expect(p.users).toEqual([
      { email: 'admin@yard.com', name: 'admin', userType: 'administrator', validUntil: null },
      { email: 'eng@yard.com', name: 'eng', userType: 'internal', validUntil: null },
      { email: 'guest@other.org', name: 'guest', userType: 'external', validUntil: until },
    ]);
    const bad = await get(`${ADMIN}/permissions/with-users?category=everything`);
    expect(bad.statusCode).toBe(400);
  });

  it('lists users with their permissions and permissionData; updates and refuses bad input', async () => {
    const r = await get(`${ADMIN}/users/all`);
    const users = v.parse(v.array(AdminUserSchema), r.json());
    expect(users.map((u) => u.email)).toEqual(['admin@yard.com', 'eng@yard.com', 'guest@other.org']);
    expect(users[1].permissions.sort()).toEqual([`project:${ship}`, 'upload:model']);
    const patch = (email: string, payload: object) =>
      t.app.inject({
        method: 'PATCH',
        url: `${ADMIN}/users?email=${encodeURIComponent(email)}`,
        headers: bearer(admin),
        payload,
      });
    const short = await patch('eng@yard.com', { password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe("Invalid field 'password': Password needs to be at least 8 characters long");
    const noName = await patch('eng@yard.com', { name: '  ' });
    expect(noName.json().message).toBe("Invalid field 'name': Name is required");
    expect((await patch('nobody@yard.com', { name: 'X' })).statusCode).toBe(404);
    const ok = await patch('eng@yard.com', { name: ' Engineer ', permissions: ['comment:view', 'project:NO_SUCH'] });
    expect(ok.statusCode).toBe(200);
    // unknown projects are not granted; the user's project access was replaced
    expect(v.parse(AdminUserSchema, ok.json())).toMatchObject({ name: 'Engineer', permissions: ['comment:view'] });
  });

  it('is for holders of admin:view only', async () => {
    const eng = await login(t.app, 'eng@yard.com');
    const r = await get(`${ADMIN}/users/all`, eng);
    expect(r.statusCode).toBe(403);
    expect(r.json().message).toBe('Missing permission admin:view');
    // admin:view opens the admin API, but the administrator account stays the administrator's
    await grantProjects(t.app, admin, 'eng@yard.com', [], { fixed: ['admin:view'] });
    const deputy = await login(t.app, 'eng@yard.com');
    expect((await get(`${ADMIN}/users/all`, deputy)).statusCode).toBe(200);
    const takeover = await t.app.inject({
      method: 'PATCH',
      url: `${ADMIN}/users?email=admin%40yard.com`,
      headers: bearer(deputy),
      payload: { password: 'taken-over-1' },
    });
    expect(takeover.statusCode).toBe(403);
    expect(takeover.json().message).toBe('Only the administrator can change the administrator account');
  });
});

describe('write access to an existing project', () => {
  const M1 = readFileSync(path.join(SAMPLES, 'NAPA-OCX_M1.3docx'));
  const upload = (token: string, fileName: string, query = '') => {
    const { payload, headers } = multipartFile(fileName, M1);
    return t.app.inject({
      method: 'POST',
      url: `/api/viewer/project/add/project-uploaded${query}`,
      payload,
      headers: { ...headers, ...bearer(token) },
    });
  };

  it('answers 404 to an upload:model user without access, whether the project is named or derived from the file', async () => {
    await signUp(t.app, 'stranger@other.org');
    await grantProjects(t.app, admin, 'stranger@other.org', [], { fixed: ['upload:model'] });
    const stranger = await login(t.app, 'stranger@other.org');
    const named = await upload(stranger, 'x.3docx', `?projectName=${ship}`);
    expect(named.statusCode).toBe(404);
    expect(named.json().message).toBe(`Project ${ship} not found`);
    const byFile = await upload(stranger, `${ship}.3docx`);
    expect(byFile.statusCode).toBe(404);
    expect(byFile.json().message).toBe(`Project ${ship} not found`);
    expect(t.app.ctx.conversions.running(ship)).toBeNull();
    // a new name is the stranger's own project, visible to the stranger afterwards
    const own = await upload(stranger, 'own.3docx');
    expect(own.statusCode, own.body).toBe(200);
    expect((await t.app.ctx.conversions.wait(own.json().conversionId)).status).toBe(2);
    const info = await get('/api/viewer/project/project-info?projectName=OWN', stranger);
    expect(info.statusCode).toBe(200);
  });
});
