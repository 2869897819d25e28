/**
 * interaction in Chromium against a real server (viewer.md §2 context menu, scene-graph panel,
 * rendering statistics, model tree search; §4 selection, view action history, projection, walk mode).
 * A small sample (NAPA-TR03_TC11: 4 panels, 4 plates, 38 stiffeners) is uploaded through the API first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchChromium } from './support/chromium';
import { startServer, type RunningServer } from './support/keelsonServer';
import { apiRequest, newLoggedInPage, openViewer, seedSample, shutDown } from './support/seed';
import {
  clickAndWaitForSelection,
  engineState,
  modelPixels,
  waitForCanvasChange,
  waitForEngineState,
  waitForStillCanvas,
} from './support/viewerState';

const MODEL = 'NAPA-TR03_TC11';
const ADMIN = { email: 'viewer-admin@yard.example', fullName: 'Vera Viewer', password: 'viewer-password-1' };

let server: RunningServer;
let browser: Browser;
let page: Page;
let token: string;

const api = (method: string, url: string, body?: unknown) => apiRequest(server.url, token, method, url, body);

beforeAll(async () => {
  server = await startServer();
  token = await seedSample(server, ADMIN, MODEL);
  browser = await launchChromium();
  page = await newLoggedInPage(browser, token);
  await openViewer(page, server.url, MODEL, true);
});

afterAll(() => shutDown(server, browser));

async function canvasBox() {
  return (await page.getByTestId('viewer-canvas').boundingBox())!;
}

const menu = () => page.getByTestId('context-menu');
const item = (name: string | RegExp) => menu().getByRole('menuitem', { name });

async function openMenuAt(x: number, y: number): Promise<void> {
  await page.mouse.click(x, y, { button: 'right' });
  await menu().waitFor();
}

/** Clicks where the model is drawn until one object is selected; returns the point and the properties title. */
async function selectSomething(): Promise<{ x: number; y: number; title: string }> {
  const title = page.getByTestId('properties-title');
  for (const [x, y] of await modelPixels(page, 12)) {
    await clickAndWaitForSelection(page, x, y);
    if ((await engineState(page, 'selection-count')) === '1') {
      await title.waitFor();
      const t = (await title.textContent()) ?? '';
      if (!/objects selected/.test(t)) return { x, y, title: t };
    }
  }
  throw new Error('no object could be picked');
}

/** Waits until the element that has the focus shows `text`. */
async function waitForFocusOn(text: string): Promise<void> {
  await page.waitForFunction((t) => document.activeElement?.textContent?.trim() === t, text);
}

