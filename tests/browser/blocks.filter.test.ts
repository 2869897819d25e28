/**
 * The block filter of the model tree in Chromium on the demo ship (viewer.md §2 "Model tree panel": filter
 * menu 'No filter' or a block grouped by block system; 'Blocks ({system})'; 'Inside {block}'): choosing a
 * block leaves exactly that block's parts visible — a touch box over the whole canvas selects as many objects
 * as the block has parts with geometry, and every model pixel clicked is one of them — the tree holds only
 * that block, and 'No filter' brings the whole ship back. Pictures are written and read back as PNG.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelObjectsResponse } from '../../api/contract';
import { launchChromium } from './support/chromium';
import { startServer, type RunningServer } from './support/keelsonServer';
import { apiRequest, newLoggedInPage, openViewer, registerAdmin, shutDown, waitForRevision } from './support/seed';
import {
  BACKGROUND,
  clickAndWaitForSelection,
  engineState,
  waitForCanvasChange,
  waitForEngineState,
  waitForStillCanvas,
} from './support/viewerState';

const MODEL = 'DEMO_SHIP';
const ADMIN = { email: 'blocks.admin@yard.example', fullName: 'Block Admin', password: 'block-password-1' };
const shots = mkdtempSync(path.join(tmpdir(), 'keelson-blocks-'));

let server: RunningServer;
let browser: Browser;
let page: Page;
let table: ModelObjectsResponse;
let systemName: string;
let blockName: string;
/** The chosen block's objects: its parts and their descendants, computed here from the object table. */
let inBlock: Set<number>;

beforeAll(async () => {
  server = await startServer({ DEMO_SHIP: 'true' });
  const token = await registerAdmin(server.url, ADMIN);
  await waitForRevision(server, token, MODEL, 300_000);
  const systems = (await (
    await apiRequest(server.url, token, 'GET', `/api/keelson-instance/steel/block-system?modelName=${MODEL}`)
  ).json()) as string[];
  expect(systems).toEqual(['Production blocks']);
  systemName = systems[0];
  table = (await (
    await apiRequest(server.url, token, 'GET', `/api/keelson-instance/model/objects?modelName=${MODEL}`)
  ).json()) as ModelObjectsResponse;
  const blocks = table.blockSystems![0].blocks;
  expect(blocks.length).toBeGreaterThan(2);
  // A middle block: neither end of the ship.
  const chosen = blocks[Math.floor(blocks.length / 2)];
  blockName = chosen.name;
  const parts = new Set(chosen.objects);
  const claimed = new Set(blocks.flatMap((b) => b.objects));
  inBlock = new Set();
  for (const o of table.objects) {
    for (let t = o.index; t >= 0; t = table.objects[t].parent) {
      if (parts.has(t)) {
        inBlock.add(o.index);
        break;
      }
      if (claimed.has(t)) break; // another block's part (or its child)
    }
  }
  browser = await launchChromium();
  page = await newLoggedInPage(browser, token);
  page.setDefaultTimeout(60_000);
  await openViewer(page, server.url, MODEL, true);
}, 600_000);

afterAll(() => shutDown(server, browser));

const tree = () => page.getByRole('tree', { name: 'Model tree' });
/** The top-level folders' names, after folding every open one (the tree is virtualised). */
async function topFolders(): Promise<string[]> {
  await tree().getByRole('treeitem').first().waitFor();
  const open = tree().locator('[aria-level="1"][aria-expanded="true"]');
  while (await open.count())
    await open
      .first()
      .getByRole('button', { name: /^Collapse / })
      .click();
  return tree().locator('[aria-level="1"] [data-label]').allTextContents();
}

/** Writes the canvas to a PNG file and reads it back; returns the number of model (non-background) pixels. */
async function savedModelPixels(name: string): Promise<number> {
  const file = path.join(shots, `${name}.png`);
  writeFileSync(file, await waitForStillCanvas(page));
  const png = PNG.sync.read(readFileSync(file));
  let n = 0;
  for (let i = 0; i < png.data.length; i += 4) {
    const d =
      Math.abs(png.data[i] - BACKGROUND[0]) +
      Math.abs(png.data[i + 1] - BACKGROUND[1]) +
      Math.abs(png.data[i + 2] - BACKGROUND[2]);
    if (d > 24) n++;
  }
  return n;
}

/**
 * A right-to-left (touch) box over the whole canvas; resolves with the selection count, then clears the
 * selection again (a click on the empty sky above the ship) so the properties panel leaves the picture.
 */
