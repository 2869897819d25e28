/**
 * The floating table panel in Chromium on the demo ship (viewer.md §2 "Floating table panel", §7 "Tables",
 * §9 "Panels"): the top-right toggle opens it with 'Loading table...' until the first table arrives; the
 * panel is 200 px high at the default place; a column sorts both ways; a block row selects that block's parts
 * in 3D (the canvas shows the selection colour where it showed none) and a plate row selects that plate (the
 * properties panel names it); the CSV export holds what the panel shows; the panel stops shrinking at 500×200,
 * moves and closes. Screenshots are written and read back.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Table } from '../../api/contract';
import { launchChromium } from './support/chromium';
import { startServer, type RunningServer } from './support/keelsonServer';
import { apiRequest, newLoggedInPage, openViewer, registerAdmin, shutDown, waitForRevision } from './support/seed';
import { waitForEngineState, waitForStillCanvas } from './support/viewerState';

const MODEL = 'DEMO_SHIP';
const ADMIN = { email: 'tia.tables@yard.example', fullName: 'Tia Tables', password: 'tia-password-1' };

let server: RunningServer;
let browser: Browser;
let page: Page;
let token: string;
const shots = mkdtempSync(path.join(tmpdir(), 'keelson-tables-'));

const panel = () => page.getByTestId('table-panel');

/** Canvas pixels in the selection colour rgb(0, 151, 196) as lit: blue and cyan well above red. */
function selectionPixels(png: Buffer): number {
  const img = PNG.sync.read(png);
  let n = 0;
  for (let i = 0; i < img.data.length; i += 4) {
    const [r, g, b] = [img.data[i], img.data[i + 1], img.data[i + 2]];
    if (r < 60 && b - r > 90 && g - r > 60) n++;
  }
  return n;
}

async function apiTable(name: string): Promise<Table> {
  const r = await apiRequest(
    server.url,
    token,
    'GET',
    `/api/keelson-instance/table/read?modelName=${MODEL}&name=${encodeURIComponent(name)}`,
  );
  expect(r.ok).toBe(true);
  return (await r.json()) as Table;
}

/** Text of the cells of the first shown row. */
const firstRow = () => panel().locator('tbody tr').first().locator('td').allTextContents();

beforeAll(async () => {
  server = await startServer({ DEMO_SHIP: 'true' });
  token = await registerAdmin(server.url, ADMIN);
  await waitForRevision(server, token, MODEL, 480_000);
  browser = await launchChromium();
  page = await newLoggedInPage(browser, token, { acceptDownloads: true });
  await openViewer(page, server.url, MODEL, true);
}, 600_000);

afterAll(async () => {
  await shutDown(server, browser);
  console.log(`table panel screenshots: ${shots}`);
});

