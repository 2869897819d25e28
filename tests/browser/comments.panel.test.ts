/**
 * The comments panel in Chromium with two reviewers against a real server (viewer.md §2 "Comments panel",
 * §4 "Comments", §5 labels and assignees, §8 toasts): Ann (administrator, uploads the model) posts a thread
 * with a snapshot, a 3D marker, an assignee (Bob) and a label; Bob, whose panel is open on the same model,
 * sees it appear without Refresh, filters by the label, opens the snapshot (the camera and the selection
 * come back: his canvas then shows what Ann's showed), replies and changes the state; Ann sees both live.
 * Texts are read from the panel; screenshots of both panels are written to the test's temp directory.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { unzipSync, strFromU8 } from 'fflate';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium';
import { startServer, type RunningServer } from './support/keelsonServer';
import { apiRequest, newLoggedInPage, openViewer, seedSample, shutDown } from './support/seed';

const MODEL = 'NAPA-TR03_TC11';
const ANN = { email: 'ann.admin@yard.example', fullName: 'Ann Admin', password: 'ann-password-1' };
const BOB = { email: 'bob.reviewer@yard.example', fullName: 'Bob Reviewer', password: 'bob-password-1' };
const LABEL = 'Weld seam';
const MESSAGE = 'Check the weld at this bracket';
const REPLY = 'Weld checked, looks fine';

let server: RunningServer;
let browser: Browser;
let ann: Page;
let bob: Page;
let annToken: string;
const shots = mkdtempSync(path.join(tmpdir(), 'keelson-comments-'));

async function loginToken(user: { email: string; password: string }): Promise<string> {
  const r = await apiRequest(server.url, undefined, 'POST', '/api/auth/viewer/default/login', user);
  expect(r.status).toBe(200);
  return ((await r.json()) as { token: string }).token;
}

beforeAll(async () => {
  server = await startServer();
  annToken = await seedSample(server, ANN, MODEL);
  const reg = await apiRequest(server.url, undefined, 'POST', '/api/auth/viewer/default/register', {
    ...BOB,
    requirePasswordReset: false,
    adminEmail: '',
  });
  expect(reg.status).toBe(200);
  const grant = await apiRequest(
    server.url,
    annToken,
    'PATCH',
    `/api/default/viewer/users?email=${encodeURIComponent(BOB.email)}`,
    { permissions: [`project:${MODEL}`], validUntil: {} },
  );
  expect(grant.status).toBe(200);
  const bobToken = await loginToken(BOB);
  browser = await launchChromium();
  ann = await newLoggedInPage(browser, annToken);
  bob = await newLoggedInPage(browser, bobToken, { acceptDownloads: true });
  for (const p of [ann, bob]) p.setDefaultTimeout(30_000);
  await Promise.all([openViewer(ann, server.url, MODEL), openViewer(bob, server.url, MODEL)]);
  for (const p of [ann, bob]) {
    await p.getByRole('button', { name: 'Comments', exact: true }).click();
    await p.locator('[data-testid="comments-panel"][data-loading="false"]').waitFor();
  }
}, 300_000);

afterAll(() => shutDown(server, browser));

const panel = (p: Page) => p.getByTestId('comments-panel');

/** The canvas as an RGBA image. */
async function canvasImage(p: Page): Promise<PNG> {
  return PNG.sync.read(await p.getByTestId('viewer-canvas').screenshot());
}

/** Mean absolute difference per channel of two equally sized images, 0..255. */
function meanDiff(a: PNG, b: PNG): number {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  let sum = 0;
  for (let i = 0; i < a.data.length; i += 4) for (let c = 0; c < 3; c++) sum += Math.abs(a.data[i + c] - b.data[i + c]);
  return sum / ((a.data.length / 4) * 3);
}

/** The centre (CSS px of the canvas, device scale 1) of the pixels that differ between two pictures. */
function diffCentre(a: PNG, b: PNG): { x: number; y: number } {
  let sx = 0;
  let sy = 0;
  let n = 0;
  for (let y = 0; y < a.height; y++)
    for (let x = 0; x < a.width; x++) {
      const i = 4 * (y * a.width + x);
      if (
        Math.abs(a.data[i] - b.data[i]) +
          Math.abs(a.data[i + 1] - b.data[i + 1]) +
          Math.abs(a.data[i + 2] - b.data[i + 2]) >
        30
      ) {
        sx += x;
        sy += y;
        n++;
      }
    }
  expect(n).toBeGreaterThan(0);
  return { x: sx / n, y: sy / n };
}

