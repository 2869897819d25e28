/**
 * Helpers the CAD readers share: the finished CadConversion (triangle count, bounds), the buffers a worker
 * transfers, and the mesh of a three.js geometry with its world transform applied.
 */
// Types only: the readers bring three itself with its loaders.
import type { BufferGeometry } from 'three';
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

/** A 4 × 4 affine transform, column-major (three.js Matrix4.elements). */
export type Affine = ArrayLike<number>;

/** `m` followed by the turn from a Y-up to a Z-up frame: (x, y, z) → (x, -z, y). */
export function yUpToZUp(m: Affine): number[] {
  const out = new Array<number>(16);
  for (let c = 0; c < 4; c++) {
    out[c * 4] = m[c * 4];
    out[c * 4 + 1] = -m[c * 4 + 2];
    out[c * 4 + 2] = m[c * 4 + 1];
    out[c * 4 + 3] = m[c * 4 + 3];
  }
  return out;
}

/** Whether the linear part of `m` mirrors (negative determinant). */
function mirrors(m: Affine): boolean {
  const det =
    m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2]) + m[8] * (m[1] * m[6] - m[5] * m[2]);
  return det < 0;
}

/**
 * A CadMesh from a three.js triangle geometry: positions transformed by `matrix` (may be null) and multiplied
 * by `scale` (the file's unit in mm); indices copied, or 0..n-1 when the geometry is not indexed, and
 * reordered when `matrix` mirrors. Works with interleaved attributes.
 */
export function meshFromGeometry(
  name: string,
  geometry: BufferGeometry,
  matrix: Affine | null,
  scale: number,
  color: CadMesh['color'],
): CadMesh {
  const attr = geometry.getAttribute('position');
  const positions = new Float32Array(attr.count * 3);
  const e = matrix ?? [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  for (let i = 0; i < attr.count; i++) {
    const x = attr.getX(i);
    const y = attr.getY(i);
    const z = attr.getZ(i);
    positions[i * 3] = (e[0] * x + e[4] * y + e[8] * z + e[12]) * scale;
    positions[i * 3 + 1] = (e[1] * x + e[5] * y + e[9] * z + e[13]) * scale;
    positions[i * 3 + 2] = (e[2] * x + e[6] * y + e[10] * z + e[14]) * scale;
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
  if (matrix && mirrors(matrix))
    for (let i = 0; i < indices.length; i += 3) [indices[i + 1], indices[i + 2]] = [indices[i + 2], indices[i + 1]];
  return { name, positions, indices, color };
}
