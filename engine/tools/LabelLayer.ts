/**
 * Text labels in the 3D scene (viewer.md §9 "Drawing"): measurement texts, plate
 * labels of sections and annotations. Texts are rasterised with the 2D API of an OffscreenCanvas in the
 * worker (font capped at 128 px, texture width at 4096 px: a longer text gets a smaller font) into atlas
 * pages (4096 wide, shelves of rows, up to 4096 high), and drawn as camera-facing quads of a given
 * world height (mm) — one draw call per page, whatever the number of labels. A layer with `screenPx` sizes
 * its labels on screen instead (annotations): the world height projected, clamped to a CSS px range so a
 * label stays legible however far the view is zoomed out and whatever the canvas' pixel ratio, and shifted
 * inward so a label whose anchor is on screen is never cut by the canvas edge (anchors off screen draw
 * nothing). Labels are picked on the CPU from their projected rectangles, with the same rules. Without a
 * canvas (Node tests) the layout still runs from a width estimate and nothing is rasterised.
 */
import {
  BufferAttribute,
  BufferGeometry,
  CanvasTexture,
  Color,
  DoubleSide,
  Group,
  LinearFilter,
  LinearMipmapLinearFilter,
  Mesh,
  ShaderMaterial,
  Vector2,
  type Texture,
  type WebGLRenderer,
} from 'three';
import type { CameraRig } from '../interaction/CameraRig';

/** viewer.md limits. */
export const LABEL_LIMITS = { maxFontPx: 128, maxTextureWidth: 4096, maxPageHeight: 4096, paddingPx: 4 } as const;

/** The 2D context calls a label needs (OffscreenCanvasRenderingContext2D has them). */
export interface Text2D {
  font: string;
  fillStyle: unknown;
  strokeStyle: unknown;
  lineWidth: number;
  textBaseline: string;
  measureText(text: string): { width: number };
  fillText(text: string, x: number, y: number): void;
  strokeText(text: string, x: number, y: number): void;
}

/** A canvas for an atlas page; null when none can be made (then nothing is rasterised). */
export type CanvasFactory = (width: number, height: number) => { canvas: unknown; ctx: Text2D } | null;

/** OffscreenCanvas where the runtime has it (browsers and workers), else null. */
export const offscreenCanvasFactory: CanvasFactory = (width, height) => {
  const OC = (globalThis as { OffscreenCanvas?: new (w: number, h: number) => { getContext(id: '2d'): unknown } })
    .OffscreenCanvas;
  if (!OC) return null;
  const canvas = new OC(width, height);
  const ctx = canvas.getContext('2d') as Text2D | null;
  return ctx ? { canvas, ctx } : null;
};

/** One label: text, anchor point (mm), height of the text in the world (mm), colour, offset in label heights. */
export interface LabelSpec {
  text: string;
  position: readonly [number, number, number];
  heightMm: number;
  color?: string;
  /** Shift of the label centre in text heights (x right, y up on screen), e.g. [0, 0.8] above the point. */
  offset?: readonly [number, number];
}

/** Where a label landed: page, pixel rectangle, font px. */
export interface LabelPlacement {
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  fontPx: number;
}

/** On-screen size range of a screen-sized label's box (text plus padding), CSS px. */
export interface ScreenLabelSize {
  minPx: number;
  maxPx: number;
}

/**
 * Canvas rectangle [x0, y0, x1, y1] (CSS px) of a screen-sized label: its box is `heightPx` (the world
 * height projected, in px) clamped to [minPx, maxPx] high and `aspect` (width / height) times that wide,
 * centred `shift` box heights from the anchor (x right, y up), then moved inside the viewport [0, width] ×
 * [0, height] (a box wider than the viewport keeps its left edge at 0). Null when the anchor is off the
 * viewport. The label shader (VERTEX_SCREEN) does the same per vertex.
 */
export function screenLabelRect(
  anchor: readonly [number, number],
  heightPx: number,
  aspect: number,
  shift: readonly [number, number],
  size: ScreenLabelSize,
  viewport: readonly [number, number],
): [number, number, number, number] | null {
  const [W, H] = viewport;
  if (!(anchor[0] >= 0 && anchor[0] <= W && anchor[1] >= 0 && anchor[1] <= H)) return null;
  const h = Math.min(size.maxPx, Math.max(size.minPx, heightPx)),
    w = h * aspect;
  const inside = (c: number, half: number, extent: number) => Math.max(half, Math.min(extent - half, c));
  const cx = inside(anchor[0] + shift[0] * h, w / 2, W),
    cy = inside(anchor[1] - shift[1] * h, h / 2, H);
  return [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2];
}

const FONT = (px: number) => `${px}px "Open Sans", Arial, sans-serif`;