describe('viewer interaction', () => {
  it('right-click opens the context menu with its entries; Escape closes it', async () => {
    await page.keyboard.press('Escape');
    const box = await canvasBox();
    await page.mouse.click(box.x + 30, box.y + box.height - 120); // empty space: clears the selection
    await openMenuAt(box.x + box.width / 2, box.y + box.height / 2);
    await expect(item('Undo')).toHaveAttributeValue('aria-disabled', 'true');
    await expect(item('Redo')).toHaveAttributeValue('aria-disabled', 'true');
    await item('Fit to window').waitFor();
    await item('Projection').waitFor();
    expect(await item('Hide objects').count()).toBe(0);
    expect(await item(/annotation|marker|Clip to section/).count()).toBe(0);
    // Keyboard: focus starts on the first enabled entry; Right opens the submenu, Escape closes it.
    const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    await waitForFocusOn('Fit to window');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toMatch(/^Projection/);
    await page.keyboard.press('ArrowRight');
    await waitForFocusOn('View along X');
    await page.keyboard.press('Escape');
    await menu().getByRole('menu', { name: 'Projection' }).waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
    await menu().waitFor({ state: 'detached' });
  });

  it("tree checkboxes record 'Hide objects' / 'Show objects' view actions", async () => {
    const tree = page.getByTestId('model-tree');
    const root = tree.getByRole('checkbox', { name: `Show Structures (${MODEL})` });
    await root.click();
    // The 200 ms debounce closes the action: the engine then names it for Undo.
    await waitForEngineState(page, 'undo', 'Hide objects');
    expect(await root.isChecked()).toBe(false);
    const box = await canvasBox();
    await openMenuAt(box.x + box.width / 2, box.y + box.height / 2);
    await item('Undo Hide objects').waitFor();
    await expect(item('Redo')).toHaveAttributeValue('aria-disabled', 'true');
    await page.keyboard.press('Escape');
    await root.click();
    await waitForEngineState(page, 'undo', 'Show objects');
    expect(await root.isChecked()).toBe(true);
    await openMenuAt(box.x + box.width / 2, box.y + box.height / 2);
    await item('Undo Show objects').waitFor();
    await page.keyboard.press('Escape');
  });

  it('Hide objects hides the selection, Undo brings it back and Redo names the action', async () => {
    const picked = await selectSomething();
    await openMenuAt(picked.x, picked.y);
    await item('Hide objects').click();
    await menu().waitFor({ state: 'detached' });
    // The selection is cleared and the object no longer answers a click at the same point.
    await page.getByTestId('properties-panel').waitFor({ state: 'detached' });
    await clickAndWaitForSelection(page, picked.x, picked.y);
    const after = page.getByTestId('properties-title');
    if (await after.count()) expect(await after.textContent()).not.toBe(picked.title);
    await page.keyboard.press('Escape');
    await openMenuAt(picked.x, picked.y);
    await expect(item('Undo Hide objects')).toHaveAttributeValue('aria-disabled', 'false');
    await item('Undo Hide objects').click();
    await page.mouse.click(picked.x, picked.y);
    await expect(page.getByTestId('properties-title')).toHaveTextValue(picked.title);
    await openMenuAt(picked.x, picked.y);
    await item('Redo Hide objects').waitFor();
    await page.keyboard.press('Escape');
  });

  it('View along Z animates the camera', async () => {
    const box = await canvasBox();
    const before = await waitForStillCanvas(page);
    // Every camera view the UI is told about, recorded in the page as it happens.
    await page.evaluate(() => {
      const el = document.querySelector('[data-testid="engine-state"]')!;
      const seen = [el.getAttribute('data-camera') ?? ''];
      (window as unknown as { cameraSeen: string[] }).cameraSeen = seen;
      new MutationObserver(() => {
        const v = el.getAttribute('data-camera') ?? '';
        if (v !== seen.at(-1)) seen.push(v);
      }).observe(el, { attributes: true, attributeFilter: ['data-camera'] });
    });
    await openMenuAt(box.x + box.width / 2, box.y + box.height / 2);
    await item('Projection').hover();
    await item('View along Z').click();
    await menu().waitFor({ state: 'detached' });
    // The camera reaches the Z view (longitude 90, latitude -90) and the picture changed.
    await waitForEngineState(page, 'camera', '90.0,-90.0');
    const end = await waitForStillCanvas(page);
    expect(end.equals(before)).toBe(false);
    // Views on the way between the start and the end: an animation, not a jump.
    const seen = await page.evaluate(() => (window as unknown as { cameraSeen: string[] }).cameraSeen);
    expect(seen.at(-1)).toBe('90.0,-90.0');
    expect(seen.length, seen.join(' → ')).toBeGreaterThanOrEqual(3);
  });

  it('Ctrl+Alt+S opens the scene-graph panel with node ids, types and a property table', async () => {
    await page.getByTestId('viewer-canvas').focus();
    await page.keyboard.press('Control+Alt+KeyS');
    const panel = page.getByTestId('scene-graph-panel');
    await panel.waitFor();
    // The spec's root node (viewer.md §3 "Scene tree node names"), not the renderer's scene.
    await panel.getByText('Models', { exact: true }).first().waitFor();
    await panel.getByRole('button', { name: 'Refresh' }).click();
    await panel.getByRole('tree').getByRole('treeitem').first().getByRole('button').nth(1).click();
    const props = panel.getByTestId('scene-node-properties');
    await props.getByText('Name').first().waitFor();
    expect(await panel.getByRole('checkbox').count()).toBeGreaterThan(0);
    await page.keyboard.press('Control+Alt+KeyS');
    await panel.waitFor({ state: 'detached' });
  });

  it('Ctrl+Alt+R shows rendering statistics with triangles > 0', async () => {
    await page.keyboard.press('Control+Alt+KeyR');
    const stats = page.getByTestId('render-stats');
    const triangles = stats.locator('[data-stat="Triangles"] td');
    await triangles.waitFor();
    await page.waitForFunction(
      () => Number((document.querySelector('[data-stat="Triangles"] td')?.textContent ?? '0').replace(/,/g, '')) > 0,
    );
    await stats.locator('[data-stat="FPS"]').waitFor();
    await stats.locator('[data-stat="Geometry memory"]').waitFor();
    await page.keyboard.press('Control+Alt+KeyR');
    await stats.waitFor({ state: 'detached' });
  });

  it('Shift+drag right-to-left draws a dashed box and selects several objects', async () => {
    await page.getByTestId('viewer-canvas').focus();
    await page.keyboard.press('Escape');
    const box = await canvasBox();
    const x0 = box.x + box.width * 0.9;
    const y0 = box.y + box.height * 0.2;
    await page.keyboard.down('Shift');
    await page.mouse.move(x0, y0);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5, { steps: 5 });
    await page.mouse.move(box.x + box.width * 0.1, box.y + box.height * 0.85, { steps: 5 });
    const rect = page.getByTestId('selection-box');
    await rect.waitFor();
    expect(await rect.getAttribute('data-mode')).toBe('touch');
    expect(await rect.evaluate((el) => getComputedStyle(el).borderStyle)).toBe('dashed');
    expect(await rect.evaluate((el) => getComputedStyle(el).backgroundColor)).toMatch(/0\.2\)$/);
    await page.mouse.up();
    await page.keyboard.up('Shift');
    await rect.waitFor({ state: 'detached' });
    const title = page.getByTestId('properties-title');
    await expect(title).toHaveTextValue(/^\d+ objects selected$/);
    expect(Number(/^(\d+)/.exec((await title.textContent())!)![1])).toBeGreaterThan(1);
  });

  it('walk mode toggles from the bottom-left toolbar and moves with w', async () => {
    const walk = page.getByRole('button', { name: 'Walk mode' });
    await walk.click();
    await page.locator('[data-walk-mode="true"]').waitFor();
    const before = await waitForStillCanvas(page);
    await page.getByTestId('viewer-canvas').focus();
    for (let i = 0; i < 5; i++) await page.keyboard.press('w');
    // Walking forward changes the picture.
    await waitForCanvasChange(page, before);
    await walk.click();
    await page.locator('[data-walk-mode="false"]').waitFor();
  });

  it("the tree search shows 'Search result: N object(s)' and 'No results found'", async () => {
    const objects = (await (await api('GET', `/api/keelson-instance/model/objects?modelName=${MODEL}`)).json()) as {
      objects: Array<{ name: string; id: string }>;
    };
    const query = objects.objects[objects.objects.length - 1].name.slice(0, 4);
    const expected = objects.objects.filter((o) =>
      `${o.name}\u0000${o.id}`.toLowerCase().includes(query.toLowerCase()),
    ).length;
    const tree = page.getByTestId('model-tree');
    await tree.getByRole('searchbox').fill(query);
    await expect(tree.getByTestId('search-summary')).toHaveTextValue(`Search result: ${expected} object(s)`);
    await tree.getByRole('checkbox', { name: 'Select all' }).click();
    await expect(page.getByTestId('properties-title')).toHaveTextValue(
      expected === 1 ? /./ : `${expected} objects selected`,
    );
    await tree.getByRole('searchbox').fill('no-such-object-xyz');
    await expect(tree.getByTestId('search-summary')).toHaveTextValue('No results found');
    await tree.getByRole('searchbox').fill('');
    await tree.getByText(`Structures (${MODEL})`).waitFor();
  });
});

