/**
 * Compartments (OCX_GUIDE §2.17, schema 3.1 Arrangement_T / Compartment_T /
 * PhysicalSpace_T): a Compartment is a closed volume bounded by CompartmentFace elements (each an
 * UnboundedGeometry surface trimmed by its FaceBoundaryCurve). The faces are meshed as sheets with the
 * plate code (engine/ocx/plateMesh.ts), oriented outwards, and the volume and its centroid computed
 * from the closed triangle surface (divergence theorem). Also CustomProperties → properties, used by
 * every part. Units: mm inside, m / m³ in properties.
 */
import type { PropertyRecord } from '../model/types';
import { PROPERTY_BY_NAME } from '../model/properties';
import { curveSegments } from './curveRead';
import { MeshBuilder } from '../geometry/MeshBuilder';
import { hypot3, newellNormal, normalize, type Vec3 } from '../geometry/curves';
import { plateSheet } from './plateMesh';
import { resolveSurface, type SurfaceContext } from './surfaces';
import { child, children, type XNode } from './xmlTree';

/** A built compartment: its outward-facing surface mesh, enclosed volume (mm³), centroid (mm), area (mm²). */
export interface CompartmentGeometry {
  mesh: MeshBuilder;
  volumeMm3: number;
  centroid: Vec3;
  areaMm2: number;
  /** Faces that could not be meshed, with the reason. */
  failedFaces: string[];
}

/**
 * Meshes the CompartmentFace children of a Compartment into one closed surface, each face oriented so
 * that its normal points away from the centre of the compartment's boundary points (exact for convex
 * and star-shaped compartments — tanks, holds, voids; a strongly re-entrant compartment may get a face
 * inverted, which the volume check in the tests would reveal).
 * @throws Error when no face can be meshed.
 */
export function buildCompartment(node: XNode, ctx: SurfaceContext): CompartmentGeometry {
  const sheets: { positions: Float64Array; indices: Uint32Array; boundary: number[][] }[] = [];
  const failedFaces: string[] = [];
  for (const face of children(node, 'CompartmentFace')) {
    try {
      const segs = curveSegments(child(face, 'FaceBoundaryCurve'), ctx);
      const surface = resolveSurface(child(face, 'UnboundedGeometry'), ctx);
      const all = segs.flat();
      if (all.length < 9) throw new Error('FaceBoundaryCurve has no usable curve');
      const s = plateSheet(
        segs,
        [],
        surface ?? { kind: 'plane', origin: [all[0], all[1], all[2]], normal: normalize(newellNormal(all)) },
        0,
        0,
        ctx.chordMm,
      );
      sheets.push({ positions: s.sheet.positions, indices: s.sheet.indices, boundary: segs });
    } catch (e) {
      failedFaces.push(`CompartmentFace ${face.a.id ?? `line ${face.line}`}: ${(e as Error).message}`);
    }
  }
  if (!sheets.length) throw new Error(`no face could be meshed${failedFaces.length ? ` (${failedFaces[0]})` : ''}`);
  // centre of the boundary points: the reference for orienting faces outwards
  let cx = 0,
    cy = 0,
    cz = 0,
    n = 0;
  for (const s of sheets)
    for (const seg of s.boundary)
      for (let i = 0; i < seg.length; i += 3) {
        cx += seg[i];
        cy += seg[i + 1];
        cz += seg[i + 2];
        n++;
      }
  const c: Vec3 = [cx / n, cy / n, cz / n];
  const mb = new MeshBuilder();
  let vol = 0,
    area = 0;
  const m: Vec3 = [0, 0, 0];
  for (const s of sheets) {
    const P = s.positions,
      I = s.indices;
    // orientation: sum of (triangle centre − c) · (area normal)
    let side = 0;
    for (let t = 0; t < I.length; t += 3) side += tetVolume(P, I[t], I[t + 1], I[t + 2], c);
    const flip = side < 0;
    const base = mb.vertexCount;
    const fn: Vec3 = [0, 0, 0];
    for (let t = 0; t < I.length; t += 3) {
      const a = I[t],
        b = flip ? I[t + 2] : I[t + 1],
        d = flip ? I[t + 1] : I[t + 2];
      const v = tetVolume(P, a, b, d, c);
      vol += v;
      for (let k = 0; k < 3; k++) m[k] += (v * (c[k] + P[3 * a + k] + P[3 * b + k] + P[3 * d + k])) / 4;
      const e1: Vec3 = [P[3 * b] - P[3 * a], P[3 * b + 1] - P[3 * a + 1], P[3 * b + 2] - P[3 * a + 2]];
      const e2: Vec3 = [P[3 * d] - P[3 * a], P[3 * d + 1] - P[3 * a + 1], P[3 * d + 2] - P[3 * a + 2]];
      const cr: Vec3 = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
      area += hypot3(cr[0], cr[1], cr[2]) / 2;
      for (let k = 0; k < 3; k++) fn[k] += cr[k];
    }
    const nn = normalize(fn);
    for (let i = 0; i < P.length; i += 3) mb.vertex(P[i], P[i + 1], P[i + 2], nn[0], nn[1], nn[2]);
    for (let t = 0; t < I.length; t += 3)
      mb.triangle(base + I[t], base + (flip ? I[t + 2] : I[t + 1]), base + (flip ? I[t + 1] : I[t + 2]));
    for (const seg of s.boundary) mb.polylineEdges(seg, false);
  }
  const centroid: Vec3 = vol !== 0 ? [m[0] / vol, m[1] / vol, m[2] / vol] : c;
  return { mesh: mb, volumeMm3: vol, centroid, areaMm2: area, failedFaces };
}

/** Signed volume of the tetrahedron (c, Pa, Pb, Pd), mm³ (positive when abd faces away from c). */
function tetVolume(P: ArrayLike<number>, a: number, b: number, d: number, c: Vec3): number {
  const ax = P[3 * a] - c[0],
    ay = P[3 * a + 1] - c[1],
    az = P[3 * a + 2] - c[2];
  const bx = P[3 * b] - c[0],
    by = P[3 * b + 1] - c[1],
    bz = P[3 * b + 2] - c[2];
  const dx = P[3 * d] - c[0],
    dy = P[3 * d + 1] - c[1],
    dz = P[3 * d + 2] - c[2];
  return (ax * (by * dz - bz * dy) - ay * (bx * dz - bz * dx) + az * (bx * dy - by * dx)) / 6;
}

/**
 * CustomProperties/CustomProperty (schema: id, name, value, optional unit) as properties: each under its
 * own name, or `CUSTOM <name>` when the name is a catalogue code (engine/model/properties.ts) — a
 * vendor's property never overwrites a computed one. Numeric values stay text (their unit is the file's).
 * A property named "tightness" also sets TGH when the part has none.
 */
export function customProperties(node: XNode, props: PropertyRecord): void {
  for (const cp of children(child(node, 'CustomProperties'), 'CustomProperty')) {
    const name = cp.a.name?.trim();
    if (!name || cp.a.value === undefined) continue;
    const key = PROPERTY_BY_NAME.has(name) || name in props ? `CUSTOM ${name}` : name;
    props[key] = cp.a.value;
    if (name.toLowerCase() === 'tightness' && props.TGH === undefined) props.TGH = cp.a.value;
  }
}
