/**
 * The clipping box in the engine (viewer.md §2 "Clipping controls", §4 "Clipping", §5, §9 "Clipping"):
 * six three.js clipping planes on the chunk materials, the planes drawn as translucent
 * quads (opacity 0.6 visible, 0 hidden), caps on the cut faces (scene/ClipCaps), plane dragging in the
 * view (pick a quad, drag along its normal; a move that would reach the opposite plane is refused), the
 * model opacity reduced while the planes are visible, and "a click that hits no plane hides the box".
 * Picks ignore geometry outside an active box (`accepts`). Emits clip-changed on every change. mm.
 */
import {
  DoubleSide,
  Group,
  Mesh,
  MeshBasicMaterial,
  PlaneGeometry,
  Plane,
  type Box3,
  type Raycaster,
  type Vector3,
} from 'three';
import type { ClipBox, ClipPlaneKey, ClipState, PointerInput } from '../EngineApi';
import { ClipCaps, placeFace } from '../scene/ClipCaps';
import type { SectionAxis } from '../section/types';
import {
  CLIP_CONSTANTS,
  CLIP_PLANE_KEYS,
  defaultClipBox,
  dragCoordinate,
  insideClipBox,
  isClipBoxValid,
  planeAxis,
  planeEquation,
  sectionSlab,
  withPlane,
} from './clipBox';
import type { ToolHost } from './ToolHost';

/** Plane quad colours per axis (x red-ish, y green-ish, z blue-ish), sRGB. */
const QUAD_COLORS = [0xd9735b, 0x6aa96a, 0x5b8bd9];

/** Clipping state, planes, quads, caps and the plane drag. */
export class ClippingManager {
  readonly group = new Group();
  /** The six planes in CLIP_PLANE_KEYS order; the same array is set on every chunk material. */
  readonly planes: Plane[] = CLIP_PLANE_KEYS.map(() => new Plane());
  readonly caps: ClipCaps;
  private readonly quads: Mesh[] = [];
  private box: ClipBox = { ...CLIP_CONSTANTS.fallback };
  private active = false;
  private visible = false;
  /** Called after every change (the engine refreshes annotation labels). */
  onChange: (() => void) | null = null;
  private drag: { key: ClipPlaneKey; grab: [number, number, number]; pointerId: number; offset: number } | null = null;

  constructor(private readonly host: ToolHost) {
    this.group.name = 'clipping';
    this.caps = new ClipCaps(this.planes);
    this.group.add(this.caps.group);
    const geometry = new PlaneGeometry(1, 1);
    CLIP_PLANE_KEYS.forEach((key) => {
      const { axis } = planeAxis(key);
      const q = new Mesh(
        geometry,
        new MeshBasicMaterial({
          color: QUAD_COLORS[axis],
          transparent: true,
          opacity: CLIP_CONSTANTS.visibleOpacity,
          side: DoubleSide,
          depthWrite: false,
        }),
      );
      q.name = `clip-plane-${key}`;
      q.renderOrder = 10;
      q.userData.clipPlane = key;
      this.quads.push(q);
      this.group.add(q);
    });
    host.scene.add(this.group);
    this.applyPlanes();
  }

  /** Box and flags (a copy). */
  state(): ClipState {
    return { box: { ...this.box }, active: this.active, visible: this.visible };
  }

  /** True while a plane is being dragged. */
  get dragging(): boolean {
    return this.drag !== null;
  }

  /** The translucent quad of a plane (tests, scene graph). */
  quad(key: ClipPlaneKey): Mesh {
    return this.quads[CLIP_PLANE_KEYS.indexOf(key)];
  }

  /** A new model: default box from its bounds, clipping off, caps forgotten. */
  modelLoaded(bounds: [number, number, number, number, number, number] | null): void {
    this.caps.clear();
    this.box = defaultClipBox(bounds);
    this.active = false;
    this.visible = false;
    this.drag = null;
    this.applyAll(false);
  }

  /** Chunks arrived: caps must cover them too. */
  chunksChanged(): void {
    if (this.active) this.caps.update(this.host.model(), this.box, true);
    this.host.model()?.setClippingPlanes(this.active ? this.planes : null);
  }

  /** Clipping on (cuts, planes shown) or off (whole model, planes hidden). */
  setActive(active: boolean): void {
    this.active = active;
    this.visible = active;
    this.drag = null;
    this.applyAll(true);
  }

  /** Shows or hides the planes while clipping stays as it is. */
  setVisible(visible: boolean): void {
    if (visible === this.visible) return;
    this.visible = visible;
    if (!visible) this.drag = null;
    this.applyAll(true);
  }

  /** Sets the whole box. Returns false (nothing changes) when it is not valid. */
  setBox(box: ClipBox): boolean {
    const b = { xMin: box.xMin, xMax: box.xMax, yMin: box.yMin, yMax: box.yMax, zMin: box.zMin, zMax: box.zMax };
    if (!isClipBoxValid(b)) return false;
    this.box = b;
    this.applyAll(true);
    return true;
  }

