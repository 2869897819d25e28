/**
 * The CAD upload dialog in Chromium against a real server (application.md §2 "Upload CAD components", §4
 * "CAD upload dialog", §5): with the "CAD components" option on, adding the generator's ship (equipment
 * naming pump.stl, hatch.stl and deckhouse.jt) pauses its conversion and opens the dialog for its starter
 * with a status per file (missing, exists, extra); picking shows uploading / updating, refuses a name the
 * project does not require and an existing file without Overwrite; Continue uploads and the project is
 * added with the components; Cancel cancels the conversion, and so does leaving the page while the dialog is
 * open.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boxStl, writeCadShip } from '../support/cadShip';
import { launchChromium } from './support/chromium';
import { startServer, type RunningServer } from './support/keelsonServer';
import { apiRequest, newLoggedInPage, openViewer, registerAdmin, shutDown, submitAddProject } from './support/seed';
import { waitForEngineState } from './support/viewerState';

const NAME = 'CADUI';
let server: RunningServer;
let browser: Browser;
let token = '';
let dir = '';
let shipFile = '';
const pump = boxStl([400, 300, 200], [1000, 2000, 3000]);
const hatch = boxStl([2000, 1000, 50], [5000, 0, 10000]);
const stl = (name: string, buffer: Buffer) => ({ name, mimeType: 'application/octet-stream', buffer });

beforeAll(async () => {
  server = await startServer();
  token = await registerAdmin(server.url, {
    email: 'admin@yard.com',
    fullName: 'Ada Admin',
    password: 'admin-password-1',
  });
  const patch = await apiRequest(server.url, token, 'PATCH', '/api/default/viewer/config/conversion', {
    cadComponents: true,
    screenshot: false,
  });
  expect(patch.status, await patch.text()).toBe(200);
  dir = await mkdtemp(path.join(os.tmpdir(), 'keelson-cadui-'));
  shipFile = path.join(dir, `${NAME}.3docx`);
  await writeCadShip(shipFile, NAME, {
    'as1-oc-214.stp': 'pump.stl',
    'cube-10mm.igs': 'hatch.stl',
    'IfcOpenHouse_IFC4.ifc': 'deckhouse.jt',
  });
  // Already on the server: an older hatch (exists) and a file this model does not name (extra).
  const cadDir = path.join(server.dataDir, 'projects', NAME, 'cad');
  await mkdir(cadDir, { recursive: true });
  await writeFile(path.join(cadDir, 'hatch.stl'), boxStl([10, 10, 10], [0, 0, 0]));
  await writeFile(path.join(cadDir, 'old-valve.stl'), boxStl([10, 10, 10], [0, 0, 0]));
  browser = await launchChromium();
}, 180_000);
afterAll(async () => {
  await shutDown(server, browser);
  await rm(dir, { recursive: true, force: true });
});

/** Adds the ship through the Add project dialog; resolves once the CAD upload dialog is open. */
async function addShip(page: Page, existing: boolean) {
  await page.goto(server.url);
  await submitAddProject(page, shipFile, NAME);
  // A project that exists asks whether to add a new revision.
  if (existing) await page.getByRole('button', { name: 'Add new revision' }).click();
  const dialog = page.getByTestId('cad-upload-dialog');
  await dialog.waitFor({ timeout: 120_000 });
  // The first list comes from the server.
  await dialog.getByTestId('cad-file-pump.stl').waitFor();
  return dialog;
}

const statusOf = (page: Page, file: string) =>
  page.getByTestId(`cad-file-${file}`).locator('[data-status]').getAttribute('data-status');

async function conversionStatus(): Promise<number> {
  const r = await apiRequest(server.url, token, 'GET', `/api/viewer/project/model-conversion?projectName=${NAME}`);
  return ((await r.json()) as { status: number }).status;
}