// Small polling assertions on locators (vitest's expect has no Playwright matchers).
declare module 'vitest' {
  interface Assertion {
    toHaveAttributeValue(name: string, value: string): Promise<void>;
    toHaveTextValue(text: string | RegExp): Promise<void>;
  }
}
expect.extend({
  async toHaveAttributeValue(received: Locator, name: string, value: string) {
    let last: string | null = null;
    const end = Date.now() + 5000;
    while (Date.now() < end) {
      last = await received.getAttribute(name, { timeout: 5000 }).catch(() => null);
      if (last === value) return { pass: true, message: () => `attribute ${name} is ${value}` };
      await new Promise((r) => setTimeout(r, 100));
    }
    return { pass: false, message: () => `expected attribute ${name}="${value}", got ${JSON.stringify(last)}` };
  },
  async toHaveTextValue(received: Locator, text: string | RegExp) {
    let last: string | null = null;
    const end = Date.now() + 8000;
    while (Date.now() < end) {
      last = (await received.count()) ? await received.first().textContent() : null;
      if (last !== null && (typeof text === 'string' ? last === text : text.test(last)))
        return { pass: true, message: () => `text matches` };
      await new Promise((r) => setTimeout(r, 100));
    }
    return { pass: false, message: () => `expected text ${String(text)}, got ${JSON.stringify(last)}` };
  },
});
