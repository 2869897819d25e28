/**
 * Object approval status in Chromium against a real server (viewer.md §3 "Object status property";
 * application.md §4 "Status options editing"): an administrator sets a part's status in the properties
 * panel, sees it after a reload and in the next revision (NAPA-OCX_M8 again with every OCX id renamed: the
 * same parts only by GUID), reads its history, colours the model by status and reads the counts; then edits
 * the options in the admin settings, where renaming and deleting the used option ask for confirmation and
 * an unused one changes colour without asking; the part's status then shows '** REMOVED **'.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium';
import { samplesDir, startServer, type RunningServer } from './support/keelsonServer';
import { apiRequest, newLoggedInPage, openViewer, seedSample, shutDown } from './support/seed';
import { clickAndWaitForSelection, modelPixels, waitForCanvasChange, waitForStillCanvas } from './support/viewerState';

const MODEL = 'NAPA-OCX_M8';
const ADMIN = { email: 'ann.admin@yard.example', fullName: 'Ann Admin', password: 'ann-password-1' };

let server: RunningServer;
let browser: Browser;
let page: Page;
let token: string;
/** Where the chosen part is drawn (page px) and its name. */
let point: [number, number];
let partName = '';
/** Screenshots of the panels for a look by eye (not compared). */
const shots = mkdtempSync(path.join(tmpdir(), 'keelson-approval-'));

const statusSelect = () => page.getByRole('combobox', { name: 'Object status' });
const selectedStatus = () => statusSelect().evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent ?? '');

async function statusIs(text: string): Promise<void> {
  await page.waitForFunction(
    (t) => {
      const s = document.querySelector<HTMLSelectElement>('select[aria-label="Object status"]');
      return s?.selectedOptions[0]?.textContent === t;
    },
    text,
    { timeout: 30_000 },
  );
}

/** Opens the viewer (settled: the same camera every time) and selects the part drawn at `point`. */
async function openAndSelect(url: string): Promise<void> {
  await page.goto(url);
  await page.locator('[data-viewer-phase="ready"]').waitFor({ timeout: 120_000 });
  await waitForStillCanvas(page);
  await clickAndWaitForSelection(page, point[0], point[1]);
  await statusSelect().waitFor();
}

beforeAll(async () => {
  server = await startServer();
  token = await seedSample(server, ADMIN, MODEL);
  browser = await launchChromium();
  page = await newLoggedInPage(browser, token);
  page.setDefaultTimeout(30_000);
  await openViewer(page, server.url, MODEL, true);
}, 300_000);

afterAll(() => shutDown(server, browser));

