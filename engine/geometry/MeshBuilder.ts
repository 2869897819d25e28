/**
 * Growable triangle + edge buffers for one part (positions and normals as xyz triplets, mm; triangle
 * indices; edge segments as point pairs). Produces the typed arrays of a PartMesh.
 */
export class MeshBuilder {
  readonly positions: number[] = [];
  readonly normals: number[] = [];
  readonly indices: number[] = [];
  readonly edges: number[] = [];

  /** Number of vertices so far. */
  get vertexCount(): number {
    return this.positions.length / 3;
  }

  /** Adds a vertex with its normal; returns its index. */
  vertex(x: number, y: number, z: number, nx: number, ny: number, nz: number): number {
    this.positions.push(x, y, z);
    this.normals.push(nx, ny, nz);
    return this.positions.length / 3 - 1;
  }

  /** Adds a triangle (counter-clockwise seen from the outside). */
  triangle(a: number, b: number, c: number): void {
    this.indices.push(a, b, c);
  }

  /** Adds an edge segment. */
  edge(ax: number, ay: number, az: number, bx: number, by: number, bz: number): void {
    this.edges.push(ax, ay, az, bx, by, bz);
  }

  /** Adds a polyline (xyz triplets) as edge segments; closed adds the closing segment. */
  polylineEdges(p: ArrayLike<number>, closed: boolean): void {
    const n = Math.floor(p.length / 3);
    for (let i = 1; i < n; i++) this.edge(p[3 * i - 3], p[3 * i - 2], p[3 * i - 1], p[3 * i], p[3 * i + 1], p[3 * i + 2]);
    if (closed && n > 2) this.edge(p[3 * n - 3], p[3 * n - 2], p[3 * n - 1], p[0], p[1], p[2]);
  }

  /** True when every coordinate is finite. */
  isFinite(): boolean {
    for (const v of this.positions) if (!Number.isFinite(v)) return false;
    for (const v of this.edges) if (!Number.isFinite(v)) return false;
    return true;
  }

  /**
   * Typed arrays for a PartMesh (normals null when there are no triangles). Degenerate triangles (two
   * corners within 1e-3 mm) are removed (issue 3 item 2); dropping them keeps a closed mesh closed.
   */
  build(): { positions: Float32Array; normals: Float32Array | null; indices: Uint32Array; edges: Float32Array | null } {
    const P = this.positions, I = this.indices;
    const near = (a: number, b: number) => Math.abs(P[3 * a] - P[3 * b]) < 1e-3 && Math.abs(P[3 * a + 1] - P[3 * b + 1]) < 1e-3 && Math.abs(P[3 * a + 2] - P[3 * b + 2]) < 1e-3;
    const kept: number[] = [];
    for (let t = 0; t + 2 < I.length; t += 3) {
      const a = I[t], b = I[t + 1], c = I[t + 2];
      if (!near(a, b) && !near(b, c) && !near(a, c)) kept.push(a, b, c);
    }
    return {
      positions: Float32Array.from(this.positions),
      normals: this.indices.length ? Float32Array.from(this.normals) : null,
      indices: Uint32Array.from(kept),
      edges: this.edges.length ? Float32Array.from(this.edges) : null,
    };
  }
}
