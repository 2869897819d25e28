/**
 * Thickening of a triangulated sheet into a closed solid (OCX_GUIDE §5.2.5): the material occupies the
 * layer between S + o1·n and S + o2·n (o1 = Offset, o2 = Offset + thickness, mm), n the per-vertex
 * reference-surface normal. Both faces, a side wall along every boundary ring, and the outlines of both
 * faces as feature edges.
 */
import type { MeshBuilder } from './MeshBuilder';
import { hypot3 } from './curves';
import { writeQuad } from './typedBuffers';

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
  // bulk writes into the builder's storage in the order of per-vertex calls (no boxed
  // arguments per vertex); the same numbers in the same order as vertex()/triangle()/edge() would give
  const P = sheet.positions,
    N = sheet.normals,
    nv = P.length / 3;
  let sideQuads = 0;
  for (const ring of sheet.rings) sideQuads += ring.length;
  const top = mb.addVertices(2 * nv + 4 * sideQuads);
  const bot = top + nv;
  const I = sheet.indices,
    nt = Math.floor(I.length / 3);
  let ti = mb.addTriangles(2 * nt + 2 * sideQuads);
  let ei = mb.addEdges(2 * sideQuads);
  const pos = mb.rawPositions,
    nor = mb.rawNormals,
    idx = mb.rawIndices,
    edg = mb.rawEdges;
  for (let i = 0; i < nv; i++) {
    const t = 3 * (top + i),
      b = 3 * (bot + i),
      nx = N[3 * i],
      ny = N[3 * i + 1],
      nz = N[3 * i + 2];
    pos[t] = P[3 * i] + o2 * nx;
    pos[t + 1] = P[3 * i + 1] + o2 * ny;
    pos[t + 2] = P[3 * i + 2] + o2 * nz;
    nor[t] = nx;
    nor[t + 1] = ny;
    nor[t + 2] = nz;
    pos[b] = P[3 * i] + o1 * nx;
    pos[b + 1] = P[3 * i + 1] + o1 * ny;
    pos[b + 2] = P[3 * i + 2] + o1 * nz;
    nor[b] = -nx;
    nor[b + 1] = -ny;
    nor[b + 2] = -nz;
  }
  for (let t = 0; t < 3 * nt; t += 3) {
    idx[ti] = top + I[t];
    idx[ti + 1] = top + I[t + 1];
    idx[ti + 2] = top + I[t + 2];
    idx[ti + 3] = bot + I[t];
    idx[ti + 4] = bot + I[t + 2];
    idx[ti + 5] = bot + I[t + 1];
    ti += 6;
  }
  let v = bot + nv;
  for (const ring of sheet.rings) {
    const n = ring.length;
    for (let k = 0; k < n; k++) {
      const a = ring[k],
        b = ring[(k + 1) % n];
      const ta = 3 * (top + a),
        tb = 3 * (top + b),
        ba = 3 * (bot + a),
        bb = 3 * (bot + b);
      // outward side normal = edge direction × n (outer ring CCW about n)
      const ex = P[3 * b] - P[3 * a],
        ey = P[3 * b + 1] - P[3 * a + 1],
        ez = P[3 * b + 2] - P[3 * a + 2];
      const nx = N[3 * a],
        ny = N[3 * a + 1],
        nz = N[3 * a + 2];
      let sx = ey * nz - ez * ny,
        sy = ez * nx - ex * nz,
        sz = ex * ny - ey * nx;
      const l = hypot3(sx, sy, sz) || 1;
      sx /= l;
      sy /= l;
      sz /= l;
      const o = 3 * v;
      // the quad bottom a, bottom b, top b, top a
      pos[o] = pos[ba];
      pos[o + 1] = pos[ba + 1];
      pos[o + 2] = pos[ba + 2];
      pos[o + 3] = pos[bb];
      pos[o + 4] = pos[bb + 1];
      pos[o + 5] = pos[bb + 2];
      pos[o + 6] = pos[tb];
      pos[o + 7] = pos[tb + 1];
      pos[o + 8] = pos[tb + 2];
      pos[o + 9] = pos[ta];
      pos[o + 10] = pos[ta + 1];
      pos[o + 11] = pos[ta + 2];
      for (let q = o; q < o + 12; q += 3) {
        nor[q] = sx;
        nor[q + 1] = sy;
        nor[q + 2] = sz;
      }
      writeQuad(idx, ti, v);
      ti += 6;
      v += 4;
      edg[ei] = pos[ta];
      edg[ei + 1] = pos[ta + 1];
      edg[ei + 2] = pos[ta + 2];
      edg[ei + 3] = pos[tb];
      edg[ei + 4] = pos[tb + 1];
      edg[ei + 5] = pos[tb + 2];
      edg[ei + 6] = pos[ba];
      edg[ei + 7] = pos[ba + 1];
      edg[ei + 8] = pos[ba + 2];
      edg[ei + 9] = pos[bb];
      edg[ei + 10] = pos[bb + 1];
      edg[ei + 11] = pos[bb + 2];
      ei += 12;
    }
  }
}
