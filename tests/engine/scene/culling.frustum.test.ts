import { describe, expect, it } from 'vitest';
import { Matrix4, OrthographicCamera, PerspectiveCamera } from 'three';
import { cullBoxes, frustumPlanes } from '../../../engine/scene/culling';

function vp(cam: OrthographicCamera | PerspectiveCamera): number[] {
  cam.updateMatrixWorld(true);
  cam.updateProjectionMatrix();
  return new Matrix4().multiplyMatrices(cam.projectionMatrix, cam.matrixWorldInverse).elements;
}

describe('culling by chunk', () => {
  it('keeps boxes in an orthographic view and drops boxes beside it, behind the far plane or before the near plane', () => {
    const cam = new OrthographicCamera(-1000, 1000, 500, -500, 1, 10000);
    cam.position.set(0, 0, 5000);
    cam.lookAt(0, 0, 0);
    const boxes = [
      [-100, -100, -100, 100, 100, 100], // centre
      [900, 400, 0, 1100, 600, 10], // straddles the top-right corner
      [1100, 0, 0, 1200, 10, 10], // right of the view
      [0, 600, 0, 10, 700, 10], // above
      [0, 0, -6000, 10, 10, -5500], // beyond far (camera at z 5000, far 10000 → z −5000)
      [0, 0, 5100, 10, 10, 5200], // behind the camera
    ];
    expect(Array.from(cullBoxes(vp(cam), boxes.flat()))).toEqual([1, 1, 0, 0, 0, 0]);
  });
  it('works with a perspective walk camera', () => {
    const cam = new PerspectiveCamera(60, 1, 10, 100000);
    cam.position.set(0, 0, 0);
    cam.up.set(0, 0, 1);
    cam.lookAt(1, 0, 0);
    const boxes = [
      [1000, -10, -10, 1010, 10, 10],
      [-1010, -10, -10, -1000, 10, 10],
      [1000, 5000, 0, 1010, 5010, 10],
    ];
    expect(Array.from(cullBoxes(vp(cam), boxes.flat()))).toEqual([1, 0, 0]);
  });
  it('rejects a malformed matrix', () => {
    expect(() => frustumPlanes([1, 2, 3])).toThrow('expected 16');
    expect(() => frustumPlanes(new Array(16).fill(NaN))).toThrow('not finite');
  });
});
