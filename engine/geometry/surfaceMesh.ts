/**
 * Triangulated reference surfaces and the "projection + lift" of OCX_GUIDE §5.2.3 B: points of a plate
 * triangulated in the plane of its outline are moved along the plane normal N onto the surface. Also
 * grid tessellation of parametric patches, vertex welding and boundary-ring extraction. Units: mm.
 */
import { hypot3, cross, normalize, type Vec3 } from './curves';
import { triangleCross } from './meshMeasure';

/** A triangle soup approximating a surface; triangle normals follow the surface's own orientation. */
export interface SurfaceMesh {
  positions: number[];
  indices: number[];
}

/** Appends a grid tessellation of f(u, v) over [0,1]² with nu × nv cells; triangles oriented as Su × Sv. */
export function appendGrid(
  mesh: SurfaceMesh,
  nu: number,
  nv: number,
  f: (u: number, v: number, out: number[]) => void,
): void {
  const base = mesh.positions.length / 3;
  const p = [0, 0, 0];
  for (let i = 0; i <= nu; i++)
    for (let j = 0; j <= nv; j++) {
      f(i / nu, j / nv, p);
      mesh.positions.push(p[0], p[1], p[2]);
    }
  for (let i = 0; i < nu; i++)
    for (let j = 0; j < nv; j++) {
      const a = base + i * (nv + 1) + j,
        b = a + nv + 1;
      mesh.indices.push(a, b, b + 1, a, b + 1, a + 1);
    }
}

/**
 * Appends a grid of (nu + 1) × (nv + 1) points given as xyz (point (i, j) at 3 · (i · (nv + 1) + j),
 * mm) with appendGrid's triangles.
 */
export function appendGridPoints(mesh: SurfaceMesh, nu: number, nv: number, xyz: ArrayLike<number>): void {
  const base = mesh.positions.length / 3;
  for (let k = 0; k < 3 * (nu + 1) * (nv + 1); k++) mesh.positions.push(xyz[k]);
  for (let i = 0; i < nu; i++)
    for (let j = 0; j < nv; j++) {
      const a = base + i * (nv + 1) + j,
        b = a + nv + 1;
      mesh.indices.push(a, b, b + 1, a, b + 1, a + 1);
    }
}

/** Result of lifting one point. */
export interface LiftHit {
  point: Vec3;
  /** Unit normal of the hit triangle (surface orientation). */
  normal: Vec3;
}

/**
 * Ray caster for lifting points along ±N onto a surface mesh. Triangles are bucketed on a grid in the
 * (e1, e2) plane; a query returns the hit closest to the plane (smallest |height|).
 *
 * The buckets are one flat list per cell in triangle order (compressed rows over the cells the
 * triangles cover, dense when that box of cells is small, else addressed through a map), and queries
 * write into a caller's buffer: no per-cell arrays or per-query objects.
 */
export class SurfaceLifter {
  private readonly cell: number;
  private readonly e1: Vec3;
  private readonly e2: Vec3;
  /** Mesh triangle number of each kept triangle (tri2d, triN and the cells use the local numbers). */
  private readonly tris: Uint32Array;
  private readonly tri2d: Float64Array;
  private readonly triN: Float64Array;
  /** Cell addressing: dense box [gx0, gy0] + (gw × gh) cells, or (gw = 0) the map of cell keys. */
  private readonly gx0: number = 0;
  private readonly gy0: number = 0;
  private readonly gw: number = 0;
  private readonly gh: number = 0;
  private readonly slotOf: Map<number, number> | null = null;
  /** Triangles of cell slot s: items[start[s] .. start[s + 1]). */
  private readonly start: Int32Array;
  private readonly items: Int32Array;
  private readonly hit = new Float64Array(6);

