/**
 * Defects found when Keelson was tried as a new user would, each reproduced in Chromium against a real
 * server (issue "The admin area and the rest of the application shell" §4):
 * D1 the error view kept a wrong password's refusal; D2 an unknown model or revision said 'calculation
 * service unavailable' and entered Recent; D3 Remove was offered on someone else's failed conversion;
 * D4 a forced password change was not enforced by the route guard; D5 no Cancel while the file uploads.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversionStatus, type Model, type ModelConversion } from '../../api/contract';
import { writeCadShip } from '../support/cadShip';
import { launchChromium } from './support/chromium';
import { samplesDir, startServer, type RunningServer } from './support/keelsonServer';
import { type LineProxy, startLineProxy } from './support/lineProxy';
import { startSlowUpload } from '../api/slowUpload';
import { apiRequest, newLoggedInPage, seedSample, shutDown, submitAddProject } from './support/seed';

const MODEL = 'NAPA-OCX_M1';
const READER = { email: 'reader@other.org', fullName: 'Rita Reader', password: 'reader-password' };

let server: RunningServer;
let browser: Browser;
let admin: string;

async function loginToken(email: string, password: string): Promise<string> {
  const r = await apiRequest(server.url, undefined, 'POST', '/api/auth/viewer/default/login', { email, password });
  const text = await r.text();
  expect(r.status, text).toBe(200);
  return (JSON.parse(text) as { token: string }).token;
}

/** Records in the page whether a button named `name` ever appeared inside the card of `project`. */
async function watchForButton(page: Page, project: string, name: string): Promise<void> {
  await page.evaluate(
    ([p, n]) => {
      const w = window as unknown as { sawButton: boolean };
      w.sawButton = false;
      const check = () => {
        const card = document.querySelector(`[data-testid="project-card-${p}"]`);
        if (card && [...card.querySelectorAll('button')].some((b) => b.textContent?.trim() === n)) w.sawButton = true;
      };
      new MutationObserver(check).observe(document.body, { subtree: true, childList: true, characterData: true });
    },
    [project, name] as const,
  );
}
const sawButton = (page: Page) => page.evaluate(() => (window as unknown as { sawButton: boolean }).sawButton);

beforeAll(async () => {
  server = await startServer();
  admin = await seedSample(server, { email: 'admin@yard.com', fullName: 'Ada Admin', password: 'admin-pw-12' }, MODEL);
  const reg = await apiRequest(server.url, undefined, 'POST', '/api/auth/viewer/default/register', READER);
  expect(reg.status).toBe(200);
  const grant = await apiRequest(
    server.url,
    admin,
    'PATCH',
    `/api/default/viewer/users?email=${encodeURIComponent(READER.email)}`,
    { permissions: [`project:${MODEL}`] },
  );
  expect(grant.status, await grant.text()).toBe(200);
  browser = await launchChromium();
});

afterAll(async () => {
  await shutDown(server, browser);
});

describe('D1: the error view after a wrong password', () => {
  it('does not keep showing the refusal', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await page.getByLabel('E-mail').fill(READER.email);
    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByText('Invalid e-mail or password').waitFor();
    // Nothing is stored for the error view: it sends the visitor on (to / and then to /login).
    await page.goto(`${server.url}/error`);
    await page.waitForURL(`${server.url}/login`);
    expect(await page.evaluate(() => sessionStorage.getItem('keelson.error'))).toBeNull();
    await context.close();
  });
});

describe('D2: an unknown model or revision', () => {
  it('says the model or revision was not found and does not enter Recent', async () => {
    const page = await newLoggedInPage(browser, await loginToken(READER.email, READER.password));
    await page.goto(`${server.url}/NO-SUCH-SHIP`);
    await page.getByTestId('toast-error').getByText('Project NO-SUCH-SHIP not found').waitFor();
    expect(new URL(page.url()).pathname).toBe('/NO-SUCH-SHIP');
    expect(await page.getByText(/calculation service unavailable/).count()).toBe(0);
    await page.goto(`${server.url}/${MODEL}?revision=9`);
    await page.getByTestId('toast-error').getByText(`Revision 9 of project ${MODEL} not found`).waitFor();
    const recent = await page.evaluate(() => localStorage.getItem('Recent'));
    expect(JSON.parse(recent ?? '[]')).toEqual([]);
    await page.context().close();
  });
});

