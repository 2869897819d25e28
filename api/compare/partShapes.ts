/**
 * Per-part shape figures of a revision's `.sc` geometry, for telling a changed shape from re-export noise
 * (issue "Revision comparison": geometry compared with a tolerance, not by bytes). Pure functions over
 * decoded scene chunks (engine/package/reader.ts); millimetres throughout.
 */
import { meshAreaMoments } from '../../engine/geometry/meshMeasure';
import { decodeChunkPositions } from '../../engine/package/reader';
import type { SceneChunk } from '../../engine/package/types';

/**
 * Shape figures of every object of a revision, columns indexed by object index. `area` is the summed
 * triangle area (mm²), `cx/cy/cz` its area-weighted centroid (mm), `quant` the largest quantisation step of
 * the chunks the object's vertices came from (mm: positions are 16-bit over a chunk's box), `triangles` the
 * triangle count (0: the object has no mesh), `chordalMm` the tessellation's chordal tolerance (package header).
 */
export interface PartShapes {
  chordalMm: number;
  area: Float64Array;
  cx: Float64Array;
  cy: Float64Array;
  cz: Float64Array;
  quant: Float64Array;
  triangles: Uint32Array;
}

/**
 * Shape figures of `objectCount` objects from a package's chunks (objects absent from all chunks stay 0);
 * `chordalMm` is the header's tessellation tolerance.
 */
export function partShapes(chunks: Iterable<SceneChunk>, objectCount: number, chordalMm: number): PartShapes {
  const s: PartShapes = {
    chordalMm,
    area: new Float64Array(objectCount),
    cx: new Float64Array(objectCount),
    cy: new Float64Array(objectCount),
    cz: new Float64Array(objectCount),
    quant: new Float64Array(objectCount),
    triangles: new Uint32Array(objectCount),
  };
  for (const chunk of chunks) {
    const p = decodeChunkPositions(chunk);
    const b = chunk.bounds;
    const step = Math.max(b[3] - b[0], b[4] - b[1], b[5] - b[2]) / 65535;
    const idx = chunk.indices;
    const rows = chunk.objects;
    for (let r = 0; r + 4 < rows.length; r += 5) {
      const obj = rows[r];
      if (obj >= objectCount) continue;
      // Indices are chunk-wide (the writer offsets them by the object's first vertex).
      const iStart = rows[r + 3];
      const iCount = rows[r + 4];
      const { area, mx, my, mz } = meshAreaMoments(p, idx, iStart, iStart + iCount);
      // An object split over chunks accumulates moments; the centroid is divided out at the end.
      s.area[obj] += area;
      s.cx[obj] += mx;
      s.cy[obj] += my;
      s.cz[obj] += mz;
      s.triangles[obj] += iCount / 3;
      if (step > s.quant[obj]) s.quant[obj] = step;
    }
  }
  for (let i = 0; i < objectCount; i++) {
    const a = s.area[i];
    if (a > 0) {
      s.cx[i] /= a;
      s.cy[i] /= a;
      s.cz[i] /= a;
    }
  }
  return s;
}

/**
 * The geometry tolerances: a bound or the centroid may move by GEOMETRY_TOLERANCE_MM (plus both revisions'
 * quantisation steps for the centroid, which comes from 16-bit positions), the surface area may differ by
 * AREA_RELATIVE_TOLERANCE of the larger area (plus the area a quantisation step of the outline makes).
 * When the two tessellations differ (other triangle counts: a curved part re-exported in another
 * representation is tessellated anew), the centroid may also move by twice the larger chordal tolerance and
 * the area differ by RETESSELLATED_AREA_TOLERANCE; the exact bounds keep GEOMETRY_TOLERANCE_MM.
 */
export const GEOMETRY_TOLERANCE_MM = 0.5;
export const AREA_RELATIVE_TOLERANCE = 0.001;
export const RETESSELLATED_AREA_TOLERANCE = 0.005;

/**
 * Whether part `i` of revision A and part `j` of revision B differ in shape or place: their exact bounds
 * (objects.json, mm; null when the part has no geometry) differ by more than GEOMETRY_TOLERANCE_MM in a
 * coordinate, their surface areas by more than AREA_RELATIVE_TOLERANCE, or their area centroids by more than
 * GEOMETRY_TOLERANCE_MM plus the quantisation steps. A part that gains or loses its mesh has changed.
 */
export function shapeChanged(
  boundsA: readonly number[] | null,
  boundsB: readonly number[] | null,
  a: PartShapes,
  i: number,
  b: PartShapes,
  j: number,
): boolean {
  if ((boundsA === null) !== (boundsB === null)) return true;
  if (boundsA && boundsB)
    for (let k = 0; k < 6; k++) if (!(Math.abs(boundsA[k] - boundsB[k]) <= GEOMETRY_TOLERANCE_MM)) return true;
  const ta = a.triangles[i],
    tb = b.triangles[j];
  if ((ta === 0) !== (tb === 0)) return true;
  if (ta === 0) return false;
  const q = a.quant[i] + b.quant[j];
  const retessellated = ta !== tb;
  const areaA = a.area[i],
    areaB = b.area[j];
  const big = Math.max(areaA, areaB);
  // A quantisation step moves each outline vertex; its effect on the area is bounded by step × perimeter,
  // taken here as step × 4·√area (a square's perimeter) per revision.
  const areaTol =
    (retessellated ? RETESSELLATED_AREA_TOLERANCE : AREA_RELATIVE_TOLERANCE) * big + q * 4 * Math.sqrt(big);
  if (Math.abs(areaA - areaB) > areaTol) return true;
  const tol = GEOMETRY_TOLERANCE_MM + q + (retessellated ? 2 * Math.max(a.chordalMm, b.chordalMm) : 0);
  return Math.abs(a.cx[i] - b.cx[j]) > tol || Math.abs(a.cy[i] - b.cy[j]) > tol || Math.abs(a.cz[i] - b.cz[j]) > tol;
}