  /**
   * @param within optional box [minx, miny, minz, maxx, maxy, maxz] (mm): only triangles whose bounding
   * box meets it are indexed (a plate lifts onto its own neighbourhood of a large shared surface; the
   * triangles' boxes are computed once per surface mesh).
   */
  constructor(
    readonly mesh: SurfaceMesh,
    readonly origin: Vec3,
    readonly N: Vec3,
    cellSize: number,
    within?: ArrayLike<number>,
  ) {
    this.N = normalize(N);
    this.e1 = normalize(Math.abs(this.N[0]) < 0.9 ? cross(this.N, [1, 0, 0]) : cross(this.N, [0, 1, 0]));
    this.e2 = cross(this.N, this.e1);
    this.cell = Math.max(cellSize, 1e-3);
    const P = mesh.positions,
      I = mesh.indices,
      nt = I.length / 3;
    // only the triangles near the plate are kept, under local numbers (a plate on a
    // large shared surface no longer allocates per-triangle arrays for the whole surface)
    const boxes = within ? triangleBoxes(mesh) : null;
    const normalsOf = triangleNormals(mesh);
    const sel = new Uint32Array(nt);
    let ns = 0;
    for (let t = 0; t < nt; t++) {
      if (boxes && within) {
        const o = 6 * t;
        if (
          boxes[o] > within[3] ||
          boxes[o + 3] < within[0] ||
          boxes[o + 1] > within[4] ||
          boxes[o + 4] < within[1] ||
          boxes[o + 2] > within[5] ||
          boxes[o + 5] < within[2]
        )
          continue;
      }
      sel[ns++] = t;
    }
    this.tris = sel.slice(0, ns);
    this.tri2d = new Float64Array(ns * 6);
    this.triN = new Float64Array(ns * 3);
    const range = new Float64Array(ns * 4); // cx0, cx1, cy0, cy1 of each bucketed triangle; cx0 = NaN: not bucketed
    const [e1x, e1y, e1z] = this.e1,
      [e2x, e2y, e2z] = this.e2;
    const [ox, oy, oz] = origin;
    const [Nx, Ny, Nz] = this.N;
    const cell = this.cell;
    let bx0 = Infinity,
      bx1 = -Infinity,
      by0 = Infinity,
      by1 = -Infinity,
      entries = 0;
    for (let j = 0; j < ns; j++) {
      const t = sel[j];
      let minx = Infinity,
        miny = Infinity,
        maxx = -Infinity,
        maxy = -Infinity;
      for (let k = 0; k < 3; k++) {
        const i = 3 * I[3 * t + k];
        const dx = P[i] - ox,
          dy = P[i + 1] - oy,
          dz = P[i + 2] - oz;
        const x = dx * e1x + dy * e1y + dz * e1z,
          y = dx * e2x + dy * e2y + dz * e2z;
        this.tri2d[6 * j + 2 * k] = x;
        this.tri2d[6 * j + 2 * k + 1] = y;
        minx = Math.min(minx, x);
        maxx = Math.max(maxx, x);
        miny = Math.min(miny, y);
        maxy = Math.max(maxy, y);
      }
      const nx = normalsOf[3 * t],
        ny = normalsOf[3 * t + 1],
        nz = normalsOf[3 * t + 2];
      this.triN[3 * j] = nx;
      this.triN[3 * j + 1] = ny;
      this.triN[3 * j + 2] = nz;
      range[4 * j] = NaN;
      if (Math.abs(nx * Nx + ny * Ny + nz * Nz) < 1e-3) continue; // parallel to the ray
      const cx0 = Math.floor(minx / cell),
        cx1 = Math.floor(maxx / cell),
        cy0 = Math.floor(miny / cell),
        cy1 = Math.floor(maxy / cell);
      if ((cx1 - cx0 + 1) * (cy1 - cy0 + 1) > 10000) continue;
      range[4 * j] = cx0;
      range[4 * j + 1] = cx1;
      range[4 * j + 2] = cy0;
      range[4 * j + 3] = cy1;
      if (cx0 < bx0) bx0 = cx0;
      if (cx1 > bx1) bx1 = cx1;
      if (cy0 < by0) by0 = cy0;
      if (cy1 > by1) by1 = cy1;
      entries += (cx1 - cx0 + 1) * (cy1 - cy0 + 1);
    }
    const dense = entries > 0 && (bx1 - bx0 + 1) * (by1 - by0 + 1) <= Math.max(1 << 16, 4 * entries);
    let slots = 0;
    if (dense) {
      this.gx0 = bx0;
      this.gy0 = by0;
      this.gw = bx1 - bx0 + 1;
      this.gh = by1 - by0 + 1;
      slots = this.gw * this.gh;
    } else {
      this.slotOf = new Map();
      for (let j = 0; j < ns; j++) {
        if (Number.isNaN(range[4 * j])) continue;
        for (let cx = range[4 * j]; cx <= range[4 * j + 1]; cx++)
          for (let cy = range[4 * j + 2]; cy <= range[4 * j + 3]; cy++) {
            const key = cx * 1_000_003 + cy;
            if (!this.slotOf.has(key)) this.slotOf.set(key, slots++);
          }
      }
    }
    // counting sort of (cell, triangle) pairs: each cell's list keeps the triangle order
    const start = new Int32Array(slots + 1);
    let items = new Int32Array(0);
    for (let pass = 0; pass < 2; pass++) {
      for (let j = 0; j < ns; j++) {
        if (Number.isNaN(range[4 * j])) continue;
        for (let cx = range[4 * j]; cx <= range[4 * j + 1]; cx++)
          for (let cy = range[4 * j + 2]; cy <= range[4 * j + 3]; cy++) {
            const s = this.slot(cx, cy);
            if (pass === 0) start[s + 1]++;
            else items[start[s]++] = j;
          }
      }
      if (pass === 0) {
        for (let s = 0; s < slots; s++) start[s + 1] += start[s];
        items = new Int32Array(start[slots]);
      } else {
        for (let s = slots; s > 0; s--) start[s] = start[s - 1];
        start[0] = 0;
      }
    }
    this.start = start;
    this.items = items;
  }

