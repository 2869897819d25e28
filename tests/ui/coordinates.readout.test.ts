/**
 * Mouse coordinates (m, 3 decimals; frame numbers from the reference planes) and the frame scale's
 * projection to the screen (viewer.md §2, §7, §9 "Frame scale").
 */
import { describe, expect, it } from 'vitest';
import type { OrbitView } from '../../engine/EngineApi';
import type { FrameTables } from '../../engine/model/types';
import { frameScaleTicks } from '../../engine/reference/frameScale';
import { frameAxis } from '../../engine/reference/frameSystem';
import {
  cursorReadout,
  formatFrameNumber,
  formatMetres,
  projectOrtho,
  screenFrameTicks,
} from '../../ui/logic/coordinates';

const frames: FrameTables = {
  x: Array.from({ length: 101 }, (_, n) => ({ id: `F${n}`, name: `FR${n}`, coordinate: 600 * n, number: n })),
  y: [
    { id: 'L0', name: 'LO0', coordinate: 0, number: 0 },
    { id: 'L4', name: 'LO4', coordinate: 3200, number: 4 },
  ],
  z: [],
};

describe('mouse coordinates', () => {
  it('formats metres with 3 decimals and frame numbers with 2', () => {
    expect(formatMetres(12345.67)).toBe('12.346');
    expect(formatMetres(-0.2)).toBe('0.000');
    expect(formatFrameNumber(10.456)).toBe('10.46');
    expect(formatFrameNumber(null)).toBe('–');
  });

  it('reads x, y, z and the frame / longitudinal / vertical numbers under the cursor', () => {
    expect(cursorReadout([3300, 1200, 5000], frames)).toEqual({
      x: '3.300',
      y: '1.200',
      z: '5.000',
      frame: '5.50',
      longitudinal: '1.50',
      vertical: '–',
    });
    expect(cursorReadout(null, frames)).toBeNull();
    expect(cursorReadout([1, 2, 3], null)?.frame).toBe('–');
  });
});

describe('frame scale on screen', () => {
  // Looking along -Y (longitude 90, latitude 0): +X is to the right... check the basis instead of assuming.
  const side: OrbitView = {
    longitude: 90,
    latitude: 0,
    distance: 1e5,
    target: { x: 30000, y: 0, z: 0 },
    width: 60000,
    height: 30000,
  };

  it('projects the target to the centre and scales by the view width', () => {
    const [cx, cy] = projectOrtho(side, 1200, 600, [30000, 0, 0]);
    expect(cx).toBeCloseTo(600);
    expect(cy).toBeCloseTo(300);
    const [x1] = projectOrtho(side, 1200, 600, [36000, 0, 0]);
    expect(Math.abs(x1 - 600)).toBeCloseTo(120); // 6000 mm of 60000 visible over 1200 px
  });

  it('places labelled ticks every 10 frames on the screen, none when looking along X', () => {
    const bounds: [number, number, number, number, number, number] = [0, -5000, 0, 60000, 5000, 10000];
    const ticks = frameScaleTicks(frameAxis(frames, 'x'), bounds);
    const marks = screenFrameTicks(ticks, side, 1200, 600, bounds);
    const labels = marks.filter((m) => m.label).map((m) => m.label);
    expect(labels.length).toBe(11);
    expect(new Set(labels)).toEqual(
      new Set(['#0', '#10', '#20', '#30', '#40', '#50', '#60', '#70', '#80', '#90', '#100']),
    );
    expect(marks.filter((m) => m.kind === 'medium').length).toBe(10);
    const along: OrbitView = { ...side, longitude: 180 };
    expect(screenFrameTicks(ticks, along, 1200, 600, bounds)).toEqual([]);
  });
});
