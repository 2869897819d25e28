/**
 * Growable triangle + edge buffers for one part (positions and normals as xyz triplets, mm; triangle
 * indices; edge segments as point pairs). Produces the typed arrays of a PartMesh.
 *
 * Storage is typed arrays grown by doubling (no per-element boxing, less garbage);
 * coordinates are kept in float64 until build() so results do not depend on the storage.
 */
import { grown } from './typedBuffers';
export class MeshBuilder {
  private pos = take(F64, 192);
  private nor = take(F64, 192);
  private idx = take(U32, 192);
  private edg = take(F64, 96);
  private np = 0;
  private ni = 0;
  private ne = 0;

  /**
   * The positions so far (xyz triplets, mm): a view, valid until the next vertex is added (it keeps the
   * values written before it was taken in any case).
   */
  get positions(): Float64Array {
    return this.pos.subarray(0, this.np);
  }

  /** The normals so far (xyz triplets; a view, like positions). */
  get normals(): Float64Array {
    return this.nor.subarray(0, this.np);
  }

  /** The triangle indices so far (a view, like positions). */
  get indices(): Uint32Array {
    return this.idx.subarray(0, this.ni);
  }

  /** The edge segments so far (two xyz points each; a view, like positions). */
  get edges(): Float64Array {
    return this.edg.subarray(0, this.ne);
  }

  /** Number of vertices so far. */
  get vertexCount(): number {
    return this.np / 3;
  }

  /** Makes room for `n` more vertices (optional; adding grows the buffers anyway). */
  reserve(n: number): void {
    const need = this.np + 3 * n;
    if (need > this.pos.length) this.pos = grown(this.pos, Math.max(need, 192, 2 * this.pos.length));
    if (need > this.nor.length) this.nor = grown(this.nor, Math.max(need, 192, 2 * this.nor.length));
  }

  /**
   * Appends `n` vertices whose coordinates and normals the caller then writes into rawPositions and
   * rawNormals (xyz at 3 × index); returns the index of the first. For bulk writers (thickenSheet):
   * no per-vertex call with six boxed numbers. The new slots hold stale values until
   * written, so every one must be written.
   */
  addVertices(n: number): number {
    this.reserve(n);
    const first = this.np / 3;
    this.np += 3 * n;
    return first;
  }

  /** Appends `n` triangles to be written into rawIndices from the returned offset (3 indices each; see addVertices). */
  addTriangles(n: number): number {
    const k = this.ni;
    if (k + 3 * n > this.idx.length) this.idx = grown(this.idx, Math.max(192, k + 3 * n, 2 * this.idx.length));
    this.ni = k + 3 * n;
    return k;
  }

  /** Appends `n` edge segments to be written into rawEdges from the returned offset (6 numbers each; see addVertices). */
  addEdges(n: number): number {
    const k = this.ne;
    if (k + 6 * n > this.edg.length) this.edg = grown(this.edg, Math.max(96, k + 6 * n, 2 * this.edg.length));
    this.ne = k + 6 * n;
    return k;
  }

  /** The whole position storage (valid until the next growth; entries past the vertices are stale). */
  get rawPositions(): Float64Array {
    return this.pos;
  }

  /** The whole normal storage (as rawPositions). */
  get rawNormals(): Float64Array {
    return this.nor;
  }

  /** The whole triangle index storage (as rawPositions). */
  get rawIndices(): Uint32Array {
    return this.idx;
  }

  /** The whole edge storage (as rawPositions). */
  get rawEdges(): Float64Array {
    return this.edg;
  }

  /** Adds a vertex with its normal; returns its index. */
  vertex(x: number, y: number, z: number, nx: number, ny: number, nz: number): number {
    const k = this.np;
    if (k + 3 > this.pos.length || k + 3 > this.nor.length) this.reserve(1);
    const P = this.pos,
      N = this.nor;
    P[k] = x;
    P[k + 1] = y;
    P[k + 2] = z;
    N[k] = nx;
    N[k + 1] = ny;
    N[k + 2] = nz;
    this.np = k + 3;
    return k / 3;
  }

  /** Adds points (xyz triplets) with zero normals, for meshes without triangles (seams and hole outlines). */
  points(p: ArrayLike<number>): void {
    const n = p.length - (p.length % 3);
    this.reserve(n / 3);
    for (let i = 0; i < n; i++) {
      this.pos[this.np + i] = p[i];
      this.nor[this.np + i] = 0;
    }
    this.np += n;
  }

  /** Adds a triangle (counter-clockwise seen from the outside). */
  triangle(a: number, b: number, c: number): void {
    const k = this.ni;
    if (k + 3 > this.idx.length) this.idx = grown(this.idx, Math.max(192, 2 * this.idx.length));
    const I = this.idx;
    I[k] = a;
    I[k + 1] = b;
    I[k + 2] = c;
    this.ni = k + 3;
  }

