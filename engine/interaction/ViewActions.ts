/**
 * The camera view actions of the engine facade (viewer.md §4 "Camera", §9 "Camera and input"):
 * double-click resets the orbit target (200 ms debounce), Fit to window, animated orbits and the
 * projection views along ±X/±Y/±Z (700 ms), walk mode on/off, walk keys and the wheel. Split out of
 * Engine.ts so the facade stays a dispatcher; every action ends with `cameraMoved()` (the next frame is
 * drawn and a throttled camera-changed event follows); wheel and walk keys pulse the interactive detail
 * (NavigationQuality). World units mm, angles degrees.
 */
import type { EngineEvent, KeyInput, ProjectionAxis, ViewInsets, WheelInput } from '../EngineApi';
import { isBoxValid, type Box3Tuple } from '../model/types';
import type { ModelScene } from '../scene/ModelScene';
import type { CameraRig } from './CameraRig';
import { CAMERA_CONSTANTS, PROJECTION_ORBITS, type Vec3 } from './cameraMath';
import type { NavigationQuality } from './NavigationQuality';

/** What the view actions need of the engine. */
export interface ViewActionHost {
  cams: CameraRig;
  model(): ModelScene | null;
  /** Model pick with the clipping filter: world point (mm) of the nearest visible hit, or null. */
  pickPoint(x: number, y: number): [number, number, number] | null;
  emit(event: EngineEvent): void;
  /** Marks the camera changed and schedules a frame. */
  cameraMoved(): void;
  /** Turns box selection on or off (off in walk mode). */
  setBoxEnabled(on: boolean): void;
  /** Interactive detail: wheel zoom and walk keys pulse it (it lasts NAV_IDLE_MS after the last one). */
  nav: Pick<NavigationQuality, 'pulse'>;
  now(): number;
}

/** Camera actions shared by toolbar, keyboard and context menu (through the EngineApi facade). */
export class ViewActions {
  private lastDoubleClick = -Infinity;

  constructor(private readonly h: ViewActionHost) {}

  /** viewer.md §4: double-click sets the orbit target to the point under the cursor, else the visible centre. */
  doubleClick(x: number, y: number): void {
    const { cams } = this.h;
    if (cams.walking) return;
    const t = this.h.now();
    if (t - this.lastDoubleClick < CAMERA_CONSTANTS.doubleClickDebounceMs) return;
    this.lastDoubleClick = t;
    const point = this.h.pickPoint(x, y);
    if (point) cams.orbit.setTarget(point);
    else {
      const b = this.h.model()?.visibleBounds();
      if (!b) return;
      cams.orbit.setTarget([(b[0] + b[3]) / 2, (b[1] + b[4]) / 2, (b[2] + b[5]) / 2] as Vec3);
    }
    this.h.cameraMoved();
  }

  /**
   * Fits the visible objects (else the package bounds) into the view, into the canvas part `insets` (CSS px
   * covered by the UI's controls along each edge) leave free; no-op without a model.
   */
  fitToWindow(insets?: ViewInsets): void {
    const m = this.h.model();
    const box: Box3Tuple | null = m
      ? (m.visibleBounds() ?? (isBoxValid(m.header.bounds) ? m.header.bounds : null))
      : null;
    if (!box) return;
    this.h.cams.orbit.fit(box, insets);
    this.h.cameraMoved();
  }

  /** Animates the orbit to (longitude, latitude) degrees. @throws Error when an angle is not finite. */
  orbitTo(longitude: number, latitude: number, animateMs: number = CAMERA_CONSTANTS.projectionMs): void {
    if (!Number.isFinite(longitude) || !Number.isFinite(latitude))
      throw new Error(`orbitTo: angles ${longitude}/${latitude} are not finite`);
    this.h.cams.orbit.animateOrbit(longitude, latitude, animateMs, this.h.now());
    this.h.cameraMoved();
  }

  /** Projection view along an axis (leaves walk mode first). @throws Error on an unknown axis. */
  viewAlong(axis: ProjectionAxis): void {
    const o = PROJECTION_ORBITS[axis];
    if (!o) throw new Error(`viewAlong: unknown axis "${axis}" (X, Y, Z, -X, -Y, -Z)`);
    if (this.h.cams.walking) this.setWalkMode(false);
    this.orbitTo(o[0], o[1], CAMERA_CONSTANTS.projectionMs);
  }

  /** Walk mode on/off; emits walk-mode-changed (and clears the selection box when entering). */
  setWalkMode(on: boolean): void {
    if (!this.h.cams.setWalkMode(on)) return;
    if (on) this.h.emit({ type: 'box-changed', box: null });
    this.h.setBoxEnabled(!on);
    this.h.emit({ type: 'walk-mode-changed', on });
    this.h.cameraMoved();
  }

  /** Walk-mode keys (w/s/a/d, x/c/q/e). */
  key(input: KeyInput): void {
    if (!this.h.cams.key(input)) return;
    this.h.nav.pulse('keys');
    this.h.cameraMoved();
  }

  /** Wheel: zoom towards the cursor (orbit) or step (walk). */
  wheel(input: WheelInput): void {
    this.h.cams.wheel(input);
    this.h.nav.pulse('wheel');
    this.h.cameraMoved();
  }
}