  /** The slot of cell (cx, cy), or −1 when no triangle covers it. */
  private slot(cx: number, cy: number): number {
    if (this.gw > 0) {
      const i = cx - this.gx0,
        j = cy - this.gy0;
      return i >= 0 && j >= 0 && i < this.gw && j < this.gh ? i * this.gh + j : -1;
    }
    return this.slotOf?.get(cx * 1_000_003 + cy) ?? -1;
  }

  /** Basis (e1, e2) of the projection plane. */
  get basis(): [Vec3, Vec3] {
    return [this.e1, this.e2];
  }

  /**
   * Lifts the plane point (x, y) (coordinates in the e1/e2 basis about origin); among several hits the
   * one whose signed height along N is closest to `expected` (mm) wins. Undefined on a miss.
   */
  lift(x: number, y: number, expected = 0): LiftHit | undefined {
    const h = this.hit;
    return this.liftInto(x, y, expected, h) ? { point: [h[0], h[1], h[2]], normal: [h[3], h[4], h[5]] } : undefined;
  }

  /**
   * As lift, writing the point (out[0..2], mm) and the unit normal of the hit triangle (out[3..5]) into
   * `out`; false on a miss (out unchanged).
   */
  liftInto(x: number, y: number, expected: number, out: Float64Array): boolean {
    const s = this.slot(Math.floor(x / this.cell), Math.floor(y / this.cell));
    if (s < 0 || this.start[s] === this.start[s + 1]) return this.extrapolate(x, y, expected, out);
    const T = this.tri2d,
      items = this.items;
    let best = -1,
      bestH = Infinity,
      px = 0,
      py = 0,
      pz = 0;
    for (let q = this.start[s], qe = this.start[s + 1]; q < qe; q++) {
      const t = items[q];
      if (!barycentric(T, 6 * t, x, y)) continue;
      const l0 = BARY[0],
        l1 = BARY[1],
        l2 = 1 - l0 - l1;
      const eps = -1e-7;
      if (l0 < eps || l1 < eps || l2 < eps) continue;
      const h = this.pointOn(t, l0, l1, expected);
      if (h < bestH) {
        bestH = h;
        best = t;
        px = PT[0];
        py = PT[1];
        pz = PT[2];
      }
    }
    if (best < 0) return this.extrapolate(x, y, expected, out);
    out[0] = px;
    out[1] = py;
    out[2] = pz;
    out[3] = this.triN[3 * best];
    out[4] = this.triN[3 * best + 1];
    out[5] = this.triN[3 * best + 2];
    return true;
  }

  /** The point of triangle t at barycentric (l0, l1) into PT (mm); returns |its height along N − expected|. */
  private pointOn(t: number, l0: number, l1: number, expected: number): number {
    const P = this.mesh.positions,
      I = this.mesh.indices;
    const g = 3 * this.tris[t];
    const a = 3 * I[g],
      b = 3 * I[g + 1],
      c = 3 * I[g + 2],
      l2 = 1 - l0 - l1;
    const qx = l0 * P[a] + l1 * P[b] + l2 * P[c],
      qy = l0 * P[a + 1] + l1 * P[b + 1] + l2 * P[c + 1],
      qz = l0 * P[a + 2] + l1 * P[b + 2] + l2 * P[c + 2];
    PT[0] = qx;
    PT[1] = qy;
    PT[2] = qz;
    const [ox, oy, oz] = this.origin,
      [Nx, Ny, Nz] = this.N;
    return Math.abs((qx - ox) * Nx + (qy - oy) * Ny + (qz - oz) * Nz - expected);
  }

