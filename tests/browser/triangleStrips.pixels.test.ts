import { describe, expect, it } from 'vitest';
import { usePackagePage, writeGeneratedShip } from './support/occlusionHarness';

const W = 640,
  H = 360;

interface Settled {
  pixels: string;
}

const page = usePackagePage('tristrips', W, H, (dir) => writeGeneratedShip(dir));
const call = page.call;

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

/**
 * The engine's strip buffers (list part, then strip part drawn as TRIANGLE_STRIP through the context's strip
 * draw) against the triangle list they stand for, in the same order, drawn as TRIANGLES through the same mesh
 * (support/occlusionPage.ts `surfaces`): the same order because where surfaces of two objects coincide
 * the one drawn first shows.
 */
describe('surfaces as triangle strips', () => {
  it('draw the same pixels as their triangle lists, at full detail and with small objects left out', async () => {
    for (const full of [true, false]) {
      await call('fullDetail', full);
      for (const [lon, lat] of [
        [160, 10],
        [35, 30],
        [270, 70],
      ]) {
        await call('view', lon, lat);
        const strips = await call<Settled>('settle', 'off');
        await call('surfaces', 'list');
        const list = await call<Settled>('settle', 'off');
        await call('surfaces', 'half');
        const half = await call<Settled>('settle', 'off');
        await call('surfaces', 'strips');
        expect(differing(strips, list)).toBe(0);
        // Half the triangles change the picture a lot: the comparison above saw the surfaces.
        expect(differing(strips, half)).toBeGreaterThan(1000);
      }
    }
  });
});