  /** Moves one plane; false when a min would reach its max or vice versa. */
  setPlane(key: ClipPlaneKey, mm: number): boolean {
    if (!CLIP_PLANE_KEYS.includes(key))
      throw new Error(`Unknown clipping plane "${key}" (xMin, xMax, yMin, yMax, zMin, zMax)`);
    const next = withPlane(this.box, key, mm);
    if (!next) return false;
    this.box = next;
    this.applyAll(true);
    return true;
  }

  /** The default box of the loaded model. */
  reset(): void {
    const m = this.host.model();
    this.box = defaultClipBox(m ? m.header.bounds : null);
    this.applyAll(true);
  }

  /** 'Clip to section': ±100 mm slab around the section, other axes from the default box; clipping on. */
  clipToSection(axis: SectionAxis, mm: number): void {
    const m = this.host.model();
    this.box = sectionSlab(defaultClipBox(m ? m.header.bounds : null), axis, mm);
    this.active = true;
    this.visible = true;
    this.applyAll(true);
  }

  /** Pick filter: points outside an active box are clipped away. */
  accepts = (p: Vector3): boolean => !this.active || insideClipBox(this.box, p.x, p.y, p.z);

  /** Point filter (annotation anchors, mm). */
  acceptsPoint = (x: number, y: number, z: number): boolean => !this.active || insideClipBox(this.box, x, y, z);

  /** Box filter (snap candidates): boxes not overlapping an active clip box are clipped away. */
  acceptsBox = (b: Box3): boolean => {
    if (!this.active) return true;
    const c = this.box;
    return (
      b.max.x >= c.xMin &&
      b.min.x <= c.xMax &&
      b.max.y >= c.yMin &&
      b.min.y <= c.yMax &&
      b.max.z >= c.zMin &&
      b.min.z <= c.zMax
    );
  };

  /**
   * Pointer input before the gestures: a left press on a visible plane quad starts a drag, moves drag it
   * along its normal, release ends it. Returns true when the event was consumed.
   */
  pointer(input: PointerInput): boolean {
    if (this.drag) {
      if (input.pointerId !== this.drag.pointerId) return true;
      if (input.kind === 'move') {
        const rc = this.host.cameras.raycaster(input.x, input.y);
        const { axis } = planeAxis(this.drag.key);
        const c = dragCoordinate(axis, this.drag.grab, rc.ray.origin.toArray(), rc.ray.direction.toArray());
        if (c !== null) this.setPlane(this.drag.key, c + this.drag.offset);
        return true;
      }
      if (input.kind === 'up' || input.kind === 'cancel') this.drag = null;
      return true;
    }
    if (input.kind !== 'down' || input.button !== 0 || !this.active || !this.visible) return false;
    const hit = this.pickPlane(this.host.cameras.raycaster(input.x, input.y));
    if (!hit) return false;
    const { axis } = planeAxis(hit.key);
    this.drag = {
      key: hit.key,
      grab: hit.point,
      pointerId: input.pointerId,
      offset: this.box[hit.key] - hit.point[axis],
    };
    return true;
  }

  /** A click (no drag) in the view: while the planes are visible it hid no plane, so hide them (viewer.md §4). */
  click(): void {
    if (this.active && this.visible) this.setVisible(false);
  }

  /** Nearest visible plane quad under a ray, with the world hit point. */
  pickPlane(rc: Raycaster): { key: ClipPlaneKey; point: [number, number, number] } | null {
    if (!this.active || !this.visible) return null;
    const hits = rc.intersectObjects(this.quads, false);
    const h = hits[0];
    if (!h) return null;
    return { key: h.object.userData.clipPlane as ClipPlaneKey, point: [h.point.x, h.point.y, h.point.z] };
  }

  dispose(): void {
    this.caps.dispose();
    for (const q of this.quads) (q.material as MeshBasicMaterial).dispose();
    this.quads[0]?.geometry.dispose();
    this.group.removeFromParent();
  }

  private applyPlanes(): void {
    CLIP_PLANE_KEYS.forEach((key, i) => {
      const [nx, ny, nz, c] = planeEquation(key, this.box[key]);
      this.planes[i].normal.set(nx, ny, nz);
      this.planes[i].constant = c;
    });
  }

  /** Pushes the state into planes, quads, caps, the model's materials and opacity; emits clip-changed. */
  private applyAll(emit: boolean): void {
    this.applyPlanes();
    const showQuads = this.active && this.visible;
    CLIP_PLANE_KEYS.forEach((key, i) => {
      const q = this.quads[i];
      (q.material as MeshBasicMaterial).opacity = showQuads
        ? CLIP_CONSTANTS.visibleOpacity
        : CLIP_CONSTANTS.hiddenOpacity;
      q.visible = showQuads;
      placeFace(q, key, this.box);
    });
    const m = this.host.model();
    this.caps.update(m, this.box, this.active);
    if (m) {
      m.setClippingPlanes(this.active ? this.planes : null);
      m.setModelOpacity(showQuads ? CLIP_CONSTANTS.modelOpacityWhileVisible : 1);
    }
    this.host.invalidate();
    this.onChange?.();
    if (emit)
      this.host.emit({ type: 'clip-changed', box: { ...this.box }, active: this.active, visible: this.visible });
  }
}
