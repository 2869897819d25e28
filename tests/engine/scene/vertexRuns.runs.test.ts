/**
 * The vertex-run search (engine/scene/vertexRuns.ts) that replaced the per-vertex object slot: on a real
 * OCX model's package (rows reordered largest first, as the renderer does) and on chunks of many tiny,
 * empty and shuffled rows, every vertex finds the object whose range holds it; bad tables are refused.
 */
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { importOcxFile } from '../../../engine/node/ocx/importFile';
import { concatFrames, encodeScenePackage } from '../../../engine/package/writer';
import { decodeScenePackage } from '../../../engine/package/reader';
import { orderChunkBySize } from '../../../engine/scene/sizeOrder';
import { objectAtVertex, RUN_BLOCK, vertexRunBytes, vertexRuns } from '../../../engine/scene/vertexRuns';

const MODEL = path.resolve(__dirname, '../../../../shared/models/ocx/NAPA-OCX_M8.3docx');

/** Object per vertex from the ranges themselves (-1 where no range covers it). */
function ownerOfEachVertex(objects: Uint32Array, vertexCount: number): Int32Array {
  const out = new Int32Array(vertexCount).fill(-1);
  for (let r = 0; r < objects.length; r += 5) out.fill(objects[r], objects[r + 1], objects[r + 1] + objects[r + 2]);
  return out;
}

describe('vertex runs', () => {
  it('find the object of every vertex of a real model, rows in size order', async () => {
    const model = await importOcxFile(MODEL);
    const bytes = concatFrames(
      encodeScenePackage(model.meshes, {
        bounds: model.info.bounds,
        objectCount: model.objects.length,
        tolerances: model.info.tolerances,
      }),
    );
    const { chunks } = decodeScenePackage(bytes);
    let vertices = 0;
    for (const c of chunks) {
      orderChunkBySize(c);
      const n = c.positions.length / 3;
      const runs = vertexRuns(c.objects, n, `chunk ${c.index}`);
      const owner = ownerOfEachVertex(c.objects, n);
      for (let v = 0; v < n; v++) if (owner[v] >= 0) expect(objectAtVertex(runs, v)).toBe(owner[v]);
      vertices += n;
    }
    expect(vertices).toBeGreaterThan(1000);
  });

  it('find the object through blocks denser than RUN_BLOCK runs, empty rows and any row order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 3 * RUN_BLOCK }), { minLength: 1, maxLength: 60 }),
        fc.array(fc.nat(), { maxLength: 60 }),
        (counts, shuffle) => {
          // Rows of the given vertex counts (0 = a row without vertices), laid out back to back.
          const rows: number[][] = [];
          let v = 0;
          counts.forEach((count, i) => {
            rows.push([1000 + i, v, count, 0, 0]);
            v += count;
          });
          for (let i = 0; i < shuffle.length && rows.length > 1; i++) {
            const j = shuffle[i] % rows.length;
            [rows[0], rows[j]] = [rows[j], rows[0]];
          }
          const objects = new Uint32Array(rows.flat());
          const runs = vertexRuns(objects, v, 'test');
          const owner = ownerOfEachVertex(objects, v);
          for (let k = 0; k < v; k++) expect(objectAtVertex(runs, k)).toBe(owner[k]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('cost 8 bytes per object and per block of RUN_BLOCK vertices', () => {
    const objects = new Uint32Array([7, 0, 40, 0, 0, 8, 40, 24, 0, 0]);
    const runs = vertexRuns(objects, 64, 'test');
    expect(runs.runCount).toBe(2);
    // 2 runs + sentinel, 64 / RUN_BLOCK blocks.
    expect(vertexRunBytes(runs)).toBe(8 * (3 + 64 / RUN_BLOCK));
  });

  it('refuse overlapping ranges, ranges beyond the vertices and broken tables, naming the chunk', () => {
    expect(() => vertexRuns(new Uint32Array([1, 0, 10, 0, 0, 2, 5, 10, 0, 0]), 20, 'Chunk 3')).toThrow(
      /Chunk 3: vertex ranges of objects 1 \(0\+10\) and 2 \(5\+10\) overlap/,
    );
    expect(() => vertexRuns(new Uint32Array([1, 0, 30, 0, 0]), 20, 'Chunk 4')).toThrow(
      /Chunk 4: object 1 range 0\+30 exceeds 20 vertices/,
    );
    expect(() => vertexRuns(new Uint32Array([1, 0, 3]), 20, 'Chunk 5')).toThrow(/Chunk 5: .*not a multiple of 5/);
  });
});