describe('object status in the viewer', () => {
  it('sets a part status in the properties panel and sees it after a reload', async () => {
    for (const [x, y] of await modelPixels(page, 40)) {
      await clickAndWaitForSelection(page, x, y);
      if (await page.getByTestId('properties-panel').isVisible()) {
        point = [x, y];
        break;
      }
    }
    await statusSelect().waitFor();
    partName = (await page.getByTestId('properties-title').textContent()) ?? '';
    expect(partName).not.toBe('');
    expect(await selectedStatus()).toBe('Not set');
    await statusSelect().selectOption({ label: 'Approved' });
    await statusIs('Approved');

    await openAndSelect(`${server.url}/${MODEL}`);
    expect(await page.getByTestId('properties-title').textContent()).toBe(partName);
    await statusIs('Approved');

    await page.getByRole('button', { name: 'Status history' }).click();
    const history = page.getByTestId('object-status-history');
    await history.getByText('Not set → Approved').waitFor();
    expect(await history.textContent()).toContain(ADMIN.email);
    await page.getByTestId('properties-panel').screenshot({ path: path.join(shots, 'properties.png') });
  }, 180_000);

  it('colours the part with its status colour and counts the revision per status', async () => {
    await page.getByRole('button', { name: 'Approval status' }).click();
    const counts = page.getByTestId('status-counts');
    await counts.locator('[data-status="Approved"] [data-testid="status-count"]').getByText('1').waitFor();
    // Deselect (a click on the background) so the part shows its own colour, not the selection's.
    const box = (await page.getByTestId('viewer-canvas').boundingBox())!;
    await clickAndWaitForSelection(page, box.x + box.width - 15, box.y + box.height * 0.4);
    await page.getByTestId('properties-panel').waitFor({ state: 'hidden' });
    const before = await waitForStillCanvas(page);
    await counts.getByLabel('Colour by status').check();
    const after = PNG.sync.read(await waitForCanvasChange(page, before));
    const scale = after.width / box.width;
    const i = (Math.round((point[1] - box.y) * scale) * after.width + Math.round((point[0] - box.x) * scale)) * 4;
    const [r, g, b] = [after.data[i], after.data[i + 1], after.data[i + 2]];
    // Approved is #4caf50: green dominates however the part is lit.
    expect(g, `rgb ${r},${g},${b}`).toBeGreaterThan(r + 20);
    expect(g, `rgb ${r},${g},${b}`).toBeGreaterThan(b + 20);
    await page.screenshot({ path: path.join(shots, 'colouring.png') });
    await counts.getByLabel('Colour by status').uncheck();
  }, 120_000);

  it('shows the status in the next revision, where the part has a new OCX id but the same GUID', async () => {
    const renamed = readFileSync(path.join(samplesDir, `${MODEL}.3docx`), 'utf8').replaceAll('nplcid', 'rev2id');
    const form = new FormData();
    form.append('file', new Blob([renamed]), `${MODEL}_next.ocx`);
    const up = await apiRequest(
      server.url,
      token,
      'POST',
      `/api/viewer/project/add/project-uploaded?projectName=${MODEL}`,
      form,
    );
    expect(up.status).toBe(200);
    for (;;) {
      const info = await apiRequest(
        server.url,
        token,
        'GET',
        `/api/viewer/project/highest-revision?projectName=${MODEL}`,
      );
      if (info.ok && ((await info.json()) as { highestRevision: number }).highestRevision === 2) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    await openAndSelect(`${server.url}/${MODEL}?revision=2`);
    expect(await page.getByTestId('properties-title').textContent()).toBe(partName);
    await statusIs('Approved');
  }, 240_000);
});

describe('status options in the admin settings', () => {
  const option = (name: string) => page.locator(`[data-status-option="${name}"]`);
  const dialog = () => page.getByTestId('status-confirm-dialog');
  const options = async () =>
    (await (await apiRequest(server.url, token, 'GET', '/api/viewer/approval-status/all')).json()) as {
      name: string;
      color: string;
    }[];

  it('asks before renaming or deleting a used option, recolours an unused one at once, adds a new one', async () => {
    await page.goto(`${server.url}/admin`);
    await page.getByRole('tab', { name: 'Settings' }).click();
    const editor = page.getByTestId('status-options');
    await editor.getByRole('button', { name: 'Edit' }).click();

    // Rename the used option: confirm dialog, then the server has the new name.
    const name = option('Approved').getByLabel('Status name');
    await name.fill('Accepted');
    await name.press('Tab');
    await dialog().getByText('Change status name').waitFor();
    await page.screenshot({ path: path.join(shots, 'rename-dialog.png') });
    await dialog().getByRole('button', { name: 'Change name' }).click();
    await expect.poll(async () => (await options()).map((o) => o.name)).toContain('Accepted');

    // An unused option changes colour without a dialog.
    await option('Rejected').getByLabel('Color of Rejected').fill('#123456');
    await expect.poll(async () => (await options()).find((o) => o.name === 'Rejected')?.color).toBe('#123456');
    expect(await dialog().count()).toBe(0);

    // Invalid name: the message, and Stop editing is disabled with the tooltip.
    const rejected = option('Rejected').getByLabel('Status name');
    await rejected.fill('No!');
    await editor.getByText('Name contains special characters.').waitFor();
    const stop = editor.getByRole('button', { name: 'Stop editing' });
    expect(await stop.isDisabled()).toBe(true);
    expect(await editor.locator('span[title="There are validation errors"]').count()).toBe(1);
    await rejected.fill('Rejected');
    await rejected.press('Tab');
    expect(await stop.isDisabled()).toBe(false);

    // Add: 'New status option' #eeeeee, created on the server.
    await editor.getByRole('button', { name: 'Add object status' }).click();
    await expect.poll(async () => (await options()).find((o) => o.name === 'New status option')?.color).toBe('#eeeeee');

    // Delete the used option: confirm dialog, then gone.
    await option('Accepted').getByRole('button', { name: 'Delete Accepted' }).click();
    await dialog().getByText('Delete status option').waitFor();
    await dialog().getByRole('button', { name: 'Delete option' }).click();
    await expect.poll(async () => (await options()).map((o) => o.name)).not.toContain('Accepted');
    await option('Accepted').waitFor({ state: 'detached' });
    await editor.screenshot({ path: path.join(shots, 'editor.png') });
  }, 120_000);

  it('restores the old name when the server refuses a rename, with the message of application.md §8', async () => {
    // Another administrator takes the name first: the editor's own check cannot know it, the server refuses.
    const taken = await apiRequest(server.url, token, 'POST', '/api/viewer/approval-status', { name: 'Checked' });
    expect(taken.status).toBe(200);
    const name = option('Rejected').getByLabel('Status name');
    await name.fill('Checked');
    await name.press('Tab');
    await page
      .getByTestId('toast-error')
      .getByText('Unable to rename status option. Try again later or contact your organization administrator.')
      .waitFor();
    await page.waitForFunction(
      () =>
        document.querySelector<HTMLInputElement>('[data-status-option="Rejected"] input[aria-label="Status name"]')
          ?.value === 'Rejected',
    );
    expect((await options()).filter((o) => o.name === 'Rejected').length).toBe(1);
  }, 60_000);

  it('shows the part of the deleted option as ** REMOVED **', async () => {
    await openAndSelect(`${server.url}/${MODEL}?revision=2`);
    await statusIs('** REMOVED **');
    console.log(`approval screenshots: ${shots}`);
  }, 180_000);
});
