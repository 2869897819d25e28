/**
 * The walk-mode camera (viewer.md §4 "Walk mode": "switches to perspective projection, aligns the camera
 * to the Z axis"): a THREE.PerspectiveCamera driven by a WalkPose (./walkMode.ts) with Z up.
 */
import { PerspectiveCamera, Raycaster, Vector2 } from 'three';
import { screenToNdc } from './cameraMath';
import { WALK_FOV_DEG, applyWalkStep, walkDirection, walkLook, type WalkPose, type WalkStep } from './walkMode';

/** Perspective camera for walk mode. */
export class WalkCamera {
  readonly camera = new PerspectiveCamera(WALK_FOV_DEG, 1, 10, 1e7);
  pose: WalkPose = { eye: [0, 0, 0], heading: 0, pitch: 0 };
  private viewportWidth = 1;
  private viewportHeight = 1;

  constructor() {
    this.camera.up.set(0, 0, 1);
    this.apply();
  }

  /** Canvas size in CSS px. */
  setViewport(width: number, height: number): void {
    this.viewportWidth = width;
    this.viewportHeight = height;
    this.camera.aspect = width / height;
    this.apply();
  }

  /** Near/far planes for a scene radius (mm). */
  setSceneRadius(radius: number): void {
    this.camera.near = Math.max(1, radius / 100000);
    this.camera.far = Math.max(10_000, radius * 8);
    this.apply();
  }

  /** Places the walker. */
  setPose(pose: WalkPose): void {
    this.pose = pose;
    this.apply();
  }

  /** One key step. */
  step(s: WalkStep): void {
    this.setPose(applyWalkStep(this.pose, s));
  }

  /** Looks around by a drag (CSS px). */
  look(dx: number, dy: number, degPerPx: number): void {
    this.setPose(walkLook(this.pose, dx, dy, degPerPx));
  }

  /** Ray through a canvas position (CSS px). */
  raycaster(x: number, y: number): Raycaster {
    const ndc = screenToNdc(x, y, this.viewportWidth, this.viewportHeight);
    const rc = new Raycaster();
    rc.setFromCamera(new Vector2(ndc[0], ndc[1]), this.camera);
    return rc;
  }

  private apply(): void {
    const [x, y, z] = this.pose.eye;
    const d = walkDirection(this.pose);
    this.camera.position.set(x, y, z);
    this.camera.up.set(0, 0, 1);
    this.camera.lookAt(x + d[0], y + d[1], z + d[2]);
    this.camera.updateProjectionMatrix();
    this.camera.updateMatrixWorld(true);
  }
}
