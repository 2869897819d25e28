/**
 * Shared seeding for browser tests: talk to a running Keelson server's API, register and log in an
 * administrator, upload a sample model, wait for its conversion, and open the viewer in Chromium.
 */
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { samplesDir, type RunningServer } from './keelsonServer';
import { waitForSettledView } from './viewerState';

/** An administrator to register. */
export interface AdminUser {
  email: string;
  fullName: string;
  password: string;
}

/** Calls the API at `baseUrl`; JSON-encodes `body` unless it is FormData; sends `token` as a bearer token. */
export async function apiRequest(
  baseUrl: string,
  token: string | undefined,
  method: string,
  url: string,
  body?: unknown,
): Promise<Response> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  if (body !== undefined && !(body instanceof FormData)) headers['content-type'] = 'application/json';
  return fetch(`${baseUrl}${url}`, {
    method,
    headers,
    body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Registers `admin` as an administrator, logs in and returns the token. */
export async function registerAdmin(baseUrl: string, admin: AdminUser): Promise<string> {
  const reg = await apiRequest(baseUrl, undefined, 'POST', '/api/auth/viewer/default/register', {
    ...admin,
    registerAdmin: true,
  });
  expect(reg.ok).toBe(true);
  const login = (await (
    await apiRequest(baseUrl, undefined, 'POST', '/api/auth/viewer/default/login', {
      email: admin.email,
      password: admin.password,
    })
  ).json()) as { token: string };
  return login.token;
}

/** Uploads the sample `<model>.3docx` from the shared samples directory as a new project. */
export async function uploadSample(baseUrl: string, token: string, model: string): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([readFileSync(path.join(samplesDir, `${model}.3docx`))]), `${model}.3docx`);
  const up = await apiRequest(baseUrl, token, 'POST', '/api/viewer/project/add/project-uploaded', form);
  expect(up.ok).toBe(true);
}

/** Polls the project list until `model` has a revision (conversion finished); throws after `timeoutMs`. */
export async function waitForRevision(
  server: RunningServer,
  token: string,
  model: string,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const models = (await (await apiRequest(server.url, token, 'GET', '/api/viewer/project/models')).json()) as Array<{
      name: string;
      revisions: unknown[];
    }>;
    if (models.find((m) => m.name === model)?.revisions.length) break;
    if (Date.now() > deadline) throw new Error(`conversion of ${model} did not finish:\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Registers `admin`, uploads `model` and waits for its conversion; returns the admin's token. */
export async function seedSample(server: RunningServer, admin: AdminUser, model: string): Promise<string> {
  const token = await registerAdmin(server.url, admin);
  await uploadSample(server.url, token, model);
  await waitForRevision(server, token, model);
  return token;
}

/** A new 1400×900 page whose localStorage carries `token` (the UI's login), logging page errors. */
export async function newLoggedInPage(
  browser: Browser,
  token: string,
  options: BrowserContextOptions = {},
): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, ...options });
  await context.addInitScript((t) => localStorage.setItem('keelson.token', t), token);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('[pageerror]', e.message));
  return page;
}

/** On the start page: Add project, picks `file`, names the project `name` and presses Add. */
export async function submitAddProject(page: Page, file: string, name: string): Promise<void> {
  await page.getByRole('button', { name: 'Add project' }).click();
  await page.locator('input[type="file"]').setInputFiles(file);
  await page.getByLabel('Project name').fill(name);
  await page.getByRole('button', { name: 'Add', exact: true }).click();
}

/**
 * Opens the viewer on `model` and waits until it is ready; with `settle`, also until the initial orbit and
 * fit of viewer.md §4 are set and drawn (the picture stands still).
 */
export async function openViewer(page: Page, baseUrl: string, model: string, settle = false): Promise<void> {
  await page.goto(`${baseUrl}/${model}`);
  await page.locator('[data-viewer-phase="ready"]').waitFor({ timeout: 120_000 });
  if (settle) await waitForSettledView(page);
}

/** afterAll clean-up: prints the server log when KEELSON_TEST_LOG is set, closes Chromium, stops the server. */
export async function shutDown(server: RunningServer | undefined, browser: Browser | undefined): Promise<void> {
  if (process.env.KEELSON_TEST_LOG) console.log(server?.output());
  await browser?.close();
  await server?.stop();
}
