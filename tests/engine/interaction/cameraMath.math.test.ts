import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  CAMERA_CONSTANTS,
  PROJECTION_ORBITS,
  clampWidth,
  cross,
  dot,
  fitBoxToView,
  interpolateOrbit,
  normalizeLongitude,
  orbitBasis,
  orbitDrag,
  panTarget,
  screenToNdc,
  snapAngle,
  wheelSteps,
  zoomAtCursor,
  type Vec3,
} from '../../../engine/interaction/cameraMath';

const close = (a: number[], b: number[], _eps = 1e-9) => a.forEach((v, i) => expect(v).toBeCloseTo(b[i], 9));

describe('orbitBasis', () => {
  it('gives the viewer.md §9 projections as views along the positive/negative axes', () => {
    // "View along A" looks in +A: the camera sits on the -A side, so back = -A.
    close(orbitBasis(...PROJECTION_ORBITS.X).back, [-1, 0, 0]);
    close(orbitBasis(...PROJECTION_ORBITS.Y).back, [0, -1, 0]);
    close(orbitBasis(...PROJECTION_ORBITS.Z).back, [0, 0, -1]);
    close(orbitBasis(...PROJECTION_ORBITS['-X']).back, [1, 0, 0]);
    close(orbitBasis(...PROJECTION_ORBITS['-Y']).back, [0, 1, 0]);
    close(orbitBasis(...PROJECTION_ORBITS['-Z']).back, [0, 0, 1]);
  });
  it('shows the ship profile with the bow right (Y view) and the plan with X right, Y up (-Z view)', () => {
    const side = orbitBasis(90, 0);
    close(side.right, [1, 0, 0]);
    close(side.up, [0, 0, 1]);
    const plan = orbitBasis(90, 90);
    close(plan.right, [1, 0, 0]);
    close(plan.up, [0, 1, 0]);
  });
  it('is a right-handed orthonormal frame for any angles', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -720, max: 720, noNaN: true }),
        fc.double({ min: -90, max: 90, noNaN: true }),
        (lon, lat) => {
          const b = orbitBasis(lon, lat);
          for (const v of [b.back, b.up, b.right]) expect(Math.hypot(...v)).toBeCloseTo(1, 9);
          expect(dot(b.back, b.up)).toBeCloseTo(0, 9);
          expect(dot(b.right, b.up)).toBeCloseTo(0, 9);
          close(cross(b.right, b.up), b.back);
        },
      ),
    );
  });
});

describe('axis snapping', () => {
  it('snaps within 4 degrees of a multiple of 90 and not beyond', () => {
    expect(snapAngle(86.5)).toBe(90);
    expect(snapAngle(94)).toBe(90);
    expect(snapAngle(-3.9)).toBe(-0);
    expect(snapAngle(85.9)).toBe(85.9);
    expect(snapAngle(176.5)).toBe(180);
    expect(snapAngle(175.5)).toBe(175.5);
    expect(snapAngle(45)).toBe(45);
  });
  it('orbit drags move 0.3°/px and display snapped angles while keeping the raw ones', () => {
    const r = orbitDrag({ longitude: 80, latitude: 0 }, 20, 10); // +6°, +3°
    expect(r.raw.longitude).toBeCloseTo(86, 9);
    expect(r.raw.latitude).toBeCloseTo(3, 9);
    expect(r.view.longitude).toBe(90);
    expect(r.view.latitude).toBe(0);
    const r2 = orbitDrag(r.raw, 20, 0); // raw 92 → still snapped to 90
    expect(r2.view.longitude).toBe(90);
    const r3 = orbitDrag(r2.raw, 20, 0); // raw 98 → free
    expect(r3.view.longitude).toBeCloseTo(98, 9);
  });
  it('clamps latitude to ±90 and wraps longitude', () => {
    expect(orbitDrag({ longitude: 170, latitude: 80 }, 100, 100).raw).toEqual({ longitude: -160, latitude: 90 });
    expect(normalizeLongitude(540)).toBe(180);
    expect(normalizeLongitude(-180)).toBe(180);
  });
});

describe('zoom', () => {
  it('clamps the width to 100..2,000,000 mm', () => {
    expect(clampWidth(5)).toBe(CAMERA_CONSTANTS.minWidth);
    expect(clampWidth(3e6)).toBe(CAMERA_CONSTANTS.maxWidth);
    const b = orbitBasis(90, 0);
    expect(zoomAtCursor({ target: [0, 0, 0], width: 110, aspect: 1 }, b, [0, 0], -3).width).toBe(100);
    expect(zoomAtCursor({ target: [0, 0, 0], width: 1.9e6, aspect: 1 }, b, [0, 0], 2).width).toBe(2e6);
  });
  it('zooms by 0.8 per step, out for positive steps', () => {
    const b = orbitBasis(160, 10);
    expect(zoomAtCursor({ target: [0, 0, 0], width: 1000, aspect: 1.5 }, b, [0, 0], -1).width).toBeCloseTo(800, 9);
    expect(zoomAtCursor({ target: [0, 0, 0], width: 1000, aspect: 1.5 }, b, [0, 0], 1).width).toBeCloseTo(1250, 9);
    expect(wheelSteps(100)).toBe(1);
    expect(wheelSteps(-300)).toBe(-3);
    expect(wheelSteps(10)).toBeCloseTo(0.1, 9);
    expect(wheelSteps(0)).toBe(0);
  });
  it('keeps the world point under the cursor fixed', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: -5, max: 5, noNaN: true }),
        fc.double({ min: 200, max: 1e6, noNaN: true }),
        (nx, ny, steps, width) => {
          const b = orbitBasis(33, 21),
            aspect = 1.6,
            target: Vec3 = [100, -200, 300];
          const under = (t: Vec3, w: number) =>
            [0, 1, 2].map((i) => t[i] + (b.right[i] * nx * w) / 2 + (b.up[i] * ny * w) / aspect / 2);
          const r = zoomAtCursor({ target, width, aspect }, b, [nx, ny], steps);
          const before = under(target, width),
            after = under(r.target, r.width);
          for (let i = 0; i < 3; i++) expect(after[i]).toBeCloseTo(before[i], 4);
        },
      ),
    );
  });
});