  /** Adds an edge segment. */
  edge(ax: number, ay: number, az: number, bx: number, by: number, bz: number): void {
    const k = this.ne;
    if (k + 6 > this.edg.length) this.edg = grown(this.edg, Math.max(96, 2 * this.edg.length));
    const E = this.edg;
    E[k] = ax;
    E[k + 1] = ay;
    E[k + 2] = az;
    E[k + 3] = bx;
    E[k + 4] = by;
    E[k + 5] = bz;
    this.ne = k + 6;
  }

  /** Adds a polyline (xyz triplets) as edge segments; closed adds the closing segment. */
  polylineEdges(p: ArrayLike<number>, closed: boolean): void {
    const n = Math.floor(p.length / 3);
    for (let i = 1; i < n; i++)
      this.edge(p[3 * i - 3], p[3 * i - 2], p[3 * i - 1], p[3 * i], p[3 * i + 1], p[3 * i + 2]);
    if (closed && n > 2) this.edge(p[3 * n - 3], p[3 * n - 2], p[3 * n - 1], p[0], p[1], p[2]);
  }

  /** True when every coordinate is finite. */
  isFinite(): boolean {
    const P = this.pos,
      E = this.edg;
    for (let i = 0; i < this.np; i++) if (!Number.isFinite(P[i])) return false;
    for (let i = 0; i < this.ne; i++) if (!Number.isFinite(E[i])) return false;
    return true;
  }

  /**
   * Typed arrays for a PartMesh (normals null when there are no triangles). Degenerate triangles (two
   * corners within 1e-3 mm) are removed; dropping them keeps a closed mesh closed.
   * This ends the builder (see release). Many parts: MeshSlab.add puts their arrays in one buffer.
   */
  build(): { positions: Float32Array; normals: Float32Array | null; indices: Uint32Array; edges: Float32Array | null } {
    const kept = new Uint32Array(this.ni);
    const nk = this.writeKeptIndices(kept, 0);
    const out = {
      positions: new Float32Array(this.pos.subarray(0, this.np)),
      normals: this.ni ? new Float32Array(this.nor.subarray(0, this.np)) : null,
      indices: nk === this.ni ? kept : kept.slice(0, nk),
      edges: this.ne ? new Float32Array(this.edg.subarray(0, this.ne)) : null,
    };
    this.release();
    return out;
  }

  /**
   * Writes the indices of the non-degenerate triangles (no two corners within 1e-3 mm on every axis)
   * into `out` from `at`, in order; returns how many indices it wrote (a multiple of
   * 3, at most indices.length). `out` needs room for indices.length values from `at`.
   */
  writeKeptIndices(out: Uint32Array, at: number): number {
    const P = this.pos,
      I = this.idx;
    let k = at;
    for (let t = 0; t + 2 < this.ni; t += 3) {
      const a = I[t],
        b = I[t + 1],
        c = I[t + 2];
      if (!near(P, a, b) && !near(P, b, c) && !near(P, a, c)) {
        out[k] = a;
        out[k + 1] = b;
        out[k + 2] = c;
        k += 3;
      }
    }
    return k - at;
  }

  /** Ends the builder: its working buffers go back to a small pool for the next builder, and it is empty afterwards. */
  release(): void {
    give(F64, this.pos);
    give(F64, this.nor);
    give(U32, this.idx);
    give(F64, this.edg);
    this.pos = this.nor = this.edg = EMPTY_F64;
    this.idx = EMPTY_U32;
    this.np = this.ni = this.ne = 0;
  }
}

/**
 * True when vertices a and b of P (xyz triples, mm) are within 1e-3 mm on every axis. A module function,
 * not a closure per call: under tsx every closure made is also named (esbuild's keepNames), a cost per part.
 */
function near(P: Float64Array, a: number, b: number): boolean {
  return (
    Math.abs(P[3 * a] - P[3 * b]) < 1e-3 &&
    Math.abs(P[3 * a + 1] - P[3 * b + 1]) < 1e-3 &&
    Math.abs(P[3 * a + 2] - P[3 * b + 2]) < 1e-3
  );
}

/*
 * Working buffers of finished builders, reused by the next ones (allocating typed arrays per part costs
 * more than filling them). A few per kind, none larger than POOL_MAX_ELEMENTS. Per
 * thread (module state), never shared between live builders.
 */
const F64: Float64Array[] = [];
const U32: Uint32Array[] = [];
const POOL_SIZE = 8;
const POOL_MAX_ELEMENTS = 1 << 20;
const EMPTY_F64 = new Float64Array(0);
const EMPTY_U32 = new Uint32Array(0);

function take<T extends Float64Array | Uint32Array>(pool: T[], n: number): T {
  const b = pool.pop();
  if (b) return b;
  return (pool === (F64 as unknown) ? new Float64Array(n) : new Uint32Array(n)) as T;
}

function give<T extends Float64Array | Uint32Array>(pool: T[], b: T): void {
  if (b.length > 0 && b.length <= POOL_MAX_ELEMENTS && pool.length < POOL_SIZE) pool.push(b);
}
