/**
 * The nearest surface to a point over a SectionIndex (engine/section/nearestSurface.ts): on 300 random
 * triangles spread over 40 m, the distance and object equal a brute-force search written independently
 * (distance to the plane when the foot lies inside the triangle, else to the nearest edge segment); the
 * normal is the triangle's, turned toward the point; an empty index answers null.
 */
import { describe, expect, it } from 'vitest';
import type { PartMesh } from '../../../engine/model/types';
import { nearestSurface } from '../../../engine/section/nearestSurface';
import { SectionIndex } from '../../../engine/section/SectionIndex';

type V = [number, number, number];
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V, b: V): V => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a: V) => Math.hypot(...a);

function segmentDistance(p: V, a: V, b: V): number {
  const ab = sub(b, a);
  const f = Math.max(0, Math.min(1, dot(sub(p, a), ab) / dot(ab, ab)));
  return norm(sub(p, [a[0] + f * ab[0], a[1] + f * ab[1], a[2] + f * ab[2]]));
}

function triangleDistance(p: V, a: V, b: V, c: V): number {
  const n = cross(sub(b, a), sub(c, a));
  const nn = norm(n);
  const h = dot(sub(p, a), n) / nn;
  const foot: V = [p[0] - (h * n[0]) / nn, p[1] - (h * n[1]) / nn, p[2] - (h * n[2]) / nn];
  const inside = [
    [a, b],
    [b, c],
    [c, a],
  ].every(([u, w]) => dot(cross(sub(w, u), sub(foot, u)), n) >= 0);
  return inside ? Math.abs(h) : Math.min(segmentDistance(p, a, b), segmentDistance(p, b, c), segmentDistance(p, c, a));
}

function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1664525 + 1013904223) % 4294967296;
    return s / 4294967296;
  };
}

describe('nearestSurface', () => {
  const rnd = random(7);
  const tris: { object: number; v: [V, V, V] }[] = [];
  const meshes: PartMesh[] = [];
  for (let o = 0; o < 100; o++) {
    const c: V = [rnd() * 40000, rnd() * 10000 - 5000, rnd() * 8000];
    const pos: number[] = [];
    for (let k = 0; k < 3; k++) {
      const v = Array.from({ length: 3 }, () => c.map((x) => x + (rnd() - 0.5) * 2000) as V) as [V, V, V];
      tris.push({ object: o, v });
      pos.push(...v.flat());
    }
    meshes.push({
      object: o,
      positions: Float32Array.from(pos),
      normals: null,
      indices: Uint32Array.from({ length: 9 }, (_, i) => i),
      edges: null,
    });
  }
  const index = SectionIndex.fromMeshes(meshes);

  it('finds the nearest triangle of a brute-force search, with its normal toward the point', () => {
    for (let q = 0; q < 60; q++) {
      const p: V = [rnd() * 50000 - 5000, rnd() * 14000 - 7000, rnd() * 12000 - 2000];
      let best = Infinity,
        bestTri = tris[0];
      for (const t of tris) {
        // the index holds float32 positions: compare against the same values
        const v = t.v.map((x) => x.map(Math.fround)) as [V, V, V];
        const d = triangleDistance(p, ...v);
        if (d < best) [best, bestTri] = [d, t];
      }
      const hit = nearestSurface(index, p)!;
      expect(hit.distance).toBeCloseTo(best, 3);
      expect(hit.object).toBe(bestTri.object);
      const [a, b, c] = bestTri.v;
      const n = cross(sub(b, a), sub(c, a));
      expect(Math.abs(dot(hit.normal as V, n) / norm(n))).toBeCloseTo(1, 4);
      // turned toward the point: the point lies on the normal's side of the triangle's plane
      expect(dot(sub(p, a), hit.normal as V)).toBeGreaterThanOrEqual(-1e-3);
    }
  });

  it('answers null for an index without triangles, and looks only among the objects asked', () => {
    expect(nearestSurface(SectionIndex.fromMeshes([]), [0, 0, 0])).toBeNull();
    const hit = nearestSurface(index, [20000, 0, 4000], new Set([5]))!;
    expect(hit.object).toBe(5);
  });
});
