import { describe, expect, it } from 'vitest';
import { PIXEL_VIEWS, type SettledPicture as Settled, useShipPixelPage } from './support/occlusionHarness';

const { call, differing } = useShipPixelPage('tristrips');

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
      for (const [lon, lat] of PIXEL_VIEWS) {
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