/** Clicks canvas points from the centre outwards until one selects an object (the properties panel shows). */
async function selectSomething(p: Page): Promise<string> {
  const box = (await p.getByTestId('viewer-canvas').boundingBox())!;
  for (const [fx, fy] of [
    [0.5, 0.5],
    [0.45, 0.5],
    [0.55, 0.5],
    [0.5, 0.45],
    [0.5, 0.55],
    [0.4, 0.5],
    [0.6, 0.5],
  ]) {
    await p.mouse.click(box.x + box.width * fx, box.y + box.height * fy);
    const title = p.getByTestId('properties-title');
    if (await title.isVisible().catch(() => false)) return (await title.textContent()) ?? '';
    // A miss leaves no panel; a hit shows it after the pick answers.
    try {
      await title.waitFor({ timeout: 1500 });
      return (await title.textContent()) ?? '';
    } catch {
      /* try the next point */
    }
  }
  throw new Error('no object under the tried canvas points');
}

describe('the comments panel with two reviewers', () => {
  let selectedName = '';
  let annView: PNG;

  it('Ann posts a thread with a snapshot, a marker, an assignee and a label', async () => {
    // A view of her own: zoomed in and an object selected.
    const box = (await ann.getByTestId('viewer-canvas').boundingBox())!;
    await ann.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await ann.mouse.wheel(0, -300);
    selectedName = await selectSomething(ann);
    expect(selectedName).not.toBe('');

    await panel(ann).getByRole('button', { name: 'Add Comment' }).click();
    const editor = ann.getByTestId('comment-editor');
    await expect.poll(() => editor.getByRole('button', { name: 'Submit' }).isDisabled()).toBe(true);
    await expect.poll(() => editor.getByLabel('Message').getAttribute('placeholder')).toBe('Write a comment...');

    await editor.getByRole('combobox', { name: 'Assignees' }).fill('bob');
    await ann.getByRole('option', { name: `${BOB.fullName} (${BOB.email})` }).click();

    const labels = editor.getByRole('combobox', { name: 'Labels' });
    await labels.fill(LABEL);
    await expect
      .poll(() => ann.getByTestId('labels-no-match').textContent())
      .toBe(`No labels found matching "${LABEL}". Press Tab or Enter to create new.`);
    await labels.press('Enter');
    await editor.getByRole('button', { name: `Remove label ${LABEL}` }).waitFor();

    await editor.getByLabel('Message').fill(MESSAGE);
    // The pointer leaves the canvas so no hover highlight is in the picture.
    const header = (await panel(ann).boundingBox())!;
    await ann.mouse.move(header.x + 10, header.y + 10);
    annView = await canvasImage(ann);
    await editor.getByRole('button', { name: 'Attach snapshot' }).click();
    await editor
      .getByRole('list', { name: 'Draft attachments' })
      .getByText(/^snapshot-.*\.png$/)
      .waitFor();

    await editor.getByRole('button', { name: 'Add 3D marker' }).click();
    await ann.getByText('Place marker on geometry or right-click to cancel.').waitFor();
    const canvas = (await ann.getByTestId('viewer-canvas').boundingBox())!;
    await ann.mouse.click(canvas.x + canvas.width / 2, canvas.y + canvas.height / 2);
    await ann.getByTestId('draft-marker').waitFor();
    expect(await ann.getByTestId('draft-marker').textContent()).toMatch(
      /^Marker at -?\d+\.\d{3}, -?\d+\.\d{3}, -?\d+\.\d{3}$/,
    );
    await ann.getByText('Place marker on geometry or right-click to cancel.').waitFor({ state: 'detached' });

    await editor.getByRole('button', { name: 'Submit' }).click();
    await ann.getByText('Comment was posted', { exact: true }).waitFor();
    const card = panel(ann).getByTestId('thread-card').first();
    await card.getByText(MESSAGE).waitFor();
    expect(await card.getByTestId('comment-author').textContent()).toBe(ANN.fullName);
    expect(await card.getByTestId('comment-revision').textContent()).toBe('rev. 1 (latest)');
    expect(await card.getByTestId('comment-assignees').textContent()).toBe(`To: ${BOB.fullName}`);
    expect(await card.getByTestId('label-chip').allTextContents()).toEqual([LABEL]);
    expect(await card.getByTestId('attachment-count').textContent()).toBe('1');
    expect(await card.getByTestId('comment-state').textContent()).toMatch(/^New/);
    await panel(ann).screenshot({ path: path.join(shots, 'ann-posted.png') });
  });

  it('Bob sees the thread appear without Refresh, with the label chip coloured from its hash', async () => {
    const card = panel(bob).getByTestId('thread-card').first();
    await card.getByText(MESSAGE).waitFor();
    expect(await card.getByTestId('comment-author').textContent()).toBe(ANN.fullName);
    expect(await card.getByTestId('comment-assignees').textContent()).toBe(`To: ${BOB.fullName}`);
    const chip = card.getByTestId('label-chip');
    expect(await chip.textContent()).toBe(LABEL);
    const bg = await chip.evaluate((el) => getComputedStyle(el).backgroundColor);
    // hsl(h, 100%, 87%): the largest channel is 255 and the smallest 190 (l - s·min(l, 1-l) = 0.74).
    const [r, g, b] = bg.match(/\d+/g)!.map(Number);
    expect(Math.max(r, g, b)).toBe(255);
    expect(Math.min(r, g, b)).toBeGreaterThanOrEqual(188);
    expect(Math.min(r, g, b)).toBeLessThanOrEqual(192);
    // The timestamp's tooltip: Created and Updated with relative time, opening after 300 ms.
    await card.getByTestId('comment-timestamp').hover();
    const tip = bob.getByRole('tooltip');
    await tip.waitFor();
    expect(await tip.textContent()).toMatch(
      /^Created: \w{3} \d{2} \w+ \d{4} \d{1,2}:\d{2} \((just now|\d+ minutes? ago)\)Updated: /,
    );
    await bob.mouse.move(0, 0);
    expect(await card.getByTestId('marker-icon').getAttribute('title')).toMatch(
      /^-?\d+\.\d{3}, -?\d+\.\d{3}, -?\d+\.\d{3}$/,
    );
  });

  it('Bob filters by the label and by state; the Filters button turns rgb(0,151,196)', async () => {
    const filters = panel(bob).getByTestId('comments-filters');
    await filters.click();
    await bob.getByRole('menuitemcheckbox', { name: LABEL }).click();
    await expect.poll(() => filters.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(0, 151, 196)');
    await expect.poll(() => panel(bob).getByTestId('thread-card').count()).toBe(1);
    await bob.getByRole('menuitemcheckbox', { name: 'Closed' }).click();
    await expect.poll(() => panel(bob).getByTestId('thread-card').count()).toBe(0);
    await bob.getByText('No comments match the filters').waitFor();
    await bob.getByRole('menuitemcheckbox', { name: 'Closed' }).click();
    await bob.getByRole('menuitemcheckbox', { name: 'Revision 1' }).waitFor();
    await expect.poll(() => panel(bob).getByTestId('thread-card').count()).toBe(1);
    await bob.keyboard.press('Escape');
  });

  it("Bob opens the snapshot: Ann's camera and selection come back", async () => {
    const before = await canvasImage(bob);
    await panel(bob).getByTestId('thread-card').first().click();
    await panel(bob).getByTestId('snapshot-attachment').click();
    await expect.poll(() => bob.getByTestId('properties-title').textContent()).toBe(selectedName);
    // Bob's canvas now shows Ann's view (same canvas size: both have the tree and the comments open).
    let after = await canvasImage(bob);
    await expect
      .poll(async () => {
        after = await canvasImage(bob);
        return meanDiff(after, annView) < 4;
      })
      .toBe(true);
    expect(meanDiff(before, annView)).toBeGreaterThan(meanDiff(after, annView) + 2);
  });

  it('the Markers toggle hides and shows the 3D marker', async () => {
    const shown = await canvasImage(bob);
    await panel(bob).getByRole('button', { name: 'Markers' }).click();
    let hidden = shown;
    await expect
      .poll(async () => {
        hidden = await canvasImage(bob);
        return meanDiff(shown, hidden) > 0;
      })
      .toBe(true);
    await panel(bob).getByRole('button', { name: 'Markers' }).click();
    await expect.poll(async () => meanDiff(shown, await canvasImage(bob))).toBeLessThan(0.05);

    // The pin is where the two pictures differ: clicking it opens its thread.
    const pin = diffCentre(shown, hidden);
    const thread = panel(bob).getByTestId('comment-thread').first();
    await thread.getByRole('button', { name: 'Collapse thread' }).click();
    await expect.poll(() => thread.getAttribute('data-active')).toBe('false');
    const canvas = (await bob.getByTestId('viewer-canvas').boundingBox())!;
    await bob.mouse.click(canvas.x + pin.x, canvas.y + pin.y);
    await expect.poll(() => thread.getAttribute('data-active')).toBe('true');
    await thread.getByRole('button', { name: 'Collapse thread' }).waitFor();
  });

  it('Bob replies and changes the state; Ann sees both live', async () => {
    const thread = panel(bob).getByTestId('comment-thread').first();
    await thread.getByRole('button', { name: 'Add a reply' }).click();
    const editor = bob.getByTestId('comment-editor');
    expect(await editor.getByLabel('Message').getAttribute('placeholder')).toBe('Write a reply...');
    await editor.getByLabel('Message').fill(REPLY);
    await editor.getByRole('button', { name: 'Submit' }).click();
    await bob.getByText('Reply was posted', { exact: true }).waitFor();
    await thread.getByTestId('reply-card').getByText(REPLY).waitFor();

    await thread.getByTestId('thread-card').getByTestId('comment-state').click();
    await bob.getByRole('menuitem', { name: 'Resolved' }).click();
    await bob.getByText('Comment state was changed', { exact: true }).waitFor();
    await expect
      .poll(() => thread.getByTestId('thread-card').getByTestId('comment-state').getAttribute('data-state'))
      .toBe('Resolved');

    // Choosing in the state menu leaves the thread open.
    expect(await thread.locator('[aria-expanded="true"]').count()).toBe(1);
    const annThread = panel(ann).getByTestId('comment-thread').first();
    await annThread.getByTestId('reply-card').getByText(REPLY).waitFor();
    await expect
      .poll(() => annThread.getByTestId('thread-card').getByTestId('comment-state').getAttribute('data-state'))
      .toBe('Resolved');
    for (const [who, p] of [
      ['ann', ann],
      ['bob', bob],
    ] as const)
      writeFileSync(path.join(shots, `${who}-final.png`), await panel(p).screenshot());
  });

  it('Ann edits her thread and attaches a file; Bob deletes his reply; each change shows on the other side', async () => {
    const annThread = panel(ann).getByTestId('comment-thread').first();
    await annThread.getByRole('button', { name: 'Edit thread' }).click();
    const editor = ann.getByTestId('comment-editor');
    await expect.poll(() => editor.getByLabel('Message').inputValue()).toBe(MESSAGE);
    await editor.getByLabel('Message').fill(`${MESSAGE} (frame 12)`);
    await editor.getByRole('button', { name: 'Cancel' }).click();
    await ann.getByTestId('comment-confirm').getByText('Discard modification?').waitFor();
    await ann.getByRole('button', { name: 'No' }).click();
    await editor.getByTestId('comment-file-input').setInputFiles({
      name: 'weld-report.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('weld report: bracket B12 ok\n'),
    });
    await editor.getByText('weld-report.txt').waitFor();
    await editor.getByRole('button', { name: 'Submit' }).click();
    await ann.getByText('Comment/Reply was deleted/updated', { exact: true }).waitFor();
    await expect
      .poll(() => annThread.getByTestId('thread-card').getByTestId('attachment-count').textContent())
      .toBe('2');
    await panel(bob).getByText(`${MESSAGE} (frame 12)`).waitFor();

    const bobReply = panel(bob).getByTestId('reply-card').filter({ hasText: REPLY });
    await bobReply.getByRole('button', { name: 'Delete reply' }).click();
    await bob.getByTestId('comment-confirm').getByText('Delete this reply?').waitFor();
    await bob.getByRole('button', { name: 'Yes' }).click();
    await bob.getByText('Comment/Reply was deleted/updated', { exact: true }).waitFor();
    await panel(ann).getByText(REPLY).waitFor({ state: 'detached' });
    await panel(bob).getByText(REPLY).waitFor({ state: 'detached' });
  });

  it('Bob exports the thread as BCF 3.0 and Ann imports it back as a new thread', async () => {
    await panel(bob).getByRole('button', { name: 'BCF' }).click();
    const [download] = await Promise.all([
      bob.waitForEvent('download'),
      bob.getByRole('menuitem', { name: 'Export BCF', exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${MODEL}.bcf`);
    const file = path.join(shots, `${MODEL}.bcf`);
    await download.saveAs(file);
    const entries = unzipSync(new Uint8Array(readFileSync(file)));
    const markups = Object.keys(entries).filter((n) => n.endsWith('/markup.bcf'));
    expect(markups).toHaveLength(1);
    expect(strFromU8(entries[markups[0]])).toContain(LABEL);

    await panel(ann).getByRole('button', { name: 'BCF' }).click();
    await ann.getByTestId('bcf-file-input').setInputFiles(file);
    await ann.getByText('Imported 1 topic(s) from BCF 3.0', { exact: true }).waitFor();
    await expect.poll(() => panel(ann).getByTestId('thread-card').count()).toBe(2);
    await expect.poll(() => panel(bob).getByTestId('thread-card').count()).toBe(2);
  });

  it('asks before discarding a new draft', async () => {
    await panel(ann).getByRole('button', { name: 'Add Comment' }).click();
    await ann.getByTestId('comment-editor').getByLabel('Message').fill('draft');
    await ann.getByTestId('comment-editor').getByRole('button', { name: 'Cancel' }).click();
    await ann.getByTestId('comment-confirm').getByText('Discard comment?').waitFor();
    await ann.getByRole('button', { name: 'Yes' }).click();
    await ann.getByTestId('comment-editor').waitFor({ state: 'detached' });
  });
});