describe("D3: someone else's failed conversion", () => {
  it('offers Remove to its starter only', async () => {
    const reader = await newLoggedInPage(browser, await loginToken(READER.email, READER.password));
    const starter = await newLoggedInPage(browser, admin);
    for (const p of [reader, starter]) {
      await p.goto(`${server.url}/`);
      await p.getByRole('tab', { name: 'Browse' }).click();
      await p.getByTestId(`project-card-${MODEL}`).waitFor();
      await watchForButton(p, MODEL, 'Remove');
    }
    // A new revision that fails late: the model file cut short (the reading takes a while before it fails).
    const whole = readFileSync(path.join(samplesDir, 'NAPA-OCX_M8.3docx'));
    const form = new FormData();
    form.append('file', new Blob([whole.subarray(0, Math.floor(whole.length * 0.9))]), 'broken.3docx');
    const up = await apiRequest(
      server.url,
      admin,
      'POST',
      `/api/viewer/project/add/project-uploaded?projectName=${MODEL}`,
      form,
    );
    expect(up.status, await up.text()).toBe(200);
    // Both pages followed the conversion live to its failure.
    for (const p of [reader, starter])
      await p.getByTestId('toast-error').getByText(`Failed to add project ${MODEL}`).waitFor({ timeout: 120_000 });
    expect(await sawButton(starter)).toBe(true);
    expect(await sawButton(reader)).toBe(false);
    await reader.context().close();
    await starter.context().close();
  });
});

describe('D4: a forced password change', () => {
  it('is enforced by the route guard on every route', async () => {
    const user = { email: 'forced@other.org', fullName: 'Fred Forced', password: 'set-by-admin' };
    const reg = await apiRequest(server.url, admin, 'POST', '/api/auth/viewer/default/register', {
      ...user,
      requirePasswordReset: true,
    });
    expect(reg.status).toBe(200);
    const page = await newLoggedInPage(browser, await loginToken(user.email, user.password));
    for (const route of ['/', '/admin', `/${MODEL}`]) {
      await page.goto(`${server.url}${route}`);
      await page.waitForURL(`${server.url}/changePassword`);
    }
    await page.getByText('Your password must be changed before you continue.').waitFor();
    await page.context().close();
  });
});

