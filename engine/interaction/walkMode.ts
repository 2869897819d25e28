/**
 * Walk mode kernels (viewer.md §4 "Walk mode", §9 "walk mode keys w/s/a/d with left button and x/c/q/e
 * with right button, delta 400"). Pure: key → movement, the walk camera's frame, and the start pose
 * derived from the orbit view.
 *
 * Key scheme (documented choice; the spec names the keys and buttons only):
 * - with no button or the left button held: w forward, s back, a left, d right (horizontal moves);
 * - with the right button held: x down, c up, q turn left, e turn right.
 * Each key press (and key repeat) moves 400 mm (WALK_DELTA_MM) or turns by WALK_TURN_DEG.
 * Mouse drag in walk mode looks around (yaw/pitch at the orbit rate 0.3°/px).
 */
import type { Vec3 } from './cameraMath';

/** Movement per key press, mm (viewer.md §9 "delta 400"). */
export const WALK_DELTA_MM = 400;
/** Turn per q/e press, degrees (the wheel-tilt step of viewer.md §9). */
export const WALK_TURN_DEG = 3;
/** Vertical field of view of the walk camera, degrees. */
export const WALK_FOV_DEG = 60;

/** A walk step: forward/right/up in mm along the walker's frame, yaw in degrees (+ turns left). */
export interface WalkStep {
  forward: number;
  right: number;
  up: number;
  yaw: number;
}

/**
 * Movement for a key with the mouse buttons held (PointerEvent.buttons bitmask: 1 left, 2 right), or null
 * when the key does nothing in that state. Keys are matched case-insensitively.
 */
export function walkStepForKey(key: string, buttons: number): WalkStep | null {
  const k = key.toLowerCase();
  const right = (buttons & 2) !== 0;
  const step = (forward: number, r: number, up: number, yaw: number): WalkStep => ({ forward, right: r, up, yaw });
  if (!right) {
    switch (k) {
      case 'w':
        return step(WALK_DELTA_MM, 0, 0, 0);
      case 's':
        return step(-WALK_DELTA_MM, 0, 0, 0);
      case 'a':
        return step(0, -WALK_DELTA_MM, 0, 0);
      case 'd':
        return step(0, WALK_DELTA_MM, 0, 0);
      default:
        return null;
    }
  }
  switch (k) {
    case 'x':
      return step(0, 0, -WALK_DELTA_MM, 0);
    case 'c':
      return step(0, 0, WALK_DELTA_MM, 0);
    case 'q':
      return step(0, 0, 0, WALK_TURN_DEG);
    case 'e':
      return step(0, 0, 0, -WALK_TURN_DEG);
    default:
      return null;
  }
}

/** The walker: eye position (mm), heading (degrees, 0 = looking along +X, 90 = along +Y) and pitch (degrees). */
export interface WalkPose {
  eye: Vec3;
  heading: number;
  pitch: number;
}

const RAD = Math.PI / 180;

/** Unit look direction of a pose (Z up). */
export function walkDirection(pose: WalkPose): Vec3 {
  const h = pose.heading * RAD,
    p = pose.pitch * RAD;
  return [Math.cos(p) * Math.cos(h), Math.cos(p) * Math.sin(h), Math.sin(p)];
}

/**
 * Applies a step: forward/back and sideways moves stay horizontal (walking, Z up), up/down moves along Z,
 * yaw turns the heading. Returns a new pose.
 */
export function applyWalkStep(pose: WalkPose, s: WalkStep): WalkPose {
  const h = pose.heading * RAD;
  const fx = Math.cos(h),
    fy = Math.sin(h);
  // Right of the heading with Z up: (sin h, −cos h).
  const rx = Math.sin(h),
    ry = -Math.cos(h);
  return {
    eye: [pose.eye[0] + fx * s.forward + rx * s.right, pose.eye[1] + fy * s.forward + ry * s.right, pose.eye[2] + s.up],
    heading: normalizeHeading(pose.heading + s.yaw),
    pitch: pose.pitch,
  };
}

/** Looks around by a drag of (dx, dy) CSS px at `degPerPx`: right turns right, up looks up; pitch within ±85°. */
export function walkLook(pose: WalkPose, dx: number, dy: number, degPerPx: number): WalkPose {
  return {
    eye: pose.eye,
    heading: normalizeHeading(pose.heading - dx * degPerPx),
    pitch: Math.max(-85, Math.min(85, pose.pitch - dy * degPerPx)),
  };
}

/**
 * The walk pose that starts from an orbit view "aligned to the Z axis" (viewer.md §4): level (pitch 0),
 * heading along the horizontal part of the orbit's view direction, eye backed off from the target so that
 * the orbit's view width fits the perspective field of view.
 * `longitude` uses the orbit convention of cameraMath.ts (camera direction (cos lat·cos lon, −cos lat·sin lon, sin lat)).
 */
export function walkPoseFromOrbit(target: Vec3, longitude: number, width: number, aspect: number): WalkPose {
  // The camera looks from +back towards the target: heading = direction of −back projected on XY.
  const lon = longitude * RAD;
  const bx = Math.cos(lon),
    by = -Math.sin(lon);
  const heading = normalizeHeading(Math.atan2(-by, -bx) / RAD);
  const halfH = width / Math.max(aspect, 1e-6) / 2;
  const back = halfH / Math.tan((WALK_FOV_DEG / 2) * RAD);
  return { eye: [target[0] + bx * back, target[1] + by * back, target[2]], heading, pitch: 0 };
}

function normalizeHeading(d: number): number {
  let h = d % 360;
  if (h <= -180) h += 360;
  if (h > 180) h -= 360;
  return h === 0 ? 0 : h;
}
