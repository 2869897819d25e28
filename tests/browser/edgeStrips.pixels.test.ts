import { describe, expect, it } from 'vitest';
import { PIXEL_VIEWS, type SettledPicture as Settled, useShipPixelPage } from './support/occlusionHarness';

const { call, differing } = useShipPixelPage('strips');

describe('edges as line strips', () => {
  it('draw the same pixels as the package’s index pairs', async () => {
    await call('fullDetail', true);
    for (const [lon, lat] of PIXEL_VIEWS) {
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
