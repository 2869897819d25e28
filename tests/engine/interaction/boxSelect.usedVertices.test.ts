/**
 * Box selection's vertex tests on pieces that say which vertices their triangles use
 * (engine/interaction/usedVertices.ts, TrianglePiece.used; engine/interaction/boxTriangles.ts): welded
 * objects with vertices no triangle uses, in one chunk-like array, select exactly what the scan of every
 * object's triangles selects, in orthographic (the vertex path) and perspective views (the triangle path);
 * the bits are refused for rows that use other rows' vertices.
 */
import fc from 'fast-check';
import { Matrix4, OrthographicCamera, PerspectiveCamera } from 'three';
import { describe, expect, it } from 'vitest';
import {
  type BoxSelectMode,
  type BoxSelectSource,
  boxSelect,
  type ScreenProjection,
  type TrianglePiece,
} from '../../../engine/interaction/boxSelect';
import { usedVertexBits } from '../../../engine/interaction/usedVertices';
import { scanBoxSelect } from './boxSelectScan';

/** Half the spread of an object's vertices (quantised units of 0.5 mm): up to ~15 m, a few hundred px. */
const spread = 30000;
/** An object: vertices around a centre (integer grid, like quantised positions) and triangles over some of them. */
const object = fc
  .tuple(
    fc.integer({ min: 0, max: 60000 }),
    fc.integer({ min: 0, max: 60000 }),
    fc.integer({ min: 0, max: 60000 }),
    fc.array(
      fc.tuple(
        fc.integer({ min: -spread, max: spread }),
        fc.integer({ min: -spread, max: spread }),
        fc.integer({ min: -spread, max: spread }),
      ),
      { minLength: 3, maxLength: 12 },
    ),
    fc.array(fc.nat(), { minLength: 0, maxLength: 24 }),
  )
  .map(([cx, cy, cz, verts, picks]) => ({
    verts: verts.map(([x, y, z]) => [cx + x, cy + y, cz + z]),
    // Triangles over the vertices; some vertices stay unused (welded, no triangle).
    tris: picks.slice(0, picks.length - (picks.length % 3)).map((p) => p % Math.max(1, verts.length - 1)),
  }));

/** One chunk: origin -5000 mm, step 0.5 mm; each object's vertices contiguous, its bounds over all of them. */
function chunkScene(objects: { verts: number[][]; tris: number[] }[], withBits: boolean): BoxSelectSource {
  const positions: number[] = [];
  const indices: number[] = [];
  const rows: number[] = [];
  objects.forEach((o, id) => {
    const v0 = positions.length / 3;
    for (const v of o.verts) positions.push(...v.map((q) => Math.max(0, Math.min(65535, q))));
    rows.push(id, v0, o.verts.length, indices.length, o.tris.length);
    for (const t of o.tris) indices.push(v0 + t);
  });
  const origin = [-5000, -5000, -5000],
    step = [0.5, 0.5, 0.5];
  const chunk = { positions: Uint16Array.from(positions), indices: Uint32Array.from(indices), objects: rows };
  const used = withBits ? usedVertexBits(chunk) : null;
  if (withBits) expect(used).not.toBeNull();
  const bounds = new Float64Array(objects.length * 6);
  objects.forEach((_, id) => {
    const box = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
    const r = id * 5;
    for (let v = rows[r + 1]; v < rows[r + 1] + rows[r + 2]; v++)
      for (let a = 0; a < 3; a++) {
        const w = origin[a] + chunk.positions[v * 3 + a] * step[a];
        box[a] = Math.min(box[a], w);
        box[a + 3] = Math.max(box[a + 3], w);
      }
    // An object without triangles has no geometry (as ModelScene: only objects with triangles have rows).
    if (rows[r + 4] > 0) bounds.set(box, id * 6);
    else bounds.set([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity], id * 6);
  });
  const piece: TrianglePiece = { positions: chunk.positions, indices: chunk.indices, start: 0, end: 0, origin, step };
  return {
    objectCount: objects.length,
    bounds,
    eligible: () => true,
    forEachPiece: (id, fn) => {
      const r = id * 5;
      if (rows[r + 4] === 0) return;
      piece.start = rows[r + 3];
      piece.end = rows[r + 3] + rows[r + 4];
      piece.vertexStart = rows[r + 1];
      piece.vertexEnd = rows[r + 1] + rows[r + 2];
      piece.used = used;
      fn(piece);
    },
  };
}

const view = fc
  .record({
    perspective: fc.boolean(),
    eye: fc.tuple(
      fc.integer({ min: -40000, max: 40000 }),
      fc.integer({ min: -40000, max: 40000 }),
      fc.integer({ min: 1000, max: 40000 }),
    ),
  })
  .map(({ perspective, eye }): ScreenProjection => {
    const cam = perspective
      ? new PerspectiveCamera(60, 1.5, 10, 1e6)
      : new OrthographicCamera(-30000, 30000, 20000, -20000, -1e6, 1e6);
    cam.position.set(...eye);
    cam.lookAt(10000, 10000, 10000);
    cam.updateMatrixWorld(true);
    return {
      matrix: new Matrix4().multiplyMatrices(cam.projectionMatrix, cam.matrixWorldInverse).elements,
      width: 1200,
      height: 800,
    };
  });
const px = (max: number) => fc.integer({ min: -100, max: max + 100 });
const rect = fc.record({ x0: px(1200), y0: px(800), x1: px(1200), y1: px(800) });

describe('box selection on pieces with used-vertex bits', () => {
  it('selects exactly what the scan of every triangle selects (unused vertices, both views, both modes)', () => {
    fc.assert(
      fc.property(
        fc.array(object, { minLength: 1, maxLength: 80 }),
        view,
        rect,
        fc.constantFrom<BoxSelectMode>('inside', 'touch'),
        (objects, v, r, mode) => {
          const src = chunkScene(objects, true);
          const expected = scanBoxSelect(src, r, mode, v);
          expect(boxSelect(src, r, mode, v)).toEqual(expected);
          expect(boxSelect(chunkScene(objects, false), r, mode, v)).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('bits mark exactly the vertices the triangles use; rows sharing vertices get none', () => {
    const positions = new Uint16Array(3 * 10);
    // Row 0: vertices 0..4, triangles use 0, 1, 3; row 1: vertices 5..9, triangles use 5, 8, 9.
    const ok = usedVertexBits({ positions, indices: [0, 1, 3, 5, 8, 9], objects: [0, 0, 5, 0, 3, 1, 5, 5, 3, 3] });
    expect(ok).not.toBeNull();
    const set = Array.from({ length: 10 }, (_, v) => (ok![v >> 3] >> (v & 7)) & 1);
    expect(set).toEqual([1, 1, 0, 1, 0, 1, 0, 0, 1, 1]);
    // Row 0's triangle uses vertex 6 of row 1.
    expect(
      usedVertexBits({ positions, indices: [0, 1, 6, 5, 8, 9], objects: [0, 0, 5, 0, 3, 1, 5, 5, 3, 3] }),
    ).toBeNull();
    // The rows' vertex ranges overlap (listed out of order).
    expect(
      usedVertexBits({ positions, indices: [0, 1, 3, 4, 8, 9], objects: [1, 4, 6, 3, 3, 0, 0, 5, 0, 3] }),
    ).toBeNull();
    // A range beyond the chunk's vertices.
    expect(usedVertexBits({ positions, indices: [8, 9, 10], objects: [0, 8, 5, 0, 3] })).toBeNull();
  });
});
