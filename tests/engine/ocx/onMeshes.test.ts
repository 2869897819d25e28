/**
 * ImportOptions.onMeshes: each part group's meshes go to the sink in document order instead of into the result
 * (for models whose geometry does not fit in memory), on one thread and with tessellation threads; the sink
 * receives exactly the meshes a plain import returns, and the rest of the result is unchanged.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PartMesh } from '../../../engine/model/types';
import { importOcxFile } from '../../../engine/node/ocx/importFile';

const FILE = path.resolve(__dirname, '../../../../shared/models/ocx/NAPA-OCX_M8.3docx');

describe('ImportOptions.onMeshes', () => {
  it.each([0, 1])('hands every mesh over in document order and keeps none (%i threads)', async (threads) => {
    const plain = await importOcxFile(FILE, { threads: 0 });
    const got: PartMesh[] = [];
    let calls = 0;
    const sunk = await importOcxFile(FILE, {
      threads,
      onMeshes: (meshes) => {
        calls++;
        got.push(...meshes);
      },
    });
    expect(plain.meshes.length).toBeGreaterThan(0);
    expect(sunk.meshes).toHaveLength(0);
    expect(calls).toBeGreaterThan(1);
    expect(got.map((m) => m.object)).toEqual(plain.meshes.map((m) => m.object));
    got.forEach((m, i) => {
      expect(m.positions).toEqual(plain.meshes[i].positions);
      expect(m.indices).toEqual(plain.meshes[i].indices);
      expect(m.edges).toEqual(plain.meshes[i].edges);
    });
    expect(sunk.objects).toEqual(plain.objects);
    expect(sunk.info.bounds).toEqual(plain.info.bounds);
  });
});
