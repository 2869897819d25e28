/**
 * Revision comparison in Chromium against a real server (application.md §4 "Revision comparison", §9
 * "Comparison"; viewer.md §2 properties panel comparison column). A generated ship is uploaded as revision
 * 1; a plate the default view shows is found by clicking; revision 2 is the same ship with known edits
 * (tools/generator/shipEdits.ts): that plate 4 mm thicker, a copy of it beside it (added), another plate
 * left out (removed). Starting the comparison paints the added plate light blue and the changed one green
 * (checked by pixel), the properties panel reads the thickness change (and its table's 'Rev. 1' column the
 * earlier thickness), stopping restores the colours.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { type ShipEdit, type ShipOptions, writeShipOcx } from '../../tools/generator';
import { launchChromium } from './support/chromium';
import { startServer, type RunningServer } from './support/keelsonServer';
import { apiRequest, newLoggedInPage, openViewer, registerAdmin, shutDown } from './support/seed';
import {
  clickAndWaitForSelection,
  engineState,
  modelPixels,
  waitForCanvasChange,
  waitForStillCanvas,
} from './support/viewerState';

const MODEL = 'COMPARESHIP';
const ADMIN = { email: 'compare-admin@yard.example', fullName: 'Carl Compare', password: 'compare-password-1' };
const SHIP: ShipOptions = { targetParts: 1000, seed: 11, compartments: false };

let server: RunningServer;
let browser: Browser;
let page: Page;
let token: string;
let dir: string;

interface ApiObject {
  index: number;
  name: string;
  type: string;
  bounds: number[] | null;
}

const api = (method: string, url: string, body?: unknown) => apiRequest(server.url, token, method, url, body);

/** Writes the ship (with `edits`) and uploads it as the next revision of MODEL; waits for its conversion. */
async function uploadRevision(edits: ShipEdit[], revisions: number): Promise<void> {
  const file = path.join(dir, `${MODEL}-${revisions}.3docx`);
  await writeShipOcx(file, { ...SHIP, edits });
  const form = new FormData();
  form.append('file', new Blob([readFileSync(file)]), `${MODEL}.3docx`);
  const up = await api('POST', `/api/viewer/project/add/project-uploaded?projectName=${MODEL}`, form);
  expect(up.status).toBe(200);
  const deadline = Date.now() + 180_000;
  for (;;) {
    const models = (await (await api('GET', '/api/viewer/project/models')).json()) as {
      name: string;
      revisions: unknown[];
    }[];
    if ((models.find((m) => m.name === MODEL)?.revisions.length ?? 0) >= revisions) return;
    if (Date.now() > deadline) throw new Error(`revision ${revisions} did not convert:\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Counts canvas pixels of the comparison colours, shaded by the lights: light blue (added) and green (changed). */
function comparisonPixels(png: Buffer): { added: number; changed: number } {
  const img = PNG.sync.read(png);
  let added = 0,
    changed = 0;
  for (let i = 0; i < img.data.length; i += 4) {
    const [r, g, b] = [img.data[i], img.data[i + 1], img.data[i + 2]];
    if (r < 60 && b > 120 && g > 0.55 * b && g < 0.95 * b) added++;
    else if (r < 70 && g > 120 && b < 70) changed++;
  }
  return { added, changed };
}

/** Page point of a pixel of the changed colour (CSS px), the pixel nearest the canvas centre. */
async function changedPixel(): Promise<[number, number]> {
  const canvas = page.getByTestId('viewer-canvas');
  const box = (await canvas.boundingBox())!;
  const img = PNG.sync.read(await canvas.screenshot());
  const scale = img.width / box.width;
  let best: [number, number, number] | null = null;
  const isGreen = (x: number, y: number) => {
    const i = (y * img.width + x) * 4;
    return img.data[i] < 70 && img.data[i + 1] > 120 && img.data[i + 2] < 70;
  };
  for (let y = 2; y < img.height - 2; y++)
    for (let x = 2; x < img.width - 2; x++) {
      if (!(isGreen(x, y) && isGreen(x - 2, y) && isGreen(x + 2, y) && isGreen(x, y - 2) && isGreen(x, y + 2)))
        continue;
      const d = (x - img.width / 2) ** 2 + (y - img.height / 2) ** 2;
      if (!best || d < best[2]) best = [x, y, d];
    }
  if (!best) throw new Error('no pixel of the changed colour');
  return [box.x + best[0] / scale, box.y + best[1] / scale];
}

/**
 * Moves the pointer off the canvas (hover tints a part in the selection colour, close to the added colour)
 * and waits for the still picture.
 */
async function stillWithoutHover(): Promise<Buffer> {
  await closeSettings();
  await page.mouse.move(1, 1);
  return waitForStillCanvas(page);
}

/** Closes the comparison settings menu (its colour key and button would count as painted pixels). */
async function closeSettings(): Promise<void> {
  if (await page.getByTestId('comparison-toggle').isVisible()) await page.getByTitle('Comparison settings').click();
  await page.getByTestId('comparison-toggle').waitFor({ state: 'detached' });
}

/** Opens the comparison settings menu unless it is open. */
async function openSettings(): Promise<void> {
  if (!(await page.getByTestId('comparison-toggle').isVisible())) await page.getByTitle('Comparison settings').click();
  await page.getByTestId('comparison-toggle').waitFor();
}

/** Where the changed plate was clicked (page CSS px). */
let changedAt: [number, number];
/** Pixels of the comparison hues before comparing. */
let baseline: { added: number; changed: number };
/** The changed plate: its name and thickness (m) in revision 1. */
let changed: { name: string; thicknessM: number };

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'keelson-compare-browser-'));
  server = await startServer();
  token = await registerAdmin(server.url, ADMIN);
  await uploadRevision([], 1);
  const objects = (
    (await (await api('GET', `/api/keelson-instance/model/objects?modelName=${MODEL}&revision=1`)).json()) as {
      objects: ApiObject[];
    }
  ).objects;
  const plth = (
    (await (
      await api('GET', `/api/keelson-instance/model/property-columns?modelName=${MODEL}&revision=1&codes=PLTH`)
    ).json()) as { columns: { PLTH: (number | null)[] } }
  ).columns.PLTH;
  browser = await launchChromium();
  page = await newLoggedInPage(browser, token);
  page.setDefaultTimeout(30_000);
  await openViewer(page, server.url, MODEL, true);
  // A flat plate the default view shows: click the model from the centre outwards.
  const title = page.getByTestId('properties-title');
  let edits: ShipEdit[] | null = null;
  for (const [x, y] of await modelPixels(page, 30)) {
    await clickAndWaitForSelection(page, x, y);
    if ((await engineState(page, 'selection-count')) !== '1') continue;
    const name = (await title.textContent()) ?? '';
    const plate = objects.find((o) => o.name === name && o.type === 'PLATE');
    const t = plate ? plth[plate.index] : null;
    if (!plate?.bounds || typeof t !== 'number') continue;
    // The copy sits beside the plate, shifted by its larger in-plane extent.
    const ext = [0, 1, 2].map((a) => plate.bounds![a + 3] - plate.bounds![a]);
    const flat = ext.indexOf(Math.min(...ext));
    const along = [0, 1, 2].filter((a) => a !== flat).sort((a, b) => ext[b] - ext[a])[0];
    const offset: [number, number, number] = [0, 0, 0];
    offset[along] = ext[along];
    const removed = objects.find((o) => o.type === 'PLATE' && o.name !== name && typeof plth[o.index] === 'number');
    const candidate: ShipEdit[] = [
      { kind: 'thickness', part: name, thicknessMm: Math.round(t * 1000) + 4 },
      { kind: 'add', copyOf: name, name: 'P:NEW/COMPARE', id: 'plcompare1', offset },
      { kind: 'remove', part: removed!.name },
    ];
    try {
      await writeShipOcx(path.join(dir, 'probe.3docx'), { ...SHIP, edits: candidate });
    } catch {
      continue; // a curved plate cannot be copied: try the next one
    }
    edits = candidate;
    changed = { name, thicknessM: t };
    break;
  }
  if (!edits) throw new Error('no flat plate found in the default view');
  await uploadRevision(edits, 2);
  await openViewer(page, server.url, MODEL, true);
}, 600_000);

afterAll(async () => {
  await shutDown(server, browser);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('revision comparison (application.md §4)', () => {
  it('offers the earlier revisions newest first, the current one disabled', async () => {
    await openSettings();
    const select = page.getByLabel('Earlier revision');
    expect(await select.inputValue()).toBe('1');
    const options = await select
      .locator('option')
      .evaluateAll((os) => os.map((o) => `${o.textContent}${(o as HTMLOptionElement).disabled ? ' disabled' : ''}`));
    expect(options).toEqual(['Rev. 2 (current) disabled', 'Rev. 1']);
    expect(await page.getByTestId('comparison-toggle').textContent()).toBe('Start comparison');
  });

  it('paints the added plate light blue and the changed plate green, and reads the change', async () => {
    const before = await stillWithoutHover();
    // Pixels of those hues before comparing (interface overlays over the canvas, if any).
    baseline = comparisonPixels(before);
    await openSettings();
    await page.getByTestId('comparison-toggle').click();
    await page.getByRole('button', { name: 'Stop comparison' }).waitFor({ timeout: 120_000 });
    await waitForCanvasChange(page, before);
    const shot = await stillWithoutHover();
    const px = comparisonPixels(shot);
    expect(px.added).toBeGreaterThan(baseline.added + 50);
    expect(px.changed).toBeGreaterThan(baseline.changed + 50);
    // The summary counts the edits per type.
    const plates = page.getByTestId('comparison-summary').locator('tr[data-type="PLATE"] td');
    expect(await plates.allTextContents()).toEqual(['1', '1', '1', expect.any(String), '0']);
    await openSettings();
    expect(await page.getByTestId('comparison-key').locator('li').allTextContents()).toEqual([
      'Added1',
      'Changed1',
      'Removed (ghosts)1',
    ]);
    await closeSettings();
    changedAt = await changedPixel();
    await clickAndWaitForSelection(page, ...changedAt);
    expect(await page.getByTestId('properties-title').textContent()).toBe(changed.name);
    const comparison = page.getByTestId('properties-comparison');
    await comparison.waitFor();
    expect(await comparison.getByRole('columnheader').allTextContents()).toEqual([
      'Changed',
      'Rev. 2 (current)',
      'Rev. 1',
    ]);
    const mm = changed.thicknessM * 1000;
    expect(
      await comparison.locator('[data-compare-property="thickness"] [data-testid="compare-change"]').textContent(),
    ).toBe(`${mm.toFixed(1)} → ${(Math.round(mm) + 4).toFixed(1)} mm`);
    // the properties table's comparison column: the earlier thickness, '=' where nothing changed
    const props = page.getByTestId('properties-panel');
    await props.locator('[data-property="PLTH"] [data-compare-from]').waitFor();
    expect(await props.locator('table').first().locator('thead th').allTextContents()).toEqual([
      '',
      'Rev. 2 (current)',
      'Rev. 1',
    ]);
    expect(await props.locator('[data-property="PLTH"] [data-compare-from]').textContent()).toBe(`${mm.toFixed(1)} mm`);
    expect(await props.locator('[data-property="NAME"] [data-compare-from]').textContent()).toBe('=');
  });

  it('stopping restores the model’s own colours', async () => {
    // Ctrl+click toggles the changed plate out of the selection (its tint is close to the added colour).
    expect(await engineState(page, 'selection-count')).toBe('1');
    await page.keyboard.down('Control');
    await clickAndWaitForSelection(page, ...changedAt);
    await page.keyboard.up('Control');
    expect(await engineState(page, 'selection-count')).toBe('0');
    const on = await stillWithoutHover();
    expect(comparisonPixels(on).changed).toBeGreaterThan(baseline.changed + 50);
    await openSettings();
    await page.getByTestId('comparison-toggle').click();
    await page.getByRole('button', { name: 'Start comparison' }).waitFor();
    await waitForCanvasChange(page, on);
    expect(comparisonPixels(await stillWithoutHover())).toEqual(baseline);
    await page.getByTestId('properties-comparison').waitFor({ state: 'detached' });
  });
});
