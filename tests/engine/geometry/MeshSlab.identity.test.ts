/**
 * MeshSlab puts the meshes of
 * many parts into one ArrayBuffer per seal —
 * - each part's arrays equal MeshBuilder.build()'s byte for byte (float32 rounding, degenerate triangles
 *   removed, normals null without triangles, edges null without edges), for random meshes;
 * - the meshes of one seal share one ArrayBuffer of exactly their size and no other seal's buffer, so a
 *   group's meshes can be transferred to another thread alone;
 * - seal() empties the slab, clear() drops unsealed parts, a large part grows the scratch, and the
 *   builders are left empty.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MeshBuilder } from '../../../engine/geometry/MeshBuilder';
import { MeshSlab } from '../../../engine/geometry/MeshSlab';

/** A mesh description: vertices (xyz + normal), triangles (some degenerate: repeated points), edges, seam points. */
interface Spec {
  verts: number[][];
  tris: number[][];
  edges: number[][];
  points: number[];
}

const coord = fc.oneof(fc.double({ min: -1e5, max: 1e5, noNaN: true }), fc.constantFrom(0, 0.0004, 1 / 3, 123456.789));
const spec: fc.Arbitrary<Spec> = fc
  .record({
    verts: fc.array(fc.array(coord, { minLength: 6, maxLength: 6 }), { minLength: 0, maxLength: 40 }),
    tris: fc.array(fc.array(fc.nat(), { minLength: 3, maxLength: 3 }), { maxLength: 60 }),
    edges: fc.array(fc.array(coord, { minLength: 6, maxLength: 6 }), { maxLength: 10 }),
    points: fc.array(coord, { maxLength: 12 }),
    dup: fc.array(fc.nat(), { maxLength: 5 }),
  })
  .map(({ verts, tris, edges, points, dup }) => {
    // repeated vertices make degenerate triangles
    for (const d of dup) if (verts.length) verts.push([...verts[d % verts.length]]);
    return { verts, tris: verts.length ? tris.map((t) => t.map((i) => i % verts.length)) : [], edges, points };
  });

function builderOf(s: Spec): MeshBuilder {
  const mb = new MeshBuilder();
  for (const v of s.verts) mb.vertex(v[0], v[1], v[2], v[3], v[4], v[5]);
  for (const t of s.tris) mb.triangle(t[0], t[1], t[2]);
  for (const e of s.edges) mb.edge(e[0], e[1], e[2], e[3], e[4], e[5]);
  mb.points(s.points);
  return mb;
}

const bytes = (a: Float32Array | Uint32Array | null) =>
  a ? Array.from(new Uint8Array(a.buffer, a.byteOffset, a.byteLength)) : null;

describe('MeshSlab', () => {
  it('gives each part the arrays of MeshBuilder.build(), byte for byte, in one buffer per seal', () => {
    const slab = new MeshSlab();
    fc.assert(
      fc.property(fc.array(spec, { minLength: 1, maxLength: 8 }), (specs) => {
        specs.forEach((s, k) => slab.add(100 + k, builderOf(s)));
        expect(slab.size).toBe(specs.length);
        const meshes = slab.seal();
        expect(slab.size).toBe(0);
        expect(meshes.map((m) => m.object)).toEqual(specs.map((_, k) => 100 + k));
        const buffers = new Set<ArrayBufferLike>();
        let total = 0;
        meshes.forEach((m, k) => {
          const ref = builderOf(specs[k]).build();
          expect(bytes(m.positions)).toEqual(bytes(ref.positions));
          expect(bytes(m.normals)).toEqual(bytes(ref.normals));
          expect(bytes(m.indices)).toEqual(bytes(ref.indices));
          expect(bytes(m.edges)).toEqual(bytes(ref.edges));
          for (const a of [m.positions, m.normals, m.indices, m.edges]) {
            if (!a) continue;
            buffers.add(a.buffer);
            total += a.byteLength;
          }
        });
        expect(buffers.size).toBeLessThanOrEqual(1);
        for (const b of buffers) expect(b.byteLength).toBe(total);
      }),
      { numRuns: 300 },
    );
  });

  it('removes degenerate triangles and keeps normals of a mesh whose triangles all go', () => {
    const slab = new MeshSlab();
    const mb = new MeshBuilder();
    const a = mb.vertex(0, 0, 0, 0, 0, 1),
      b = mb.vertex(1000, 0, 0, 0, 0, 1),
      c = mb.vertex(0, 1000, 0, 0, 0, 1),
      d = mb.vertex(0.0005, 0, 0, 0, 0, 1);
    mb.triangle(a, b, c);
    mb.triangle(a, d, c); // a and d within 1e-3 mm
    slab.add(7, mb);
    const only = new MeshBuilder();
    const p = only.vertex(5, 5, 5, 1, 0, 0),
      q = only.vertex(5, 5, 5.0002, 1, 0, 0),
      r = only.vertex(5, 9, 5, 1, 0, 0);
    only.triangle(p, q, r);
    slab.add(8, only);
    const seam = new MeshBuilder();
    seam.polylineEdges([0, 0, 0, 10, 0, 0, 10, 10, 0], false);
    seam.points([0, 0, 0, 10, 0, 0, 10, 10, 0]);
    slab.add(9, seam);
    const [m, n, s] = slab.seal();
    expect(Array.from(m.indices)).toEqual([0, 1, 2]);
    expect(m.normals?.length).toBe(12);
    expect(m.edges).toBeNull();
    expect(n.indices.length).toBe(0);
    expect(n.normals).not.toBeNull();
    expect(s.normals).toBeNull();
    expect(Array.from(s.edges ?? [])).toEqual([0, 0, 0, 10, 0, 0, 10, 0, 0, 10, 10, 0]);
    expect(mb.vertexCount).toBe(0); // the builders were ended
    expect(m.positions.buffer).toBe(s.edges?.buffer);
  });

  it('separate seals get separate buffers; clear drops unsealed parts; a large part grows the scratch', () => {
    const slab = new MeshSlab();
    const grid = (n: number) => {
      const mb = new MeshBuilder();
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) mb.vertex(i, j, i * j * 1e-3, 0, 0, 1);
      for (let i = 0; i + 1 < n; i++)
        for (let j = 0; j + 1 < n; j++) mb.triangle(i * n + j, (i + 1) * n + j, i * n + j + 1);
      return mb;
    };
    slab.add(0, grid(3));
    const first = slab.seal();
    slab.add(1, grid(300)); // 90,000 vertices: far beyond the initial scratch
    const big = slab.seal();
    expect(first[0].positions.buffer).not.toBe(big[0].positions.buffer);
    expect(big[0].positions.length).toBe(3 * 300 * 300);
    const ref = grid(300).build();
    const raw = (a: Float32Array | Uint32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    expect(raw(big[0].positions).equals(raw(ref.positions))).toBe(true);
    expect(raw(big[0].indices).equals(raw(ref.indices))).toBe(true);
    expect(Array.from(first[0].positions.slice(0, 6))).toEqual([0, 0, 0, 0, 1, 0]);
    slab.add(2, grid(4));
    slab.clear();
    expect(slab.size).toBe(0);
    expect(slab.seal()).toEqual([]);
  });
});