/**
 * Lays out labels at `fontPx` (capped at 128): each label's pixel size, font shrunk so the width stays
 * within 4096 px, packed in shelves into pages of 4096 × ≤4096. `measure(text, px)` gives the text width.
 */
export function layoutLabels(
  texts: readonly string[],
  fontPx: number,
  measure: (text: string, px: number) => number,
): { placements: LabelPlacement[]; pages: { width: number; height: number }[] } {
  const pad = LABEL_LIMITS.paddingPx,
    W = LABEL_LIMITS.maxTextureWidth;
  const placements: LabelPlacement[] = [];
  const pages: { width: number; height: number }[] = [];
  let page = -1,
    x = 0,
    y = 0,
    shelf = 0;
  for (const text of texts) {
    let px = Math.max(4, Math.min(LABEL_LIMITS.maxFontPx, Math.round(fontPx)));
    let w = Math.ceil(measure(text, px)) + 2 * pad;
    if (w > W) {
      px = Math.max(4, Math.floor((px * (W - 2 * pad)) / (w - 2 * pad)));
      w = Math.min(W, Math.ceil(measure(text, px)) + 2 * pad);
    }
    const h = Math.ceil(px * 1.3) + 2 * pad;
    if (page < 0 || x + w > W) {
      y += shelf;
      x = 0;
      shelf = 0;
    }
    if (page < 0 || y + h > LABEL_LIMITS.maxPageHeight) {
      page++;
      pages.push({ width: W, height: 0 });
      x = 0;
      y = 0;
      shelf = 0;
    }
    placements.push({ page, x, y, width: w, height: h, fontPx: px });
    x += w;
    shelf = Math.max(shelf, h);
    pages[page].height = Math.max(pages[page].height, y + h);
  }
  return { placements, pages };
}

const VERTEX = /* glsl */ `
attribute vec2 corner;
attribute vec3 tint;
varying vec2 vUv;
varying vec3 vTint;
void main() {
  vUv = uv;
  vTint = tint;
  vec4 mv = modelViewMatrix * vec4(position, 1.0);
  mv.xy += corner;
  gl_Position = projectionMatrix * mv;
}`;

/**
 * Screen-sized labels: `corner` is the vertex offset from the label centre and `shift` the centre's offset
 * from the anchor, both in box heights; `worldHeight` (mm) projected gives the box height in px, clamped to
 * `pxRange`; the centre is moved so the box stays within the viewport (CSS px). Anchors off screen (or
 * behind a perspective camera) are moved out of the clip volume.
 */
const VERTEX_SCREEN = /* glsl */ `
attribute vec2 corner;
attribute vec2 shift;
attribute float worldHeight;
attribute vec3 tint;
uniform vec2 viewport;
uniform vec2 pxRange;
varying vec2 vUv;
varying vec3 vTint;
void main() {
  vUv = uv;
  vTint = tint;
  vec4 mv = modelViewMatrix * vec4(position, 1.0);
  vec4 c0 = projectionMatrix * mv;
  vec4 c1 = projectionMatrix * (mv + vec4(0.0, worldHeight, 0.0, 0.0));
  vec2 ndc = c0.xy / c0.w;
  if (c0.w <= 0.0 || abs(ndc.x) > 1.0 || abs(ndc.y) > 1.0) {
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
    return;
  }
  float hPx = abs(c1.y / c1.w - ndc.y) * 0.5 * viewport.y;
  vec2 k = vec2(2.0 * clamp(hPx, pxRange.x, pxRange.y)) / viewport;
  vec2 halfSize = abs(corner) * k;
  vec2 centre = ndc + shift * k;
  centre = max(-1.0 + halfSize, min(1.0 - halfSize, centre));
  gl_Position = vec4(centre + corner * k, c0.z / c0.w, 1.0);
}`;

const FRAGMENT = /* glsl */ `
uniform sampler2D map;
varying vec2 vUv;
varying vec3 vTint;
void main() {
  vec4 t = texture2D(map, vUv);
  if (t.a < 0.05) discard;
  gl_FragColor = vec4(t.rgb * vTint, t.a);
}`;

/** A set of labels drawn as billboards. */
export class LabelLayer {
  readonly group = new Group();
  private specs: LabelSpec[] = [];
  private placements: LabelPlacement[] = [];
  private highlighted = new Set<number>();
  private readonly textures: Texture[] = [];

  constructor(
    name: string,
    private readonly options: {
      fontPx?: number;
      onTop?: boolean;
      canvas?: CanvasFactory;
      highlight?: string;
      /** Size the labels on screen (CSS px range of the box height) instead of in the world. */
      screenPx?: ScreenLabelSize;
    } = {},
  ) {
    this.group.name = name;
  }

