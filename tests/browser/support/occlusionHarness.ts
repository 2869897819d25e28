/**
 * The engine-in-a-page harness of the browser tests that drive engine/scene directly (occlusion culling,
 * the vertex → object lookup): bundles support/occlusionPage.ts into `dir/page.js`, serves it and
 * `dir/ship.sc` (the scene package the test wrote) on a local port, and opens the page in Chromium.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import http from 'node:http';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
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

/** The page of one test file, from `usePackagePage`. */
export interface PackagePage {
  /** Runs a function of support/occlusionPage.ts in the page. */
  call<T>(fn: string, ...args: unknown[]): Promise<T>;
  /** Chunks of the package the page opened (valid once the suite's beforeAll ran). */
  chunkCount(): number;
}

/**
 * Registers a test file's beforeAll / afterAll: a temporary directory (`keelson-<prefix>-…`), `write(dir)` to
 * put `ship.sc` there, the page started over it at `width` × `height` CSS px and the package opened in it;
 * afterwards browser, server and directory are gone.
 */
export function usePackagePage(
  prefix: string,
  width: number,
  height: number,
  write: (dir: string) => Promise<void>,
): PackagePage {
  let dir = '';
  let harness: OcclusionHarness | undefined;
  let chunks = 0;
  const call = <T>(fn: string, ...args: unknown[]): Promise<T> => {
    if (!harness) throw new Error(`usePackagePage: ${fn} called before the page started`);
    return harness.call<T>(fn, ...args);
  };
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), `keelson-${prefix}-`));
    await write(dir);
    harness = await startOcclusionPage(dir, width, height);
    chunks = await call<number>('open', '/ship.sc', width, height);
  });
  afterAll(async () => {
    await harness?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return { call, chunkCount: () => chunks };
}

/**
 * Pixels that differ at all between two pictures of `pixelCount` pixels (RGBA, base64, as occlusionPage's
 * `settle` returns them).
 * @throws Error when either picture does not hold `pixelCount` pixels.
 */
export function differingPixels(a: string, b: string, pixelCount: number): number {
  const x = Buffer.from(a, 'base64'),
    y = Buffer.from(b, 'base64');
  if (x.length !== pixelCount * 4 || y.length !== pixelCount * 4)
    throw new Error(`differingPixels: pictures of ${x.length / 4} and ${y.length / 4} pixels, ${pixelCount} expected`);
  let n = 0;
  for (let i = 0; i < x.length; i += 4)
    if (x[i] !== y[i] || x[i + 1] !== y[i + 1] || x[i + 2] !== y[i + 2] || x[i + 3] !== y[i + 3]) n++;
  return n;
}

/** The views (orbit longitude, latitude in degrees) at which the pixel tests compare pictures. */
export const PIXEL_VIEWS: readonly (readonly [number, number])[] = [
  [160, 10],
  [35, 30],
  [270, 70],
];

/** A settled picture of occlusionPage's `settle`: RGBA pixels, base64. */
export interface SettledPicture {
  pixels: string;
}

/**
 * The page of a pixel-comparison test file: a generated ship (writeGeneratedShip) on a 640 × 360 canvas, its
 * `call`, and `differing(a, b)`, the pixels that differ at all between two settled pictures.
 */
export function useShipPixelPage(prefix: string): {
  call: PackagePage['call'];
  differing(a: SettledPicture, b: SettledPicture): number;
} {
  const W = 640,
    H = 360;
  const page = usePackagePage(prefix, W, H, (dir) => writeGeneratedShip(dir));
  return { call: page.call, differing: (a, b) => differingPixels(a.pixels, b.pixels, W * H) };
}
