/**
 * A small software rasteriser for revision thumbnails (no DOM, no GPU; runs in Node during conversion).
 * Z-buffered triangles, flat Lambert shading, orthographic camera.
 *
 * Camera convention (same as the viewer, viewer.md §4 "On model structure ready the camera orbits
 * (160, 10)"): Z is up. Longitude is measured in the XY plane from +X towards +Y, latitude is the
 * elevation above the XY plane, both in degrees. The camera sits on the side given by the unit vector
 * (cos lat · cos lon, cos lat · sin lon, sin lat) from the target and looks back at it; so (180, 0)
 * looks along +X and (90, −90) looks along +Z, matching the viewer's projection table. Screen "up" is
 * the projection of world +Z (world +X at the poles).
 */
import type { Box3Tuple, PartMesh } from '../model/types';
import { emptyBox, growBox, isBoxValid } from '../model/types';

/** Options of renderThumbnail. */
export interface SoftRasterOptions {
  /** Image size in pixels (default 160 × 120). */
  width?: number;
  height?: number;
  /** Orbit in degrees (default 160, 10). */
  longitudeDeg?: number;
  latitudeDeg?: number;
  /** Empty border in pixels on every side (default 6). */
  marginPx?: number;
  /** Background and surface colours, RGB 0..255 (defaults: light grey-blue, steel grey). */
  background?: [number, number, number];
  surface?: [number, number, number];
}

/** An RGBA image, row-major from the top-left pixel. */
export interface RgbaImage {
  width: number;
  height: number;
  /** 4 bytes per pixel, alpha 255. */
  rgba: Uint8Array;
}

/** Camera basis for an orbit: right, up and back (towards the camera) unit vectors. */
export function orbitBasis(
  longitudeDeg: number,
  latitudeDeg: number,
): { right: number[]; up: number[]; back: number[] } {
  const lon = (longitudeDeg * Math.PI) / 180,
    lat = (latitudeDeg * Math.PI) / 180;
  const back = [Math.cos(lat) * Math.cos(lon), Math.cos(lat) * Math.sin(lon), Math.sin(lat)];
  // right = worldUp × back (so that right × up = back, a right-handed screen); at the poles use +X as up.
  let right = cross([0, 0, 1], back);
  if (Math.hypot(right[0], right[1], right[2]) < 1e-9) right = cross([1, 0, 0], back);
  right = normalise(right);
  const up = cross(back, right);
  return { right, up, back };
}

/**
 * Renders meshes (world mm) into an RGBA image with an orthographic camera at the orbit, looking at
 * the centre of `bounds` (default: the meshes' bounds) and fitted so the model's projection fills the
 * image minus the margin. Faces are shaded by |n · back| (two-sided, light from the camera).
 * An empty model gives a uniform background image.
 * @throws Error when width or height is not a positive integer.
 */
