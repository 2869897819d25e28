/**
 * Feature edges as line strips (engine/scene/edgeStrips.ts) in real Chromium with SwiftShader WebGL2: a
 * generated ship drawn at full detail (every object, every edge, no level of detail) must give the same
 * pixels with the engine's strips (primitive restart between strips) as with the package's index pairs
 * drawn as THREE.LineSegments through the same object, material and position buffer — at several views.
 * The edges are really drawn: without them many pixels change.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OcclusionHarness, startOcclusionPage, writeGeneratedShip } from './support/occlusionHarness';

const W = 640,
  H = 360;

interface Settled {
  pixels: string;
}

let dir: string;
let harness: OcclusionHarness;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'keelson-strips-'));
  await writeGeneratedShip(dir);
  harness = await startOcclusionPage(dir, W, H);
  await call<number>('open', '/ship.sc', W, H);
});

afterAll(async () => {
  await harness?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Calls a function of support/occlusionPage.ts in the page. */
function call<T>(fn: string, ...args: unknown[]): Promise<T> {
  return harness.call<T>(fn, ...args);
}

/** Number of pixels whose RGBA differs at all. */
function differing(a: Settled, b: Settled): number {
  const x = Buffer.from(a.pixels, 'base64'),
    y = Buffer.from(b.pixels, 'base64');
  expect(x.length).toBe(W * H * 4);
  let n = 0;
  for (let i = 0; i < x.length; i += 4)
    if (x[i] !== y[i] || x[i + 1] !== y[i + 1] || x[i + 2] !== y[i + 2] || x[i + 3] !== y[i + 3]) n++;
  return n;
}

describe('edges as line strips', () => {
  it('draw the same pixels as the package’s index pairs', async () => {
    await call('fullDetail', true);
    for (const [lon, lat] of [
      [160, 10],
      [35, 30],
      [270, 70],
    ]) {
      await call('view', lon, lat);
      const strips = await call<Settled>('settle', 'off');
      await call('edgesAsPairs', true);
      const pairs = await call<Settled>('settle', 'off');
      await call('edgesAsPairs', false);
      expect(differing(strips, pairs)).toBe(0);
      // Without edges the picture changes a lot: the comparison above saw them.
      await call('hideEdges', true);
      const none = await call<Settled>('settle', 'off');
      await call('hideEdges', false);
      expect(differing(strips, none)).toBeGreaterThan(2000);
    }
  });
});