  get count(): number {
    return this.specs.length;
  }

  /** The label specs as set. */
  get labels(): readonly LabelSpec[] {
    return this.specs;
  }

  /** Pixel placement of label i (tests). */
  placement(i: number): LabelPlacement | undefined {
    return this.placements[i];
  }

  /** Replaces all labels. @throws Error for a non-finite position or a non-positive height. */
  set(labels: readonly LabelSpec[]): void {
    for (const l of labels) {
      if (!l.position.every(Number.isFinite))
        throw new Error(`Label "${l.text}": position ${JSON.stringify(l.position)} is not finite`);
      if (!(l.heightMm > 0)) throw new Error(`Label "${l.text}": text height ${l.heightMm} mm is not positive`);
    }
    this.clear();
    this.specs = [...labels];
    this.highlighted.clear();
    if (this.specs.length === 0) return;
    const factory = this.options.canvas ?? offscreenCanvasFactory;
    const probe = factory(1, 1);
    const measure = probe
      ? (text: string, px: number) => ((probe.ctx.font = FONT(px)), probe.ctx.measureText(text).width)
      : (text: string, px: number) => text.length * px * 0.6;
    const { placements, pages } = layoutLabels(
      this.specs.map((l) => l.text),
      this.options.fontPx ?? 48,
      measure,
    );
    this.placements = placements;
    pages.forEach((p, pi) => {
      const members = placements.map((pl, i) => (pl.page === pi ? i : -1)).filter((i) => i >= 0);
      const surface = probe ? factory(p.width, Math.max(1, p.height)) : null;
      if (surface) {
        const ctx = surface.ctx;
        for (const i of members) this.drawText(ctx, this.specs[i], placements[i]);
      }
      this.group.add(this.pageMesh(pi, members, p, surface?.canvas ?? null));
    });
  }

  /** Highlights labels (selection colour) by index. */
  setHighlighted(indices: Iterable<number>): void {
    this.highlighted = new Set(indices);
    const hl = new Color(this.options.highlight ?? 'rgb(0, 151, 196)');
    for (const mesh of this.group.children as Mesh[]) {
      const ids = mesh.userData.labels as number[];
      const tint = mesh.geometry.getAttribute('tint') as BufferAttribute;
      ids.forEach((li, k) => {
        const c = this.highlighted.has(li) ? hl : new Color(1, 1, 1);
        for (let v = 0; v < 4; v++) tint.setXYZ(k * 4 + v, c.r, c.g, c.b);
      });
      tint.needsUpdate = true;
    }
  }

  /**
   * The label under a canvas position (topmost = last drawn), or -1. Uses the cameras' current
   * view-projection (call cameras.viewProjection() first).
   */
  hitTest(x: number, y: number, cams: CameraRig): number {
    for (let i = this.specs.length - 1; i >= 0; i--) {
      const r = this.screenRect(i, cams);
      if (r && x >= r[0] && x <= r[2] && y >= r[1] && y <= r[3]) return i;
    }
    return -1;
  }

  /** Screen rectangle [x0, y0, x1, y1] (px) of label i, or null when its anchor is not on screen. */
  screenRect(i: number, cams: CameraRig): [number, number, number, number] | null {
    const l = this.specs[i],
      pl = this.placements[i];
    if (!l || !pl) return null;
    const s = cams.project(l.position[0], l.position[1], l.position[2]);
    if (!s) return null;
    const mmPerPx = cams.worldPerPixel(l.position as [number, number, number]);
    const screen = this.options.screenPx;
    if (screen)
      return screenLabelRect(
        s,
        l.heightMm / mmPerPx,
        pl.width / pl.height,
        [l.offset?.[0] ?? 0, l.offset?.[1] ?? 0],
        screen,
        [cams.width, cams.height],
      );
    const hPx = l.heightMm / mmPerPx,
      wPx = (hPx * pl.width) / pl.height;
    const cx = s[0] + ((l.offset?.[0] ?? 0) * l.heightMm) / mmPerPx,
      cy = s[1] - ((l.offset?.[1] ?? 0) * l.heightMm) / mmPerPx;
    return [cx - wPx / 2, cy - hPx / 2, cx + wPx / 2, cy + hPx / 2];
  }

  /** Removes all labels and frees their textures. */
  clear(): void {
    for (const m of [...this.group.children] as Mesh[]) {
      m.geometry.dispose();
      (m.material as ShaderMaterial).dispose();
      m.removeFromParent();
    }
    for (const t of this.textures) t.dispose();
    this.textures.length = 0;
    this.specs = [];
    this.placements = [];
  }

  dispose(): void {
    this.clear();
    this.group.removeFromParent();
  }

