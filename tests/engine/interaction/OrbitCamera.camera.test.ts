import { describe, expect, it } from 'vitest';
import { Vector3 } from 'three';
import { OrbitCamera } from '../../../engine/interaction/OrbitCamera';

describe('OrbitCamera', () => {
  it('places the THREE camera on the orbit convention (View along X looks in +X)', () => {
    const c = new OrbitCamera();
    c.setViewport(400, 200);
    c.setSceneBounds([0, 0, 0, 1000, 1000, 1000]);
    c.setTarget([500, 500, 500]);
    c.setOrbit(180, 0);
    const dir = c.camera.getWorldDirection(new Vector3());
    expect(dir.x).toBeCloseTo(1, 9);
    expect(c.camera.up.z).toBeCloseTo(1, 9);
    expect(c.camera.position.x).toBeLessThan(0);
    expect(c.camera.right - c.camera.left).toBeCloseTo(c.width, 9);
    expect(c.camera.top - c.camera.bottom).toBeCloseTo(c.width / 2, 9);
  });
  it('animates an orbit over its duration and fits at the destination angles', () => {
    const c = new OrbitCamera();
    c.setViewport(100, 100);
    c.setOrbit(0, 0);
    c.animateOrbit(90, -90, 700, 1000);
    expect(c.animating).toBe(true);
    c.fit([0, 0, 0, 2000, 500, 100]); // from below (90/-90) the screen shows X × Y
    expect(c.width).toBeCloseTo(2200, 6);
    c.tick(1350);
    expect(c.longitude).toBeGreaterThan(0);
    expect(c.longitude).toBeLessThan(90);
    c.tick(1700);
    expect(c.animating).toBe(false);
    expect(c.getView()).toMatchObject({ longitude: 90, latitude: -90 });
    expect(c.tick(1800)).toBe(false);
  });
  it('keeps the whole scene between near and far whatever the target', () => {
    const c = new OrbitCamera();
    c.setViewport(100, 100);
    c.setSceneBounds([-5e4, -5e4, -5e4, 5e4, 5e4, 5e4]);
    c.setTarget([9e4, 0, 0]);
    c.setOrbit(33, 44);
    const corner = new Vector3(-5e4, -5e4, -5e4).applyMatrix4(c.camera.matrixWorldInverse);
    expect(-corner.z).toBeGreaterThan(c.camera.near);
    expect(-corner.z).toBeLessThan(c.camera.far);
  });
  it('rejects a non-positive viewport', () => {
    expect(() => new OrbitCamera().setViewport(0, 10)).toThrow(/not positive/);
  });
});
