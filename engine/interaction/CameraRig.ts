/**
 * The engine's cameras (viewer.md §4 "Camera", "Walk mode"; §9 "Camera and input"): the orthographic
 * orbit camera and the perspective walk camera with their head lights, which one is active, rays through
 * canvas positions, world → screen projection and the world size of a screen pixel (snap tolerance).
 * Works in Node (no renderer). Lengths mm, screen positions CSS px from the canvas' top-left corner.
 */
import { DirectionalLight, Matrix4, Vector3, type Camera, type Raycaster, type Scene } from 'three';
import type { KeyInput, OrbitView, WheelInput } from '../EngineApi';
import { CAMERA_CONSTANTS, wheelSteps, wheelTilt } from './cameraMath';
import { OrbitCamera } from './OrbitCamera';
import { WalkCamera } from './WalkCamera';
import { WALK_DELTA_MM, walkPoseFromOrbit, walkStepForKey } from './walkMode';

/** Orbit + walk cameras. */
export class CameraRig {
  readonly orbit = new OrbitCamera();
  readonly walk = new WalkCamera();
  private walkOn = false;
  private savedView: OrbitView | null = null;
  private readonly vp = new Matrix4();
  private readonly v = new Vector3();

  /** Head lights of the orbit and walk cameras; only the active camera's light is on (one light less to shade). */
  private readonly heads: [DirectionalLight, DirectionalLight];

  /** Adds both cameras (each with a head light riding with it) to `scene`. */
  constructor(scene: Scene) {
    this.heads = [this.orbit.camera, this.walk.camera].map((cam) => {
      const head = new DirectionalLight(0xffffff, 2.6);
      head.position.set(0.5, 0.8, 1);
      cam.add(head);
      scene.add(cam);
      return head;
    }) as [DirectionalLight, DirectionalLight];
    this.heads[1].visible = false;
  }

  /** The head lights of the orbit and walk cameras, in that order (a bench switches the idle one on to measure its cost). */
  get headLights(): readonly [DirectionalLight, DirectionalLight] {
    return this.heads;
  }

  get walking(): boolean {
    return this.walkOn;
  }

  /** The camera drawing the view. */
  get camera(): Camera {
    return this.walkOn ? this.walk.camera : this.orbit.camera;
  }

  get width(): number {
    return this.orbit.viewportWidth;
  }

  get height(): number {
    return this.orbit.viewportHeight;
  }

  setViewport(width: number, height: number): void {
    this.orbit.setViewport(width, height);
    this.walk.setViewport(width, height);
  }

  /** Ray through a canvas position of the active camera. */
  raycaster(x: number, y: number): Raycaster {
    return this.walkOn ? this.walk.raycaster(x, y) : this.orbit.raycaster(x, y);
  }

  /** View-projection matrix of the active camera (column-major elements), matrices updated first. */
  viewProjection(): Matrix4 {
    const cam = this.camera;
    cam.updateMatrixWorld(true);
    return this.vp.multiplyMatrices(cam.projectionMatrix, cam.matrixWorldInverse);
  }

  /**
   * World (mm) → canvas px with the matrix of `viewProjection()` (call that first), or null behind the
   * camera / outside the depth range.
   */
  project(x: number, y: number, z: number): [number, number] | null {
    const p = this.v.set(x, y, z).applyMatrix4(this.vp);
    if (!(p.z >= -1 && p.z <= 1)) return null;
    return [((p.x + 1) / 2) * this.width, ((1 - p.y) / 2) * this.height];
  }

  /** World size (mm) of one screen pixel at a point (orthographic: everywhere the same). */
  worldPerPixel(at: readonly [number, number, number]): number {
    if (!this.walkOn) return this.orbit.getView().width / Math.max(1, this.width);
    const cam = this.walk.camera;
    const d = Math.max(1, cam.position.distanceTo(this.v.set(at[0], at[1], at[2])));
    return (2 * d * Math.tan((cam.fov * Math.PI) / 360)) / Math.max(1, this.height);
  }

  /** The orbit view; in walk mode the walker's eye as target with its heading as longitude. */
  getView(): OrbitView {
    const v = this.orbit.getView();
    if (!this.walkOn) return v;
    const p = this.walk.pose;
    return { ...v, longitude: -p.heading, latitude: p.pitch, target: { x: p.eye[0], y: p.eye[1], z: p.eye[2] } };
  }

  /** Scene bounds (mm) for the orbit's depth range and the walker's speed. */
  setSceneBounds(b: readonly [number, number, number, number, number, number]): void {
    this.orbit.setSceneBounds(b as [number, number, number, number, number, number]);
    this.walk.setSceneRadius(Math.max(1, Math.hypot(b[3] - b[0], b[4] - b[1], b[5] - b[2]) / 2));
  }

  /**
   * Walk mode on: saves the orbit view and places the walker at its target; off: restores the saved view.
   * Returns false when nothing changed.
   */
  setWalkMode(on: boolean): boolean {
    if (on === this.walkOn) return false;
    if (on) {
      const v = this.orbit.getView();
      this.savedView = v;
      this.walk.setPose(
        walkPoseFromOrbit([v.target.x, v.target.y, v.target.z], v.longitude, v.width, v.width / v.height),
      );
    } else if (this.savedView) {
      this.orbit.setView(this.savedView);
      this.savedView = null;
    }
    this.walkOn = on;
    this.heads[0].visible = !on;
    this.heads[1].visible = on;
    return true;
  }

  /** Walk keys (viewer.md §9). Returns true when the camera moved. */
  key(input: KeyInput): boolean {
    if (!this.walkOn || input.kind !== 'down') return false;
    const step = walkStepForKey(input.key, input.buttons);
    if (!step) return false;
    this.walk.step(step);
    return true;
  }

  /** Wheel: zoom at the cursor / tilt (orbit), walk forward and back (walk mode). */
  wheel(input: WheelInput): void {
    if (this.walkOn) {
      const steps = wheelSteps(input.deltaY);
      if (steps !== 0) this.walk.step({ forward: -steps * WALK_DELTA_MM, right: 0, up: 0, yaw: 0 });
      return;
    }
    const tilt = wheelTilt(input.deltaX, input.deltaY, input.shiftKey);
    if (tilt !== 0) this.orbit.turnBy(tilt);
    else this.orbit.zoomAt(input.x, input.y, input.deltaY);
  }

  /** Drag gestures: orbit / look, pan (orbit only), pinch (zoom or walk). */
  orbitBy(dx: number, dy: number): void {
    if (this.walkOn) this.walk.look(dx, dy, CAMERA_CONSTANTS.orbitDegPerPx);
    else this.orbit.orbitBy(dx, dy);
  }

  panBy(dx: number, dy: number): void {
    if (!this.walkOn) this.orbit.panBy(dx, dy);
  }

  pinch(x: number, y: number, scale: number): void {
    if (this.walkOn) this.walk.step({ forward: (1 - scale) * WALK_DELTA_MM * 4, right: 0, up: 0, yaw: 0 });
    else this.orbit.zoomByFactor(x, y, scale);
  }
}
