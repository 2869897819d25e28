/**
 * Helpers the CAD readers share: the finished CadConversion (triangle count, bounds), the buffers a worker
 * transfers, and the mesh of a three.js geometry with its world transform applied.
 */
import type { BufferGeometry, Matrix4 } from 'three';
import { Vector3 } from 'three';
import type { CadConversion, CadFormat, CadMesh } from './types';

/**
 * The conversion of `fileName` from its meshes: drops meshes without triangles, counts triangles and takes the
 * bounding box (mm) over all positions that triangles use.
 */
export function finishConversion(
  fileName: string,
  format: CadFormat,
  meshes: CadMesh[],
  warnings: string[] = [],
): CadConversion {
  const kept = meshes.filter((m) => m.indices.length >= 3);
  let triangles = 0;
  const b = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
  for (const m of kept) {
    triangles += Math.floor(m.indices.length / 3);
    const p = m.positions;
    for (let i = 0; i < p.length; i += 3)
      for (let k = 0; k < 3; k++) {
        const v = p[i + k];
        if (v < b[k]) b[k] = v;
        if (v > b[k + 3]) b[k + 3] = v;
      }
  }
  const bounds = kept.length ? (b as CadConversion['bounds']) : null;
  return { fileName, format, meshes: kept, triangles, bounds, warnings };
}

/** The ArrayBuffers of a conversion's meshes, for a worker's transfer list (each once). */
export function conversionBuffers(c: CadConversion): ArrayBuffer[] {
  const set = new Set<ArrayBuffer>();
  for (const m of c.meshes) {
    set.add(m.positions.buffer as ArrayBuffer);
    set.add(m.indices.buffer as ArrayBuffer);
  }
  return [...set];
}

/**
 * A CadMesh from a three.js triangle geometry: positions transformed by `matrix` (may be null) and multiplied
 * by `scale` (the file's unit in mm); indices copied, or 0..n-1 when the geometry is not indexed, and
 * reordered when `matrix` mirrors. Works with interleaved attributes.
 */
export function meshFromGeometry(
  name: string,
  geometry: BufferGeometry,
  matrix: Matrix4 | null,
  scale: number,
  color: CadMesh['color'],
): CadMesh {
  const attr = geometry.getAttribute('position');
  const positions = new Float32Array(attr.count * 3);
  const v = new Vector3();
  for (let i = 0; i < attr.count; i++) {
    v.fromBufferAttribute(attr, i);
    if (matrix) v.applyMatrix4(matrix);
    positions[i * 3] = v.x * scale;
    positions[i * 3 + 1] = v.y * scale;
    positions[i * 3 + 2] = v.z * scale;
  }
  const index = geometry.getIndex();
  let indices: Uint32Array;
  if (index) {
    indices = new Uint32Array(index.count - (index.count % 3));
    for (let i = 0; i < indices.length; i++) indices[i] = index.getX(i);
  } else {
    indices = new Uint32Array(attr.count - (attr.count % 3));
    for (let i = 0; i < indices.length; i++) indices[i] = i;
  }
  // A mirroring transform turns the triangles inside out: swap two corners so the faces keep pointing out.
  if (matrix && matrix.determinant() < 0)
    for (let i = 0; i < indices.length; i += 3) [indices[i + 1], indices[i + 2]] = [indices[i + 2], indices[i + 1]];
  return { name, positions, indices, color };
}
