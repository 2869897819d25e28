import { describe, expect, it } from 'vitest';
import { viewInsetsOf } from '../../ui/logic/viewInsets';

const area = { left: 0, top: 56, right: 1080, bottom: 908 };

describe('canvas bands covered by the toolbars (Fit to window keeps the model out of them)', () => {
  it('takes the top toolbars as a top band and the bottom-left tools as a bottom band, 8 px apart', () => {
    const topLeft = { left: 12, top: 68, right: 520, bottom: 110 };
    const topRight = { left: 800, top: 68, right: 1068, bottom: 114 };
    const bottomLeft = { left: 12, top: 852, right: 400, bottom: 896 };
    expect(viewInsetsOf(area, [topLeft, topRight, bottomLeft])).toEqual({ top: 66, right: 0, bottom: 64, left: 0 });
  });
  it('ignores hidden (empty) overlays, panels taller than 40 % of the area, and overlays outside it', () => {
    const hidden = { left: 0, top: 0, right: 0, bottom: 0 };
    const panel = { left: 12, top: 68, right: 400, bottom: 600 };
    const outside = { left: 1100, top: 68, right: 1400, bottom: 110 };
    expect(viewInsetsOf(area, [hidden, panel, outside])).toEqual({ top: 0, right: 0, bottom: 0, left: 0 });
    expect(viewInsetsOf({ left: 0, top: 0, right: 0, bottom: 0 }, [panel])).toEqual({
      top: 0,
      right: 0,
      bottom: 0,
      left: 0,
    });
  });
});