describe('D5: Cancel while the file uploads', () => {
  // The page talks to the server through a line whose upload rate and answers the test controls.
  let line: LineProxy;
  beforeAll(async () => {
    line = await startLineProxy(server.url);
  });
  afterAll(() => line.close());

  const models = async () =>
    (await (await apiRequest(server.url, admin, 'GET', '/api/viewer/project/models')).json()) as Model[];

  async function addProject(page: Page, file: string, name: string): Promise<Locator> {
    await submitAddProject(page, file, name);
    const progress = page.getByTestId(`progress-${name}`);
    await progress.getByText('Uploading').waitFor();
    return progress;
  }

  it('aborts the upload and removes the card', async () => {
    const page = await newLoggedInPage(browser, admin);
    await page.goto(`${line.url}/`);
    // A slow line: the 2.3 MB file would take over a minute.
    line.upload(32 * 1024);
    try {
      const progress = await addProject(page, path.join(samplesDir, 'NAPA-OCX_M8.3docx'), 'SLOW');
      await progress.getByRole('button', { name: 'Cancel' }).click();
      await page.getByText('Canceled adding project SLOW').waitFor();
      await page.getByTestId('project-card-SLOW').waitFor({ state: 'detached' });
    } finally {
      line.upload(null);
    }
    // The server kept nothing of it: no project, no running conversion of that name. (Chromium hands much
    // of the file to the socket's buffers long before the slow line has carried it, and the abort reaches the
    // server only after them; the page's cancel by name withdraws the reservation at once.)
    await expect.poll(async () => (await models()).some((m) => m.name === 'SLOW'), { timeout: 15_000 }).toBe(false);
    await page.context().close();
  });

  it("leaves the user's other conversion of that name running when Cancel comes before the server's 409", async () => {
    // The same user's earlier upload of BUSY is still arriving (a slow client straight to the server): its
    // reservation runs, and the page knows it from the model list.
    const other = startSlowUpload(server.url, admin, 'BUSY');
    const page = await newLoggedInPage(browser, admin);
    try {
      await expect.poll(async () => (await models()).find((m) => m.name === 'BUSY')?.isConverting).toBe(true);
      const otherId = (await models()).find((m) => m.name === 'BUSY')!.conversionId;
      await page.goto(`${line.url}/`);
      await page.getByRole('tab', { name: 'Browse' }).click();
      await page.getByTestId('progress-BUSY').waitFor();
      // The server refuses the page's upload of BUSY (409, before reading it); the answer waits in the line.
      line.holdAnswers(true);
      await submitAddProject(page, path.join(samplesDir, `${MODEL}.3docx`), 'BUSY');
      // The page's own upload ('Uploading'; the reservation it replaced on the card said 'Uploading the file').
      const progress = page.getByTestId('progress-BUSY');
      await progress.getByText('Uploading', { exact: true }).waitFor();
      await progress.getByRole('button', { name: 'Cancel' }).click();
      // The page asks the model list before it cancels by name; that answer waits in the line too.
      await new Promise((r) => setTimeout(r, 500));
      line.holdAnswers(false);
      await page.getByText('Canceled adding project BUSY').waitFor();
      // The earlier conversion was not cancelled: it still runs, and its upload has had no answer.
      const busy = (await models()).find((m) => m.name === 'BUSY');
      expect(busy).toMatchObject({ isConverting: true, conversionId: otherId });
      const early = await Promise.race([other.answered, new Promise((r) => setTimeout(() => r('none'), 300))]);
      expect(early).toBe('none');
    } finally {
      line.holdAnswers(false);
      other.destroy();
      await page.context().close();
    }
    // The slow client gone, the server withdraws its reservation by itself.
    await expect.poll(async () => (await models()).some((m) => m.name === 'BUSY'), { timeout: 15_000 }).toBe(false);
  });

  it('cancels the conversion the server had started when the whole file was sent before Cancel', async () => {
    // With CAD components on, the generated ship's conversion waits for its CAD files, so it is still
    // running whenever the cancel arrives.
    const conversionOptions = (cadComponents: boolean) =>
      apiRequest(server.url, admin, 'PATCH', '/api/default/viewer/config/conversion', { cadComponents });
    expect((await conversionOptions(true)).status).toBe(200);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'keelson-held-'));
    const page = await newLoggedInPage(browser, admin);
    try {
      const file = path.join(dir, 'HELD.3docx');
      await writeCadShip(file, 'HELD', {});
      await page.goto(`${line.url}/`);
      // The model list in first: while its answer is held the page shows 'Loading projects…', not the card.
      await page.getByRole('tab', { name: 'Browse' }).click();
      await page.getByTestId(`project-card-${MODEL}`).waitFor();
      // The server's answer to the upload waits in the line: the page still shows the upload.
      line.holdAnswers(true);
      const progress = await addProject(page, file, 'HELD');
      await expect
        .poll(async () => (await models()).find((m) => m.name === 'HELD')?.isConverting, { timeout: 60_000 })
        .toBe(true);
      await progress.getByRole('button', { name: 'Cancel' }).click();
      const status = async () =>
        (
          (await (
            await apiRequest(server.url, admin, 'GET', '/api/viewer/project/model-conversion?projectName=HELD')
          ).json()) as ModelConversion
        ).status;
      await expect.poll(status, { timeout: 15_000 }).toBe(ConversionStatus.Canceled);
      line.holdAnswers(false);
      await page.getByText('Canceled adding project HELD').waitFor();
      const held = (await models()).find((m) => m.name === 'HELD');
      expect(held?.isConverting ?? false).toBe(false);
      expect(held?.revisions.length ?? 0).toBe(0);
    } finally {
      line.holdAnswers(false);
      await page.context().close();
      await conversionOptions(false);
      await rm(dir, { recursive: true, force: true });
    }
  });
});
