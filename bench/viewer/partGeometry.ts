/**
 * The viewer benches' baseline: parts as a glTF export would give them, each with its own Float32
 * positions and Uint32 indices (one BufferGeometry per part, bounding sphere computed).
 */
import { BufferAttribute, BufferGeometry } from 'three';
import { decodeChunkPositions } from '../../engine/package/reader';
import type { SceneChunk } from '../../engine/package/types';

/** One part's geometry with its object index and its vertex and index counts. */
export interface PartGeometry {
  object: number;
  geometry: BufferGeometry;
  vertexCount: number;
  indexCount: number;
}

/** Yields a BufferGeometry per non-empty part of `chunks`. */
export function* partGeometries(chunks: readonly SceneChunk[]): Generator<PartGeometry> {
  for (const ch of chunks) {
    const pos = decodeChunkPositions(ch);
    for (let r = 0; r < ch.objects.length; r += 5) {
      const [obj, v0, vc, i0, ic] = ch.objects.subarray(r, r + 5);
      if (ic === 0) continue;
      const g = new BufferGeometry();
      g.setAttribute('position', new BufferAttribute(pos.slice(v0 * 3, (v0 + vc) * 3), 3));
      const idx = new Uint32Array(ic);
      for (let k = 0; k < ic; k++) idx[k] = ch.indices[i0 + k] - v0;
      g.setIndex(new BufferAttribute(idx, 1));
      g.computeBoundingSphere();
      yield { object: obj, geometry: g, vertexCount: vc, indexCount: ic };
    }
  }
}
