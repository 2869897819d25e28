/**
 * A required password change in Chromium (application.md §4 "After login, if requirePasswordReset is set
 * the user goes to /changePassword", §5 "Change password"): the form shows the contract's texts, and after
 * the change the UI continues with the fresh token the server answers with (the change revoked the old
 * one), so the start view loads and the session survives a reload.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium';
import { startServer, type RunningServer } from './support/keelsonServer';
import { apiRequest, registerAdmin, shutDown } from './support/seed';

const USER = { email: 'new@yard.com', fullName: 'Nina New', password: 'temporary-pw' };

let server: RunningServer;
let browser: Browser;
let page: Page;

const tokenInStorage = () => page.evaluate(() => localStorage.getItem('keelson.token'));
const checkToken = async (token: string) => (await apiRequest(server.url, token, 'GET', '/api/check-token')).status;

beforeAll(async () => {
  server = await startServer();
  const admin = await registerAdmin(server.url, { email: 'admin@yard.com', fullName: 'Ada', password: 'admin-pw-1' });
  const reg = await apiRequest(server.url, admin, 'POST', '/api/auth/viewer/default/register', {
    ...USER,
    requirePasswordReset: true,
  });
  expect(reg.status, await reg.text()).toBe(200);
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1200, height: 800 } })).newPage();
  page.on('pageerror', (e) => console.error('[pageerror]', e.message));
});

afterAll(async () => {
  await shutDown(server, browser);
});

describe('required password change', () => {
  it('sends the user to /changePassword after login', async () => {
    await page.goto(`${server.url}/login`);
    await page.getByLabel('E-mail').fill(USER.email);
    await page.getByLabel('Password', { exact: true }).fill(USER.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(`${server.url}/changePassword`);
    await page.getByText('Your password must be changed before you continue.').waitFor();
  });

  it("shows the contract's texts for an incomplete form", async () => {
    await page.getByLabel('New password').fill('short');
    await page.getByLabel('Confirm password').fill('other');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password is required').waitFor();
    await page.getByText('Password must have at least 8 letters.').waitFor();
    await page.getByText('Passwords do not match').waitFor();
  });

  it('continues the session with the fresh token after the change', async () => {
    const old = await tokenInStorage();
    expect(old).not.toBeNull();
    await page.getByLabel('Current password').fill(USER.password);
    await page.getByLabel('New password').fill('my-own-password');
    await page.getByLabel('Confirm password').fill('my-own-password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.waitForURL(`${server.url}/`);
    await page.getByRole('tab', { name: 'Browse' }).click();
    await page.getByText('No models to display').waitFor();
    const fresh = await tokenInStorage();
    expect(fresh).not.toBeNull();
    expect(fresh).not.toBe(old);
    expect(await checkToken(old ?? '')).toBe(401);
    expect(await checkToken(fresh ?? '')).toBe(200);
    await page.reload();
    await page.getByRole('tab', { name: 'Browse' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
  });
});