describe('table panel', () => {
  it('opens from the toggle, loading first, at the default size', async () => {
    // hold the first table read: while it is held the panel must say it is loading
    let release: () => void = () => {};
    const released = new Promise<void>((r) => (release = r));
    let requested: () => void = () => {};
    const held = new Promise<void>((r) => (requested = r));
    await page.route('**/api/keelson-instance/table/read**', async (route) => {
      requested();
      await released;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Table', exact: true }).click();
    await held;
    await panel().getByText('Loading table...').waitFor();
    expect(await panel().locator('tbody tr').count()).toBe(0);
    release();
    await panel().locator('tbody tr').first().waitFor();
    expect(await panel().getByText('Loading table...').count()).toBe(0);
    await page.unroute('**/api/keelson-instance/table/read**');
    expect(await panel().getByLabel('Type').inputValue()).toBe('Weights');
    expect(await panel().getByLabel('Table', { exact: true }).inputValue()).toBe('Weight by block');
    const box = (await panel().boundingBox())!;
    expect(box.height).toBe(200);
    expect(box.width).toBeGreaterThanOrEqual(500);
    const byBlock = await apiTable('Weight by block');
    await panel().getByTestId('table-row-count').getByText(`${byBlock.rows.length} row(s)`).waitFor();
    expect(await panel().locator('thead th').allTextContents()).toEqual([
      'Block',
      'Parts',
      'Weight [t]',
      'CoG X [m]',
      'CoG Y [m]',
      'CoG Z [m]',
    ]);
  });

  it('sorts by a column both ways and a block row selects its parts in 3D', async () => {
    const byBlock = await apiTable('Weight by block');
    const weights = byBlock.rows.map((r) => r.cells.weight as number);
    const header = panel().locator('thead th').nth(2);
    await header.getByRole('button').click();
    await panel().locator('th[aria-sort="ascending"]').waitFor();
    expect((await firstRow())[2]).toBe(Math.min(...weights).toFixed(3));
    await header.getByRole('button').click();
    await panel().locator('th[aria-sort="descending"]').waitFor();
    const heaviest = byBlock.rows.reduce((a, b) => ((b.cells.weight as number) > (a.cells.weight as number) ? b : a));
    expect(await firstRow()).toEqual(
      expect.arrayContaining([String(heaviest.cells.group), (heaviest.cells.weight as number).toFixed(3)]),
    );

    // the scene may hold a few blue pixels of its own (view cube, frame scale): count what the selection adds
    const before = await waitForStillCanvas(page);
    writeFileSync(path.join(shots, 'block-before.png'), before);
    const base = selectionPixels(before);
    await panel().locator('tbody tr').first().click();
    await waitForEngineState(page, 'selection-count', String(heaviest.objects.length));
    expect(heaviest.objects.length).toBe(heaviest.cells.parts);
    const after = await waitForStillCanvas(page);
    writeFileSync(path.join(shots, 'block-after.png'), after);
    expect(selectionPixels(after)).toBeGreaterThan(base + 200);
    await page.screenshot({ path: path.join(shots, 'block-selected.png') });
    const shot = PNG.sync.read(readFileSync(path.join(shots, 'block-selected.png')));
    expect([shot.width, shot.height]).toEqual([1400, 900]);
    expect(selectionPixels(readFileSync(path.join(shots, 'block-selected.png')))).toBeGreaterThan(base + 200);
  });

  it('a plate row selects that plate, and the CSV export holds the table as shown', async () => {
    await panel().getByLabel('Type').selectOption('Part lists');
    await panel().getByLabel('Table', { exact: true }).selectOption('Plates');
    const plates = await apiTable('Plates');
    await panel().getByTestId('table-row-count').getByText(`${plates.rows.length} row(s)`).waitFor();
    await panel().locator('thead th', { hasText: 'Weight [t]' }).getByRole('button').click();
    await panel().locator('th[aria-sort="ascending"]').waitFor();
    await panel().locator('thead th', { hasText: 'Weight [t]' }).getByRole('button').click();
    await panel().locator('th[aria-sort="descending"]').waitFor();
    const heaviest = plates.rows.reduce((a, b) => ((b.cells.weight as number) > (a.cells.weight as number) ? b : a));
    expect((await firstRow())[0]).toBe(heaviest.cells.name);
    const seq = Number(await page.getByTestId('engine-state').getAttribute('data-selection-seq'));
    await panel().locator('tbody tr').first().click();
    await waitForEngineState(page, 'selection-seq', (v) => Number(v) > seq);
    await waitForEngineState(page, 'selection-count', '1');
    await page.getByTestId('properties-title').getByText(String(heaviest.cells.name), { exact: true }).waitFor();
    await panel().locator('tbody tr[aria-selected="true"]').waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      panel().getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${MODEL} Plates.csv`);
    const csv = readFileSync((await download.path())!, 'utf8').split('\r\n');
    expect(csv[0]).toBe('Name,Block,Structure type,Thickness [mm],Material,Area [m2],Weight [t]');
    expect(csv).toHaveLength(plates.rows.length + 2); // header, rows, the empty text after the last CRLF
    expect(csv[1].split(',')[0]).toBe(heaviest.cells.name);
    expect(csv[1].endsWith(`,${(heaviest.cells.weight as number).toFixed(3)}`)).toBe(true);
    expect(csv[1]).toContain(`,${((heaviest.cells.thickness as number) * 1000).toFixed(1)},`);
  });

  it('stops shrinking at 500×200, moves, and closes', async () => {
    const grip = (await panel().getByTestId('table-resize').boundingBox())!;
    await page.mouse.move(grip.x + 4, grip.y + 4);
    await page.mouse.down();
    await page.mouse.move(grip.x - 2000, grip.y - 2000, { steps: 4 });
    await page.mouse.up();
    await page.waitForFunction(
      () => Math.round(document.querySelector('[data-testid="table-panel"]')!.getBoundingClientRect().width) === 500,
    );
    const box = (await panel().boundingBox())!;
    expect(box.height).toBe(200);
    await panel().screenshot({ path: path.join(shots, 'panel-min.png') });
    const small = PNG.sync.read(readFileSync(path.join(shots, 'panel-min.png')));
    expect([small.width, small.height]).toEqual([500, 200]);

    const handle = (await panel().getByTestId('table-move').boundingBox())!;
    const [gx, gy] = [handle.x + handle.width / 2, handle.y + handle.height / 2];
    await page.mouse.move(gx, gy);
    await page.mouse.down();
    await page.mouse.move(gx + 40, gy + 30, { steps: 4 });
    await page.mouse.up();
    await page.waitForFunction(
      ([x, y]) => {
        const r = document.querySelector('[data-testid="table-panel"]')!.getBoundingClientRect();
        return Math.round(r.x) === x && Math.round(r.y) === y;
      },
      [Math.round(box.x + 40), Math.round(box.y + 30)],
    );
    // moved, not resized
    const moved = (await panel().boundingBox())!;
    expect([Math.round(moved.width), Math.round(moved.height)]).toEqual([500, 200]);

    await panel().getByRole('button', { name: 'Close table' }).click();
    await panel().waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: 'Table', exact: true }).getAttribute('aria-pressed')).toBe('false');
  });
});
