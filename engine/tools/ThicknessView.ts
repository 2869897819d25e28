/**
 * Thickness view (application.md §4 "Coloring": "For plates, stiffeners and brackets the thickness view is
 * drawn on demand once a material side is chosen"; §9 "Plate overlay (thickness view) | opacity 0.5,
 * scale 1000"). An overlay in the part's colouring colour, drawn at opacity 0.5 over the model: for a
 * plate or bracket the real thickness (PLTH, m × 1000 = mm) extruded from the moulded surface to the
 * material side (MSIDE, viewer.md §3 "Material side directions").
 *
 * The scene holds each plate as the solid the importer built (engine/ocx/plateMesh.ts). The material side
 * code gives a world direction d (FORE +x, AFT −x, PS +y, SB −y, TOP +z, BOT −z; IN toward the centre
 * plane for a transverse normal, upward for a vertical one; OUT the opposite). The moulded surface is
 * the face whose outward normal points away from the steel (against d), judged triangle by triangle so
 * curved shell plates come out right, and it is extruded by t into the steel along its own normal (for
 * MID the mid layer, extruded t/2 to each side). Where the drawn steel and
 * the data agree the overlay covers the solid exactly; where they disagree (another thickness, the
 * steel on the other side) the overlay shows it. Parts whose side is UNDEFINED, or whose d is nearly in
 * the plate's plane, are skipped and counted. Profiles (stiffeners) are given with side '' and overlaid
 * with their own solid: the swept section already has the real web and flange thickness.
 */
import { BufferAttribute, BufferGeometry, DoubleSide, Mesh, MeshLambertMaterial, type Material } from 'three';
import type { ToolHost } from './ToolHost';

/** Opacity of the overlay (application.md §9 "Plate overlay (thickness view)"). */
export const THICKNESS_OVERLAY_OPACITY = 0.5;
/** Thickness values arrive in m; the viewer draws mm (application.md §9 "scale 1000"). */
export const THICKNESS_SCALE = 1000;
/** Most triangles the overlay holds; parts beyond are counted as skipped. */
export const THICKNESS_MAX_TRIANGLES = 4_000_000;

/** Parts to overlay, parallel arrays: node id, thickness (m), material side code, colour (3 sRGB bytes each). */
export interface ThicknessViewInput {
  nodeIds: Uint32Array;
  /** PLTH per part, metres (scaled by THICKNESS_SCALE); ignored for side ''. */
  thickness: Float32Array;
  /** MSIDE per part (IN, OUT, MID, AFT, FORE, SB, PS, BOT, TOP, UNDEFINED), or '' for a profile. */
  sides: string[];
  rgb: Uint8Array;
}

/** What was drawn: parts overlaid and parts skipped (no usable side, thickness or geometry; or over the limit). */
export interface ThicknessViewResult {
  drawn: number;
  skipped: number;
}

type V3 = [number, number, number];

/** World direction of a material side code for a part with normal n and centroid c (null: none). */
export function sideDirection(side: string, n: V3, c: V3): V3 | null {
  switch (side) {
    case 'FORE':
      return [1, 0, 0];
    case 'AFT':
      return [-1, 0, 0];
    case 'PS':
      return [0, 1, 0];
    case 'SB':
      return [0, -1, 0];
    case 'TOP':
      return [0, 0, 1];
    case 'BOT':
      return [0, 0, -1];
    case 'IN':
    case 'OUT': {
      const s = side === 'IN' ? 1 : -1;
      if (Math.abs(n[1]) >= Math.abs(n[2])) return Math.abs(c[1]) > 1 ? [0, -Math.sign(c[1]) * s, 0] : null;
      return [0, 0, s];
    }
    default:
      return null;
  }
}

/** The overlay of the thickness view: one translucent mesh, rebuilt on each show(). */
export class ThicknessView {
  private mesh: Mesh | null = null;

  constructor(private readonly host: ToolHost) {}

  /** True while an overlay is drawn. */
  get shown(): boolean {
    return this.mesh !== null;
  }