describe('CAD upload dialog', () => {
  it('lists the statuses, refuses wrong picks, overwrites on request and continues the conversion', async () => {
    const page = await newLoggedInPage(browser, token);
    const dialog = await addShip(page, false);
    expect(await statusOf(page, 'pump.stl')).toBe('missing');
    expect(await statusOf(page, 'hatch.stl')).toBe('exists');
    expect(await statusOf(page, 'deckhouse.jt')).toBe('missing');
    expect(await statusOf(page, 'old-valve.stl')).toBe('extra');
    expect(await dialog.getByTestId('cad-file-pump.stl').textContent()).toContain('Ballast pump 1, Ballast pump 2');

    const input = dialog.getByLabel('CAD files');
    await input.setInputFiles([stl('pump.stl', pump), stl('other.stl', pump)]);
    expect(await statusOf(page, 'pump.stl')).toBe('uploading');
    await dialog.getByTestId('cad-refused').getByText('other.stl is not a CAD file this project requires').waitFor();
    await input.setInputFiles([stl('hatch.stl', hatch)]);
    await dialog
      .getByTestId('cad-refused')
      .getByText(/hatch\.stl is already on the server/)
      .waitFor();
    expect(await statusOf(page, 'hatch.stl')).toBe('exists');
    const overwrite = dialog.getByLabel('Overwrite existing files');
    await overwrite.check();
    await input.setInputFiles([stl('hatch.stl', hatch)]);
    expect(await statusOf(page, 'hatch.stl')).toBe('updating');
    // Unchecking drops the replacement; checking again and picking brings it back.
    await overwrite.uncheck();
    expect(await statusOf(page, 'hatch.stl')).toBe('exists');
    await overwrite.check();
    await input.setInputFiles([stl('hatch.stl', hatch)]);
    expect(await statusOf(page, 'hatch.stl')).toBe('updating');

    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText(`Project ${NAME} is added`).waitFor({ timeout: 120_000 });
    expect(await readFile(path.join(server.dataDir, 'projects', NAME, 'cad', 'hatch.stl'))).toEqual(hatch);
    const all = await apiRequest(
      server.url,
      token,
      'GET',
      `/api/keelson-instance/cad-components/all?modelName=${NAME}`,
    );
    const comps = (await all.json()) as { name: string; triangles: number; bounds: number[] | null }[];
    expect(comps.map((c) => [c.name, c.triangles])).toEqual([
      ['@Ballast pump 1', 12],
      ['@Ballast pump 2', 12],
      ['@Hatch cover', 12],
      ['@Deck house', 0],
    ]);
    expect(comps[2].bounds?.map((x) => Math.round(x * 1000))).toEqual([4000, -500, 9975, 6000, 500, 10025]);

    // In the viewer: the tree's 'CAD components' folder, picking from it and the properties, hide/show.
    await openViewer(page, server.url, NAME);
    const tree = page.getByRole('tree', { name: 'Model tree' });
    await tree.getByRole('treeitem').first().waitFor();
    const structures = tree.getByRole('button', { name: /^Collapse Structures / });
    if (await structures.count()) await structures.click();
    const folder = tree.getByRole('treeitem').filter({ hasText: 'CAD components' });
    await folder.waitFor();
    if ((await folder.getAttribute('aria-expanded')) === 'false')
      await folder.getByRole('button', { name: 'Expand CAD components' }).click();
    const hatchRow = tree.getByRole('treeitem').filter({ hasText: '@Hatch cover' });
    await hatchRow.locator('[data-label]').click();
    await waitForEngineState(page, 'selection-count', '1');
    await page.getByText('hatch.stl', { exact: true }).first().waitFor();
    const show = hatchRow.getByRole('checkbox', { name: 'Show @Hatch cover' });
    expect(await show.isChecked()).toBe(true);
    await show.uncheck();
    expect(await show.isChecked()).toBe(false);
    await show.check();
    await page.context().close();
  }, 240_000);

  it('Cancel cancels the conversion', async () => {
    const page = await newLoggedInPage(browser, token);
    const dialog = await addShip(page, true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText(`Canceled adding project ${NAME}`).waitFor({ timeout: 60_000 });
    expect(await conversionStatus()).toBe(3);
    await page.context().close();
  }, 240_000);

  it('leaving the page while the dialog is open cancels the conversion', async () => {
    const page = await newLoggedInPage(browser, token);
    await addShip(page, true);
    await page.goto('about:blank');
    await expect.poll(conversionStatus, { timeout: 60_000 }).toBe(3);
    await page.context().close();
  }, 240_000);
});
