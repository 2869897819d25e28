/**
 * The orbit camera of the viewer (viewer.md §4 "Camera", §9 "Camera and input"): an orthographic
 * THREE camera driven by orbit state (longitude/latitude in degrees, target and view width in mm) using the
 * pure kernels of ./cameraMath.ts (orbit convention documented there). Handles orbit drags with axis
 * snapping, pan, zoom to the cursor, fit to a box and animated orbits. Works in Node (no renderer).
 */
import { OrthographicCamera, Raycaster, Vector2 } from 'three';
import type { OrbitView } from '../EngineApi';
import {
  CAMERA_CONSTANTS,
  clampLatitude,
  clampWidth,
  easeInOut,
  type FitInsets,
  fitBoxToView,
  interpolateOrbit,
  NO_INSETS,
  normalizeLongitude,
  orbitBasis,
  orbitDrag,
  panTarget,
  screenToNdc,
  wheelSteps,
  zoomAtCursor,
  type Vec3,
} from './cameraMath';

interface OrbitAnimation {
  from: { longitude: number; latitude: number };
  to: { longitude: number; latitude: number };
  start: number;
  duration: number;
}

/** Orbit state plus the THREE.OrthographicCamera it drives. */
export class OrbitCamera {
  readonly camera = new OrthographicCamera(-1, 1, 1, -1, 1, 1000);
  longitude = 160;
  latitude = 10;
  target: Vec3 = [0, 0, 0];
  width = 10_000;
  /** Canvas size in CSS px. */
  viewportWidth = 1;
  viewportHeight = 1;
  /** Radius (mm) of the scene around its centre, for near/far planes. */
  private sceneCenter: Vec3 = [0, 0, 0];
  private sceneRadius = 1000;
  private raw = { longitude: 160, latitude: 10 };
  private animation: OrbitAnimation | null = null;

  constructor() {
    this.apply();
  }

  /** Current view as the facade's OrbitView (degrees, mm). */
  getView(): OrbitView {
    return {
      longitude: this.longitude,
      latitude: this.latitude,
      distance: this.distance(),
      target: { x: this.target[0], y: this.target[1], z: this.target[2] },
      width: this.width,
      height: this.width / this.aspect(),
    };
  }

  /** Canvas size in CSS pixels. @throws Error when not positive. */
  setViewport(width: number, height: number): void {
    if (!(width > 0 && height > 0)) throw new Error(`Viewport size ${width}×${height} is not positive`);
    this.viewportWidth = width;
    this.viewportHeight = height;
    this.apply();
  }

  /** Scene bounds (mm) used for the camera distance and near/far planes. */
  setSceneBounds(box: ArrayLike<number>): void {
    this.sceneCenter = [(box[0] + box[3]) / 2, (box[1] + box[4]) / 2, (box[2] + box[5]) / 2];
    this.sceneRadius = Math.max(1, Math.hypot(box[3] - box[0], box[4] - box[1], box[5] - box[2]) / 2);
    this.apply();
  }

  /** Sets the orbit angles at once (cancels an animation). */
  setOrbit(longitude: number, latitude: number): void {
    this.animation = null;
    this.longitude = normalizeLongitude(longitude);
    this.latitude = clampLatitude(latitude);
    this.raw = { longitude: this.longitude, latitude: this.latitude };
    this.apply();
  }

  /** Starts an animated orbit to the angles over `durationMs` (0 = at once). */
  animateOrbit(longitude: number, latitude: number, durationMs: number, now: number): void {
    if (!(durationMs > 0)) return this.setOrbit(longitude, latitude);
    this.animation = {
      from: { longitude: this.longitude, latitude: this.latitude },
      to: { longitude: normalizeLongitude(longitude), latitude: clampLatitude(latitude) },
      start: now,
      duration: durationMs,
    };
  }

  /** Advances an animation; returns true while the camera changed this step. */
  tick(now: number): boolean {
    const a = this.animation;
    if (!a) return false;
    const t = Math.min(1, (now - a.start) / a.duration);
    const o = t >= 1 ? a.to : interpolateOrbit(a.from, a.to, easeInOut(t));
    this.longitude = o.longitude;
    this.latitude = o.latitude;
    this.raw = { ...o };
    if (t >= 1) this.animation = null;
    this.apply();
    return true;
  }

  /** True while an orbit animation runs. */
  get animating(): boolean {
    return this.animation !== null;
  }

  /** Orbit drag of (dx, dy) CSS px at 0.3°/px with axis snapping within 4° of multiples of 90°. */
  orbitBy(dx: number, dy: number): void {
    this.animation = null;
    const r = orbitDrag(this.raw, dx, dy);
    this.raw = r.raw;
    this.longitude = r.view.longitude;
    this.latitude = r.view.latitude;
    this.apply();
  }

  /** Pans by a pointer movement of (dx, dy) CSS px. */
  panBy(dx: number, dy: number): void {
    const b = orbitBasis(this.longitude, this.latitude);
    this.target = panTarget(this.target, b, dx, dy, this.width / this.viewportWidth);
    this.apply();
  }