describe('pan, fit, animation, ndc', () => {
  it('pans so the model follows the pointer', () => {
    const b = orbitBasis(90, 0); // right = +X, up = +Z
    const t = panTarget([0, 0, 0], b, 10, 5, 2); // 10 px right, 5 px down at 2 mm/px
    close(t, [-20, 0, 10]);
  });
  it('fits a box: centred target and width covering the projected extent with a margin', () => {
    const b = orbitBasis(90, 0); // looking along +Y: screen x = X, screen y = Z
    const r = fitBoxToView([0, -5, 0, 1000, 5, 200], b, 2, 1.1);
    close(
      r.target.map((v, i) => (i === 1 ? 0 : v)),
      [500, 0, 100],
    );
    expect(r.width).toBeCloseTo(1100, 9);
    const tall = fitBoxToView([0, 0, 0, 100, 0, 1000], b, 2, 1);
    expect(tall.width).toBeCloseTo(2000, 9); // height 1000 × aspect 2
    expect(() => fitBoxToView([1, 0, 0, 0, 0, 0], b, 1)).toThrow(/empty/);
  });
  it('fits every corner of a box inside the canvas part the toolbars leave free, at any orbit and tilt', () => {
    const box = [-3000, -9000, 0, 60000, 9000, 22000];
    const insets = { top: 0.08, right: 0, bottom: 0.07, left: 0.02 };
    const aspect = 1.3;
    for (const [lon, lat] of [
      [160, 10],
      [-143, 46],
      [35, -70],
      [90, 90],
    ]) {
      const b = orbitBasis(lon, lat);
      const r = fitBoxToView(box, b, aspect, 1.1, insets);
      const height = r.width / aspect;
      let x0 = 1,
        x1 = 0,
        y0 = 1,
        y1 = 0;
      for (let i = 0; i < 8; i++) {
        const p: [number, number, number] = [box[i & 1 ? 3 : 0], box[i & 2 ? 4 : 1], box[i & 4 ? 5 : 2]];
        const d: [number, number, number] = [p[0] - r.target[0], p[1] - r.target[1], p[2] - r.target[2]];
        // Canvas fractions from the left and from the top.
        const fx = 0.5 + (d[0] * b.right[0] + d[1] * b.right[1] + d[2] * b.right[2]) / r.width;
        const fy = 0.5 - (d[0] * b.up[0] + d[1] * b.up[1] + d[2] * b.up[2]) / height;
        x0 = Math.min(x0, fx);
        x1 = Math.max(x1, fx);
        y0 = Math.min(y0, fy);
        y1 = Math.max(y1, fy);
      }
      expect(x0).toBeGreaterThanOrEqual(insets.left - 1e-9);
      expect(x1).toBeLessThanOrEqual(1 - insets.right + 1e-9);
      expect(y0).toBeGreaterThanOrEqual(insets.top - 1e-9);
      expect(y1).toBeLessThanOrEqual(1 - insets.bottom + 1e-9);
      // Centred in the free part, which one extent fills up to the 10 % margin.
      expect((x0 + x1) / 2).toBeCloseTo((insets.left + 1 - insets.right) / 2, 9);
      expect((y0 + y1) / 2).toBeCloseTo((insets.top + 1 - insets.bottom) / 2, 9);
      const fill = Math.max((x1 - x0) / (1 - insets.left - insets.right), (y1 - y0) / (1 - insets.top - insets.bottom));
      expect(fill).toBeCloseTo(1 / 1.1, 9);
    }
  });
  it('interpolates longitude the short way round', () => {
    expect(interpolateOrbit({ longitude: 170, latitude: 0 }, { longitude: -170, latitude: 10 }, 0.5)).toEqual({
      longitude: 180,
      latitude: 5,
    });
    expect(interpolateOrbit({ longitude: 0, latitude: 0 }, { longitude: 90, latitude: -90 }, 1)).toEqual({
      longitude: 90,
      latitude: -90,
    });
  });
  it('converts canvas pixels to NDC with y up', () => {
    expect(screenToNdc(0, 0, 200, 100)).toEqual([-1, 1]);
    expect(screenToNdc(200, 100, 200, 100)).toEqual([1, -1]);
    expect(screenToNdc(100, 50, 200, 100)).toEqual([0, 0]);
    expect(() => screenToNdc(0, 0, 0, 100)).toThrow(/not positive/);
  });
});
