/**
 * "Done when", in Chromium against a real server: register the administrator, upload
 * NAPA-OCX_M8.3docx, watch progress reach 100 %, open the model, rotate it, click a plate and read its
 * thickness and material; a wrong password shows the server's message under the password field; a
 * broken upload shows a clear error and leaves the other projects as they were.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './support/chromium';
import { samplesDir, startServer, type RunningServer } from './support/keelsonServer';
import { clickAndWaitForSelection, engineState, modelPixels, waitForStillCanvas } from './support/viewerState';

const ADMIN = { email: 'admin@yard.example', name: 'Ada Admin', password: 'correct-horse-1' };

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  server = await startServer();
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  page = await context.newPage();
  page.on('pageerror', (e) => console.error('[pageerror]', e.message));
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function login(p: Page, email: string, password: string): Promise<void> {
  await p.goto(`${server.url}/login`);
  await p.getByLabel('E-mail').fill(email);
  await p.getByLabel('Password', { exact: true }).fill(password);
  await p.getByRole('button', { name: 'Login' }).click();
}

async function upload(p: Page, file: string): Promise<void> {
  await p.getByRole('button', { name: 'Add project' }).click();
  await p.locator('input[type="file"]').setInputFiles(file);
  await p.getByRole('button', { name: 'Add', exact: true }).click();
}

describe('first end-to-end slice', () => {
  it('offers Admin registration while no administrator exists and registers one', async () => {
    await page.goto(server.url);
    await page.waitForURL('**/login');
    await page.getByRole('link', { name: 'Admin registration' }).click();
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Full name').fill(ADMIN.name);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByLabel('Confirm password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByText('Registration successful. You can now login.').waitFor();
  });

  it('shows the server message under the password field for a wrong password', async () => {
    await login(page, ADMIN.email, 'not-the-password');
    const message = page.getByText('Invalid e-mail or password');
    await message.waitFor();
    // The message sits below the password input.
    const field = await page.getByLabel('Password', { exact: true }).boundingBox();
    const msg = await message.boundingBox();
    expect(msg!.y).toBeGreaterThan(field!.y);
    expect(page.url()).toContain('/login');
  });

  it('uploads NAPA-OCX_M8 and shows the conversion reaching 100 %', async () => {
    await login(page, ADMIN.email, ADMIN.password);
    await page.waitForURL(`${server.url}/`);
    // Record every percentage the card renders, however briefly.
    await page.evaluate(() => {
      const w = window as unknown as { __progress: number[] };
      w.__progress = [];
      new MutationObserver(() => {
        // The bar's value, not the card's text: the status message beside the percentage may end in digits.
        const bar = document.querySelector('[data-testid="progress-NAPA-OCX_M8"] [role="progressbar"]');
        const value = bar?.getAttribute('aria-valuenow');
        if (value != null && Number(value) !== w.__progress.at(-1)) w.__progress.push(Number(value));
      }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    await upload(page, path.join(samplesDir, 'NAPA-OCX_M8.3docx'));
    await page.getByText('Project NAPA-OCX_M8 is added').waitFor({ timeout: 180_000 });
    const seen = await page.evaluate(() => (window as unknown as { __progress: number[] }).__progress);
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.at(-1)).toBe(100);
    // Progress never goes back.
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1]);
    await page.getByTestId('project-card-NAPA-OCX_M8').waitFor();
  });

  it('opens the model, rotates it, and reads a plate’s thickness and material', async () => {
    await page.getByTestId('project-card-NAPA-OCX_M8').click();
    await page.waitForURL('**/NAPA-OCX_M8**');
    const canvas = page.getByTestId('viewer-canvas');
    await canvas.waitFor();
    await page.locator('[data-viewer-phase="ready"]').waitFor({ timeout: 120_000 });
    const box = (await canvas.boundingBox())!;
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    // Rotate: a left drag orbits.
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    await page.mouse.move(cx + 120, cy + 30, { steps: 8 });
    await page.mouse.up();
    // Click where the model is drawn until a plate is picked, as a user would.
    await waitForStillCanvas(page);
    const panel = page.getByTestId('properties-panel');
    let found = false;
    for (const [x, y] of await modelPixels(page, 40)) {
      await clickAndWaitForSelection(page, x, y);
      if ((await engineState(page, 'selection-count')) !== '1') continue;
      await panel.waitFor();
      await page.getByTestId('properties-title').waitFor();
      if (/PLATE/.test((await panel.textContent()) ?? '')) {
        found = true;
        break;
      }
    }
    expect(found).toBe(true);
    await panel.getByText('Thickness').waitFor();
    await panel.getByText('Material', { exact: true }).waitFor();
    const text = (await panel.textContent()) ?? '';
    expect(text).toMatch(/Thickness\s*\d+\.\d\s*mm/);
  });

  it('refuses a broken upload with a clear error and leaves other projects as they were', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'keelson-broken-'));
    const broken = path.join(dir, 'BROKEN.3docx');
    writeFileSync(
      broken,
      '<?xml version="1.0"?>\n<ocx:ocxXML xmlns:ocx="https://3docx.org/fileadmin//ocx_schema//V300//OCX_Schema.xsd">\n<ocx:Vessel',
    );
    await page.goto(server.url);
    await upload(page, broken);
    await page.getByTestId('toast-error').getByText('Failed to add project BROKEN').waitFor({ timeout: 60_000 });
    // The failed card says what is wrong with the file, and where.
    const reason = (await page.getByTestId('progress-BROKEN').textContent()) ?? '';
    expect(reason).toMatch(/truncated|unclosed/i);
    expect(reason).toMatch(/line \d+/);
    await page.getByTestId('project-card-NAPA-OCX_M8').waitFor();
  });
});
