/**
 * Occlusion culling of whole chunks with WebGL2 occlusion queries (viewer.md §4 "Scale": most of a
 * ship's structure lies behind its shell). Chunks are drawn front to back (ModelScene), and every
 * chunk in the view is asked, once per view, whether any of its samples passes the depth test:
 *
 * - a drawn chunk is asked around its own draw (no extra draw call): if none of its fragments passed,
 *   it added nothing to that frame — neither colour nor depth — and is dropped from then on;
 * - a dropped chunk's world box is drawn after the opaque chunks — no colour, no depth writes,
 *   depth-tested against what was drawn — and if a sample of the box passes, the chunk is drawn again
 *   from the next frame on (its geometry lies inside its box, so a box hidden everywhere hides it).
 *
 * Answers arrive in a later frame (WebGL never answers in the task that asked); `pending` tells the
 * engine to draw until they are in. While the camera moves a chunk coming into view may therefore be
 * missing for one frame; once the view rests, the frame after the last answers is exact: every dropped
 * chunk was tested at this very view against a depth buffer made only of geometry that is drawn.
 * Chunks whose own draw cannot answer for them (a translucent pass, nothing in their draw range) are
 * always asked with their box.
 *
 * Boxes use the surfaces' polygon offset (chunkMaterial: factor 1, units 1) so a box face lying on a
 * plate's inner side does not pass through the plate's own offset; as that offset is one pixel's worth
 * of depth slope, the box test is exact up to about one pixel at the silhouette of the occluder.
 * Boxes crossing the near plane (the walk camera inside a chunk) are always drawn, untested.
 * Units: world mm; matrices column-major (THREE.Matrix4.elements). Needs a WebGL2 context (queries);
 * without one the engine does not create it.
 */
import { BoxGeometry, FrontSide, Group, Mesh, MeshBasicMaterial } from 'three';

/** The part of WebGL2 the culler uses (WebGL2RenderingContext satisfies it). */
export interface OcclusionGl {
  createQuery(): WebGLQuery | null;
  deleteQuery(query: WebGLQuery | null): void;
  beginQuery(target: number, query: WebGLQuery): void;
  endQuery(target: number): void;
  getQueryParameter(query: WebGLQuery, pname: number): unknown;
  readonly ANY_SAMPLES_PASSED: number;
  readonly QUERY_RESULT_AVAILABLE: number;
  readonly QUERY_RESULT: number;
}

/**
 * Render order of the test boxes: after every chunk's opaque draw (chunks use [0, 1), ModelScene sorts
 * them front to back) and before the tools' overlays (5 and up) and the translucent pass.
 */
export const OCCLUSION_BOX_ORDER = 2;

/** Frames a query may stay unanswered before the culler gives up on it (the chunk is drawn). */
const MAX_POLLS = 30;

/** Per-chunk query state (index = chunk index in ModelScene.chunks). */
interface Slot {
  query: WebGLQuery | null;
  /** A query was issued and its answer has not been read yet. */
  waiting: boolean;
  /** The chunk's next draw is to be wrapped in its query (see `wrapDraw`). */
  armed: boolean;
  /** The waiting query wraps the chunk's own draw (true) or its box (false). */
  ofDraw: boolean;
  /** The draw hook began the query (three.js skips the draw call, not the hooks, of an empty range). */
  began: boolean;
  /** Polls that found the waiting query unanswered. */
  polls: number;
  /** View signature the waiting query was issued under. */
  askedAt: number;
  /** View signature of the last answer (NaN: never tested). */
  answeredAt: number;
  /** Drawn (true) or dropped as hidden (false). New chunks are drawn. */
  drawn: boolean;
  box: Mesh | null;
}

/** The culler of one model's chunks. dispose() deletes the queries and the box meshes. */
export class ChunkOcclusion {
  /** Test boxes (one mesh per chunk tested so far); the owner adds it to the scene. */
  readonly group = new Group();
  /** Chunks dropped as hidden by the last select() (among those in the view). */
  occluded = 0;
  /** Box tests issued by the last select(). */
  tested = 0;
  private readonly slots: Slot[] = [];
  private readonly geometry = new BoxGeometry(1, 1, 1).translate(0.5, 0.5, 0.5);
  private readonly material = new MeshBasicMaterial({
    side: FrontSide,
    colorWrite: false,
    depthWrite: false,
    polygonOffset: true,
    polygonOffsetFactor: 1,
    polygonOffsetUnits: 1,
  });
  private cameBack = false;

