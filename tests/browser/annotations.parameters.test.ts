/**
 * Surface-object parameters as dimension lines in Chromium (issue 5 item 7; viewer.md §3 "Annotation
 * settings" parameters, §7 "Geometry" surface-objects, §9 "Drawing"): NAPA-OCX_M8 is uploaded through the
 * API; with Annotations → Parameters on, selecting the bracket B:1K383ZN95W/DECK in the tree asks the
 * server for its surface object and the engine draws one dimension per non-zero parameter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './support/chromium';
import { samplesDir, startServer, type RunningServer } from './support/keelsonServer';

const MODEL = 'NAPA-OCX_M8';
const BRACKET = 'B:1K383ZN95W/DECK';
const ADMIN = { email: 'params-admin@yard.example', fullName: 'Pam Params', password: 'params-password-1' };

let server: RunningServer;
let browser: Browser;
let page: Page;
let token: string;

async function api(method: string, url: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  if (body !== undefined && !(body instanceof FormData)) headers['content-type'] = 'application/json';
  return fetch(`${server.url}${url}`, { method, headers, body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body) });
}

beforeAll(async () => {
  server = await startServer();
  expect((await api('POST', '/api/auth/viewer/default/register', { ...ADMIN, registerAdmin: true })).ok).toBe(true);
  token = ((await (await api('POST', '/api/auth/viewer/default/login', { email: ADMIN.email, password: ADMIN.password })).json()) as { token: string }).token;
  const form = new FormData();
  form.append('file', new Blob([readFileSync(path.join(samplesDir, `${MODEL}.3docx`))]), `${MODEL}.3docx`);
  expect((await api('POST', '/api/viewer/project/add/project-uploaded', form)).ok).toBe(true);
  const deadline = Date.now() + 120_000;
  for (;;) {
    const models = (await (await api('GET', '/api/viewer/project/models')).json()) as Array<{ name: string; revisions: unknown[] }>;
    if (models.find((m) => m.name === MODEL)?.revisions.length) break;
    if (Date.now() > deadline) throw new Error(`conversion of ${MODEL} did not finish:\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.addInitScript((t) => localStorage.setItem('keelson.token', t), token);
  page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.on('pageerror', (e) => console.error('[pageerror]', e.message));
  await page.goto(`${server.url}/${MODEL}`);
  await page.locator('[data-viewer-phase="ready"]').waitFor({ timeout: 120_000 });
});

afterAll(async () => {
  if (process.env.KEELSON_TEST_LOG) console.log(server?.output());
  await browser?.close();
  await server?.stop();
});

const annotationsButton = () => page.getByRole('button', { name: 'Annotations', exact: true });

async function annotationCount(): Promise<number> {
  await annotationsButton().click();
  const text = (await page.getByTestId('annotation-count').textContent()) ?? '';
  await page.keyboard.press('Escape');
  const m = /^(\d+) annotation\(s\) shown$/.exec(text.trim());
  if (!m) throw new Error(`unexpected annotation count text "${text}"`);
  return Number(m[1]);
}

/** Polls the count shown in the Annotations menu until `ok` holds (10 s); returns the last count. */
async function waitForCount(ok: (n: number) => boolean): Promise<number> {
  const end = Date.now() + 10_000;
  let n = await annotationCount();
  while (!ok(n) && Date.now() < end) {
    await page.waitForTimeout(250);
    n = await annotationCount();
  }
  return n;
}

describe('parameter annotations (issue 5 item 7)', () => {
  it('Annotations → Parameters, then selecting a bracket draws its dimension lines (length, radius, angle)', async () => {
    expect(await annotationCount()).toBe(0);
    const isSurfaceCall = (r: { url(): string; request(): { method(): string } }) => r.url().includes('/geometry/surface-objects') && r.request().method() === 'POST';
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
    await tree.getByRole('option', { name: new RegExp(BRACKET.replace(/[/*]/g, '\\$&')) }).first().click();
    const r = await response;
    expect(r.status()).toBe(200);
    const body = (await r.json()) as { surfaceObjects: Array<{ name: string; parameters: Array<{ parameterType: string; parameterValue: number }> }> };
    expect(body.surfaceObjects.map((s) => s.name)).toEqual([BRACKET]);
    const params = body.surfaceObjects[0].parameters;
    expect(params.filter((p) => p.parameterType === 'radius').map((p) => Math.round(p.parameterValue * 1000))).toEqual([28]);
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
