/**
 * The shell's server calls (application.md §1 'What's new', §3 "License state", §7 license/expirationTime
 * and Admin GET /logs, §8 LicenseError; §2 Help → /docs/): answers, permissions and the licence's effect.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { unzipSync, strFromU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { licenseState } from '../../api/routes/license';
import { bearer, makeApp, signUp, type TestApp, uploadSample } from './helpers';

const DAY = 86_400_000;
let t: TestApp;
let admin: string;
let user: string;

beforeAll(async () => {
  t = await makeApp();
  admin = await signUp(t.app, 'admin@yard.com', { admin: true });
  user = await signUp(t.app, 'user@other.org');
});
afterAll(async () => {
  await t?.close();
});

describe('licence state', () => {
  it('counts whole days until the expiry and lapses after it', () => {
    const end = '2030-01-10T23:59:59.999Z';
    expect(licenseState(null, Date.parse(end))).toEqual({
      hasLicense: true,
      licenseError: null,
      daysRemaining: null,
      expirationTime: null,
    });
    expect(licenseState(end, Date.parse('2030-01-03T12:00:00Z')).daysRemaining).toBe(7);
    expect(licenseState(end, Date.parse('2030-01-10T08:00:00Z'))).toMatchObject({ hasLicense: true, daysRemaining: 0 });
    const lapsed = licenseState(end, Date.parse('2030-01-11T08:00:00Z'));
    expect(lapsed.hasLicense).toBe(false);
    expect(lapsed.licenseError).toContain('2030-01-10');
  });

  it('answers the configured expiry to signed-in users', async () => {
    const r = await t.app.inject({ url: '/api/keelson-static/license/expirationTime', headers: bearer(user) });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ hasLicense: true, expirationTime: null });
  });

  it('refuses opening and adding models with LicenseError once the licence has lapsed', async () => {
    const day = new Date(Date.now() - 2 * DAY).toISOString().slice(0, 10);
    const lapsed = await makeApp({ licenseExpires: `${day}T23:59:59.999Z` });
    try {
      const token = await signUp(lapsed.app, 'admin@yard.com', { admin: true });
      const state = await lapsed.app.inject({
        url: '/api/keelson-static/license/expirationTime',
        headers: bearer(token),
      });
      expect(state.json()).toMatchObject({ hasLicense: false, daysRemaining: -2 });
      const open = await lapsed.app.inject({
        url: '/api/keelson-instance/maintenance/status?modelName=SHIP&modelRevision=latest',
        headers: bearer(token),
      });
      expect(open.statusCode).toBe(403);
      expect(open.json()).toMatchObject({ error: 'LicenseError', type: 'LicenseError' });
      expect(open.json().message).toContain(day);
      // The list and the administration keep working.
      const list = await lapsed.app.inject({ url: '/api/viewer/project/models', headers: bearer(token) });
      expect(list.statusCode).toBe(200);
    } finally {
      await lapsed.close();
    }
  });
});

describe("what's new", () => {
  it('lists the versions and items of CHANGELOG.md', async () => {
    const r = await t.app.inject({ url: '/api/keelson-static/whats-new' });
    expect(r.statusCode).toBe(200);
    const list = r.json() as { version: string; items: string[] }[];
    expect(list.map((x) => x.version)).toEqual(['2025.1', '2024.2']);
    expect(list[0].items.some((i) => i.startsWith('Revision comparison'))).toBe(true);
    expect(list[1].items.some((i) => i.includes('15 minutes'))).toBe(true);
  });
});

describe('server logs', () => {
  it('zips the files of the log directory for administrators only', async () => {
    mkdirSync(t.config.logDir, { recursive: true });
    writeFileSync(path.join(t.config.logDir, 'keelson.2030-01-01.1.log'), '{"msg":"first line"}\n');
    const r = await t.app.inject({ url: '/api/default/viewer/logs', headers: bearer(admin) });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('application/zip');
    expect(r.headers['content-disposition']).toMatch(/^attachment; filename="keelson-logs-\d{4}-\d{2}-\d{2}\.zip"$/);
    const files = unzipSync(new Uint8Array(r.rawPayload));
    expect(Object.keys(files)).toEqual(['keelson.2030-01-01.1.log']);
    expect(strFromU8(files['keelson.2030-01-01.1.log'])).toContain('first line');
    const denied = await t.app.inject({ url: '/api/default/viewer/logs', headers: bearer(user) });
    expect(denied.statusCode).toBe(403);
  });
});

describe('user guide', () => {
  it('serves docs/user-guide.md as HTML at /docs/ without sign-in, and the other pages by name', async () => {
    const r = await t.app.inject({ url: '/docs/' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toContain('text/html');
    expect(r.body).toContain('<h1>Keelson user guide</h1>');
    expect(r.body).toContain('href="/docs/ARCHITECTURE.md"');
    const arch = await t.app.inject({ url: '/docs/ARCHITECTURE.md' });
    expect(arch.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/docs/..%2Fpackage.json' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/docs/missing.md' })).statusCode).toBe(404);
  });
});

describe('opening a model that does not exist', () => {
  it('answers 404 naming the model or the revision, not an unavailable service', async () => {
    const name = await uploadSample(t, admin, 'NAPA-OCX_M1');
    const status = (modelName: string, modelRevision: string) =>
      t.app.inject({
        url: `/api/keelson-instance/maintenance/status?modelName=${modelName}&modelRevision=${modelRevision}`,
        headers: bearer(admin),
      });
    expect((await status(name, '1')).json()).toEqual({ status: 'Ok' });
    const rev = await status(name, '9');
    expect(rev.statusCode).toBe(404);
    expect(rev.json().message).toBe(`Revision 9 of project ${name} not found`);
    const model = await status('NO-SUCH-SHIP', 'latest');
    expect(model.statusCode).toBe(404);
    expect(model.json().message).toBe('Project NO-SUCH-SHIP not found');
  });
});