  constructor(private readonly gl: OcclusionGl) {
    this.group.name = 'occlusion-boxes';
  }

  /**
   * True while a box test is unanswered: another frame is needed to read it (and to draw the chunk if
   * it came back), even if nothing else changes.
   */
  get pending(): boolean {
    return this.slots.some((s) => s.waiting);
  }

  /** True when the last poll() brought a dropped chunk back. */
  get revealed(): boolean {
    return this.cameBack;
  }

  /** True when chunk `i` is dropped as hidden now. */
  isOccluded(i: number): boolean {
    const s = this.slots[i];
    return s !== undefined && !s.drawn;
  }

  /**
   * Reads the answers that have arrived: drawn chunks whose box showed nothing are dropped, dropped
   * chunks whose box showed a sample come back. Call once per frame before `select`.
   */
  poll(): void {
    this.withdrawUnrendered();
    this.cameBack = false;
    const gl = this.gl;
    for (const s of this.slots) {
      if (!s.waiting || !s.query) continue;
      if (!gl.getQueryParameter(s.query, gl.QUERY_RESULT_AVAILABLE)) {
        // A query that never answers (lost context) must not keep the engine drawing: give up, draw the chunk.
        if (++s.polls > MAX_POLLS) {
          s.waiting = false;
          s.answeredAt = s.askedAt;
          s.drawn = true;
        }
        continue;
      }
      const seen = Number(gl.getQueryParameter(s.query, gl.QUERY_RESULT)) > 0;
      s.waiting = false;
      s.answeredAt = s.askedAt;
      if (seen && !s.drawn) this.cameBack = true;
      // Either answer decides: a draw or a box that showed nothing hides the chunk, a sample shows it.
      s.drawn = seen;
    }
  }

  /**
   * Decides which chunks of the view are drawn this frame and which boxes are tested after them.
   * `inView[i]` = 1 for chunks inside the frustum; `boxes` holds 6 values per chunk (min xyz, max xyz,
   * mm); `viewProjection` the camera's matrix; `signature` identifies what the depth buffer depends on
   * (camera, object states, detail, chunk set): a chunk is tested at most once per signature, and
   * while the view stays the same the tests stop once all are answered. `boxOnly[i]` = 1 marks chunks
   * whose draw cannot answer for them (translucent pass, empty draw range): they are asked with their
   * box, drawn or not. Returns 1 per chunk to draw.
   */
  select(
    inView: Uint8Array,
    boxes: Float64Array,
    viewProjection: ArrayLike<number>,
    signature: number,
    boxOnly?: Uint8Array,
  ): Uint8Array {
    const n = inView.length;
    const draw = new Uint8Array(n);
    while (this.slots.length < n)
      this.slots.push({
        query: null,
        waiting: false,
        armed: false,
        ofDraw: false,
        began: false,
        polls: 0,
        askedAt: NaN,
        answeredAt: NaN,
        drawn: true,
        box: null,
      });
    let occluded = 0,
      tested = 0;
    for (let i = 0; i < n; i++) {
      const s = this.slots[i];
      if (s.box) s.box.visible = false;
      s.armed = false;
      if (!inView[i]) continue;
      if (crossesNearPlane(viewProjection, boxes, i * 6)) {
        // The camera is at or inside the box: a box test would see nothing of it.
        s.drawn = true;
        draw[i] = 1;
        continue;
      }
      draw[i] = s.drawn ? 1 : 0;
      if (!s.drawn) occluded++;
      if (s.waiting || s.answeredAt === signature) continue;
      if (s.drawn && !boxOnly?.[i]) {
        s.query ??= this.gl.createQuery();
        if (!s.query) continue;
        s.armed = true;
        s.ofDraw = true;
        s.waiting = true;
        s.polls = 0;
        s.askedAt = signature;
      } else {
        this.test(i, s, boxes, signature);
        tested++;
      }
    }
    this.occluded = occluded;
    this.tested = tested;
    return draw;
  }

