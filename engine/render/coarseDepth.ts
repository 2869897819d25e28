/**
 * A coarse, conservative depth buffer on the CPU for occlusion culling without GPU queries (viewer.md §4
 * "Scale": most of a ship's structure lies behind its shell). Large occluder triangles are rasterised
 * into a small buffer (a few hundred pixels wide); then boxes are tested against it. Both sides err
 * towards "visible", so a box reported hidden is hidden in the real frame too:
 *
 * - an occluder writes a pixel's depth only where it covers the whole pixel square, with the farthest
 *   depth the triangle reaches there (its depth plane is affine in screen space: centre + half the
 *   slope in x and y, and never beyond its farthest corner). Pixels a triangle covers only in part
 *   collect its samples (4 × 4 per pixel) in a per-pixel layer with the farthest depth of the triangles
 *   that contributed; a layer whose 16 samples are all covered counts as covering the pixel, so the
 *   triangles of one plate (or plates meeting at an edge) leave no gap along their shared edges.
 *   Triangles with a corner outside the near or far plane are left out (their clipped shape would be
 *   needed);
 * - a box is hidden only when every pixel its projected corners touch holds an occluder depth strictly
 *   nearer than the box's nearest corner; a box with a corner on the camera side of the near plane is
 *   always visible.
 *
 * Depth is NDC z (−1 at the near plane, +1 at the far plane); the buffer starts at +Infinity (empty).
 * Matrices are column-major (THREE.Matrix4.elements), world units mm. No DOM, no GPU: runs anywhere.
 */

/**
 * Depth difference (NDC) a box must lie behind an occluder to count as hidden: absorbs the rounding of
 * the GPU's float32 transform and the surfaces' polygon offset (which only moves the occluded side
 * further back, see chunkMaterial.ts).
 */
const DEPTH_EPSILON = 1e-6;
/** Sample offsets from a pixel's centre (4 × 4 grid) for partly covered pixels; FULL = all 16 covered. */
const SAMPLE = [-0.375, -0.125, 0.125, 0.375];
const FULL = 0xffff;

/** The buffer and its camera. Reuse one instance across frames: `begin` clears it. */
export class CoarseDepthBuffer {
  width = 0;
  height = 0;
  /** Farthest occluder depth per pixel (row-major from the bottom-left), +Infinity where nothing covers it. */
  depth = new Float32Array(0);
  /** Per pixel: samples covered so far by partly covering triangles, and the farthest depth among them. */
  private layerMask = new Uint16Array(0);
  private layerDepth = new Float32Array(0);
  /** Occluder triangles that wrote at least one pixel since `begin`. */
  trianglesDrawn = 0;
  private readonly m = new Float64Array(16);
  // Per-triangle scratch: screen x, y and NDC z of the three corners.
  private readonly sx = new Float64Array(3);
  private readonly sy = new Float64Array(3);
  private readonly sz = new Float64Array(3);

