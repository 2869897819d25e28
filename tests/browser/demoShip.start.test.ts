/**
 * A fresh server (as `npm start` runs it, with the embedded defaults) imports the demo
 * ship on first start, so a new user who registers can open it at once and see it drawn.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './support/chromium';
import { startServer, type RunningServer } from './support/keelsonServer';

let server: RunningServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  server = await startServer({ DEMO_SHIP: 'true' });
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1200, height: 800 } })).newPage();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('demo ship on first start', () => {
  it('is listed with a thumbnail and opens in the viewer', async () => {
    await page.goto(`${server.url}/register?admin=1`);
    await page.getByLabel('E-mail').fill('first@yard.example');
    await page.getByLabel('Full name').fill('First User');
    await page.getByLabel('Password', { exact: true }).fill('first-password');
    await page.getByLabel('Confirm password').fill('first-password');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByText('Registration successful. You can now login.').waitFor();
    await page.goto(`${server.url}/login`);
    await page.getByLabel('E-mail').fill('first@yard.example');
    await page.getByLabel('Password', { exact: true }).fill('first-password');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(`${server.url}/`);
    await page.getByRole('tab', { name: 'Browse' }).click();
    const card = page.getByTestId('project-card-DEMO_SHIP');
    // The demo import runs in the background after listen; its card shows the revision when done.
    await card.getByText(/Rev\. 1/).waitFor({ timeout: 120_000 });
    const thumb = card.locator('img');
    const src = await thumb.getAttribute('src');
    expect(src).toMatch(/^data:image\/png;base64,/);
    const size = await thumb.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]);
    expect(size).toEqual([160, 120]);
    await card.click();
    await page.waitForURL('**/DEMO_SHIP');
    await page.locator('[data-viewer-phase="ready"]').waitFor({ timeout: 120_000 });
    // The model tree lists the structure with its panels.
    const tree = page.getByTestId('model-tree');
    await tree.getByText(/Structures \(/).waitFor();
  });
});
