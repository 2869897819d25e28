/**
 * Colouring by quantities in Chromium against a real server (application.md §4 "Coloring", §8, §9
 * "Legend column order"), at laptop size (1366×768). NAPA-TR03_TC12 (ten plates in seven thicknesses,
 * no compartments) is uploaded through the API. Plates are coloured by thickness; the legend's values
 * and counts are checked against the revision's data read through the API, its order by count, a part's
 * pixel colour against its legend colour (the part named by the properties panel), the selection is
 * cleared by the change, a comment snapshot keeps the colouring and restores it, the thickness view is
 * drawn for a chosen material side, 'Clear' gives the model its colours back, and compartments in a
 * model without them give the spec's info toast. A screenshot of the window with the legend is written
 * to the test's temp directory.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { launchChromium } from './support/chromium';
import { startServer, type RunningServer } from './support/keelsonServer';
import { apiRequest, newLoggedInPage, openViewer, seedSample, shutDown } from './support/seed';
import {
  clickAndWaitForSelection,
  modelPixels,
  waitForCanvasChange,
  waitForEngineState,
  waitForStillCanvas,
} from './support/viewerState';

const MODEL = 'NAPA-TR03_TC12';
const ADMIN = { email: 'colour-admin@yard.example', fullName: 'Cora Colour', password: 'colour-password-1' };

/** Screenshots for a person to look at (the window with the legend). */
const shots = mkdtempSync(path.join(tmpdir(), 'keelson-colouring-'));

let server: RunningServer;
let browser: Browser;
let page: Page;
let token: string;
/** Plates per shown thickness ('12.0 mm'), from the API. */
const expected = new Map<string, number>();

beforeAll(async () => {
  server = await startServer();
  token = await seedSample(server, ADMIN, MODEL);
  const get = async (url: string) => (await apiRequest(server.url, token, 'GET', url)).json();
  const objects = (await get(`/api/keelson-instance/model/objects?modelName=${MODEL}&revision=1`)) as {
    objects: { type: string }[];
  };
  const cols = (await get(`/api/keelson-instance/model/property-columns?modelName=${MODEL}&revision=1&codes=PLTH`)) as {
    columns: { PLTH: (number | null)[] };
  };
  objects.objects.forEach((o, i) => {
    const t = cols.columns.PLTH[i];
    if (o.type !== 'PLATE' || typeof t !== 'number') return;
    const label = `${(t * 1000).toFixed(1)} mm`;
    expected.set(label, (expected.get(label) ?? 0) + 1);
  });
  browser = await launchChromium();
  page = await newLoggedInPage(browser, token, { viewport: { width: 1366, height: 768 } });
  page.setDefaultTimeout(20_000);
  await openViewer(page, server.url, MODEL, true);
});

afterAll(() => shutDown(server, browser));

const menuButton = () => page.getByRole('button', { name: 'Coloring', exact: true });
const panel = () => page.getByLabel('Coloring settings', { exact: true });
const legend = () => page.getByTestId('colour-legend');

async function openMenu(): Promise<void> {
  if (!(await panel().isVisible())) await menuButton().click();
  await panel().waitFor();
}
async function closeMenu(): Promise<void> {
  await menuButton().click();
  await panel().waitFor({ state: 'detached' });
}

type Rgb = [number, number, number];
const hue = ([r, g, b]: Rgb): number => {
  const max = Math.max(r, g, b),
    min = Math.min(r, g, b);
  if (max === min) return 0;
  const d = max - min;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
};
const hueDistance = (a: number, b: number) => Math.min(Math.abs(a - b), 360 - Math.abs(a - b));
const fromHex = (h: string): Rgb => [1, 3, 5].map((i) => Number.parseInt(h.slice(i, i + 2), 16)) as Rgb;

/** The canvas pixel (CSS px on the page) of a picture, as RGB. */
async function pixelAt(shot: Buffer, x: number, y: number): Promise<Rgb> {
  const box = (await page.getByTestId('viewer-canvas').boundingBox())!;
  const png = PNG.sync.read(shot);
  const s = png.width / box.width;
  const i = (Math.round((y - box.y) * s) * png.width + Math.round((x - box.x) * s)) * 4;
  return [png.data[i], png.data[i + 1], png.data[i + 2]];
}

