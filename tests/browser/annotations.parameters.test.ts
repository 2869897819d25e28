/**
 * Surface-object parameters as dimension lines in Chromium (viewer.md §3 "Annotation
 * settings" parameters, §7 "Geometry" surface-objects, §9 "Drawing"): NAPA-OCX_M8 is uploaded through the
 * API; with Annotations → Parameters on, selecting the bracket B:1K383ZN95W/DECK in the tree asks the
 * server for its surface object and the engine draws one dimension per non-zero parameter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './support/chromium';
import { startServer, type RunningServer } from './support/keelsonServer';
import { newLoggedInPage, openViewer, seedSample, shutDown } from './support/seed';
import { waitForEngineState } from './support/viewerState';

const MODEL = 'NAPA-OCX_M8';
const BRACKET = 'B:1K383ZN95W/DECK';
const ADMIN = { email: 'params-admin@yard.example', fullName: 'Pam Params', password: 'params-password-1' };

let server: RunningServer;
let browser: Browser;
let page: Page;
let token: string;

beforeAll(async () => {
  server = await startServer();
  token = await seedSample(server, ADMIN, MODEL);
  browser = await launchChromium();
  page = await newLoggedInPage(browser, token);
  page.setDefaultTimeout(20_000);
  await openViewer(page, server.url, MODEL);
});

afterAll(() => shutDown(server, browser));

const annotationsButton = () => page.getByRole('button', { name: 'Annotations', exact: true });

async function annotationCount(): Promise<number> {
  await annotationsButton().click();
  const text = (await page.getByTestId('annotation-count').textContent()) ?? '';
  await page.keyboard.press('Escape');
  const m = /^(\d+) annotation\(s\) shown$/.exec(text.trim());
  if (!m) throw new Error(`unexpected annotation count text "${text}"`);
  return Number(m[1]);
}

/**
 * Waits until the engine's annotation count satisfies `ok`, then returns the count the Annotations menu
 * shows (what a person reads).
 */
async function waitForCount(ok: (n: number) => boolean): Promise<number> {
  await waitForEngineState(page, 'annotations', (v) => v !== '' && ok(Number(v)));
  return annotationCount();
}

describe('parameter annotations', () => {
  it('Annotations → Parameters, then selecting a bracket draws its dimension lines (length, radius, angle)', async () => {
    expect(await annotationCount()).toBe(0);
    const isSurfaceCall = (r: { url(): string; request(): { method(): string } }) =>
      r.url().includes('/geometry/surface-objects') && r.request().method() === 'POST';
    // Nothing selected: the visible plates, brackets and holes (up to the cap) are asked for.
    const visible = page.waitForResponse(isSurfaceCall);
    await annotationsButton().click();
    await page.getByRole('checkbox', { name: 'Parameters', exact: true }).check();
    await page.keyboard.press('Escape');
    const all = (await (await visible).json()) as { surfaceObjects: unknown[] };
    expect(all.surfaceObjects.length).toBeGreaterThan(1);
    await waitForCount((n) => n > 0);

    const tree = page.getByTestId('model-tree');
    await tree.getByRole('searchbox').fill(BRACKET);
    const response = page.waitForResponse(async (r) => {
      if (!isSurfaceCall(r)) return false;
      const b = (await r.json()) as { surfaceObjects: Array<{ name: string }> };
      return b.surfaceObjects.length === 1;
    });
    await tree
      .getByRole('option', { name: new RegExp(BRACKET.replace(/[/*]/g, '\\$&')) })
      .first()
      .click();
    const r = await response;
    expect(r.status()).toBe(200);
    const body = (await r.json()) as {
      surfaceObjects: Array<{ name: string; parameters: Array<{ parameterType: string; parameterValue: number }> }>;
    };
    expect(body.surfaceObjects.map((s) => s.name)).toEqual([BRACKET]);
    const params = body.surfaceObjects[0].parameters;
    expect(params.filter((p) => p.parameterType === 'radius').map((p) => Math.round(p.parameterValue * 1000))).toEqual([
      28,
    ]);
    expect(params.some((p) => p.parameterType === 'angle' && Math.round(p.parameterValue) === 90)).toBe(true);

    // One dimension per non-zero parameter (viewer.md §5: a zero parameter draws nothing).
    const expected = params.filter((p) => p.parameterValue !== 0).length;
    expect(expected).toBeGreaterThan(0);
    expect(await waitForCount((n) => n === expected)).toBe(expected);

    // Parameters off: the dimension lines go.
    await annotationsButton().click();
    await page.getByRole('checkbox', { name: 'Parameters', exact: true }).uncheck();
    await page.keyboard.press('Escape');
    expect(await waitForCount((n) => n === 0)).toBe(0);
  });
});