  /**
   * Draws the overlay for `input` (replacing any previous one); null removes it.
   * @throws Error when the arrays are not parallel.
   */
  show(input: ThicknessViewInput | null): ThicknessViewResult {
    this.clear();
    if (!input) return { drawn: 0, skipped: 0 };
    const n = input.nodeIds.length;
    if (input.thickness.length !== n || input.sides.length !== n || input.rgb.length !== n * 3)
      throw new Error(
        `Thickness view: ${n} parts but ${input.thickness.length} thicknesses, ${input.sides.length} sides, ${input.rgb.length / 3} colours`,
      );
    const model = this.host.model();
    if (!model) return { drawn: 0, skipped: n };
    const pos: number[] = [];
    const col: number[] = [];
    let drawn = 0,
      skipped = 0;
    for (let k = 0; k < n; k++) {
      if (pos.length / 9 >= THICKNESS_MAX_TRIANGLES) {
        skipped += n - k;
        break;
      }
      const tris: number[] = [];
      model.forEachTriangle(input.nodeIds[k], (t) => {
        for (let i = 0; i < 9; i++) tris.push(t[i]);
        return false;
      });
      const before = pos.length;
      const ok =
        tris.length > 0 &&
        (input.sides[k] === ''
          ? appendAll(pos, tris)
          : slab(tris, input.thickness[k] * THICKNESS_SCALE, input.sides[k], pos));
      if (!ok) {
        skipped++;
        continue;
      }
      drawn++;
      const r = input.rgb[k * 3] / 255,
        g = input.rgb[k * 3 + 1] / 255,
        b = input.rgb[k * 3 + 2] / 255;
      for (let i = before; i < pos.length; i += 3) col.push(r, g, b);
    }
    if (pos.length > 0) {
      const geometry = new BufferGeometry();
      geometry.setAttribute('position', new BufferAttribute(new Float32Array(pos), 3));
      geometry.setAttribute('color', new BufferAttribute(new Float32Array(col), 3));
      geometry.computeVertexNormals();
      const material = new MeshLambertMaterial({
        vertexColors: true,
        transparent: true,
        opacity: THICKNESS_OVERLAY_OPACITY,
        side: DoubleSide,
        depthWrite: false,
        // Drawn over the coincident faces of the solid it describes.
        polygonOffset: true,
        polygonOffsetFactor: -1,
        polygonOffsetUnits: -4,
      });
      const mesh = new Mesh(geometry, material);
      mesh.name = 'Thickness view';
      mesh.renderOrder = 5;
      this.mesh = mesh;
      this.host.scene.add(mesh);
      this.clippingChanged();
    }
    this.host.invalidate();
    return { drawn, skipped };
  }

  /** Clips the overlay as the model is clipped (the engine calls this when the clipping box changes). */
  clippingChanged(): void {
    if (!this.mesh) return;
    const material = this.mesh.material as Material;
    material.clippingPlanes = this.host.model()?.clippingPlanes ?? null;
    material.needsUpdate = true;
    this.host.invalidate();
  }

  /** Removes the overlay. */
  clear(): void {
    if (!this.mesh) return;
    this.host.scene.remove(this.mesh);
    this.mesh.geometry.dispose();
    (this.mesh.material as Material).dispose();
    this.mesh = null;
    this.host.invalidate();
  }

  dispose(): void {
    this.clear();
  }
}

/**
 * Appends the slab of one sheet part to `out` (triangles, 9 values each): the moulded face and the same
 * face moved by `tMm` into the steel. Each face triangle is judged on its own (curved shell plates turn
 * through large angles): with its outward normal ν (the solid's signed volume tells outward from inward
 * winding) and the side's direction d there, it is on the moulded surface when ν·d < −0.3 (the steel lies
 * behind it toward d), and it is moved along −ν. MID is centred on the mid layer (midSlab).
 * @returns false when the part has no usable side or faces (nothing appended).
 */
