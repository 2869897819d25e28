/**
 * The viewer connection in Chromium against a real server (viewer.md §4 "Connection", §8 toasts, §9
 * "Timeouts"; application.md §3 client config webViewerTimeoutInMin): with a tiny timeout (0.05 min = 3 s)
 * the viewer shuts down after that long without interaction, says 'Timeout due to inactivity, connection
 * closed.' and reconnects on request; when the server process stops, the viewer shuts down with 'Stream
 * cache server connection closed.' and, once the same server runs again, opens the model by itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './support/chromium';
import { startServer, type RunningServer } from './support/keelsonServer';
import { newLoggedInPage, openViewer, seedSample, shutDown } from './support/seed';
import { modelPixels, waitForSettledView } from './support/viewerState';

const MODEL = 'NAPA-OCX_M1';
const ADMIN = { email: 'link-admin@yard.example', fullName: 'Lina Link', password: 'link-password-1' };
const TIMEOUT_MIN = '0.05';
const INACTIVITY = 'Timeout due to inactivity, connection closed.';
const CONNECTION_CLOSED = 'Stream cache server connection closed.';

let server: RunningServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  server = await startServer({ WEB_VIEWER_TIMEOUT_MIN: TIMEOUT_MIN });
  const token = await seedSample(server, ADMIN, MODEL);
  browser = await launchChromium();
  page = await newLoggedInPage(browser, token);
  page.setDefaultTimeout(30_000);
});

afterAll(() => shutDown(server, browser));

const toast = (text: string) => page.getByTestId('toast-info').filter({ hasText: text });
const canvas = () => page.getByTestId('viewer-canvas');

describe('viewer connection', () => {
  it('closes after webViewerTimeoutInMin without interaction and reconnects on request', async () => {
    const config = (await (await fetch(`${server.url}/api/config`)).json()) as { webViewerTimeoutInMin: number };
    expect(config.webViewerTimeoutInMin).toBe(Number(TIMEOUT_MIN));
    const opened = Date.now();
    await openViewer(page, server.url, MODEL);
    expect(await toast(INACTIVITY).count()).toBe(0);
    await toast(INACTIVITY).waitFor();
    // Not before the configured time: the count starts when the model is shown, after `opened`.
    expect(Date.now() - opened).toBeGreaterThanOrEqual(Number(TIMEOUT_MIN) * 60_000);
    await page.locator('[data-viewer-phase="closed"][data-viewer-closed="inactivity"]').waitFor();
    expect(await canvas().count()).toBe(0); // the viewer is shut down
    const closed = page.getByTestId('viewer-closed');
    await closed.getByText('The viewer connection was closed after a time without use.').waitFor();
    // The toast stays until the user is back.
    await closed.getByRole('button', { name: 'Reconnect' }).click();
    await page.locator('[data-viewer-phase="ready"]').waitFor({ timeout: 60_000 });
    await toast(INACTIVITY).waitFor({ state: 'detached' });
    expect(await canvas().count()).toBe(1);
    // The count starts again: without interaction the viewer closes once more.
    await toast(INACTIVITY).waitFor();
    await page.locator('[data-viewer-closed="inactivity"]').waitFor();
  });

  it('shows the closed connection when the server stops and opens the model again when it is back', async () => {
    // The same server with the default timeout, so that inactivity does not interfere.
    await page.goto('about:blank');
    await server.halt();
    await server.start({ WEB_VIEWER_TIMEOUT_MIN: '15' });
    await openViewer(page, server.url, MODEL);
    await waitForSettledView(page);
    await server.halt();
    await toast(CONNECTION_CLOSED).waitFor();
    await page.locator('[data-viewer-phase="closed"][data-viewer-closed="connection-lost"]').waitFor();
    expect(await canvas().count()).toBe(0);
    await page
      .getByTestId('viewer-closed')
      .getByText('The server cannot be reached. The model opens again when it is back.')
      .waitFor();
    await server.start({ WEB_VIEWER_TIMEOUT_MIN: '15' });
    await page.locator('[data-viewer-phase="ready"]').waitFor({ timeout: 60_000 });
    await toast(CONNECTION_CLOSED).waitFor({ state: 'detached' });
    await waitForSettledView(page);
    expect((await modelPixels(page)).length).toBeGreaterThan(0);
    // The model tree is back as well.
    await page
      .getByTestId('model-tree')
      .getByText(/Structures \(/)
      .waitFor();
  }, 600_000); // two server starts and two model loads
});