  private drawText(ctx: Text2D, l: LabelSpec, p: LabelPlacement): void {
    ctx.font = FONT(p.fontPx);
    ctx.textBaseline = 'middle';
    ctx.lineWidth = Math.max(2, p.fontPx / 6);
    ctx.strokeStyle = 'rgba(255,255,255,0.9)';
    ctx.fillStyle = l.color ?? '#1f2933';
    const x = p.x + LABEL_LIMITS.paddingPx,
      y = p.y + p.height / 2;
    ctx.strokeText(l.text, x, y);
    ctx.fillText(l.text, x, y);
  }

  private pageMesh(pi: number, members: number[], page: { width: number; height: number }, canvas: unknown): Mesh {
    const n = members.length;
    const screen = this.options.screenPx;
    const pos = new Float32Array(n * 12),
      corner = new Float32Array(n * 8),
      shift = new Float32Array(n * 8),
      worldHeight = new Float32Array(n * 4),
      uv = new Float32Array(n * 8),
      tint = new Float32Array(n * 12).fill(1);
    const index = new Uint32Array(n * 6);
    const H = Math.max(1, page.height);
    members.forEach((li, k) => {
      const l = this.specs[li],
        p = this.placements[li];
      const h = l.heightMm,
        w = (h * p.width) / p.height;
      const ox = (l.offset?.[0] ?? 0) * h,
        oy = (l.offset?.[1] ?? 0) * h;
      const u0 = p.x / page.width,
        u1 = (p.x + p.width) / page.width,
        v1 = 1 - p.y / H,
        v0 = 1 - (p.y + p.height) / H;
      const corners = [
        [-w / 2, -h / 2, u0, v0],
        [w / 2, -h / 2, u1, v0],
        [w / 2, h / 2, u1, v1],
        [-w / 2, h / 2, u0, v1],
      ];
      corners.forEach(([cx, cy, u, v], c) => {
        pos.set(l.position, (k * 4 + c) * 3);
        // Screen-sized: offsets in box heights, scaled on the GPU; world-sized: offsets in mm.
        if (screen) {
          corner.set([cx / h, cy / h], (k * 4 + c) * 2);
          shift.set([ox / h, oy / h], (k * 4 + c) * 2);
          worldHeight[k * 4 + c] = h;
        } else corner.set([cx + ox, cy + oy], (k * 4 + c) * 2);
        uv.set([u, v], (k * 4 + c) * 2);
      });
      index.set([k * 4, k * 4 + 1, k * 4 + 2, k * 4, k * 4 + 2, k * 4 + 3], k * 6);
    });
    const g = new BufferGeometry();
    g.setAttribute('position', new BufferAttribute(pos, 3));
    g.setAttribute('corner', new BufferAttribute(corner, 2));
    g.setAttribute('uv', new BufferAttribute(uv, 2));
    g.setAttribute('tint', new BufferAttribute(tint, 3));
    if (screen) {
      g.setAttribute('shift', new BufferAttribute(shift, 2));
      g.setAttribute('worldHeight', new BufferAttribute(worldHeight, 1));
    }
    g.setIndex(new BufferAttribute(index, 1));
    g.computeBoundingSphere();
    let map: Texture | null = null;
    if (canvas) {
      const t = new CanvasTexture(canvas as ConstructorParameters<typeof CanvasTexture>[0]);
      // Screen-sized labels are drawn smaller than rasterised: mipmaps keep the glyphs clean.
      t.minFilter = screen ? LinearMipmapLinearFilter : LinearFilter;
      t.generateMipmaps = screen !== undefined;
      t.flipY = true;
      this.textures.push(t);
      map = t;
    }
    const onTop = this.options.onTop === true;
    const viewport = new Vector2(1, 1);
    const mat = new ShaderMaterial({
      uniforms: {
        map: { value: map },
        viewport: { value: viewport },
        pxRange: { value: new Vector2(screen?.minPx ?? 0, screen?.maxPx ?? 0) },
      },
      vertexShader: screen ? VERTEX_SCREEN : VERTEX,
      fragmentShader: FRAGMENT,
      transparent: true,
      depthWrite: false,
      depthTest: !onTop,
      side: DoubleSide,
    });
    const mesh = new Mesh(g, mat);
    mesh.name = `${this.group.name}-page-${pi}`;
    mesh.visible = map !== null;
    mesh.frustumCulled = false;
    mesh.renderOrder = onTop ? 900 : 50;
    mesh.userData.labels = members;
    // The renderer's size is the canvas in CSS px, whatever its pixel ratio.
    if (screen) mesh.onBeforeRender = (renderer: WebGLRenderer) => void renderer.getSize(viewport);
    return mesh;
  }
}
