import { describe, expect, it } from 'vitest';
import {
  ARROW_HEAD_MM,
  parameterDimension,
  parameterText,
  surfaceDimensions,
} from '../../../engine/tools/dimensionLines';
import type { SurfaceObjectInput } from '../../../engine/EngineApi';

const obj = (parameters: SurfaceObjectInput['parameters']): SurfaceObjectInput => ({
  name: 'SO1',
  definitionPlane: { point: { x: 0, y: 0, z: 0 }, normal: { nx: 0, ny: 0, nz: 1 } },
  parameters,
});

describe('surface-object dimension lines (viewer.md §5, §9)', () => {
  it('labels lengths in mm without decimals and radii with "R "', () => {
    expect(parameterText({ parameterType: 'length', parameterValue: 1.23456 })).toBe('1235');
    expect(parameterText({ parameterType: 'radius', parameterValue: 0.3 })).toBe('R 300');
    expect(parameterText({ parameterType: 'angle', parameterValue: 44.6 })).toBe('45°');
  });
  it('a zero parameter draws nothing', () => {
    const o = obj([
      { parameterType: 'length', parameterValue: 0, startPoint: { x: 0, y: 0, z: 0 }, endPoint: { x: 1, y: 0, z: 0 } },
    ]);
    expect(parameterDimension(o, o.parameters[0])).toBeNull();
    expect(surfaceDimensions([o])).toEqual([]);
  });
  it('a length is the line start → end (m → mm) with arrow heads of 50 mm at both ends', () => {
    const o = obj([
      { parameterType: 'length', parameterValue: 2, startPoint: { x: 1, y: 0, z: 0 }, endPoint: { x: 3, y: 0, z: 0 } },
    ]);
    const d = parameterDimension(o, o.parameters[0])!;
    expect(d.segments.slice(0, 6)).toEqual([1000, 0, 0, 3000, 0, 0]);
    expect(d.segments.length).toBe(6 + 4 * 6);
    // First arrow stroke at the end: from the tip back 50 mm along the line.
    expect(d.segments[6]).toBe(3000);
    expect(d.segments[9]).toBeCloseTo(3000 - ARROW_HEAD_MM, 6);
    expect(d.label).toEqual({ text: '2000', position: [2000, 0, 0] });
  });
  it('a radius has one arrow head and an angle an arc around its vertex', () => {
    const o = obj([
      {
        parameterType: 'radius',
        parameterValue: 0.5,
        startPoint: { x: 0, y: 0, z: 0 },
        endPoint: { x: 0, y: 0.5, z: 0 },
      },
      {
        parameterType: 'angle',
        parameterValue: 90,
        angleVertex: { x: 0, y: 0, z: 0 },
        startPoint: { x: 1, y: 0, z: 0 },
      },
    ]);
    const [r, a] = surfaceDimensions([o]);
    expect(r.segments.length).toBe(6 + 2 * 6);
    expect(r.label.text).toBe('R 500');
    // The arc ends at (0, 1000, 0) for 90° counter-clockwise about +Z.
    const end = a.segments.length - 3;
    expect(a.segments[end]).toBeCloseTo(0, 6);
    expect(a.segments[end + 1]).toBeCloseTo(1000, 6);
    expect(a.label.position[0]).toBeCloseTo(1000 * Math.SQRT1_2, 6);
  });
});
