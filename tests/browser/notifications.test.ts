/**
 * Realtime user notifications with two parties (application.md §4 "Realtime user notification", §8
 * notice texts): a user's page is open in Chromium while an administrator changes and then deletes the
 * user through the real admin API. The notice dialog shows the spec's text; Confirm reloads permissions
 * and models (the granted project's card appears, the Admin item too); losing admin:view while on /admin
 * sends the user to /; a deletion logs the user out and says so.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium';
import { startServer, type RunningServer } from './support/keelsonServer';
import { apiRequest, seedSample, shutDown } from './support/seed';

const MODEL = 'NAPA-OCX_M1';
const USER = { email: 'fitter@other.org', fullName: 'Fiona Fitter', password: 'fitter-password-1' };
const UPDATED = 'Your user data and/or privileges have been updated by an administrator.';
const DELETED = 'Your user account has been deleted by an administrator.';

let server: RunningServer;
let browser: Browser;
let adminToken: string;
let page: Page;

/** The administrator's PATCH /api/default/viewer/users?email (the real admin API). */
async function setPermissions(permissions: string[]): Promise<void> {
  const r = await apiRequest(
    server.url,
    adminToken,
    'PATCH',
    `/api/default/viewer/users?email=${encodeURIComponent(USER.email)}`,
    { permissions },
  );
  expect(r.status, await r.text()).toBe(200);
}

/** Waits for the notice dialog with `text`, checks it, and confirms it. */
async function confirmNotice(text: string): Promise<void> {
  const dialog = page.getByTestId('notice-dialog');
  await dialog.waitFor();
  expect(await dialog.getByText(text).count()).toBe(1);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await dialog.waitFor({ state: 'detached' });
}

async function userMenuItems(): Promise<string[]> {
  await page.getByRole('button', { name: 'User menu' }).click();
  const items = await page.getByRole('menuitem').allTextContents();
  await page.keyboard.press('Escape');
  return items.map((s) => s.trim());
}

beforeAll(async () => {
  server = await startServer({ ORGANIZATION_DOMAIN: 'yard.com' });
  adminToken = await seedSample(
    server,
    { email: 'admin@yard.com', fullName: 'Ada Admin', password: 'admin-password-1' },
    MODEL,
  );
  const reg = await apiRequest(server.url, undefined, 'POST', '/api/auth/viewer/default/register', USER);
  expect(reg.status, await reg.text()).toBe(200);
  browser = await launchChromium();
  if (!(await fetch(`${server.url}/api/config`).catch(() => null))) throw new Error(`server gone:\n${server.output()}`);
  const context = await browser.newContext({ viewport: { width: 1300, height: 850 } });
  page = await context.newPage();
  page.on('pageerror', (e) => console.error('[pageerror]', e.message));
  await page.goto(`${server.url}/login`);
  await page.getByLabel('E-mail').fill(USER.email);
  await page.getByLabel('Password', { exact: true }).fill(USER.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(`${server.url}/`);
});

afterAll(async () => {
  await shutDown(server, browser);
});

describe('realtime user notifications', () => {
  it('shows the update notice and reloads permissions and models on Confirm', async () => {
    await page.getByRole('tab', { name: 'Browse' }).click();
    await page.getByText('No models to display').waitFor();
    expect(await userMenuItems()).not.toContain('Admin');

    await setPermissions(['admin:view', `project:${MODEL}`]);
    await confirmNotice(UPDATED);
    await page.getByText(MODEL, { exact: true }).first().waitFor();
    expect(await page.getByText('No models to display').count()).toBe(0);
    expect(await userMenuItems()).toContain('Admin');
  });

  it('leaves a route the user may no longer view ({route}:view) and keeps the session', async () => {
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Admin', exact: true }).click();
    await page.waitForURL(`${server.url}/admin`);
    await page.getByRole('heading', { name: 'Admin panel' }).waitFor();

    await setPermissions([`project:${MODEL}`]);
    // Still on /admin until the user confirms.
    await page.getByTestId('notice-dialog').waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin');
    await confirmNotice(UPDATED);
    await page.waitForURL(`${server.url}/`);
    // The token is still valid: the start view lists the project the user keeps.
    await page.getByRole('tab', { name: 'Browse' }).click();
    await page.getByText(MODEL, { exact: true }).first().waitFor();
    expect(await page.evaluate(() => localStorage.getItem('keelson.token'))).not.toBeNull();
  });

  it('logs a deleted user out and tells them', async () => {
    const r = await apiRequest(
      server.url,
      adminToken,
      'DELETE',
      `/api/default/viewer/users?email=${encodeURIComponent(USER.email)}`,
    );
    expect(r.status, await r.text()).toBe(200);
    await page.waitForURL(`${server.url}/login`);
    const dialog = page.getByTestId('notice-dialog');
    await dialog.waitFor();
    expect(await dialog.getByText(DELETED).count()).toBe(1);
    expect(await page.evaluate(() => localStorage.getItem('keelson.token'))).toBeNull();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByLabel('E-mail').waitFor();
  });
});
