/**
 * "changed in rev. N" on comment cards in Chromium against a real server (comparison in its worker thread):
 * project PAIR holds NAPA-OCX_M4 (revision 1) and NAPA-OCX_M4_v300rc3 (revision 2), whose tube stiffener
 * S:AKYLFBGOMT/PANELP became a round bar. A thread of revision 1 refers to that stiffener, another to the
 * unchanged plate; the viewer on revision 2 flags the first card only.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium';
import { samplesDir, startServer, type RunningServer } from './support/keelsonServer';
import { apiRequest, newLoggedInPage, openViewer, registerAdmin, shutDown } from './support/seed';

const P = 'PAIR';
const ANN = { email: 'ann.admin@yard.example', fullName: 'Ann Admin', password: 'ann-password-1' };

let server: RunningServer;
let browser: Browser;
let page: Page;

async function upload(token: string, sample: string, revisions: number): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([readFileSync(path.join(samplesDir, `${sample}.3docx`))]), `${sample}.3docx`);
  const up = await apiRequest(
    server.url,
    token,
    'POST',
    `/api/viewer/project/add/project-uploaded?projectName=${P}`,
    form,
  );
  expect(up.ok).toBe(true);
  const deadline = Date.now() + 120_000;
  for (;;) {
    const r = await apiRequest(server.url, token, 'GET', '/api/viewer/project/models');
    const models = (await r.json()) as Array<{ name: string; revisions: unknown[] }>;
    if ((models.find((m) => m.name === P)?.revisions.length ?? 0) >= revisions) return;
    if (Date.now() > deadline) throw new Error(`conversion of ${sample} did not finish:\n${server.output()}`);
    await new Promise((res) => setTimeout(res, 500));
  }
}

async function thread(token: string, message: string, objectName: string): Promise<void> {
  const r = await apiRequest(server.url, token, 'GET', `/api/keelson-instance/model/objects?modelName=${P}&revision=1`);
  const objects = ((await r.json()) as { objects: Array<{ id: string; name: string }> }).objects;
  const id = objects.find((o) => o.name === objectName)!.id;
  const add = await apiRequest(
    server.url,
    token,
    'POST',
    `/api/keelson-static/comments/add-thread?projectName=${P}&projectVersionName=MAIN&projectRevisionNumber=1`,
    { comment: { message, attachments: [{ fileName: 'view.png', type: 1, referredObjects: [id], data: '' }] } },
  );
  expect(add.status).toBe(200);
}

beforeAll(async () => {
  server = await startServer();
  const token = await registerAdmin(server.url, ANN);
  await upload(token, 'NAPA-OCX_M4', 1);
  await upload(token, 'NAPA-OCX_M4_v300rc3', 2);
  await thread(token, 'Is the tube strong enough?', 'S:AKYLFBGOMT/PANELP');
  await thread(token, 'Plate looks fine', 'P:P1/PANELP');
  browser = await launchChromium();
  page = await newLoggedInPage(browser, token);
  page.setDefaultTimeout(60_000);
  await openViewer(page, server.url, P);
  await page.getByRole('button', { name: 'Comments', exact: true }).click();
  await page.locator('[data-testid="comments-panel"][data-loading="false"]').waitFor();
}, 300_000);

afterAll(() => shutDown(server, browser));

describe('comment cards', () => {
  it("flag the thread whose stiffener changed in revision 2 with 'changed in rev. 2', and only that one", async () => {
    const flag = page.getByTestId('comment-changed');
    await flag.waitFor();
    expect(await flag.count()).toBe(1);
    expect((await flag.textContent())?.trim()).toBe('changed in rev. 2');
    const card = page.getByTestId('thread-card').filter({ has: flag });
    expect(await card.getByTestId('comment-message').textContent()).toBe('Is the tube strong enough?');
    const plain = page.getByTestId('thread-card').filter({ hasText: 'Plate looks fine' });
    expect(await plain.getByTestId('comment-changed').count()).toBe(0);
    expect(await plain.getByTestId('comment-revision').textContent()).toBe('rev. 1');
  }, 120_000);
});
