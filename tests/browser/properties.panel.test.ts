/**
 * The properties panel in Chromium against a real server on the demo ship (viewer.md §2 "Properties panel",
 * §5 "Property merging"), at laptop size (1366×768): a box selection's merged total weight equals the sum
 * of the selected parts' weights read independently through the API (GET .../model/property-columns), the
 * type filter lists the selection's types with their counts and merges one type, a single part shows
 * 'Inside {block}', the panel moves by its header, stays inside the viewer and off the clipping controls,
 * and closes until the next selection. Screenshots go to the test's temp directory.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './support/chromium';
import { startServer, type RunningServer } from './support/keelsonServer';
import { apiRequest, newLoggedInPage, openViewer, registerAdmin, shutDown, waitForRevision } from './support/seed';
import { clickAndWaitForSelection, engineState, modelPixels, waitForEngineState } from './support/viewerState';

const MODEL = 'DEMO_SHIP';
const ADMIN = { email: 'props-admin@yard.example', fullName: 'Pia Props', password: 'props-password-1' };

/** Screenshots for a person to look at. */
const shots = mkdtempSync(path.join(tmpdir(), 'keelson-properties-'));

let server: RunningServer;
let browser: Browser;
let page: Page;
/** The object table's types and blocks and the weight column (t), read through the API. */
let types: string[] = [];
let blocks: (string | null)[] = [];
let weights: (number | string | null)[] = [];

beforeAll(async () => {
  server = await startServer({ DEMO_SHIP: 'true' });
  const token = await registerAdmin(server.url, ADMIN);
  await waitForRevision(server, token, MODEL, 300_000);
  const get = async (url: string) => (await apiRequest(server.url, token, 'GET', url)).json();
  const table = (await get(`/api/keelson-instance/model/objects?modelName=${MODEL}&revision=1`)) as {
    objects: { type: string; block: string | null }[];
  };
  types = table.objects.map((o) => o.type);
  blocks = table.objects.map((o) => o.block);
  const cols = (await get(`/api/keelson-instance/model/property-columns?modelName=${MODEL}&revision=1&codes=W`)) as {
    columns: { W: (number | string | null)[] };
  };
  weights = cols.columns.W;
  browser = await launchChromium();
  page = await newLoggedInPage(browser, token, { viewport: { width: 1366, height: 768 } });
  page.setDefaultTimeout(30_000);
  await openViewer(page, server.url, MODEL, true);
});

afterAll(() => shutDown(server, browser));

const panel = () => page.getByTestId('properties-panel');
const canvasBox = async () => (await page.getByTestId('viewer-canvas').boundingBox())!;

/** The selected object-table indices the panel lists. */
async function selectedIndices(): Promise<number[]> {
  const list = (await panel().getAttribute('data-selection')) ?? '';
  return list ? list.split(',').map(Number) : [];
}

/** The sum of the weights of `indices`, as the panel shows a weight ('123.456 t'). */
function weightText(indices: number[]): string {
  let sum = 0;
  for (const i of indices) if (typeof weights[i] === 'number') sum += weights[i] as number;
  return `${sum.toFixed(3)} t`;
}

/** Waits until the panel shows the merge of `n` objects. */
async function waitForMerged(n: number, timeout = 30_000): Promise<void> {
  try {
    await page.locator(`[data-testid="properties-panel"][data-merged="${n}"]`).waitFor({ timeout });
  } catch (e) {
    const merged = await panel().getAttribute('data-merged');
    throw new Error(`panel merged ${merged} objects, not ${n}; it shows: ${await panel().textContent()}`, { cause: e });
  }
}