  /**
   * A point just outside the triangulated surface (the chords of a curved edge lie inside the true
   * boundary, so points of the plate's own outline on the convex side miss every triangle): the plane
   * of the nearest triangle (2D distance, within the neighbouring cells) extended to (x, y). Leaving
   * such points in the projection plane gave skewed edge triangles and plate areas up to 30 % too large.
   * False when no triangle is near.
   */
  private extrapolate(x: number, y: number, expected: number, out: Float64Array): boolean {
    const cx = Math.floor(x / this.cell),
      cy = Math.floor(y / this.cell);
    const T = this.tri2d,
      items = this.items;
    let bestT = -1,
      bestD = Infinity,
      bestH = Infinity,
      b0 = 0,
      b1 = 0;
    for (let dx = -1; dx <= 1; dx++)
      for (let dy = -1; dy <= 1; dy++) {
        const s = this.slot(cx + dx, cy + dy);
        if (s < 0) continue;
        for (let q = this.start[s], qe = this.start[s + 1]; q < qe; q++) {
          const t = items[q];
          const o = 6 * t;
          if (!barycentric(T, o, x, y)) continue;
          const x0 = T[o],
            y0 = T[o + 1],
            x1 = T[o + 2],
            y1 = T[o + 3],
            x2 = T[o + 4],
            y2 = T[o + 5];
          const d = Math.min(
            segDist2(x, y, x0, y0, x1, y1),
            segDist2(x, y, x1, y1, x2, y2),
            segDist2(x, y, x2, y2, x0, y0),
          );
          if (d > bestD + 1e-9) continue;
          const l0 = BARY[0],
            l1 = BARY[1];
          const h = this.pointOn(t, l0, l1, expected);
          if (d < bestD - 1e-9 || h < bestH) {
            bestT = t;
            bestD = d;
            bestH = h;
            b0 = l0;
            b1 = l1;
          }
        }
      }
    if (bestT < 0) return false;
    this.pointOn(bestT, b0, b1, expected);
    out[0] = PT[0];
    out[1] = PT[1];
    out[2] = PT[2];
    out[3] = this.triN[3 * bestT];
    out[4] = this.triN[3 * bestT + 1];
    out[5] = this.triN[3 * bestT + 2];
    return true;
  }
}

/** Scratch of barycentric() (l0, l1) and SurfaceLifter.pointOn (xyz). */
const BARY = new Float64Array(2);
const PT = new Float64Array(3);

/** Barycentric coordinates (l0, l1) of (x, y) in the 2D triangle T[o .. o+6) into BARY; false when it is degenerate. */
function barycentric(T: Float64Array, o: number, x: number, y: number): boolean {
  const x0 = T[o],
    y0 = T[o + 1],
    x1 = T[o + 2],
    y1 = T[o + 3],
    x2 = T[o + 4],
    y2 = T[o + 5];
  const det = (y1 - y2) * (x0 - x2) + (x2 - x1) * (y0 - y2);
  if (Math.abs(det) < 1e-12) return false;
  BARY[0] = ((y1 - y2) * (x - x2) + (x2 - x1) * (y - y2)) / det;
  BARY[1] = ((y2 - y0) * (x - x2) + (x0 - x2) * (y - y2)) / det;
  return true;
}

const BOXES = new WeakMap<SurfaceMesh, Float64Array>();

/** Bounding boxes of a mesh's triangles (min xyz, max xyz per triangle), cached per mesh object. */
/** Unit normals of a mesh's triangles, per mesh (a shared surface serves every plate lifted onto it). */
const NORMALS = new WeakMap<SurfaceMesh, Float64Array>();

