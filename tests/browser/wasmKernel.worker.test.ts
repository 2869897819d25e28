/**
 * The render worker loads the WebAssembly geometry kernel in Chromium: opening a model in the viewer
 * fetches the built keelson_kernel.wasm (a real WebAssembly module, served with the UI) and the worker
 * reports it installed, not the TypeScript fallback (engine/wasm/install.ts); it also loads meshoptimizer's
 * simplifier, which starts the LOD levels. NAPA-OCX_M1 is uploaded
 * through the API first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './support/chromium';
import { startServer, type RunningServer } from './support/keelsonServer';
import { newLoggedInPage, openViewer, seedSample, shutDown } from './support/seed';

const MODEL = 'NAPA-OCX_M1';
const ADMIN = { email: 'kernel-admin@yard.example', fullName: 'Kim Kernel', password: 'kernel-password-1' };

let server: RunningServer;
let browser: Browser;
let page: Page;
const lines: string[] = [];
const wasm: { url: string; status: number; magic: string }[] = [];

beforeAll(async () => {
  server = await startServer();
  const token = await seedSample(server, ADMIN, MODEL);
  browser = await launchChromium();
  page = await newLoggedInPage(browser, token);
  page.on('console', (m) => lines.push(m.text()));
  page.on('worker', (w) => w.on('console', (m) => lines.push(m.text())));
  page.on('response', async (r) => {
    if (!new URL(r.url()).pathname.endsWith('.wasm')) return;
    const body = await r.body().catch(() => Buffer.alloc(0));
    wasm.push({ url: r.url(), status: r.status(), magic: body.subarray(0, 4).toString('hex') });
  });
  await openViewer(page, server.url, MODEL);
});

afterAll(() => shutDown(server, browser));

describe('WebAssembly kernel in the render worker', () => {
  it('fetches the kernel module and installs it instead of the TypeScript fallback', async () => {
    await expect
      .poll(() => lines.find((l) => l.startsWith('Geometry kernel:')), { timeout: 60_000, interval: 200 })
      .toMatch(/^Geometry kernel: WebAssembly loaded/);
    expect(lines.filter((l) => l.includes('using the TypeScript kernel'))).toEqual([]);
    await expect.poll(() => wasm.length, { timeout: 30_000, interval: 200 }).toBeGreaterThan(0);
    expect(wasm[0].url).toMatch(/keelson_kernel.*\.wasm$/);
    expect(wasm[0].status).toBe(200);
    expect(wasm[0].magic).toBe('0061736d');
  });

  it("loads meshoptimizer's simplifier for the LOD levels (engine/scene/lodSimplify.ts)", async () => {
    await expect
      .poll(() => lines.find((l) => l.startsWith('LOD simplifier:')), { timeout: 60_000, interval: 200 })
      .toBe('LOD simplifier: meshoptimizer loaded');
  });
});