export function renderThumbnail(meshes: PartMesh[], bounds?: Box3Tuple, options: SoftRasterOptions = {}): RgbaImage {
  const width = options.width ?? 160,
    height = options.height ?? 120;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0)
    throw new Error(`Thumbnail size must be positive integers, got ${width} × ${height}`);
  const margin = options.marginPx ?? 6;
  const bg = options.background ?? [236, 239, 243];
  const steel = options.surface ?? [128, 138, 150];
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) rgba.set([bg[0], bg[1], bg[2], 255], i * 4);

  const box = bounds && isBoxValid(bounds) ? bounds : meshes.reduce((b, m) => growBox(b, m.positions), emptyBox());
  if (!isBoxValid(box)) return { width, height, rgba };
  const centre = [(box[0] + box[3]) / 2, (box[1] + box[4]) / 2, (box[2] + box[5]) / 2];
  const { right, up, back } = orbitBasis(options.longitudeDeg ?? 160, options.latitudeDeg ?? 10);

  // Fit: extent of the projected vertices (tighter than the projected box corners).
  let minU = Infinity,
    maxU = -Infinity,
    minV = Infinity,
    maxV = -Infinity;
  for (const m of meshes) {
    const p = m.positions;
    for (let i = 0; i < p.length; i += 3) {
      const x = p[i] - centre[0],
        y = p[i + 1] - centre[1],
        z = p[i + 2] - centre[2];
      const u = x * right[0] + y * right[1] + z * right[2],
        v = x * up[0] + y * up[1] + z * up[2];
      if (u < minU) minU = u;
      if (u > maxU) maxU = u;
      if (v < minV) minV = v;
      if (v > maxV) maxV = v;
    }
  }
  if (!(maxU >= minU)) return { width, height, rgba };
  const spanU = Math.max(maxU - minU, 1e-9),
    spanV = Math.max(maxV - minV, 1e-9);
  const scale = Math.min((width - 2 * margin) / spanU, (height - 2 * margin) / spanV);
  const offU = width / 2 - ((minU + maxU) / 2) * scale,
    offV = height / 2 + ((minV + maxV) / 2) * scale;

  const depth = new Float32Array(width * height).fill(-Infinity);
  const sx = [0, 0, 0],
    sy = [0, 0, 0],
    sz = [0, 0, 0];
  for (const m of meshes) {
    const p = m.positions,
      idx = m.indices;
    for (let t = 0; t < idx.length; t += 3) {
      for (let k = 0; k < 3; k++) {
        const i = idx[t + k] * 3;
        const x = p[i] - centre[0],
          y = p[i + 1] - centre[1],
          z = p[i + 2] - centre[2];
        sx[k] = offU + (x * right[0] + y * right[1] + z * right[2]) * scale;
        sy[k] = offV - (x * up[0] + y * up[1] + z * up[2]) * scale;
        sz[k] = x * back[0] + y * back[1] + z * back[2]; // larger = nearer the camera
      }
      const a = idx[t] * 3,
        b = idx[t + 1] * 3,
        c = idx[t + 2] * 3;
      const n = cross(
        [p[b] - p[a], p[b + 1] - p[a + 1], p[b + 2] - p[a + 2]],
        [p[c] - p[a], p[c + 1] - p[a + 1], p[c + 2] - p[a + 2]],
      );
      const nl = Math.hypot(n[0], n[1], n[2]);
      if (nl === 0) continue;
      const lambert = Math.abs(n[0] * back[0] + n[1] * back[1] + n[2] * back[2]) / nl;
      const shade = 0.35 + 0.65 * lambert;
      fillTriangle(sx, sy, sz, width, height, depth, rgba, [steel[0] * shade, steel[1] * shade, steel[2] * shade]);
    }
  }
  return { width, height, rgba };
}

function fillTriangle(
  sx: number[],
  sy: number[],
  sz: number[],
  width: number,
  height: number,
  depth: Float32Array,
  rgba: Uint8Array,
  colour: number[],
): void {
  const area = (sx[1] - sx[0]) * (sy[2] - sy[0]) - (sx[2] - sx[0]) * (sy[1] - sy[0]);
  if (area === 0) return;
  const x0 = Math.max(0, Math.floor(Math.min(sx[0], sx[1], sx[2]))),
    x1 = Math.min(width - 1, Math.ceil(Math.max(sx[0], sx[1], sx[2])));
  const y0 = Math.max(0, Math.floor(Math.min(sy[0], sy[1], sy[2]))),
    y1 = Math.min(height - 1, Math.ceil(Math.max(sy[0], sy[1], sy[2])));
  const r = Math.round(colour[0]),
    g = Math.round(colour[1]),
    bl = Math.round(colour[2]);
  for (let y = y0; y <= y1; y++) {
    const py = y + 0.5;
    for (let x = x0; x <= x1; x++) {
      const px = x + 0.5;
      // Barycentric weights by edge functions; sample at the pixel centre.
      const w0 = ((sx[1] - px) * (sy[2] - py) - (sx[2] - px) * (sy[1] - py)) / area;
      const w1 = ((sx[2] - px) * (sy[0] - py) - (sx[0] - px) * (sy[2] - py)) / area;
      const w2 = 1 - w0 - w1;
      if (w0 < 0 || w1 < 0 || w2 < 0) continue;
      const z = w0 * sz[0] + w1 * sz[1] + w2 * sz[2];
      const i = y * width + x;
      if (z <= depth[i]) continue;
      depth[i] = z;
      rgba[i * 4] = r;
      rgba[i * 4 + 1] = g;
      rgba[i * 4 + 2] = bl;
    }
  }
}

function cross(a: number[], b: number[]): number[] {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

function normalise(a: number[]): number[] {
  const l = Math.hypot(a[0], a[1], a[2]);
  return [a[0] / l, a[1] / l, a[2] / l];
}
