/**
 * Custom model trees in Chromium against a real server (viewer.md §2 model tree 'Add new tree', Edit,
 * 'Custom-model-tree'; §4 "Tree folders"; §7 tags and tagging; §8 toasts): Ann creates a folder, names it,
 * selects plates through the search and adds them; Bob, viewing the same model, sees the folder fill
 * without reloading; adding the same plates again is reported; after a reload Ann's folder is still there;
 * hiding by the folder's checkbox removes the plates from the picture and selecting by folder selects them;
 * removing a plate and deleting the folder give the §8 toasts.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium';
import { startServer, type RunningServer } from './support/keelsonServer';
import { apiRequest, newLoggedInPage, openViewer, seedSample, shutDown } from './support/seed';
import { waitForCanvasChange, waitForEngineState, waitForStillCanvas } from './support/viewerState';

const MODEL = 'NAPA-OCX_M8';
const ANN = { email: 'ann.admin@yard.example', fullName: 'Ann Admin', password: 'ann-password-1' };
const BOB = { email: 'bob.reviewer@yard.example', fullName: 'Bob Reviewer', password: 'bob-password-1' };
const FOLDER = 'P1 plates';
/** Search text that finds the plates of panel P1 of the sample (deck, bottom, bulkheads, webs). */
const QUERY = 'P:P1/';

let server: RunningServer;
let browser: Browser;
let ann: Page;
let bob: Page;
const shots = mkdtempSync(path.join(tmpdir(), 'keelson-custom-trees-'));

beforeAll(async () => {
  server = await startServer();
  const annToken = await seedSample(server, ANN, MODEL);
  const reg = await apiRequest(server.url, undefined, 'POST', '/api/auth/viewer/default/register', {
    ...BOB,
    requirePasswordReset: false,
    adminEmail: '',
  });
  expect(reg.status).toBe(200);
  const grant = await apiRequest(
    server.url,
    annToken,
    'PATCH',
    `/api/default/viewer/users?email=${encodeURIComponent(BOB.email)}`,
    { permissions: [`project:${MODEL}`], validUntil: {} },
  );
  expect(grant.status).toBe(200);
  const login = await apiRequest(server.url, undefined, 'POST', '/api/auth/viewer/default/login', BOB);
  const bobToken = ((await login.json()) as { token: string }).token;
  browser = await launchChromium();
  ann = await newLoggedInPage(browser, annToken);
  bob = await newLoggedInPage(browser, bobToken);
  for (const p of [ann, bob]) p.setDefaultTimeout(30_000);
  await Promise.all([openViewer(ann, server.url, MODEL, true), openViewer(bob, server.url, MODEL)]);
}, 300_000);

afterAll(() => shutDown(server, browser));

const tree = (p: Page) => p.getByRole('tree', { name: 'Model tree' });
const folderRow = (p: Page, name: string) => tree(p).locator('[data-tag]').filter({ hasText: name });
const toast = (p: Page, text: string) => p.getByTestId('toast-info').filter({ hasText: text });

/** Opens 'Custom-model-tree' once it is there (a new session shows only the first folder open). */
async function openCustomTrees(p: Page): Promise<void> {
  // The tree is virtualised: fold the structures so the last top-level folders have rows (after a search
  // the tree list comes back first).
  await tree(p).getByRole('treeitem').first().waitFor();
  const structures = tree(p).getByRole('button', { name: /^Collapse Structures / });
  if (await structures.count()) await structures.click();
  const root = tree(p).getByRole('treeitem').filter({ hasText: 'Custom-model-tree' });
  await root.waitFor();
  if ((await root.getAttribute('aria-expanded')) === 'false')
    await root.getByRole('button', { name: 'Expand Custom-model-tree' }).click();
}

/** Selects by folder ('Select') and waits until the engine's selection holds `n` objects. */
async function selectByFolder(p: Page, name: string, n: number): Promise<void> {
  await folderRow(p, name)
    .getByRole('button', { name: `Select ${name}` })
    .click();
  await waitForEngineState(p, 'selection-count', String(n));
}