  /**
   * Hooks the queries around a chunk's draws: `onBeforeRender` / `onAfterRender` of each mesh that
   * may draw chunk `i`'s opaque surfaces (its full-detail and LOD meshes; only one is shown per frame),
   * from the first draw group's start to the last one's end.
   */
  wrapDraw(i: number, meshes: readonly Mesh[]): void {
    const gl = this.gl;
    for (const m of meshes) {
      m.onBeforeRender = () => {
        const s = this.slots[i];
        if (!s?.armed || !s.query || s.began) return;
        s.began = true;
        gl.beginQuery(gl.ANY_SAMPLES_PASSED, s.query);
      };
      m.onAfterRender = (_r, _s, _c, geometry, _m, group) => {
        const s = this.slots[i];
        if (!s?.began) return;
        // A mesh drawn by groups (a strip buffer's two parts) renders once per group: the query spans them all.
        const groups = geometry?.groups ?? [];
        // (three's typings call the draw group a Group; it is the geometry's {start, count, materialIndex}.)
        const drawn = group as unknown as object | null;
        if (drawn && groups.length > 1 && drawn !== groups[groups.length - 1]) return;
        s.began = false;
        s.armed = false;
        gl.endQuery(gl.ANY_SAMPLES_PASSED);
      };
    }
  }

  /** Withdraws armed draw queries whose mesh was not rendered after all, so the chunk is asked again. */
  private withdrawUnrendered(): void {
    for (const s of this.slots)
      if (s.armed) {
        s.armed = false;
        if (s.ofDraw && s.waiting) {
          s.waiting = false;
          s.askedAt = NaN;
        }
      }
  }

  /** Forgets all answers: every chunk is drawn again and tested anew (e.g. after a reload of the chunks). */
  reset(): void {
    for (const s of this.slots) {
      s.drawn = true;
      s.answeredAt = NaN;
    }
  }

  dispose(): void {
    for (const s of this.slots) {
      if (s.query && !s.began) this.gl.deleteQuery(s.query);
      s.box?.removeFromParent();
    }
    this.slots.length = 0;
    this.geometry.dispose();
    this.material.dispose();
    this.group.removeFromParent();
  }

  private test(i: number, s: Slot, boxes: Float64Array, signature: number): void {
    const gl = this.gl;
    s.query ??= gl.createQuery();
    if (!s.query) return;
    if (!s.box) {
      const box = new Mesh(this.geometry, this.material);
      box.name = `occlusion-box-${i}`;
      box.renderOrder = OCCLUSION_BOX_ORDER;
      box.frustumCulled = false;
      box.matrixAutoUpdate = false;
      const q = s.query;
      box.onBeforeRender = () => gl.beginQuery(gl.ANY_SAMPLES_PASSED, q);
      box.onAfterRender = () => gl.endQuery(gl.ANY_SAMPLES_PASSED);
      s.box = box;
      this.group.add(box);
    }
    const o = i * 6;
    s.box.position.set(boxes[o], boxes[o + 1], boxes[o + 2]);
    // A flat box (a single plate) still gets a face to rasterise.
    s.box.scale.set(
      Math.max(boxes[o + 3] - boxes[o], 1e-3),
      Math.max(boxes[o + 4] - boxes[o + 1], 1e-3),
      Math.max(boxes[o + 5] - boxes[o + 2], 1e-3),
    );
    s.box.updateMatrix();
    s.box.updateMatrixWorld(true);
    s.box.visible = true;
    s.ofDraw = false;
    s.waiting = true;
    s.polls = 0;
    s.askedAt = signature;
  }
}

/**
 * True when some corner of the box (6 values at `offset`, mm) lies on the camera side of the near
 * plane of `m` (clip z < −w, or w ≤ 0 for a perspective camera).
 */
export function crossesNearPlane(m: ArrayLike<number>, boxes: ArrayLike<number>, offset: number): boolean {
  for (let c = 0; c < 8; c++) {
    const x = boxes[offset + (c & 1 ? 3 : 0)],
      y = boxes[offset + (c & 2 ? 4 : 1)],
      z = boxes[offset + (c & 4 ? 5 : 2)];
    const cz = m[2] * x + m[6] * y + m[10] * z + m[14];
    const cw = m[3] * x + m[7] * y + m[11] * z + m[15];
    if (cw <= 0 || cz < -cw) return true;
  }
  return false;
}

/** Nearest normalised depth (NDC z, −1 at the near plane) of the box's corners: the front-to-back key of a chunk. */
export function nearestDepth(m: ArrayLike<number>, boxes: ArrayLike<number>, offset: number): number {
  let best = Infinity;
  for (let c = 0; c < 8; c++) {
    const x = boxes[offset + (c & 1 ? 3 : 0)],
      y = boxes[offset + (c & 2 ? 4 : 1)],
      z = boxes[offset + (c & 4 ? 5 : 2)];
    const cz = m[2] * x + m[6] * y + m[10] * z + m[14];
    const cw = m[3] * x + m[7] * y + m[11] * z + m[15];
    const d = cw > 0 ? cz / cw : -Infinity;
    if (d < best) best = d;
  }
  return best;
}