async function boxSelect(from: [number, number], to: [number, number]): Promise<void> {
  const seq = Number(await engineState(page, 'selection-seq'));
  await page.getByTestId('viewer-canvas').focus();
  await page.keyboard.down('Shift');
  await page.mouse.move(from[0], from[1]);
  await page.mouse.down();
  await page.mouse.move((from[0] + to[0]) / 2, (from[1] + to[1]) / 2, { steps: 5 });
  await page.mouse.move(to[0], to[1], { steps: 5 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
  await waitForEngineState(page, 'selection-seq', (v) => Number(v) > seq);
}

async function dragHeader(dx: number, dy: number): Promise<void> {
  const h = (await page.getByTestId('properties-header').boundingBox())!;
  const x = h.x + 40;
  const y = h.y + 8;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx / 2, y + dy / 2, { steps: 4 });
  await page.mouse.move(x + dx, y + dy, { steps: 4 });
  await page.mouse.up();
}

describe('properties panel on the demo ship', () => {
  it("a box selection's total weight is the sum of every selected part's weight", async () => {
    const box = await canvasBox();
    await boxSelect(
      [box.x + box.width * 0.85, box.y + box.height * 0.25],
      [box.x + box.width * 0.15, box.y + box.height * 0.8],
    );
    const count = Number(await engineState(page, 'selection-count'));
    expect(count).toBeGreaterThan(50); // more than the old panel's 50-object cap
    await expect.poll(() => page.getByTestId('properties-title').textContent()).toBe(`${count} objects selected`);
    // the first merge waits for the worker to read the revision's property columns
    await waitForMerged(count, 120_000);
    const indices = await selectedIndices();
    expect(indices).toHaveLength(count);
    const weighed = indices.filter((i) => typeof weights[i] === 'number');
    expect(weighed.length).toBeGreaterThan(50);
    expect(await panel().locator('[data-property="W"] td').textContent()).toBe(weightText(indices));
    await panel().screenshot({ path: path.join(shots, 'box-selection.png') });

    // the filter lists each selected type with its count; one type merges only its parts
    const counts = new Map<string, number>();
    for (const i of indices) counts.set(types[i], (counts.get(types[i]) ?? 0) + 1);
    const filter = page.getByTestId('properties-type-filter');
    const options = await filter.locator('option').allTextContents();
    expect(options[0]).toBe(`All types (${count})`);
    expect(new Set(options.slice(1))).toEqual(new Set([...counts].map(([t, n]) => `${t} (${n})`)));
    const plates = indices.filter((i) => types[i] === 'PLATE');
    expect(plates.length).toBeGreaterThan(0);
    await filter.selectOption('PLATE');
    await waitForMerged(plates.length);
    expect(await panel().locator('[data-property="W"] td').textContent()).toBe(weightText(plates));
    // the demo ship's plates carry a thickness: the configured plate quantities are shown
    await panel().locator('[data-property="PLTH"]').waitFor();
    await panel().screenshot({ path: path.join(shots, 'plates-only.png') });
    await filter.selectOption('');
    await waitForMerged(count);
  });

  it("one part: its weight and 'Inside {block}' from the object table", async () => {
    const box = await canvasBox();
    let index = -1;
    for (const [x, y] of await modelPixels(page, 60)) {
      await page.keyboard.press('Escape');
      await clickAndWaitForSelection(page, x, y);
      if ((await engineState(page, 'selection-count')) !== '1') continue;
      await waitForMerged(1);
      const [i] = await selectedIndices();
      if (blocks[i] && typeof weights[i] === 'number') {
        index = i;
        break;
      }
    }
    expect(index, `no part with a block and a weight among the picked points (canvas ${box.width}px)`).toBeGreaterThan(
      -1,
    );
    expect(await page.getByTestId('properties-block').textContent()).toBe(`Inside ${blocks[index]}`);
    expect(await panel().locator('[data-property="W"] td').textContent()).toBe(weightText([index]));
  });

  it('moves by its header, stays inside the viewer and off the clipping controls, and closes', async () => {
    const before = (await panel().boundingBox())!;
    await dragHeader(300, 120);
    await expect.poll(async () => (await panel().boundingBox())!.x).toBeCloseTo(before.x + 300, 0);
    const moved = (await panel().boundingBox())!;
    expect(moved.y).toBeCloseTo(before.y + 120, 0);
    await page.screenshot({ path: path.join(shots, 'moved.png') });

    // dragged to the page's top left corner (over the top bar) it stays inside the viewer area
    const h = (await page.getByTestId('properties-header').boundingBox())!;
    await dragHeader(1 - h.x - 40, 1 - h.y - 8);
    const area = (await page.getByTestId('viewer-canvas').boundingBox())!;
    await expect.poll(async () => (await panel().boundingBox())!.x).toBeGreaterThanOrEqual(area.x);
    const corner = (await panel().boundingBox())!;
    expect(corner.y).toBeGreaterThanOrEqual(area.y);

    // with the clipping controls shown, the panel dragged onto them does not cover them
    await page.getByRole('button', { name: 'Clipping', exact: true }).click();
    const controls = page.getByTestId('clipping-controls');
    await controls.waitFor();
    const c = (await controls.boundingBox())!;
    await dragHeader(c.x + 20 - corner.x, c.y + 20 - corner.y);
    const overlaps = (a: typeof c, b: typeof c) =>
      a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    await expect
      .poll(async () => overlaps((await panel().boundingBox())!, (await controls.boundingBox())!))
      .toBe(false);
    // nor the bottom toolbar
    const toolbar = (await page.getByRole('button', { name: 'Clipping', exact: true }).boundingBox())!;
    const placed = (await panel().boundingBox())!;
    expect(placed.y + placed.height).toBeLessThanOrEqual(toolbar.y);
    await page.screenshot({ path: path.join(shots, 'clipping.png') });
    await page.getByRole('button', { name: 'Clipping', exact: true }).click();
    await controls.waitFor({ state: 'detached' });

    // closed until the next selection
    await panel().getByRole('button', { name: 'Close properties' }).click();
    await panel().waitFor({ state: 'detached' });
    expect(await engineState(page, 'selection-count')).toBe('1');
    const [p] = await modelPixels(page, 1);
    await clickAndWaitForSelection(page, p[0], p[1]);
    await panel().waitFor();
  });
});
