/** Snapping and measuring kernels (viewer.md §9 Snapping, §5 measure labels). */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SNAP_SETTINGS,
  SNAP_MULTIPLIER,
  SNAP_TYPE,
  computeSnap,
  segmentIntersection3d,
  type ScreenProjector,
} from '../../../engine/snap/snap';
import { componentLabelVisible, formatMeasure, measure } from '../../../engine/snap/measure';
import type { FrameTables } from '../../../engine/model/types';

// Orthographic top view: 1 px = 10 mm, screen x = world x / 10, screen y = -world y / 10.
const project: ScreenProjector = (x, y) => [x / 10, -y / 10];

describe('snap constants (viewer.md §9, §3)', () => {
  it('has the spec types, multipliers and defaults', () => {
    expect(SNAP_TYPE).toEqual({
      endPoint: 1,
      intersectionPoint: 2,
      polygonPoint: 3,
      nearestPoint: 4,
      frame: 101,
      longitudinal: 102,
      vertical: 103,
    });
    expect(SNAP_MULTIPLIER).toEqual({ 1: 1.3, 2: 1.2, 3: 1.1, 4: 1.0 });
    expect(DEFAULT_SNAP_SETTINGS).toEqual({
      endPoint: true,
      intersectionPoint: true,
      polygonPoint: true,
      nearestPoint: true,
      tolerancePx: 15,
    });
  });
});

describe('computeSnap', () => {
  const edge = [0, 0, 0, 1000, 0, 0]; // screen (0,0) → (100,0)
  it('ranks by multiplier × (tolerance − distance)', () => {
    // Cursor at (8, 3): end point (0,0) at 8.54 px → 1.3 × 6.46 = 8.4; edge point at 3 px → 12 → nearest wins.
    const a = computeSnap({ cursor: [8, 3], project, edges: edge });
    expect(a.type === 'snap' && a.snapType).toBe(4);
    expect(a.type === 'snap' && a.point[0]).toBeCloseTo(80, 9);
    // Cursor at (3, 3): end point at 4.24 px → 13.98 beats the edge point (12); at (6, 3): 6.71 px → 10.8 < 12.
    const b = computeSnap({ cursor: [3, 3], project, edges: edge });
    expect(b.type === 'snap' && [b.snapType, ...b.point]).toEqual([1, 0, 0, 0]);
    const c = computeSnap({ cursor: [6, 3], project, edges: edge });
    expect(c.type === 'snap' && c.snapType).toBe(4);
  });
  it('finds the crossing of two edges as an intersection point', () => {
    const edges = [...edge, 500, -500, 0, 500, 500, 0]; // crossing at (500, 0) → screen (50, 0)
    // Cursor (51, 2): crossing at 2.24 px → 1.2 × 12.76 = 15.3 beats the second edge's point at 1 px (14).
    const r = computeSnap({ cursor: [51, 2], project, edges });
    expect(r.type === 'snap' && r.snapType).toBe(2);
    expect(r.type === 'snap' && r.point).toEqual([500, 0, 0]);
    expect(segmentIntersection3d(edges, 0, 6)).toEqual([500, 0, 0]);
    // Lifted 100 mm in z the edges no longer meet in 3D, though they cross on screen.
    expect(segmentIntersection3d([...edge, 500, -500, 100, 500, 500, 100], 0, 6)).toBeNull();
  });
  it('snaps to triangle vertices as polygon points and honours the settings', () => {
    const triangles = [0, 0, 0, 100, 0, 0, 0, 100, 0];
    const r = computeSnap({ cursor: [10.5, -0.5], project, triangles });
    expect(r.type === 'snap' && [r.snapType, ...r.point]).toEqual([3, 100, 0, 0]);
    const off = computeSnap(
      { cursor: [10.5, -0.5], project, triangles },
      { ...DEFAULT_SNAP_SETTINGS, polygonPoint: false },
    );
    expect(off).toEqual({ type: 'miss' });
  });
  it('misses beyond the tolerance and falls back to the surface hit as nearest point', () => {
    expect(computeSnap({ cursor: [50, 20], project, edges: edge })).toEqual({ type: 'miss' });
    const r = computeSnap({ cursor: [50, 20], project, edges: edge, hit: [500, -200, 0] });
    expect(r.type === 'snap' && [r.snapType, ...r.point]).toEqual([4, 500, -200, 0]);
    expect(
      computeSnap(
        { cursor: [50, 20], project, edges: edge, hit: [500, -200, 0] },
        { ...DEFAULT_SNAP_SETTINGS, nearestPoint: false },
      ),
    ).toEqual({ type: 'miss' });
  });
  it('adds frame, longitudinal and vertical numbers (101–103) at the snapped point', () => {
    const frames: FrameTables = {
      x: [
        { id: 'a', name: 'FR0', coordinate: 0, number: 0 },
        { id: 'b', name: 'FR1', coordinate: 700, number: 1 },
      ],
      y: [
        { id: 'c', name: 'L0', coordinate: 0, number: 0 },
        { id: 'd', name: 'L1', coordinate: 1000, number: 1 },
      ],
      z: [],
    };
    const r = computeSnap({ cursor: [100, 0], project, edges: edge, frames });
    expect(r.type === 'snap' && r.infos.map((i) => i.type)).toEqual([1, 101, 102]);
    expect(r.type === 'snap' && r.infos[1].value).toBeCloseTo(1000 / 700, 9);
  });
});

describe('measure (viewer.md §5, §9)', () => {
  it('gives the distance in mm with one decimal', () => {
    const m = measure([0, 0, 0], [300, 400, 0]);
    expect(m.distance).toBe(500);
    expect(m.text).toBe('500.0 mm');
    expect(formatMeasure(1234.56)).toBe('1234.6 mm');
  });
  it('shows component labels only when longer than 0.1 and shorter than the total', () => {
    const m = measure([0, 0, 0], [300, 400, 0.05]);
    expect(m.components.map((c) => [c.axis, c.visible])).toEqual([
      ['x', true],
      ['y', true],
      ['z', false],
    ]);
    const aligned = measure([10, 20, 30], [10, 20, 1030.7]);
    expect(aligned.components.every((c) => !c.visible)).toBe(true);
    expect(componentLabelVisible(0.1, 5)).toBe(false);
    expect(componentLabelVisible(0.11, 5)).toBe(true);
    expect(componentLabelVisible(5, 5)).toBe(false);
    expect(() => measure([0, 0, NaN], [1, 1, 1])).toThrow('Measure points must be finite');
  });
});