describe('custom model trees', () => {
  let n = 0;

  it("'Add new tree' makes 'New custom tree' under 'Custom-model-tree', renamed inline", async () => {
    await ann.getByRole('button', { name: 'Add new tree' }).click();
    const input = tree(ann).getByRole('textbox', { name: 'Folder name' });
    await input.waitFor();
    expect(await input.inputValue()).toBe('New custom tree');
    await expect.poll(() => tree(ann).getByText('Custom-model-tree').count()).toBe(1);
    await input.fill(FOLDER);
    await input.press('Enter');
    await folderRow(ann, FOLDER).waitFor();
    // Bob's tree shows the new folder without a reload (the project's realtime room).
    await openCustomTrees(bob);
    await folderRow(bob, FOLDER).waitFor();
  });

  it('adds the selection to the folder; Bob sees the plates; adding them again is reported', async () => {
    await ann.getByRole('searchbox').fill(QUERY);
    const summary = await ann.getByTestId('search-summary').textContent();
    n = Number(/Search result: (\d+) object\(s\)/.exec(summary ?? '')?.[1]);
    expect(n).toBeGreaterThanOrEqual(2);
    // The box shows the engine's selection once it comes back, so click and wait for that.
    await ann.getByRole('checkbox', { name: 'Select all' }).click();
    await waitForEngineState(ann, 'selection-count', String(n));
    await ann.getByRole('searchbox').fill('');
    await openCustomTrees(ann);
    await folderRow(ann, FOLDER)
      .getByRole('button', { name: `Add selection to ${FOLDER}` })
      .click();
    // The folder opens on its plates; their names are the search's.
    const first = tree(ann).locator('[data-in-tag] [data-label]').first();
    await first.waitFor();
    expect(await first.textContent()).toContain(QUERY);
    await folderRow(ann, FOLDER)
      .getByRole('button', { name: `Add selection to ${FOLDER}` })
      .click();
    await toast(ann, `${n} geometries were not added to "${FOLDER}" because they already exist in the tree.`).waitFor();
    // A picture of the panel with the open folder, for a person to look at.
    await ann.getByTestId('model-tree').screenshot({ path: path.join(shots, 'custom-tree-panel.png') });
    // Bob's folder holds the same plates: selecting by it selects n objects.
    await expect
      .poll(() =>
        folderRow(bob, FOLDER)
          .getByRole('checkbox', { name: `Show ${FOLDER}` })
          .count(),
      )
      .toBe(1);
    await selectByFolder(bob, FOLDER, n);
  });

  it('keeps the folder and its plates after a reload', async () => {
    await openViewer(ann, server.url, MODEL, true);
    await openCustomTrees(ann);
    await selectByFolder(ann, FOLDER, n);
  });

  it('hides the plates by the folder checkbox (the picture changes) and shows them again', async () => {
    // Selecting revealed the first plate under its structure: fold that again.
    await openCustomTrees(ann);
    const before = await waitForStillCanvas(ann);
    const show = folderRow(ann, FOLDER).getByRole('checkbox', { name: `Show ${FOLDER}` });
    expect(await show.isChecked()).toBe(true);
    await show.click();
    await waitForEngineState(ann, 'undo', 'Hide objects');
    const hidden = await waitForCanvasChange(ann, before);
    expect(await show.isChecked()).toBe(false);
    await show.click();
    await waitForEngineState(ann, 'undo', 'Show objects');
    await waitForCanvasChange(ann, hidden);
    expect(await show.isChecked()).toBe(true);
  });

  it('removes a plate and deletes the folder with the §8 toasts', async () => {
    if ((await ann.getByRole('button', { name: 'Stop editing' }).count()) === 0)
      await ann.getByRole('button', { name: 'Edit', exact: true }).click();
    await openCustomTrees(ann);
    if ((await folderRow(ann, FOLDER).getAttribute('aria-expanded')) === 'false')
      await folderRow(ann, FOLDER)
        .getByRole('button', { name: `Expand ${FOLDER}` })
        .click();
    const plate = tree(ann).locator('[data-in-tag]').first();
    const name = (await plate.locator('[data-label]').textContent()) ?? '';
    await plate.getByRole('button', { name: `Remove ${name} from folder` }).click();
    await toast(ann, `Geometry "${name}" was removed from "${FOLDER}"`).waitFor();
    await selectByFolder(ann, FOLDER, n - 1);
    await openCustomTrees(ann);
    await folderRow(ann, FOLDER)
      .getByRole('button', { name: `Delete folder ${FOLDER}` })
      .click();
    await toast(ann, `Root folder "${FOLDER}" and all its contents were removed from custom model trees`).waitFor();
    await folderRow(bob, FOLDER).waitFor({ state: 'detached' });
  });
});
