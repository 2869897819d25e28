import { describe, expect, it } from 'vitest';
import {
  CLIP_CONSTANTS,
  defaultClipBox,
  dragCoordinate,
  insideClipBox,
  planeEquation,
  sectionSlab,
  withPlane,
} from '../../../engine/tools/clipBox';

describe('clipping box rules (viewer.md §9 Clipping)', () => {
  it('default box is the model bounds plus a 100 mm margin', () => {
    expect(defaultClipBox([0, -5000, 100, 120000, 5000, 20000])).toEqual({
      xMin: -100,
      xMax: 120100,
      yMin: -5100,
      yMax: 5100,
      zMin: 0,
      zMax: 20100,
    });
  });
  it('falls back to x -50000..200000, y and z -50000..50000 when the bounds are degenerate', () => {
    const fb = { xMin: -50000, xMax: 200000, yMin: -50000, yMax: 50000, zMin: -50000, zMax: 50000 };
    expect(defaultClipBox(null)).toEqual(fb);
    expect(defaultClipBox([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity])).toEqual(fb);
    expect(defaultClipBox([5, 5, 5, 5, 5, 5])).toEqual(fb);
  });
  it('a plane never reaches or passes its opposite', () => {
    const b = defaultClipBox([0, 0, 0, 1000, 1000, 1000]);
    expect(withPlane(b, 'xMin', 500)).toMatchObject({ xMin: 500, xMax: 1100 });
    expect(withPlane(b, 'xMin', 1100)).toBeNull();
    expect(withPlane(b, 'zMax', -100)).toBeNull();
    expect(withPlane(b, 'yMax', Number.NaN)).toBeNull();
  });
  it('clip to section is a ±100 slab on the section axis', () => {
    const b = defaultClipBox([0, 0, 0, 1000, 1000, 1000]);
    expect(sectionSlab(b, 'Y', 400)).toEqual({ ...b, yMin: 300, yMax: 500 });
    expect(CLIP_CONSTANTS.sectionSlab).toBe(100);
  });
  it('plane equations keep the inside (three.js keeps positive distances)', () => {
    const [nx, ny, nz, c] = planeEquation('xMax', 700);
    expect(nx * 600 + ny * 0 + nz * 0 + c).toBeGreaterThan(0);
    expect(nx * 800 + c).toBeLessThan(0);
    const e = planeEquation('zMin', -50);
    expect(e[2] * 0 + e[3]).toBeGreaterThan(0);
    expect(insideClipBox({ xMin: 0, xMax: 1, yMin: 0, yMax: 1, zMin: 0, zMax: 1 }, 0.5, 0.5, 1.5)).toBe(false);
  });
  it('drag coordinate is where the ray passes closest to the plane normal line', () => {
    // Grab at x=100 on the xMin plane; a ray looking down -Z through x = 350 moves it to 350.
    expect(dragCoordinate(0, [100, 0, 0], [350, 20, 1000], [0, 0, -1])).toBeCloseTo(350, 6);
    // A ray along the axis gives no position.
    expect(dragCoordinate(0, [100, 0, 0], [0, 0, 0], [1, 0, 0])).toBeNull();
  });
});
