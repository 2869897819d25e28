/**
 * Thickening of a triangulated sheet into a closed solid (OCX_GUIDE §5.2.5): the material occupies the
 * layer between S + o1·n and S + o2·n (o1 = Offset, o2 = Offset + thickness, mm), n the per-vertex
 * reference-surface normal. Both faces, a side wall along every boundary ring, and the outlines of both
 * faces as feature edges.
 */
import { MeshBuilder } from './MeshBuilder';

/** A sheet on the reference surface: vertices (mm), unit normals, CCW triangles about n, boundary rings. */
export interface Sheet {
  positions: Float64Array;
  normals: Float64Array;
  indices: Uint32Array;
  /** Boundary rings as vertex index lists (outer CCW about n, holes CW). */
  rings: number[][];
}

/**
 * Appends the thickened solid of `sheet` to `mb`.
 * @param o1 lower layer offset along n, mm; @param o2 upper layer offset, mm (o2 > o1).
 */
export function thickenSheet(mb: MeshBuilder, sheet: Sheet, o1: number, o2: number): void {
  const P = sheet.positions, N = sheet.normals, nv = P.length / 3;
  const top = mb.vertexCount;
  for (let i = 0; i < nv; i++)
    mb.vertex(P[3 * i] + o2 * N[3 * i], P[3 * i + 1] + o2 * N[3 * i + 1], P[3 * i + 2] + o2 * N[3 * i + 2], N[3 * i], N[3 * i + 1], N[3 * i + 2]);
  const bot = mb.vertexCount;
  for (let i = 0; i < nv; i++)
    mb.vertex(P[3 * i] + o1 * N[3 * i], P[3 * i + 1] + o1 * N[3 * i + 1], P[3 * i + 2] + o1 * N[3 * i + 2], -N[3 * i], -N[3 * i + 1], -N[3 * i + 2]);
  const I = sheet.indices;
  for (let t = 0; t + 2 < I.length; t += 3) {
    mb.triangle(top + I[t], top + I[t + 1], top + I[t + 2]);
    mb.triangle(bot + I[t], bot + I[t + 2], bot + I[t + 1]);
  }
  let edgeVertices = 0;
  for (const ring of sheet.rings) edgeVertices += 4 * ring.length;
  mb.reserve(edgeVertices); // so that the view below stays the live buffer
  const pos = mb.positions;
  for (const ring of sheet.rings) {
    const n = ring.length;
    for (let k = 0; k < n; k++) {
      const a = ring[k], b = ring[(k + 1) % n];
      const ta = 3 * (top + a), tb = 3 * (top + b), ba = 3 * (bot + a), bb = 3 * (bot + b);
      // outward side normal = edge direction × n (outer ring CCW about n)
      const ex = P[3 * b] - P[3 * a], ey = P[3 * b + 1] - P[3 * a + 1], ez = P[3 * b + 2] - P[3 * a + 2];
      const nx = N[3 * a], ny = N[3 * a + 1], nz = N[3 * a + 2];
      let sx = ey * nz - ez * ny, sy = ez * nx - ex * nz, sz = ex * ny - ey * nx;
      const l = Math.hypot(sx, sy, sz) || 1;
      sx /= l; sy /= l; sz /= l;
      const v0 = mb.vertex(pos[ba], pos[ba + 1], pos[ba + 2], sx, sy, sz);
      const v1 = mb.vertex(pos[bb], pos[bb + 1], pos[bb + 2], sx, sy, sz);
      const v2 = mb.vertex(pos[tb], pos[tb + 1], pos[tb + 2], sx, sy, sz);
      const v3 = mb.vertex(pos[ta], pos[ta + 1], pos[ta + 2], sx, sy, sz);
      mb.triangle(v0, v1, v2);
      mb.triangle(v0, v2, v3);
      mb.edge(pos[ta], pos[ta + 1], pos[ta + 2], pos[tb], pos[tb + 1], pos[tb + 2]);
      mb.edge(pos[ba], pos[ba + 1], pos[ba + 2], pos[bb], pos[bb + 1], pos[bb + 2]);
    }
  }
}