/** Model points whose 7×7 neighbourhood is one saturated colour (a coloured part's face). */
async function colouredPoints(shot: Buffer): Promise<Array<[number, number]>> {
  const out: Array<[number, number]> = [];
  for (const [x, y] of await modelPixels(page, 200)) {
    const around = await Promise.all([-3, 0, 3].flatMap((dx) => [-3, 0, 3].map((dy) => pixelAt(shot, x + dx, y + dy))));
    const ok = around.every((c) => Math.max(...c) - Math.min(...c) > 50 && Math.max(...c) > 80);
    if (ok && around.every((c) => hueDistance(hue(c), hue(around[0])) < 6)) out.push([x, y]);
    if (out.length >= 5) break;
  }
  return out;
}

describe('colouring by quantities', () => {
  it("every type starts at '-- No colors --'; compartments in a model without them give the info toast", async () => {
    await openMenu();
    for (const t of ['compartments', 'plates', 'stiffeners', 'brackets'])
      expect(await page.getByTestId(`colouring-${t}-summary`).textContent()).toBe('-- No colors --');
    // click, not check(): the choice is undone as soon as the model turns out to have no compartments
    await page.getByTestId('colouring-compartments').getByLabel('Purpose').click();
    await page
      .getByTestId('toast-info')
      .filter({ hasText: "The project doesn't have a compartment arrangement defined" })
      .waitFor();
    await expect.poll(() => page.getByTestId('colouring-compartments-summary').textContent()).toBe('-- No colors --');
    await expect.poll(() => page.getByTestId('colouring-compartments').getByLabel('Purpose').isChecked()).toBe(false);
    expect(await legend().count()).toBe(0);
    await closeMenu();
  });

  it('plates by thickness: clears the selection; the legend shows each thickness with its count, most first', async () => {
    // select a part first: the change must clear it
    const [p] = await modelPixels(page, 1);
    await clickAndWaitForSelection(page, p[0], p[1]);
    await waitForEngineState(page, 'selection-count', '1');
    await openMenu();
    await page.getByTestId('colouring-plates').getByLabel('Thickness').check();
    await legend().waitFor();
    await waitForEngineState(page, 'selection-count', '0');
    expect(await page.getByTestId('colouring-plates-summary').textContent()).toBe('Thickness');
    await closeMenu();
    const columns = legend().getByTestId('legend-column');
    await expect.poll(() => columns.count()).toBe(expected.size);
    const read = await columns.evaluateAll((els) =>
      els.map((e) => ({
        value: e.querySelector('[data-testid="legend-value"]')!.textContent,
        count: Number(e.querySelector('[data-testid="legend-count"]')!.textContent),
        color: e.getAttribute('data-color'),
      })),
    );
    expect(new Map(read.map((c) => [c.value, c.count]))).toEqual(expected);
    for (let i = 1; i < read.length; i++) expect(read[i - 1].count).toBeGreaterThanOrEqual(read[i].count);
    expect(new Set(read.map((c) => c.color)).size).toBe(read.length);
    expect(await legend().getByTestId('legend-quantities').textContent()).toBe('Thickness');
    // readable at 1366×768: inside the window, values at least 12 px
    const box = (await legend().boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(768);
    expect(box.x + box.width).toBeLessThanOrEqual(1366);
    const size = await legend()
      .getByTestId('legend-value')
      .first()
      .evaluate((e) => Number.parseFloat(getComputedStyle(e).fontSize));
    expect(size).toBeGreaterThanOrEqual(12);
    // for a person to look at: the whole window with the legend
    await page.screenshot({ path: path.join(shots, 'legend-1366x768.png') });
  });

  it("a coloured plate's pixels have its thickness' legend colour", async () => {
    const shot = await waitForStillCanvas(page);
    const points = await colouredPoints(shot);
    expect(points.length).toBeGreaterThan(0);
    const [x, y] = points[0];
    const pixel = await pixelAt(shot, x, y);
    await clickAndWaitForSelection(page, x, y);
    await waitForEngineState(page, 'selection-count', '1');
    const thickness = (await page.locator('[data-property="PLTH"] td').textContent())!.trim();
    const column = legend().locator(`[data-testid="legend-column"][data-key="PLTH=${thickness}"]`);
    const colour = fromHex((await column.getAttribute('data-color'))!);
    // shading changes the brightness, not the hue: the legend colour nearest in hue is the part's
    const all = await legend()
      .getByTestId('legend-column')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-color')!));
    const nearest = all.map((h) => ({ h, d: hueDistance(hue(fromHex(h)), hue(pixel)) })).sort((a, b) => a.d - b.d)[0];
    expect(hueDistance(hue(pixel), hue(colour))).toBeLessThan(20);
    expect(fromHex(nearest.h)).toEqual(colour);
    // keep the point for the clear test
    (globalThis as { colouredPoint?: [number, number] }).colouredPoint = [x, y];
  });

  it('a comment snapshot keeps the colouring and clicking it brings the colouring back', async () => {
    const legendOf = () =>
      legend()
        .getByTestId('legend-column')
        .evaluateAll((els) => els.map((e) => `${e.getAttribute('data-key')} ${e.getAttribute('data-count')}`));
    const coloured = await legendOf();
    await page.getByRole('button', { name: 'Comments', exact: true }).click();
    const comments = page.getByTestId('comments-panel');
    await comments.getByRole('button', { name: 'Add Comment' }).click();
    const editor = page.getByTestId('comment-editor');
    await editor.getByLabel('Message').fill('Plates by thickness');
    await editor.getByRole('button', { name: 'Attach snapshot' }).click();
    await editor
      .getByRole('list', { name: 'Draft attachments' })
      .getByText(/^snapshot-.*\.png$/)
      .waitFor();
    await editor.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Comment was posted', { exact: true }).waitFor();
    // colouring off, then the snapshot restores it
    await openMenu();
    await panel().getByRole('button', { name: 'Clear' }).click();
    await legend().waitFor({ state: 'detached' });
    await closeMenu();
    // the new thread may be open already; its chevron says which
    const expand = comments.getByRole('button', { name: 'Expand thread' }).first();
    if (await expand.count()) await expand.click();
    await comments.getByTestId('snapshot-attachment').first().click();
    await legend().waitFor();
    await expect.poll(legendOf).toEqual(coloured);
    await openMenu();
    expect(await page.getByTestId('colouring-plates-summary').textContent()).toBe('Thickness');
    await closeMenu();
    await page.getByRole('button', { name: 'Comments', exact: true }).click();
    await comments.waitFor({ state: 'detached' });
  });

  it('the thickness view is drawn once a material side is chosen and removed with Off', async () => {
    const before = await waitForStillCanvas(page);
    await openMenu();
    await panel().getByLabel('Thickness view: material side').selectOption('ALL');
    const count = page.getByTestId('thickness-view-count');
    await count.waitFor();
    const [drawn] = ((await count.textContent()) ?? '').match(/\d+/) ?? ['0'];
    // every plate with a thickness has a material side the overlay can use in this model
    const plates = [...expected.values()].reduce((a, b) => a + b, 0);
    expect(Number(drawn)).toBeGreaterThanOrEqual(plates);
    await closeMenu();
    await waitForCanvasChange(page, before);
    await openMenu();
    await panel().getByLabel('Thickness view: material side').selectOption('');
    await count.waitFor({ state: 'detached' });
    await closeMenu();
  });

  it('Clear gives every part its own colour back and removes the legend', async () => {
    const [x, y] = (globalThis as { colouredPoint?: [number, number] }).colouredPoint!;
    await openMenu();
    await panel().getByRole('button', { name: 'Clear' }).click();
    await legend().waitFor({ state: 'detached' });
    await waitForEngineState(page, 'selection-count', '0');
    expect(await page.getByTestId('colouring-plates-summary').textContent()).toBe('-- No colors --');
    await closeMenu();
    const shot = await waitForStillCanvas(page);
    const c = await pixelAt(shot, x, y);
    expect(Math.max(...c) - Math.min(...c)).toBeLessThan(30); // steel grey again
  });
});
