/**
 * Caps for the clipping box ("cut faces are capped, so a clipped hull shows solid steel,
 * not hollow shells"), after the three.js clipping-stencil example (webgl_clipping_stencil), per plane:
 * 1. the model's chunks that straddle the plane are drawn once more with a stencil-parity material
 *    (chunkMaterial createStencilMaterial) clipped by that plane alone — the stencil ends up non-zero
 *    where the ray meets the plane inside a closed solid;
 * 2. a steel-coloured quad covering the box face at the plane is drawn where the stencil is non-zero,
 *    writing depth so the model behind it is hidden, and the stencil is cleared after it.
 * renderOrder keeps these passes before the model (opaque objects sort by renderOrder first). Only
 * planes that cut the model cost anything: chunks not straddling a plane add nothing to its parity.
 * The renderer must have a stencil buffer (WebGLRenderer { stencil: true }) and localClippingEnabled.
 */
import {
  DoubleSide,
  Group,
  Mesh,
  MeshLambertMaterial,
  NotEqualStencilFunc,
  PlaneGeometry,
  ReplaceStencilOp,
  type Plane,
} from 'three';
import type { ClipBox, ClipPlaneKey } from '../EngineApi';
import { CLIP_PLANE_KEYS, planeAxis } from '../tools/clipBox';
import { ChunkBatch } from './ChunkBatch';
import type { ModelScene } from './ModelScene';

/** Cap colour (sRGB): a mid steel grey. */
export const CAP_COLOR = 0x8c96a0;
/** First render order of the cap passes (plane i uses BASE + 2i for stencil, BASE + 2i + 1 for its cap). */
const RENDER_ORDER_BASE = -100;

/** Stencil meshes and cap quads of the six planes. */
export class ClipCaps {
  readonly group = new Group();
  private readonly caps: Mesh[] = [];
  /** Stencil meshes per plane, by chunk index. */
  private readonly stencils: Map<ChunkBatch, Mesh>[] = [];
  private readonly single: Plane[][];
  private readonly geometry = new PlaneGeometry(1, 1);

  /** @param planes the six shared clipping planes in CLIP_PLANE_KEYS order. */
  constructor(planes: Plane[]) {
    if (planes.length !== 6) throw new Error(`ClipCaps: expected 6 planes, got ${planes.length}`);
    this.group.name = 'clip-caps';
    this.single = planes.map((p) => [p]);
    CLIP_PLANE_KEYS.forEach((key, i) => {
      const m = new MeshLambertMaterial({
        color: CAP_COLOR,
        side: DoubleSide,
        stencilWrite: true,
        stencilRef: 0,
        stencilFunc: NotEqualStencilFunc,
        stencilFail: ReplaceStencilOp,
        stencilZFail: ReplaceStencilOp,
        stencilZPass: ReplaceStencilOp,
      });
      const cap = new Mesh(this.geometry, m);
      cap.name = `clip-cap-${key}`;
      cap.renderOrder = RENDER_ORDER_BASE + 2 * i + 1;
      cap.visible = false;
      cap.onAfterRender = (renderer) => renderer.clearStencil();
      this.caps.push(cap);
      this.stencils.push(new Map());
      this.group.add(cap);
    });
  }

  /** The cap quad of a plane (tests and the scene graph). */
  cap(key: ClipPlaneKey): Mesh {
    return this.caps[CLIP_PLANE_KEYS.indexOf(key)];
  }

  /** Number of stencil meshes drawn now (all planes). */
  get stencilCount(): number {
    let n = 0;
    for (const m of this.stencils) for (const s of m.values()) if (s.visible) n++;
    return n;
  }

  /**
   * Places caps and stencil passes for `box` on `model`; with `active` false (or no model) everything is
   * hidden. Call after every box change and after chunks arrive.
   */
  update(model: ModelScene | null, box: ClipBox, active: boolean): void {
    CLIP_PLANE_KEYS.forEach((key, i) => {
      const cap = this.caps[i];
      const map = this.stencils[i];
      const { axis } = planeAxis(key);
      const value = box[key];
      let any = false;
      if (active && model) {
        for (const c of model.chunks) {
          const lo = c.worldBox.min.getComponent(axis),
            hi = c.worldBox.max.getComponent(axis);
          const straddles = c.triangles > 0 && lo < value && hi > value;
          let s = map.get(c);
          if (straddles && !s) {
            s = c.createStencilMesh(this.single[i], RENDER_ORDER_BASE + 2 * i);
            map.set(c, s);
            this.group.add(s);
          }
          if (s) s.visible = straddles && c.mesh.visible;
          any ||= straddles;
        }
      } else {
        for (const s of map.values()) s.visible = false;
      }
      cap.visible = any;
      if (any) placeFace(cap, key, box);
    });
  }

  /** Drops stencil meshes of chunks no longer in `model` (a new model) and hides everything. */
  clear(): void {
    for (const map of this.stencils) {
      for (const s of map.values()) ChunkBatch.disposeStencilMesh(s);
      map.clear();
    }
    for (const c of this.caps) c.visible = false;
  }

  dispose(): void {
    this.clear();
    for (const c of this.caps) (c.material as MeshLambertMaterial).dispose();
    this.geometry.dispose();
    this.group.removeFromParent();
  }
}

/**
 * Places a unit quad (XY plane, normal +Z) on the face of `box` at plane `key`: centred on the face,
 * scaled to its two extents, normal along the plane's axis. Shared by caps and the plane quads.
 */
export function placeFace(quad: Mesh, key: ClipPlaneKey, box: ClipBox): void {
  const { axis } = planeAxis(key);
  const lo = [box.xMin, box.yMin, box.zMin],
    hi = [box.xMax, box.yMax, box.zMax];
  const c = [0, 1, 2].map((a) => (lo[a] + hi[a]) / 2);
  c[axis] = box[key];
  quad.position.set(c[0], c[1], c[2]);
  quad.rotation.set(0, 0, 0);
  const ex = hi[0] - lo[0],
    ey = hi[1] - lo[1],
    ez = hi[2] - lo[2];
  if (axis === 0) {
    quad.rotation.set(0, Math.PI / 2, 0); // local X → world −Z, local Y → world Y
    quad.scale.set(ez, ey, 1);
  } else if (axis === 1) {
    quad.rotation.set(-Math.PI / 2, 0, 0); // local X → world X, local Y → world −Z... normal → +Y
    quad.scale.set(ex, ez, 1);
  } else {
    quad.scale.set(ex, ey, 1);
  }
  quad.updateMatrix();
  quad.updateMatrixWorld(true);
}