  /**
   * Clears the buffer for a new view: `viewProjection` (16 values, column-major) maps world mm to clip
   * space; `width` × `height` pixels cover NDC x, y in [−1, 1].
   * @throws Error when the size is not a positive integer or the matrix has non-finite values.
   */
  begin(viewProjection: ArrayLike<number>, width: number, height: number): void {
    if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0)
      throw new Error(`CoarseDepthBuffer: size must be positive integers, got ${width} × ${height}`);
    for (let i = 0; i < 16; i++) {
      if (!Number.isFinite(viewProjection[i])) throw new Error(`CoarseDepthBuffer: matrix value ${i} is not finite`);
      this.m[i] = viewProjection[i];
    }
    if (this.width !== width || this.height !== height) {
      this.width = width;
      this.height = height;
      this.depth = new Float32Array(width * height);
      this.layerMask = new Uint16Array(width * height);
      this.layerDepth = new Float32Array(width * height);
    }
    this.depth.fill(Number.POSITIVE_INFINITY);
    this.layerMask.fill(0);
    this.trianglesDrawn = 0;
  }

  /**
   * Rasterises one occluder triangle given by its world corners (mm) at `p[o..o+8]`. Returns true when
   * it wrote a pixel.
   */
  drawTriangle(p: ArrayLike<number>, o: number): boolean {
    const m = this.m,
      w = this.width,
      h = this.height;
    const sx = this.sx,
      sy = this.sy,
      sz = this.sz;
    for (let k = 0; k < 3; k++) {
      const x = p[o + 3 * k],
        y = p[o + 3 * k + 1],
        z = p[o + 3 * k + 2];
      const cw = m[3] * x + m[7] * y + m[11] * z + m[15];
      if (!(cw > 0)) return false;
      const cz = (m[2] * x + m[6] * y + m[10] * z + m[14]) / cw;
      if (cz < -1 || cz > 1) return false;
      sx[k] = ((m[0] * x + m[4] * y + m[8] * z + m[12]) / cw + 1) * 0.5 * w;
      sy[k] = ((m[1] * x + m[5] * y + m[9] * z + m[13]) / cw + 1) * 0.5 * h;
      sz[k] = cz;
    }
    // Twice the signed area; orient the edges so that inside is positive.
    const area = (sx[1] - sx[0]) * (sy[2] - sy[0]) - (sx[2] - sx[0]) * (sy[1] - sy[0]);
    // A triangle under two pixels of area cannot hold a whole pixel square.
    if (!(Math.abs(area) >= 4)) return false;
    const s = area > 0 ? 1 : -1;
    // Edge k runs from corner k to corner k+1: E(x, y) = A·x + B·y + C ≥ 0 inside.
    const a0 = s * (sy[0] - sy[1]),
      b0 = s * (sx[1] - sx[0]),
      c0 = s * (sx[0] * sy[1] - sx[1] * sy[0]);
    const a1 = s * (sy[1] - sy[2]),
      b1 = s * (sx[2] - sx[1]),
      c1 = s * (sx[1] * sy[2] - sx[2] * sy[1]);
    const a2 = s * (sy[2] - sy[0]),
      b2 = s * (sx[0] - sx[2]),
      c2 = s * (sx[2] * sy[0] - sx[0] * sy[2]);
    // A pixel square of half-size ½ lies inside an edge when E(centre) ≥ ½(|A| + |B|).
    const m0 = 0.5 * (Math.abs(a0) + Math.abs(b0)),
      m1 = 0.5 * (Math.abs(a1) + Math.abs(b1)),
      m2 = 0.5 * (Math.abs(a2) + Math.abs(b2));
    // Depth plane z = zx·x + zy·y + zc (NDC z is affine in screen space); farthest over a pixel: + ½(|zx| + |zy|).
    const inv = 1 / (area * s);
    const zx = s * ((sz[1] - sz[0]) * (sy[2] - sy[0]) - (sz[2] - sz[0]) * (sy[1] - sy[0])) * inv;
    const zy = s * ((sx[1] - sx[0]) * (sz[2] - sz[0]) - (sx[2] - sx[0]) * (sz[1] - sz[0])) * inv;
    const zc = sz[0] - zx * sx[0] - zy * sy[0];
    const zm = 0.5 * (Math.abs(zx) + Math.abs(zy));
    // Over the triangle the depth is at most its farthest corner's, however steep the plane.
    const zFar = Math.max(sz[0], sz[1], sz[2]);
    const x0 = Math.max(0, Math.floor(Math.min(sx[0], sx[1], sx[2]))),
      x1 = Math.min(w - 1, Math.ceil(Math.max(sx[0], sx[1], sx[2])) - 1);
    const y0 = Math.max(0, Math.floor(Math.min(sy[0], sy[1], sy[2]))),
      y1 = Math.min(h - 1, Math.ceil(Math.max(sy[0], sy[1], sy[2])) - 1);
    const d = this.depth,
      lm = this.layerMask,
      ld = this.layerDepth;
    let wrote = false;
    for (let y = y0; y <= y1; y++) {
      const py = y + 0.5;
      // Pixels of this row whose square may reach inside every edge: E(centre) ≥ −½(|A| + |B|) for each.
      let xa = x0,
        xb = x1;
      const ea = b0 * py + c0 + m0,
        eb = b1 * py + c1 + m1,
        ec = b2 * py + c2 + m2;
      if (a0 > 0) xa = Math.max(xa, Math.ceil(-ea / a0 - 0.5));
      else if (a0 < 0) xb = Math.min(xb, Math.floor(-ea / a0 - 0.5));
      else if (ea < 0) continue;
      if (a1 > 0) xa = Math.max(xa, Math.ceil(-eb / a1 - 0.5));
      else if (a1 < 0) xb = Math.min(xb, Math.floor(-eb / a1 - 0.5));
      else if (eb < 0) continue;
      if (a2 > 0) xa = Math.max(xa, Math.ceil(-ec / a2 - 0.5));
      else if (a2 < 0) xb = Math.min(xb, Math.floor(-ec / a2 - 0.5));
      else if (ec < 0) continue;
      // One pixel of slack either side: the bounds above are computed in floating point.
      xa = Math.max(x0, xa - 1);
      xb = Math.min(x1, xb + 1);
      // Edge functions at the pixel centre; step by A per pixel.
      let e0 = a0 * (xa + 0.5) + b0 * py + c0,
        e1 = a1 * (xa + 0.5) + b1 * py + c1,
        e2 = a2 * (xa + 0.5) + b2 * py + c2;
      let z = zx * (xa + 0.5) + zy * py + zc + zm;
      const row = y * w;
      for (let x = xa; x <= xb; x++, e0 += a0, e1 += a1, e2 += a2, z += zx) {
        const i = row + x;
        // Already covered by something nearer than any point of this triangle in the pixel: nothing to add.
        if (d[i] <= z - 2 * zm) continue;
        // The pixel square wholly outside one edge: nothing of the triangle in it.
        if (e0 < -m0 || e1 < -m1 || e2 < -m2) continue;
        const far = z < zFar ? z : zFar;
        if (e0 >= m0 && e1 >= m1 && e2 >= m2) {
          if (far < d[i]) d[i] = far;
          wrote = true;
          continue;
        }
        // Partly covered: which of the 4 × 4 samples lie inside (closed triangle, so neighbours sharing an
        // edge leave no gap). The pixel's layer gathers samples of any triangles with the farthest depth
        // among them; once all 16 are covered the layer is a valid bound for the whole pixel.
        let mask = 0;
        for (let sj = 0; sj < 4; sj++) {
          const oy = SAMPLE[sj];
          const f0 = e0 + b0 * oy,
            f1 = e1 + b1 * oy,
            f2 = e2 + b2 * oy;
          for (let si = 0; si < 4; si++) {
            const ox = SAMPLE[si];
            if (f0 + a0 * ox >= 0 && f1 + a1 * ox >= 0 && f2 + a2 * ox >= 0) mask |= 1 << (sj * 4 + si);
          }
        }
        if (mask === 0) continue;
        const merged = lm[i] | mask;
        const layer = lm[i] === 0 || far > ld[i] ? far : ld[i];
        if (merged === FULL) {
          if (layer < d[i]) d[i] = layer;
          lm[i] = 0;
          wrote = true;
        } else {
          lm[i] = merged;
          ld[i] = layer;
        }
      }
    }
    if (wrote) this.trianglesDrawn++;
    return wrote;
  }

  /**
   * True when the box (6 values at `offset`: min xyz, max xyz, mm) may show a pixel: some corner is on
   * the camera side of the near plane, or some pixel its projection touches (inside the buffer) holds
   * no occluder in front of the box's nearest corner. A box wholly outside the buffer is not visible.
   */
  boxVisible(boxes: ArrayLike<number>, offset: number): boolean {
    const m = this.m,
      w = this.width,
      h = this.height;
    let minX = Infinity,
      minY = Infinity,
      maxX = -Infinity,
      maxY = -Infinity,
      near = Infinity;
    for (let c = 0; c < 8; c++) {
      const x = boxes[offset + (c & 1 ? 3 : 0)],
        y = boxes[offset + (c & 2 ? 4 : 1)],
        z = boxes[offset + (c & 4 ? 5 : 2)];
      const cw = m[3] * x + m[7] * y + m[11] * z + m[15];
      const cz = m[2] * x + m[6] * y + m[10] * z + m[14];
      if (!(cw > 0) || cz < -cw) return true;
      const sx = ((m[0] * x + m[4] * y + m[8] * z + m[12]) / cw + 1) * 0.5 * w;
      const sy = ((m[1] * x + m[5] * y + m[9] * z + m[13]) / cw + 1) * 0.5 * h;
      const nz = cz / cw;
      if (sx < minX) minX = sx;
      if (sx > maxX) maxX = sx;
      if (sy < minY) minY = sy;
      if (sy > maxY) maxY = sy;
      if (nz < near) near = nz;
    }
    const x0 = Math.max(0, Math.floor(minX)),
      x1 = Math.min(w - 1, Math.floor(maxX));
    const y0 = Math.max(0, Math.floor(minY)),
      y1 = Math.min(h - 1, Math.floor(maxY));
    if (x0 > x1 || y0 > y1) return false;
    const limit = near - DEPTH_EPSILON;
    const d = this.depth;
    for (let y = y0; y <= y1; y++) {
      const row = y * w;
      for (let x = x0; x <= x1; x++) if (!(d[row + x] < limit)) return true;
    }
    return false;
  }
}