  /** Wheel zoom towards the canvas position (x, y) CSS px; deltaY > 0 zooms out. */
  zoomAt(x: number, y: number, deltaY: number): void {
    const steps = wheelSteps(deltaY);
    if (steps !== 0) this.zoomSteps(x, y, steps);
  }

  /**
   * Zooms by a factor on the view width (> 1 zooms out) about the canvas position (x, y) CSS px, e.g. a
   * pinch (scale = previous finger distance / new distance). Same cursor-fixed zoom as the wheel.
   */
  zoomByFactor(x: number, y: number, factor: number): void {
    if (!(factor > 0) || factor === 1) return;
    this.zoomSteps(x, y, -Math.log(factor) / Math.log(CAMERA_CONSTANTS.zoomFactor));
  }

  /** Zooms by `steps` wheel steps of 0.8 (fractional allowed) keeping the point under (x, y) CSS px fixed. */
  private zoomSteps(x: number, y: number, steps: number): void {
    const b = orbitBasis(this.longitude, this.latitude);
    const ndc = screenToNdc(x, y, this.viewportWidth, this.viewportHeight);
    const r = zoomAtCursor({ target: this.target, width: this.width, aspect: this.aspect() }, b, ndc, steps);
    this.target = r.target;
    this.width = r.width;
    this.apply();
  }

  /** Turns the orbit longitude by `deg` (tilt wheel), keeping snapping state consistent. */
  turnBy(deg: number): void {
    if (deg === 0) return;
    this.setOrbit(this.longitude + deg, this.latitude);
  }

  /** Restores a saved view (angles, target, width), e.g. when walk mode ends. */
  setView(v: {
    longitude: number;
    latitude: number;
    target: { x: number; y: number; z: number };
    width: number;
  }): void {
    this.animation = null;
    this.target = [v.target.x, v.target.y, v.target.z];
    this.width = v.width;
    this.setOrbit(v.longitude, v.latitude);
  }

  /**
   * Fits a world box (mm) into the view at the orbit the camera is heading to (the end of a running
   * animation), 10 % margin, inside the part of the canvas `insets` (CSS px covered along each edge)
   * leave free. @throws Error when the box is empty.
   */
  fit(box: ArrayLike<number>, insets: Readonly<FitInsets> = NO_INSETS): void {
    const o = this.animation ? this.animation.to : { longitude: this.longitude, latitude: this.latitude };
    const w = this.viewportWidth,
      h = this.viewportHeight;
    const fractions = {
      top: insets.top / h,
      right: insets.right / w,
      bottom: insets.bottom / h,
      left: insets.left / w,
    };
    const r = fitBoxToView(box, orbitBasis(o.longitude, o.latitude), this.aspect(), 1.1, fractions);
    this.target = r.target;
    this.width = r.width;
    this.apply();
  }

  /** Moves the orbit target to a point (mm), keeping angles and width. */
  setTarget(p: Vec3): void {
    this.target = [p[0], p[1], p[2]];
    this.apply();
  }

  /** Ray through a canvas position (CSS px) for picking. */
  raycaster(x: number, y: number): Raycaster {
    const ndc = screenToNdc(x, y, this.viewportWidth, this.viewportHeight);
    const rc = new Raycaster();
    rc.setFromCamera(new Vector2(ndc[0], ndc[1]), this.camera);
    return rc;
  }

  private aspect(): number {
    return this.viewportWidth / this.viewportHeight;
  }

  /** Camera distance from the target: outside the scene's bounding sphere whatever the target. */
  private distance(): number {
    const t = this.target,
      c = this.sceneCenter;
    return Math.hypot(t[0] - c[0], t[1] - c[1], t[2] - c[2]) + this.sceneRadius * 2 + 1000;
  }

  /** Writes the orbit state into the THREE camera (position, up, frustum, near/far). */
  private apply(): void {
    this.width = clampWidth(this.width);
    const b = orbitBasis(this.longitude, this.latitude);
    const d = this.distance();
    const cam = this.camera;
    cam.position.set(this.target[0] + b.back[0] * d, this.target[1] + b.back[1] * d, this.target[2] + b.back[2] * d);
    cam.up.set(b.up[0], b.up[1], b.up[2]);
    cam.lookAt(this.target[0], this.target[1], this.target[2]);
    const hw = this.width / 2,
      hh = this.width / this.aspect() / 2;
    cam.left = -hw;
    cam.right = hw;
    cam.top = hh;
    cam.bottom = -hh;
    // Orthographic depth is linear, so a near plane of 1 mm costs no precision.
    cam.near = 1;
    cam.far =
      d +
      Math.hypot(
        this.target[0] - this.sceneCenter[0],
        this.target[1] - this.sceneCenter[1],
        this.target[2] - this.sceneCenter[2],
      ) +
      this.sceneRadius +
      1000;
    cam.updateProjectionMatrix();
    cam.updateMatrixWorld(true);
  }
}

export { CAMERA_CONSTANTS };
