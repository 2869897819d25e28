/**
 * Pure camera math of the orbit camera (viewer.md §4 "Camera", §9 "Camera and input"). No three.js, no
 * DOM: data in, result out, so the kernels are tested in Node.
 *
 * Orbit convention (used everywhere in Keelson, also by the thumbnail renderer):
 * - World Z is up; lengths are millimetres; angles are degrees.
 * - `latitude` is the camera's elevation above the XY plane (−90 below … +90 above).
 * - `longitude` is measured in the XY plane from +X towards −Y (clockwise seen from above).
 *   The unit vector from the orbit target to the camera is
 *   `(cos lat · cos lon, −cos lat · sin lon, sin lat)`.
 * - The camera looks at the target; its screen "up" is the derivative of that vector with latitude,
 *   `(−sin lat · cos lon, sin lat · sin lon, cos lat)`, which stays defined at the poles.
 * This reproduces viewer.md §9's projection pairs as "looking along the positive axis":
 * View along X = 180/0 (camera aft, port on the left), Y = 90/0 (camera on starboard, bow to the right,
 * the usual profile), Z = 90/−90 (from below), −X = 0/0, −Y = −90/0, −Z = 90/90 (plan view from above
 * with X to the right and Y up).
 */

/** A 3-vector [x, y, z] (world mm or a unit direction). */
export type Vec3 = [number, number, number];

/** viewer.md §9 constants of the camera and input. */
export const CAMERA_CONSTANTS = {
  /** Orbit rate, degrees per CSS pixel of drag. */
  orbitDegPerPx: 0.3,
  /** Width multiplier per wheel step towards the model (zoom in); zoom out divides by it. */
  zoomFactor: 0.8,
  /** Orthographic view width clamp, mm. */
  minWidth: 100,
  maxWidth: 2_000_000,
  /** Axis snapping while orbiting: step and tolerance in degrees. */
  snapStepDeg: 90,
  snapToleranceDeg: 4,
  /** Duration of projection orbits (View along …), ms. */
  projectionMs: 700,
  /** Drag / pointer movement threshold, CSS px. */
  dragThresholdPx: 3,
  /** Double-click orbit-target reset debounce, ms. */
  doubleClickDebounceMs: 200,
  /** Touch hold that opens the context menu, ms. */
  touchHoldMs: 1000,
  /** Orbit turn per tilt-wheel (horizontal wheel) notch, degrees. */
  wheelTiltDeg: 3,
} as const;

/** Axis names of the Projection submenu (viewer.md §2 "View along X, Y, Z, -X, -Y, -Z"). */
export type ProjectionAxis = 'X' | 'Y' | 'Z' | '-X' | '-Y' | '-Z';

/** viewer.md §9 projection orbits [longitude, latitude] of the context menu's Projection submenu. */
export const PROJECTION_ORBITS = {
  X: [180, 0],
  Y: [90, 0],
  Z: [90, -90],
  '-X': [0, 0],
  '-Y': [-90, 0],
  '-Z': [90, 90],
} as const satisfies Record<string, readonly [number, number]>;

/**
 * Longitude change (degrees) for a tilt-wheel input (viewer.md §9 "wheel tilt 3 degrees"): each notch of
 * horizontal wheel movement (deltaX; Shift+wheel on a plain wheel) turns the orbit by 3°; tilting right
 * (deltaX > 0) turns like dragging right. 0 when there is no horizontal movement.
 */
export function wheelTilt(deltaX: number, deltaY: number, shiftKey: boolean): number {
  const d = deltaX !== 0 ? deltaX : shiftKey ? deltaY : 0;
  if (!Number.isFinite(d) || d === 0) return 0;
  const notches = Math.abs(d) >= 50 ? Math.max(1, Math.round(Math.abs(d) / 100)) : 1;
  return Math.sign(d) * Math.min(notches, 10) * CAMERA_CONSTANTS.wheelTiltDeg;
}

/** Camera frame for an orbit: `back` points from the target to the camera; right × up = back. */
export interface OrbitBasis {
  back: Vec3;
  up: Vec3;
  right: Vec3;
}

const RAD = Math.PI / 180;

/** Orbit frame for longitude/latitude in degrees (convention in the file docstring). */
export function orbitBasis(longitude: number, latitude: number): OrbitBasis {
  const lon = longitude * RAD,
    lat = latitude * RAD;
  const cl = Math.cos(lat),
    sl = Math.sin(lat),
    co = Math.cos(lon),
    so = Math.sin(lon);
  const back: Vec3 = [cl * co, -cl * so, sl];
  const up: Vec3 = [-sl * co, sl * so, cl];
  return { back, up, right: cross(up, back) };
}