/** The unit normal of every triangle of the mesh (normalize((b − a) × (c − a)); 0 for a degenerate one), 3 numbers each, cached per mesh. */
function triangleNormals(mesh: SurfaceMesh): Float64Array {
  let n = NORMALS.get(mesh);
  if (n && n.length === mesh.indices.length) return n;
  const P = mesh.positions,
    I = mesh.indices,
    nt = I.length / 3;
  n = new Float64Array(nt * 3);
  for (let t = 0; t < nt; t++) {
    const a = 3 * I[3 * t],
      b = 3 * I[3 * t + 1],
      c = 3 * I[3 * t + 2];
    const o = 3 * t;
    triangleCross(P, a, b, c, n, o);
    const l = hypot3(n[o], n[o + 1], n[o + 2]);
    n[o] = l > 0 ? n[o] / l : 0;
    n[o + 1] = l > 0 ? n[o + 1] / l : 0;
    n[o + 2] = l > 0 ? n[o + 2] / l : 0;
  }
  NORMALS.set(mesh, n);
  return n;
}

function triangleBoxes(mesh: SurfaceMesh): Float64Array {
  let b = BOXES.get(mesh);
  if (b && b.length === mesh.indices.length * 2) return b;
  const P = mesh.positions,
    I = mesh.indices,
    nt = I.length / 3;
  b = new Float64Array(nt * 6);
  for (let t = 0; t < nt; t++)
    for (let k = 0; k < 3; k++) {
      let lo = Infinity,
        hi = -Infinity;
      for (let j = 0; j < 3; j++) {
        const v = P[3 * I[3 * t + j] + k];
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
      b[6 * t + k] = lo;
      b[6 * t + 3 + k] = hi;
    }
  BOXES.set(mesh, b);
  return b;
}

/** Squared distance from (x, y) to the segment (ax, ay)–(bx, by). */
function segDist2(x: number, y: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax,
    dy = by - ay,
    l2 = dx * dx + dy * dy;
  let s = l2 > 0 ? ((x - ax) * dx + (y - ay) * dy) / l2 : 0;
  s = s < 0 ? 0 : Math.min(s, 1);
  const ex = x - ax - s * dx,
    ey = y - ay - s * dy;
  return ex * ex + ey * ey;
}

/**
 * Welds vertices closer than tol (quantised grid) and drops degenerate triangles.
 * @param remap when given, filled with the new index of every input vertex (a new vertex is at the
 * position of the first input vertex mapped to it).
 * @returns a new mesh with shared vertices.
 */
export function weld(
  mesh: { positions: ArrayLike<number>; indices: ArrayLike<number> },
  tol: number,
  remap: number[] = [],
): SurfaceMesh {
  // grid of cell size tol; a point joins any earlier vertex within tol in its own or a neighbouring
  // cell (rounding alone would keep two points 0.001 mm apart when they straddle a cell border).
  // Cells are a typed open-addressing table, each holding its vertices in the order they were made
  // (a linked list through `after`): no key strings or arrays per cell.
  remap.length = 0;
  const positions: number[] = [];
  const P = mesh.positions;
  const n = Math.floor(P.length / 3);
  const cells = new WeldCells(n);
  const after = new Int32Array(Math.max(1, n)); // next vertex of the same cell, −1 at its end
  for (let i = 0; i < n; i++) {
    const x = P[3 * i],
      y = P[3 * i + 1],
      z = P[3 * i + 2];
    const cx = Math.floor(x / tol),
      cy = Math.floor(y / tol),
      cz = Math.floor(z / tol);
    let k = -1;
    for (let dx = -1; dx <= 1 && k < 0; dx++)
      for (let dy = -1; dy <= 1 && k < 0; dy++)
        for (let dz = -1; dz <= 1 && k < 0; dz++) {
          const c = cells.find(cx + dx, cy + dy, cz + dz);
          if (c < 0) continue;
          for (let v = cells.head[c]; v >= 0; v = after[v])
            if (hypot3(positions[3 * v] - x, positions[3 * v + 1] - y, positions[3 * v + 2] - z) <= tol) {
              k = v;
              break;
            }
        }
    if (k < 0) {
      k = positions.length / 3;
      positions.push(x, y, z);
      after[k] = -1;
      const c = cells.slot(cx, cy, cz);
      if (cells.head[c] < 0) cells.head[c] = k;
      else after[cells.tail[c]] = k;
      cells.tail[c] = k;
    }
    remap.push(k);
  }
  const indices: number[] = [];
  for (let t = 0; t + 2 < mesh.indices.length; t += 3) {
    const a = remap[mesh.indices[t]],
      b = remap[mesh.indices[t + 1]],
      c = remap[mesh.indices[t + 2]];
    if (a !== b && b !== c && a !== c) indices.push(a, b, c);
  }
  return { positions, indices };
}

/**
 * Removes T-junctions of a welded mesh (facetted surfaces whose facets' edges are
 * subdivided differently): a vertex lying on an edge used by one triangle, strictly between its ends
 * (within `tol`, mm), splits that triangle, until none is left. Returns new indices; positions unchanged.
 */
export function splitTJunctions(positions: ArrayLike<number>, indices: ArrayLike<number>, tol: number): number[] {
  let I = Array.from(indices);
  for (let pass = 0; pass < 8; pass++) {
    const count = new Map<number, number>();
    const key = (a: number, b: number) => (a < b ? a * 67108864 + b : b * 67108864 + a);
    for (let t = 0; t < I.length; t += 3)
      for (let k = 0; k < 3; k++) {
        const e = key(I[t + k], I[t + ((k + 1) % 3)]);
        count.set(e, (count.get(e) ?? 0) + 1);
      }
    const onBoundary = new Set<number>();
    for (let t = 0; t < I.length; t += 3)
      for (let k = 0; k < 3; k++)
        if (count.get(key(I[t + k], I[t + ((k + 1) % 3)])) === 1) {
          onBoundary.add(I[t + k]);
          onBoundary.add(I[t + ((k + 1) % 3)]);
        }
    const cand = [...onBoundary];
    const P = positions;
    const out: number[] = [];
    let split = 0;
    for (let t = 0; t < I.length; t += 3) {
      let done = false;
      for (let k = 0; k < 3 && !done; k++) {
        const a = I[t + k],
          b = I[t + ((k + 1) % 3)],
          c = I[t + ((k + 2) % 3)];
        if (count.get(key(a, b)) !== 1) continue;
        const ax = P[3 * a],
          ay = P[3 * a + 1],
          az = P[3 * a + 2];
        const dx = P[3 * b] - ax,
          dy = P[3 * b + 1] - ay,
          dz = P[3 * b + 2] - az,
          L2 = dx * dx + dy * dy + dz * dz;
        if (L2 <= tol * tol) continue;
        const on: [number, number][] = [];
        for (const v of cand) {
          if (v === a || v === b) continue;
          const px = P[3 * v] - ax,
            py = P[3 * v + 1] - ay,
            pz = P[3 * v + 2] - az;
          const u = (px * dx + py * dy + pz * dz) / L2;
          if (u <= 1e-9 || u >= 1 - 1e-9) continue;
          if (hypot3(px - u * dx, py - u * dy, pz - u * dz) <= tol) on.push([u, v]);
        }
        if (!on.length) continue;
        on.sort((x, y) => x[0] - y[0]);
        const chain = [a, ...on.map((o) => o[1]), b];
        for (let j = 0; j + 1 < chain.length; j++) out.push(chain[j], chain[j + 1], c);
        split++;
        done = true;
      }
      if (!done) out.push(I[t], I[t + 1], I[t + 2]);
    }
    I = out;
    if (!split) break;
  }
  return I;
}

/** Boundary loops of a welded mesh (edges used by one triangle), as vertex index lists in edge direction. */
export function boundaryRings(indices: ArrayLike<number>): number[][] {
  const count = new EdgeCounter(indices.length); // uses of each undirected edge (typed hash: no boxed keys)
  let top = -1;
  for (let t = 0; t + 2 < indices.length; t += 3)
    for (let k = 0; k < 3; k++) {
      const a = indices[t + k],
        b = indices[t + ((k + 1) % 3)];
      count.add(a, b);
      if (a > top) top = a;
    }
  // the boundary edges a → b as lists of successors per vertex (compressed rows, in scan order), and
  // the vertices in the order their first boundary edge was met
  const deg = new Int32Array(top + 2);
  const order: number[] = [];
  for (let t = 0; t + 2 < indices.length; t += 3)
    for (let k = 0; k < 3; k++) {
      const a = indices[t + k],
        b = indices[t + ((k + 1) % 3)];
      if (count.get(a, b) === 1 && deg[a + 1]++ === 0) order.push(a);
    }
  for (let v = 0; v <= top; v++) deg[v + 1] += deg[v];
  const succ = new Int32Array(deg[top + 1]);
  const left = new Int32Array(top + 1); // successors not yet used: succ[deg[v] .. deg[v] + left[v])
  for (let t = 0; t + 2 < indices.length; t += 3)
    for (let k = 0; k < 3; k++) {
      const a = indices[t + k],
        b = indices[t + ((k + 1) % 3)];
      if (count.get(a, b) === 1) succ[deg[a] + left[a]++] = b;
    }
  const rings: number[][] = [];
  for (const start of order) {
    if (left[start] === 0) continue;
    const ring = [start];
    let cur = start;
    for (let guard = 0; guard < 1e6; guard++) {
      if (left[cur] === 0) break;
      const nx = succ[deg[cur] + --left[cur]]; // the last one added first
      if (nx === start) break;
      ring.push(nx);
      cur = nx;
    }
    if (ring.length >= 3) rings.push(ring);
  }
  return rings;
}

/** The occupied cells of weld's grid: integer cell coordinates → first and last vertex, open addressing. */
class WeldCells {
  private readonly key: Float64Array;
  /** First and last vertex of each slot's cell (−1: the slot is empty). */
  readonly head: Int32Array;
  readonly tail: Int32Array;
  private readonly mask: number;

  /** @param maxCells upper bound of distinct cells added. */
  constructor(maxCells: number) {
    let cap = 16;
    while (cap < 2 * maxCells) cap *= 2;
    this.key = new Float64Array(3 * cap);
    this.head = new Int32Array(cap).fill(-1);
    this.tail = new Int32Array(cap);
    this.mask = cap - 1;
  }

  /** The first slot of cell (x, y, z)'s probe sequence (the coordinates may exceed 32 bits: hashed by their low bits). */
  private start(x: number, y: number, z: number): number {
    return (Math.imul(x | 0, 0x9e3779b1) ^ Math.imul(y | 0, 0x85ebca77) ^ Math.imul(z | 0, 0xc2b2ae3d)) & this.mask;
  }

  /** The slot holding cell (x, y, z), or −1 when it has no vertex. */
  find(x: number, y: number, z: number): number {
    const K = this.key;
    for (let h = this.start(x, y, z); ; h = (h + 1) & this.mask) {
      if (this.head[h] < 0) return -1;
      if (K[3 * h] === x && K[3 * h + 1] === y && K[3 * h + 2] === z) return h;
    }
  }

  /** The slot of cell (x, y, z), claimed (head −1) when it has none yet. */
  slot(x: number, y: number, z: number): number {
    const K = this.key;
    for (let h = this.start(x, y, z); ; h = (h + 1) & this.mask) {
      if (this.head[h] < 0) {
        K[3 * h] = x;
        K[3 * h + 1] = y;
        K[3 * h + 2] = z;
        return h;
      }
      if (K[3 * h] === x && K[3 * h + 1] === y && K[3 * h + 2] === z) return h;
    }
  }
}

/** Use counts of undirected edges (vertex pairs, indices < 2^31) in an open-addressing hash table. */
class EdgeCounter {
  private readonly lo: Int32Array;
  private readonly hi: Int32Array;
  private readonly n: Int32Array;
  private readonly mask: number;

  /** @param maxEdges upper bound of distinct edges added. */
  constructor(maxEdges: number) {
    let cap = 16;
    while (cap < 2 * maxEdges) cap *= 2;
    this.lo = new Int32Array(cap).fill(-1);
    this.hi = new Int32Array(cap);
    this.n = new Int32Array(cap);
    this.mask = cap - 1;
  }

  private slot(a: number, b: number): number {
    const lo = Math.min(a, b),
      hi = Math.max(a, b);
    let h = (Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi, 0x85ebca77)) & this.mask;
    while (this.lo[h] !== -1 && (this.lo[h] !== lo || this.hi[h] !== hi)) h = (h + 1) & this.mask;
    return h;
  }

  /** Counts one more use of edge {a, b}. */
  add(a: number, b: number): void {
    const h = this.slot(a, b);
    if (this.lo[h] === -1) {
      this.lo[h] = Math.min(a, b);
      this.hi[h] = Math.max(a, b);
    }
    this.n[h]++;
  }

  /** Uses of edge {a, b} so far. */
  get(a: number, b: number): number {
    const h = this.slot(a, b);
    return this.lo[h] === -1 ? 0 : this.n[h];
  }
}