function slab(tris: number[], tMm: number, side: string, out: number[]): boolean {
  if (!(tMm > 0)) return false;
  const m = tris.length / 9;
  const normals = new Float64Array(m * 3);
  const areas = new Float64Array(m);
  let volume = 0,
    total = 0;
  for (let i = 0; i < m; i++) {
    const o = i * 9;
    const ux = tris[o + 3] - tris[o],
      uy = tris[o + 4] - tris[o + 1],
      uz = tris[o + 5] - tris[o + 2];
    const vx = tris[o + 6] - tris[o],
      vy = tris[o + 7] - tris[o + 1],
      vz = tris[o + 8] - tris[o + 2];
    const nx = uy * vz - uz * vy,
      ny = uz * vx - ux * vz,
      nz = ux * vy - uy * vx;
    const a = Math.hypot(nx, ny, nz);
    areas[i] = a;
    total += a;
    if (a > 0) normals.set([nx / a, ny / a, nz / a], i * 3);
    volume += tris[o] * nx + tris[o + 1] * ny + tris[o + 2] * nz;
  }
  if (!(total > 0)) return false;
  // Outward winding gives a positive volume; a part wound inside out has its normals turned.
  const w = volume < 0 ? -1 : 1;
  // Slivers far below the mean triangle are left out: the package's quantisation may have turned them over.
  const minArea = (0.01 * total) / m;
  if (side === 'MID') return midSlab(tris, normals, areas, w, minArea, tMm, out);
  const start = out.length;
  let drawnArea = 0;
  for (let i = 0; i < m; i++) {
    if (areas[i] < minArea) continue;
    const nu: V3 = [w * normals[i * 3], w * normals[i * 3 + 1], w * normals[i * 3 + 2]];
    const o = i * 9;
    const c: V3 = [0, 1, 2].map((k) => (tris[o + k] + tris[o + 3 + k] + tris[o + 6 + k]) / 3) as V3;
    const d = sideDirection(side, nu, c);
    if (!d || nu[0] * d[0] + nu[1] * d[1] + nu[2] * d[2] > -0.3) continue;
    for (let k = 0; k < 9; k++) out.push(tris[o + k]);
    for (let k = 0; k < 9; k++) out.push(tris[o + k] - tMm * nu[k % 3]);
    drawnArea += areas[i];
  }
  // The moulded face is about half the solid's surface; a side across the plate (FORE on a deck) finds
  // only edge walls: no usable side.
  if (drawnArea < 0.2 * total) {
    out.length = start;
    return false;
  }
  return true;
}

/**
 * MID: the steel is centred on the moulded surface, the mid layer of the drawn solid. The part's normal n
 * (area-weighted, sign-aligned to its largest triangle) splits the faces; the solid's own thickness g
 * between them places the mid layer, and the slab spans ±t/2 about it, drawn from the face facing −n.
 */
function midSlab(
  tris: number[],
  normals: Float64Array,
  areas: Float64Array,
  w: number,
  minArea: number,
  tMm: number,
  out: number[],
): boolean {
  const m = areas.length;
  let big = 0;
  for (let i = 1; i < m; i++) if (areas[i] > areas[big]) big = i;
  const ref: V3 = [normals[big * 3], normals[big * 3 + 1], normals[big * 3 + 2]];
  const nSum: V3 = [0, 0, 0];
  for (let i = 0; i < m; i++) {
    const d = normals[i * 3] * ref[0] + normals[i * 3 + 1] * ref[1] + normals[i * 3 + 2] * ref[2];
    if (Math.abs(d) < 0.5) continue;
    for (let k = 0; k < 3; k++) nSum[k] += Math.sign(d) * areas[i] * normals[i * 3 + k];
  }
  const L = Math.hypot(...nSum);
  if (!(L > 0)) return false;
  const n: V3 = [nSum[0] / L, nSum[1] / L, nSum[2] / L];
  const along = (i: number) => {
    let s = 0;
    for (let v = 0; v < 3; v++) for (let k = 0; k < 3; k++) s += tris[i * 9 + v * 3 + k] * n[k];
    return s / 3;
  };
  // Faces by outward normal: along +n (upper) and along −n (lower).
  let hi = 0,
    hiA = 0,
    lo = 0,
    loA = 0;
  for (let i = 0; i < m; i++) {
    const d = w * (normals[i * 3] * n[0] + normals[i * 3 + 1] * n[1] + normals[i * 3 + 2] * n[2]);
    if (d > 0.5) (hi += along(i) * areas[i]), (hiA += areas[i]);
    else if (d < -0.5) (lo += along(i) * areas[i]), (loA += areas[i]);
  }
  if (!(hiA > 0 && loA > 0)) return false;
  const g = Math.max(0, hi / hiA - lo / loA);
  let drawn = 0;
  for (let i = 0; i < m; i++) {
    const d = w * (normals[i * 3] * n[0] + normals[i * 3 + 1] * n[1] + normals[i * 3 + 2] * n[2]);
    if (areas[i] < minArea || d > -0.5) continue;
    for (const off of [g / 2 - tMm / 2, g / 2 + tMm / 2])
      for (let k = 0; k < 9; k++) out.push(tris[i * 9 + k] + off * n[k % 3]);
    drawn++;
  }
  return drawn > 0;
}

/** Appends `from` to `to` (a loop: a spread of a long profile's triangles would overflow the call stack). */
function appendAll(to: number[], from: number[]): true {
  for (let i = 0; i < from.length; i++) to.push(from[i]);
  return true;
}