/** Cross product a × b. */
export function cross(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

/** Dot product. */
export function dot(a: Vec3, b: Vec3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/** Wraps a longitude into (−180, 180]. */
export function normalizeLongitude(deg: number): number {
  let d = deg % 360;
  if (d <= -180) d += 360;
  if (d > 180) d -= 360;
  return d === 0 ? 0 : d;
}

/** Clamps a latitude into [−90, 90]. */
export function clampLatitude(deg: number): number {
  return Math.max(-90, Math.min(90, deg));
}

/**
 * Snaps an angle to the nearest multiple of `step` when within `tolerance` of it (viewer.md §4: "snaps to
 * axis-aligned views when within 4 degrees of a multiple of 90"); otherwise returns it unchanged.
 */
export function snapAngle(
  deg: number,
  step: number = CAMERA_CONSTANTS.snapStepDeg,
  tolerance: number = CAMERA_CONSTANTS.snapToleranceDeg,
): number {
  const nearest = Math.round(deg / step) * step;
  return Math.abs(deg - nearest) <= tolerance ? nearest : deg;
}

/**
 * Applies an orbit drag of (dx, dy) CSS px to raw (unsnapped) angles at 0.3°/px: dragging right increases
 * longitude, dragging down raises the camera. Returns the new raw angles (latitude clamped, longitude
 * wrapped) and the displayed angles with axis snapping applied.
 */
export function orbitDrag(
  raw: { longitude: number; latitude: number },
  dx: number,
  dy: number,
): { raw: { longitude: number; latitude: number }; view: { longitude: number; latitude: number } } {
  const k = CAMERA_CONSTANTS.orbitDegPerPx;
  const longitude = normalizeLongitude(raw.longitude + dx * k);
  const latitude = clampLatitude(raw.latitude + dy * k);
  return {
    raw: { longitude, latitude },
    view: { longitude: normalizeLongitude(snapAngle(longitude)), latitude: clampLatitude(snapAngle(latitude)) },
  };
}

/** Clamps an orthographic view width to viewer.md §9's 100…2,000,000 mm. */
export function clampWidth(width: number): number {
  return Math.max(CAMERA_CONSTANTS.minWidth, Math.min(CAMERA_CONSTANTS.maxWidth, width));
}

/**
 * Number of 0.8 zoom steps for a wheel delta (deltaY > 0 zooms out). A mouse notch (|deltaY| ≥ 50, usually
 * 100 px or 3 lines) counts as whole steps; small trackpad deltas give fractional steps (deltaY / 100).
 */
export function wheelSteps(deltaY: number): number {
  if (!Number.isFinite(deltaY) || deltaY === 0) return 0;
  const a = Math.abs(deltaY);
  const steps = a >= 50 ? Math.max(1, Math.round(a / 100)) : a / 100;
  return Math.sign(deltaY) * Math.min(steps, 10);
}

/**
 * Zoom towards the cursor in an orthographic view: the world point under the cursor stays put.
 * `ndc` is the cursor in normalised device coordinates (−1…1, y up); `steps` > 0 zooms out (width / 0.8
 * per step), < 0 zooms in (width × 0.8 per step). The width is clamped to 100…2,000,000 mm; the target
 * moves in the view plane by (cursor offset) × (1 − newWidth / width).
 */
export function zoomAtCursor(
  view: { target: Vec3; width: number; aspect: number },
  basis: OrbitBasis,
  ndc: [number, number],
  steps: number,
): { target: Vec3; width: number } {
  const width = clampWidth(view.width * CAMERA_CONSTANTS.zoomFactor ** -steps);
  const k = 1 - width / view.width;
  const ox = (ndc[0] * view.width) / 2;
  const oy = (ndc[1] * view.width) / view.aspect / 2;
  const t = view.target;
  return {
    width,
    target: [
      t[0] + (basis.right[0] * ox + basis.up[0] * oy) * k,
      t[1] + (basis.right[1] * ox + basis.up[1] * oy) * k,
      t[2] + (basis.right[2] * ox + basis.up[2] * oy) * k,
    ],
  };
}

/**
 * Pans the view by a pointer movement of (dx, dy) CSS px so the model follows the pointer.
 * `pxToMm` = view width (mm) / canvas width (CSS px).
 */
export function panTarget(target: Vec3, basis: OrbitBasis, dx: number, dy: number, pxToMm: number): Vec3 {
  const mx = -dx * pxToMm,
    my = dy * pxToMm;
  return [
    target[0] + basis.right[0] * mx + basis.up[0] * my,
    target[1] + basis.right[1] * mx + basis.up[1] * my,
    target[2] + basis.right[2] * mx + basis.up[2] * my,
  ];
}

/**
 * Bands along the canvas edges that the viewer's own controls cover (toolbars drawn over the 3D view), as
 * fractions of the canvas width (left, right) and height (top, bottom), each 0 … 0.4.
 */
export interface FitInsets {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/** No part of the canvas covered. */
export const NO_INSETS: Readonly<FitInsets> = { top: 0, right: 0, bottom: 0, left: 0 };

/**
 * Fits an axis-aligned box [minX, minY, minZ, maxX, maxY, maxZ] (mm) into an orthographic view of the
 * given orbit basis and aspect (width / height): projects the 8 corners onto the screen axes (so any
 * orbit or tilt fits the whole box), sizes the view so that extent plus `margin` (1.1 = 10 % border)
 * fills the part of the canvas the `insets` leave free, centres the box in that part, and returns the
 * clamped view width. @throws Error when the box is empty (min > max) or not finite.
 */
export function fitBoxToView(
  box: ArrayLike<number>,
  basis: OrbitBasis,
  aspect: number,
  margin = 1.1,
  insets: Readonly<FitInsets> = NO_INSETS,
): { target: Vec3; width: number; depth: number } {
  for (let i = 0; i < 6; i++)
    if (!Number.isFinite(box[i])) throw new Error(`fitBoxToView: box value ${i} is not finite`);
  if (box[0] > box[3] || box[1] > box[4] || box[2] > box[5]) throw new Error('fitBoxToView: box is empty');
  let r0 = Infinity,
    r1 = -Infinity,
    u0 = Infinity,
    u1 = -Infinity,
    b0 = Infinity,
    b1 = -Infinity;
  for (let i = 0; i < 8; i++) {
    const p: Vec3 = [box[i & 1 ? 3 : 0], box[i & 2 ? 4 : 1], box[i & 4 ? 5 : 2]];
    const r = dot(p, basis.right),
      u = dot(p, basis.up),
      b = dot(p, basis.back);
    r0 = Math.min(r0, r);
    r1 = Math.max(r1, r);
    u0 = Math.min(u0, u);
    u1 = Math.max(u1, u);
    b0 = Math.min(b0, b);
    b1 = Math.max(b1, b);
  }
  const band = (v: number) => (Number.isFinite(v) ? Math.max(0, Math.min(0.4, v)) : 0);
  const l = band(insets.left),
    r = band(insets.right),
    t = band(insets.top),
    bo = band(insets.bottom);
  const width = clampWidth(Math.max((r1 - r0) / (1 - l - r), ((u1 - u0) * aspect) / (1 - t - bo)) * margin);
  // The view's centre sits off the box centre by half the difference of opposite bands.
  const rc = (r0 + r1) / 2 - ((l - r) / 2) * width,
    uc = (u0 + u1) / 2 - ((bo - t) / 2) * (width / aspect),
    bc = (b0 + b1) / 2;
  const target: Vec3 = [
    basis.right[0] * rc + basis.up[0] * uc + basis.back[0] * bc,
    basis.right[1] * rc + basis.up[1] * uc + basis.back[1] * bc,
    basis.right[2] * rc + basis.up[2] * uc + basis.back[2] * bc,
  ];
  return { target, width, depth: b1 - b0 };
}

/** Smooth ease-in-out for t in [0, 1]. */
export function easeInOut(t: number): number {
  const c = Math.max(0, Math.min(1, t));
  return c * c * (3 - 2 * c);
}

/**
 * Interpolates orbit angles for an animation at eased fraction t: latitude linearly, longitude along the
 * shorter way round. Result longitude wrapped into (−180, 180].
 */
export function interpolateOrbit(
  from: { longitude: number; latitude: number },
  to: { longitude: number; latitude: number },
  t: number,
): { longitude: number; latitude: number } {
  const dLon = normalizeLongitude(to.longitude - from.longitude);
  return {
    longitude: normalizeLongitude(from.longitude + dLon * t),
    latitude: from.latitude + (to.latitude - from.latitude) * t,
  };
}

/** Converts a canvas position (CSS px from the top-left) into normalised device coordinates (−1…1, y up). */
export function screenToNdc(x: number, y: number, width: number, height: number): [number, number] {
  if (!(width > 0 && height > 0)) throw new Error(`screenToNdc: canvas size ${width}×${height} is not positive`);
  return [(x / width) * 2 - 1, 1 - (y / height) * 2];
}
