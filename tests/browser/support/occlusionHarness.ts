/**
 * The engine-in-a-page harness of the browser tests that drive engine/scene directly (occlusion culling,
 * the vertex → object lookup): bundles support/occlusionPage.ts into `dir/page.js`, serves it and
 * `dir/ship.sc` (the scene package the test wrote) on a local port, and opens the page in Chromium.
 */
import { readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { importOcxFile } from '../../../engine/node/ocx/importFile';
import { concatFrames, encodeScenePackage } from '../../../engine/package/writer';
import { writeShipOcx } from '../../../tools/generator/index';
import { launchChromium } from './chromium';

/** A running page: `call` runs a function of support/occlusionPage.ts in it; `close` ends browser and server. */
export interface OcclusionHarness {
  browser: Browser;
  page: Page;
  call<T>(fn: string, ...args: unknown[]): Promise<T>;
  close(): Promise<void>;
}

/**
 * Starts the page over `dir` (which must hold ship.sc) with a `width` × `height` CSS px viewport.
 * @throws Error when the bundle fails or the page does not come up.
 */
export async function startOcclusionPage(dir: string, width: number, height: number): Promise<OcclusionHarness> {
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [path.resolve(__dirname, 'occlusionPage.ts')],
    bundle: true,
    format: 'esm',
    outfile: path.join(dir, 'page.js'),
    target: 'es2022',
    logLevel: 'error',
  });
  const server = http.createServer(async (req, res) => {
    const name = (req.url ?? '/').split('?')[0];
    if (name === '/') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        '<!doctype html><html><body style="margin:0"><script type="module" src="/page.js"></script></body></html>',
      );
      return;
    }
    if (name !== '/page.js' && name !== '/ship.sc') return void res.writeHead(404).end();
    const body = await readFile(path.join(dir, name.slice(1)));
    res.writeHead(200, {
      'content-type': name.endsWith('.js') ? 'text/javascript' : 'application/octet-stream',
      'content-length': String(body.length),
    });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width, height } });
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.waitForFunction(() => 'occlusionPage' in globalThis);
  const call = <T>(fn: string, ...args: unknown[]): Promise<T> =>
    page.evaluate(
      ([f, a]) =>
        (globalThis as unknown as { occlusionPage: Record<string, (...x: unknown[]) => unknown> }).occlusionPage[f](
          ...a,
        ),
      [fn, args] as const,
    ) as Promise<T>;
  return {
    browser,
    page,
    call,
    close: async () => {
      await browser.close();
      server.close();
    },
  };
}

/**
 * Writes `dir/ship.3docx`, a generated ship of about 1,500 parts (seed 3), and `dir/ship.sc`, its scene
 * package made as an upload's is (chunks of at most `maxChunkTriangles` when given).
 */
export async function writeGeneratedShip(dir: string, maxChunkTriangles?: number): Promise<void> {
  const ocx = path.join(dir, 'ship.3docx');
  await writeShipOcx(ocx, { targetParts: 1500, seed: 3 });
  const model = await importOcxFile(ocx, { threads: 0 });
  const frames = encodeScenePackage(
    model.meshes,
    { bounds: model.info.bounds, objectCount: model.objects.length, tolerances: model.info.tolerances },
    maxChunkTriangles ? { maxChunkTriangles } : undefined,
  );
  await writeFile(path.join(dir, 'ship.sc'), concatFrames(frames));
}
