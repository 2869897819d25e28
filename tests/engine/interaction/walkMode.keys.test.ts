import { describe, expect, it } from 'vitest';
import {
  WALK_DELTA_MM,
  applyWalkStep,
  walkDirection,
  walkPoseFromOrbit,
  walkStepForKey,
} from '../../../engine/interaction/walkMode';

describe('walk mode keys (viewer.md §9: w/s/a/d with left button, x/c/q/e with right button, delta 400)', () => {
  it('maps w/s/a/d without or with the left button and ignores them with the right button', () => {
    expect(WALK_DELTA_MM).toBe(400);
    for (const buttons of [0, 1]) {
      expect(walkStepForKey('w', buttons)).toEqual({ forward: 400, right: 0, up: 0, yaw: 0 });
      expect(walkStepForKey('S', buttons)).toEqual({ forward: -400, right: 0, up: 0, yaw: 0 });
      expect(walkStepForKey('a', buttons)).toEqual({ forward: 0, right: -400, up: 0, yaw: 0 });
      expect(walkStepForKey('d', buttons)).toEqual({ forward: 0, right: 400, up: 0, yaw: 0 });
      expect(walkStepForKey('x', buttons)).toBeNull();
    }
    expect(walkStepForKey('w', 2)).toBeNull();
  });
  it('maps x/c/q/e with the right button', () => {
    expect(walkStepForKey('x', 2)).toEqual({ forward: 0, right: 0, up: -400, yaw: 0 });
    expect(walkStepForKey('c', 2)).toEqual({ forward: 0, right: 0, up: 400, yaw: 0 });
    expect(walkStepForKey('q', 2)!.yaw).toBeGreaterThan(0);
    expect(walkStepForKey('e', 2)!.yaw).toBeLessThan(0);
    expect(walkStepForKey('z', 2)).toBeNull();
  });
  it('walks horizontally along the heading, sideways to the right, and up along Z', () => {
    const pose = { eye: [0, 0, 1000] as [number, number, number], heading: 90, pitch: 20 };
    const f = applyWalkStep(pose, walkStepForKey('w', 0)!);
    expect(f.eye[0]).toBeCloseTo(0);
    expect(f.eye[1]).toBeCloseTo(400);
    expect(f.eye[2]).toBe(1000); // pitch does not lift the walker
    const r = applyWalkStep(pose, walkStepForKey('d', 0)!);
    expect(r.eye[0]).toBeCloseTo(400); // heading +Y, right is +X
    expect(applyWalkStep(pose, walkStepForKey('c', 2)!).eye[2]).toBe(1400);
  });
  it('starts level, looking the way the orbit camera looked, backed off to keep the view width', () => {
    // Orbit longitude 90 (View along Y: camera on −Y... looking towards +Y per cameraMath's convention).
    const p = walkPoseFromOrbit([0, 0, 0], 90, 1000, 2);
    expect(p.pitch).toBe(0);
    const d = walkDirection(p);
    expect(d[1]).toBeCloseTo(1);
    expect(d[2]).toBe(0);
    expect(p.eye[2]).toBe(0);
    expect(p.eye[1]).toBeLessThan(0);
  });
});