async function selectAllTouched(): Promise<number> {
  const box = (await page.getByTestId('viewer-canvas').boundingBox())!;
  const seq = Number(await engineState(page, 'selection-seq'));
  await page.keyboard.down('Shift');
  await page.mouse.move(box.x + box.width - 2, box.y + 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 4 });
  await page.mouse.move(box.x + 2, box.y + box.height - 2, { steps: 4 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
  await waitForEngineState(page, 'selection-seq', (v) => Number(v) > seq);
  const count = Number(await engineState(page, 'selection-count'));
  await clickAndWaitForSelection(page, box.x + box.width * 0.55, box.y + box.height * 0.12);
  await waitForEngineState(page, 'selection-count', '0');
  return count;
}

describe('block filter', () => {
  let before = 0;
  let allSelectable = 0;

  it("shows 'Blocks ({system})' with the block system's own name and 'No filter' in the menu", async () => {
    expect(await topFolders()).toContain(`Blocks (${systemName})`);
    const menu = page.getByTestId('block-filter-menu');
    expect(await menu.inputValue()).toBe('');
    expect(await menu.locator('option:checked').textContent()).toBe('No filter');
    expect(await menu.locator(`optgroup[label="${systemName}"] option`).count()).toBe(
      table.blockSystems![0].blocks.length,
    );
    before = await savedModelPixels('before');
    allSelectable = await selectAllTouched();
    // Every object with geometry is on screen after the initial fit.
    expect(allSelectable).toBe(table.objects.filter((o) => o.bounds).length);
  });

  it("choosing a block shows only its parts in 3D and in the tree, 'Inside {block}' as the filter", async () => {
    const still = await waitForStillCanvas(page);
    await page.getByTestId('block-filter-menu').selectOption({ label: blockName });
    await page.getByTestId('block-filter').getByText(`Inside ${blockName}`).waitFor();
    await waitForCanvasChange(page, still);
    const filtered = await savedModelPixels('filtered');
    expect(filtered).toBeGreaterThan(0);
    expect(filtered).toBeLessThan(before);

    // Exactly the block's parts are visible: a box over everything selects as many objects as it has parts
    // with geometry (the whole ship was on screen, and hidden objects are never selected).
    const expected = [...inBlock].filter((i) => table.objects[i].bounds).length;
    expect(expected).toBeGreaterThan(0);
    expect(await selectAllTouched()).toBe(expected);

    // The tree: the structures hold only the block's objects and their panels; the search finds only them.
    expect(await topFolders()).toEqual([`Structures (${MODEL})`, `Blocks (${systemName})`]);
    // The structures checkbox hides and shows the block's parts only (not their panels' other plates).
    const check = tree().getByRole('checkbox', { name: `Show Structures (${MODEL})` });
    let shot = await waitForStillCanvas(page);
    await check.click();
    shot = await waitForCanvasChange(page, shot);
    expect(await selectAllTouched()).toBe(0);
    await check.click();
    await waitForCanvasChange(page, shot);
    expect(await selectAllTouched()).toBe(expected);
    const blocksRoot = tree()
      .getByRole('treeitem')
      .filter({ hasText: `Blocks (${systemName})` });
    await blocksRoot.getByRole('button', { name: `Expand Blocks (${systemName})` }).click();
    const blockRows = tree().locator('[aria-level="2"] [data-label]');
    await expect.poll(() => blockRows.allTextContents()).toEqual([blockName]);
    const plates = table.objects.filter((o) => o.type === 'PLATE');
    await page.getByRole('searchbox').fill('');
    const query = plates.find((o) => inBlock.has(o.index))!.name.slice(0, 2);
    await page.getByRole('searchbox').fill(query);
    const summary = await page.getByTestId('search-summary').textContent();
    const found = table.objects.filter(
      (o) =>
        `${o.name}\u0000${o.id}`.toLowerCase().includes(query.toLowerCase()) &&
        (inBlock.has(o.index) || [...inBlock].some((i) => isAncestor(o.index, i))),
    );
    expect(summary).toBe(`Search result: ${found.length} object(s)`);
    await page.getByRole('searchbox').fill('');
  });

  it("'No filter' brings back the whole ship and the whole tree", async () => {
    const still = await waitForStillCanvas(page);
    await page.getByRole('button', { name: 'Clear block filter' }).click();
    await page.getByTestId('block-filter').waitFor({ state: 'detached' });
    await waitForCanvasChange(page, still);
    expect(await page.getByTestId('block-filter-menu').inputValue()).toBe('');
    const after = await savedModelPixels('cleared');
    expect(Math.abs(after - before) / before).toBeLessThan(0.01);
    expect(await selectAllTouched()).toBe(allSelectable);
    expect(await topFolders()).toContain(`Blocks (${systemName})`);
  });
});

/** True when object `a` is an ancestor of object `i`. */
function isAncestor(a: number, i: number): boolean {
  for (let t = table.objects[i].parent; t >= 0; t = table.objects[t].parent) if (t === a) return true;
  return false;
}
