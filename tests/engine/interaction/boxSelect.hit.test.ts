import { describe, expect, it } from 'vitest';
import { Matrix4, OrthographicCamera } from 'three';
import {
  boxSelect,
  boxSelectMode,
  triangleOverlapsRect,
  type BoxSelectSource,
} from '../../../engine/interaction/boxSelect';
import { trianglePiece } from './boxSelectScan';

// Top view: orthographic camera above, x right, y up, 1000 × 1000 px over world 0..1000 mm.
function topView() {
  const cam = new OrthographicCamera(-500, 500, 500, -500, 1, 10000);
  cam.position.set(500, 500, 5000);
  cam.lookAt(500, 500, 0);
  cam.updateMatrixWorld(true);
  const m = new Matrix4().multiplyMatrices(cam.projectionMatrix, cam.matrixWorldInverse);
  return { matrix: m.elements, width: 1000, height: 1000 };
}

/** Objects as triangle lists in the z = 0 plane. */
function source(objects: number[][][], hidden: number[] = []): BoxSelectSource {
  const bounds = new Float64Array(objects.length * 6);
  objects.forEach((tris, i) => {
    const xs = tris.flatMap((t) => [t[0], t[2], t[4]]),
      ys = tris.flatMap((t) => [t[1], t[3], t[5]]);
    bounds.set([Math.min(...xs), Math.min(...ys), 0, Math.max(...xs), Math.max(...ys), 0], i * 6);
  });
  return {
    objectCount: objects.length,
    bounds,
    eligible: (i) => !hidden.includes(i),
    forEachPiece: (i, fn) =>
      void fn(trianglePiece(objects[i].flatMap((tri) => [tri[0], tri[1], 0, tri[2], tri[3], 0, tri[4], tri[5], 0]))),
  };
}

// World y up = screen y down: screen y = 1000 − world y.
const objects = [
  [[100, 100, 200, 100, 100, 200]], // 0: small triangle bottom-left
  [
    [400, 400, 600, 400, 400, 600],
    [600, 400, 600, 600, 400, 600],
  ], // 1: square in the middle
  [[700, 100, 900, 100, 900, 300]], // 2: triangle bottom-right whose bounds' top-left corner is empty
];

describe('box selection kernel', () => {
  it('left-to-right selects fully contained objects, right-to-left touched ones', () => {
    expect(boxSelectMode(10, 50)).toBe('inside');
    expect(boxSelectMode(50, 10)).toBe('touch');
    const view = topView();
    // Screen rectangle x 50..650, y (world 50..650): contains 0 and 1, cuts nothing else.
    const rect = { x0: 50, y0: 350, x1: 650, y1: 950 };
    expect(boxSelect(source(objects), rect, 'inside', view)).toEqual([0, 1]);
    // x 50..500 only partly covers object 1: inside → just 0, touch → 0 and 1.
    const part = { x0: 500, y0: 350, x1: 50, y1: 950 };
    expect(boxSelect(source(objects), part, 'inside', view)).toEqual([0]);
    expect(boxSelect(source(objects), part, 'touch', view)).toEqual([0, 1]);
  });
  it('touch mode tests triangles, not just bounds: an empty corner of the bounds does not touch', () => {
    const view = topView();
    // World x 700..760, y 240..300: inside object 2's bounds but above its hypotenuse (y = x − 600).
    const corner = { x0: 760, y0: 700, x1: 700, y1: 760 };
    expect(boxSelect(source(objects), corner, 'touch', view)).toEqual([]);
    const onIt = { x0: 890, y0: 800, x1: 850, y1: 890 }; // world x 850..890, y 110..200: under the hypotenuse
    expect(boxSelect(source(objects), onIt, 'touch', view)).toEqual([2]);
  });
  it('skips hidden objects and objects without geometry', () => {
    const view = topView();
    const src = source(objects, [1]);
    src.bounds.set([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity], 0);
    expect(boxSelect(src, { x0: 0, y0: 0, x1: 1000, y1: 1000 }, 'inside', view)).toEqual([2]);
  });
  it('rejects a bad rectangle or canvas', () => {
    expect(() => boxSelect(source(objects), { x0: NaN, y0: 0, x1: 1, y1: 1 }, 'inside', topView())).toThrow(
      'not finite',
    );
    expect(() =>
      boxSelect(source(objects), { x0: 0, y0: 0, x1: 1, y1: 1 }, 'inside', { ...topView(), width: 0 }),
    ).toThrow('not positive');
  });
  it('triangle/rectangle overlap by separating axes', () => {
    const tri = [0, 0, 10, 0, 0, 10];
    expect(triangleOverlapsRect(tri, 1, 1, 2, 2)).toBe(true); // inside
    expect(triangleOverlapsRect(tri, 6, 6, 9, 9)).toBe(false); // beyond the hypotenuse, inside the bounds
    expect(triangleOverlapsRect(tri, -5, -5, 20, 20)).toBe(true); // rectangle contains it
    expect(triangleOverlapsRect(tri, 5, 5, 9, 9)).toBe(true); // touches the hypotenuse at (5, 5)
    expect(triangleOverlapsRect(tri, 11, 0, 12, 1)).toBe(false);
  });
});
