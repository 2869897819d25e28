/**
 * Box selection as a query over the hierarchy of object bounds (engine/interaction/boxSelect.ts,
 * objectBoundsTree.ts) against the scan of every object (./boxSelectScan.ts) on random scenes, views and
 * rectangles; the hierarchy's shape; the build in slices giving the same tree.
 */
import fc from 'fast-check';
import { Matrix4, OrthographicCamera, PerspectiveCamera } from 'three';
import { describe, expect, it } from 'vitest';
import {
  type BoxSelectMode,
  type BoxSelectSource,
  boxSelect,
  type ScreenProjection,
} from '../../../engine/interaction/boxSelect';
import {
  BOUNDS_TREE_LEAF,
  buildObjectBoundsTree,
  ObjectBoundsTreeBuild,
} from '../../../engine/interaction/objectBoundsTree';
import { scanBoxSelect, trianglePiece } from './boxSelectScan';

/** Objects: triangles (9 numbers each, mm); bounds from them; the listed ids hidden, empty ones unloaded. */
function scene(objects: number[][], hidden: Set<number>): BoxSelectSource {
  const bounds = new Float64Array(objects.length * 6);
  objects.forEach((tris, i) => {
    const box = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
    for (let k = 0; k < tris.length; k++) {
      box[k % 3] = Math.min(box[k % 3], tris[k]);
      box[(k % 3) + 3] = Math.max(box[(k % 3) + 3], tris[k]);
    }
    bounds.set(box, i * 6);
  });
  const pieces = objects.map((tris) => trianglePiece(tris));
  return {
    objectCount: objects.length,
    bounds,
    eligible: (i) => !hidden.has(i),
    forEachPiece: (i, fn) => void fn(pieces[i]),
  };
}

/** Uniform-ish doubles in [min, max] (fc.double favours the ends and special values). */
const real = (min: number, max: number) => fc.integer({ min: 0, max: 1e9 }).map((k) => min + ((max - min) * k) / 1e9);
const coord = real(-5000, 5000);
/** An object: a few triangles around a random centre (some objects have none: geometry not loaded yet). */
const object = fc
  .tuple(coord, coord, coord, real(1, 2000), fc.array(real(-1, 1), { minLength: 0, maxLength: 27 }))
  .map(([cx, cy, cz, size, d]) => {
    const tris: number[] = [];
    for (let k = 0; k + 9 <= d.length; k++)
      if (k % 9 === 0) for (let j = 0; j < 9; j++) tris.push([cx, cy, cz][j % 3] + d[k + j] * size);
    return tris;
  });
const view = fc
  .record({
    perspective: fc.boolean(),
    eye: fc.tuple(coord, coord, coord),
    target: fc.tuple(real(-500, 500), real(-500, 500), real(-500, 500)),
    width: fc.integer({ min: 50, max: 2000 }),
    height: fc.integer({ min: 50, max: 2000 }),
  })
  .map(({ perspective, eye, target, width, height }): ScreenProjection => {
    const cam = perspective
      ? new PerspectiveCamera(50, width / height, 10, 100000)
      : new OrthographicCamera(-6000, 6000, 6000, -6000, -100000, 100000);
    cam.position.set(...eye);
    cam.lookAt(target[0], target[1], target[2] + (eye[2] === target[2] ? 1 : 0));
    cam.updateMatrixWorld(true);
    const m = new Matrix4().multiplyMatrices(cam.projectionMatrix, cam.matrixWorldInverse);
    return { matrix: m.elements, width, height };
  });
const rect = fc.record({
  x0: real(-200, 2200),
  y0: real(-200, 2200),
  x1: real(-200, 2200),
  y1: real(-200, 2200),
});

describe('box selection query over the object-bounds hierarchy', () => {
  it('selects exactly what the scan of every object selects (random scenes, views, rectangles, modes)', () => {
    fc.assert(
      fc.property(
        fc.array(object, { minLength: 0, maxLength: 120 }),
        fc.array(fc.nat(119), { maxLength: 20 }),
        view,
        rect,
        fc.constantFrom<BoxSelectMode>('inside', 'touch'),
        (objects, hidden, v, r, mode) => {
          const src = scene(objects, new Set(hidden));
          expect(boxSelect(src, r, mode, v)).toEqual(scanBoxSelect(src, r, mode, v));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a dense scene: many objects taken whole or skipped by subtree still match the scan', () => {
    // A grid of 40 × 40 small squares in z = 0 under a top view, selected by rectangles of every size.
    const objects: number[][] = [];
    for (let i = 0; i < 40; i++)
      for (let j = 0; j < 40; j++) {
        const x = i * 250 - 5000,
          y = j * 250 - 5000;
        objects.push([x, y, 0, x + 200, y, 0, x, y + 200, 0]);
      }
    const cam = new OrthographicCamera(-5000, 5000, 5000, -5000, 1, 20000);
    cam.position.set(0, 0, 10000);
    cam.lookAt(0, 0, 0);
    cam.updateMatrixWorld(true);
    const v = {
      matrix: new Matrix4().multiplyMatrices(cam.projectionMatrix, cam.matrixWorldInverse).elements,
      width: 1000,
      height: 1000,
    };
    const src = scene(objects, new Set([5, 77, 900]));
    fc.assert(
      fc.property(rect, fc.constantFrom<BoxSelectMode>('inside', 'touch'), (r, mode) => {
        const got = boxSelect(src, r, mode, v);
        expect(got).toEqual(scanBoxSelect(src, r, mode, v));
      }),
      { numRuns: 200 },
    );
    // The whole view: every visible square; none of the hidden ones.
    const all = boxSelect(src, { x0: 0, y0: 0, x1: 1000, y1: 1000 }, 'inside', v);
    expect(all.length).toBe(1600 - 3);
    expect(all).not.toContain(77);
  });

  it('the hierarchy holds every object with geometry once, in leaves of at most the leaf size, inside its nodes', () => {
    fc.assert(
      fc.property(fc.array(object, { minLength: 0, maxLength: 300 }), (objects) => {
        const src = scene(objects, new Set());
        const t = buildObjectBoundsTree(src.bounds, src.objectCount);
        const withGeometry = objects.flatMap((tris, i) => (tris.length > 0 ? [i] : []));
        expect([...t.order].sort((a, b) => a - b)).toEqual(withGeometry);
        for (let n = 0; n < t.nodeCount; n++) {
          if (t.child[n] < 0) expect(t.count[n]).toBeLessThanOrEqual(Math.max(BOUNDS_TREE_LEAF, 0));
          else {
            const [a, b] = [t.child[n], t.child[n] + 1];
            expect(t.start[a]).toBe(t.start[n]);
            expect(t.start[b]).toBe(t.start[a] + t.count[a]);
            expect(t.count[a] + t.count[b]).toBe(t.count[n]);
          }
          for (let k = t.start[n]; k < t.start[n] + t.count[n]; k++)
            for (let c = 0; c < 3; c++) {
              expect(src.bounds[t.order[k] * 6 + c]).toBeGreaterThanOrEqual(t.boxes[n * 6 + c]);
              expect(src.bounds[t.order[k] * 6 + c + 3]).toBeLessThanOrEqual(t.boxes[n * 6 + c + 3]);
            }
        }
      }),
      { numRuns: 100 },
    );
  });
});
