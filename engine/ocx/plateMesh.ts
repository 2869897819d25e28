/**
 * Plates and brackets as thickened solids (OCX_GUIDE §5.2): chain the OuterContour loops, subtract the
 * cut-outs, triangulate in the plane (planar plates) or project + lift onto the surface (curved plates,
 * §5.2.3 B, with the whole-surface method A as a fallback), then thicken between Offset and
 * Offset + thickness along the surface normal. Units: mm.
 */
import {
  boundedStep,
  hypot2,
  hypot3,
  cross,
  len,
  newellNormal,
  normalize,
  perpendicular,
  type Vec3,
} from '../geometry/curves';
import { chainLoops } from '../geometry/chainLoops';
import { MeshBuilder } from '../geometry/MeshBuilder';
import { meanNormal, meshArea, solidMeanArea } from '../geometry/meshMeasure';
import { pointKey, triangulateGrid, triangulateRegion } from '../geometry/region2d';
import { boundaryRings, splitTJunctions, SurfaceLifter, weld } from '../geometry/surfaceMesh';
import { thickenSheet, type Sheet } from '../geometry/thicken';
import { paramSheet, type ParamSheet, type ParamSurface, surfaceHolds, surfaceTouches } from '../geometry/paramSheet';
import { holeAxis } from './holes';
import type { PlateSurface } from './surfaces';

/** Result of meshing one plate: the solid, the sheet area (mm²), the sheet centroid and mean normal. */
export interface PlateMeshResult {
  mesh: MeshBuilder;
  /** Net area of the sheet on the reference surface, mm². */
  area: number;
  /** Area centroid of the sheet (mm). */
  centroid: Vec3;
  /** Mean unit normal of the sheet (surface orientation); [0, 0, 0] when its normals cancel (a closed band). */
  normal: Vec3;
  /**
   * Area-weighted mean of the sheet's unit normals (length ≤ 1; 0 for a closed ring): the centroid of the
   * solid between offsets o1 and o2 is centroid + (o1 + o2) / 2 × this (first order in the thickness).
   */
  offsetNormal: Vec3;
  /**
   * Volume of the solid between offsets o1 and o2 divided by its thickness (mm²): the area at
   * mid-thickness, larger than `area` on a plate curving away from its material side.
   */
  solidArea: number;
  /** Notes for warnings (e.g. 'whole-surface'). */
  notes: string[];
  /** Hole loops (xyz mm) the polygon boolean could not cut out of the sheet. */
  uncut: number[][];
}

/** A plate's sheet on its reference surface, before thickening. */
export interface PlateSheet {
  sheet: Sheet;
  /** Area (mm²) and centroid (mm) of the sheet. */
  measured: { area: number; centroid: Vec3 };
  notes: string[];
  /** Hole loops (xyz mm) the polygon boolean could not cut out of the sheet (the sheet keeps their area). */
  uncut: number[][];
}

/**
 * Meshes a plate.
 * @param contourSegments polylines of the OuterContour (mm). @param holes candidate hole loops (mm);
 * loops that do not overlap the plate are ignored. @param o1/o2 layer offsets along the normal (mm).
 * @param netAreaMm2 the file's NetArea (mm²) when given, used to choose the whole-surface method.
 * @throws Error when the contour has no closed loop.
 */
export function meshPlate(
  contourSegments: number[][],
  holes: number[][],
  surface: PlateSurface,
  o1: number,
  o2: number,
  chordMm: number,
  netAreaMm2?: number,
  onlyPlateOfSurface = false,
): PlateMeshResult {
  const { sheet, measured, notes, uncut } = plateSheet(
    contourSegments,
    holes,
    surface,
    o1,
    o2,
    chordMm,
    netAreaMm2,
    onlyPlateOfSurface,
  );
  const mb = new MeshBuilder();
  thickenSheet(mb, sheet, Math.min(o1, o2), Math.max(o1, o2));
  let mx = 0,
    my = 0,
    mz = 0;
  for (let i = 0; i < sheet.normals.length; i += 3) {
    mx += sheet.normals[i];
    my += sheet.normals[i + 1];
    mz += sheet.normals[i + 2];
  }
  const offsetNormal = meanNormal(sheet.positions, sheet.normals, sheet.indices);
  return {
    mesh: mb,
    area: measured.area,
    centroid: measured.centroid,
    // a sheet whose normals cancel over its area (a closed band or tube: under 1 % left) has no side of
    // its own; the direction of the remainder would follow the mesh's vertex layout
    normal: len(offsetNormal) >= 0.01 ? normalize([mx, my, mz]) : [0, 0, 0],
    offsetNormal,
    solidArea:
      o1 === o2
        ? measured.area
        : solidMeanArea(sheet.positions, sheet.normals, sheet.indices, Math.min(o1, o2), Math.max(o1, o2)),
    notes,
    uncut,
  };
}

/**
 * Loop l (xyz, mm) in the plane's coordinates (x, y, mm) along e1, e2 from (ox, oy, oz): scalar arithmetic
 * in the order of dot(d, e), no temporary vectors per point (a module function, not a closure per plate).
 */
function to2(l: number[], ox: number, oy: number, oz: number, e1: Vec3, e2: Vec3): number[] {
  const out: number[] = [];
  for (let i = 0; i < l.length; i += 3) {
    const dx = l[i] - ox,
      dy = l[i + 1] - oy,
      dz = l[i + 2] - oz;
    out.push(dx * e1[0] + dy * e1[1] + dz * e1[2], dx * e2[0] + dy * e2[1] + dz * e2[2]);
  }
  return out;
}

/**
 * The sheet of a plate or face bounded by `contourSegments` on `surface`, minus the holes (meshPlate's
 * first step; also the faces of compartments). Arguments as meshPlate.
 * @throws Error when the contour has no closed loop.
 */
export function plateSheet(
  contourSegments: number[][],
  holes: number[][],
  surface: PlateSurface,
  o1: number,
  o2: number,
  chordMm: number,
  netAreaMm2?: number,
  onlyPlateOfSurface = false,
): PlateSheet {
  const { loops } = chainLoops(contourSegments, 0.01, Math.max(1, chordMm * 2));
  if (!loops.length) throw new Error('the OuterContour forms no closed loop');
  loops.sort((a, b) => len(newellNormal(b)) - len(newellNormal(a)));
  const outer = loops[0];
  const N0 = normalize(newellNormal(outer));
  const notes: string[] = [];
  if (surface.kind === 'mesh' && surface.params) {
    const p = parametricSheet(surface.params, loops, holes, chordMm, netAreaMm2);
    if (p) return p;
  }
  let origin: Vec3, n: Vec3;
  const lifter =
    surface.kind === 'mesh'
      ? new SurfaceLifter(surface.mesh, centroidOf(outer), N0, cellSize(outer), liftWindow(outer))
      : null;
  if (surface.kind === 'plane') {
    origin = surface.origin;
    n = surface.normal;
  } else {
    origin = centroidOf(outer);
    n = N0;
  }
  const [e1, e2] = lifter ? lifter.basis : basisOf(n);
  const [ox, oy, oz] = origin;
  const outer2 = to2(outer, ox, oy, oz, e1, e2);
  const holes2: number[][] = [];
  const holes3: number[][] = []; // the 3D loop of each entry of holes2
  for (const l of loops.slice(1)) {
    holes2.push(to2(l, ox, oy, oz, e1, e2));
    holes3.push(l);
  }
  // outline box in the plane: candidate holes (all of a panel's holes come to each of its plates) whose
  // 3D box projects clear of it cannot touch the plate and are dropped before their projection (the
  // region's own box test would drop them later)
  let ou0 = Infinity,
    ov0 = Infinity,
    ou1 = -Infinity,
    ov1 = -Infinity;
  for (let i = 0; i + 1 < outer2.length; i += 2) {
    if (outer2[i] < ou0) ou0 = outer2[i];
    if (outer2[i] > ou1) ou1 = outer2[i];
    if (outer2[i + 1] < ov0) ov0 = outer2[i + 1];
    if (outer2[i + 1] > ov1) ov1 = outer2[i + 1];
  }
  for (const h of holes) {
    if (clearOf(h, origin, e1, e2, ou0, ov0, ou1, ov1)) continue;
    if (surface.kind === 'plane') {
      // the hole must lie in (or near) the plate's plane
      let far = false;
      for (let i = 0; i < h.length && !far; i += 3)
        far =
          Math.abs((h[i] - ox) * n[0] + (h[i + 1] - oy) * n[1] + (h[i + 2] - oz) * n[2]) >
          50 + Math.abs(o1) + Math.abs(o2);
      if (far) continue;
    }
    holes2.push(to2(h, ox, oy, oz, e1, e2));
    holes3.push(h);
  }
  const boundary = new Map<number, number>(); // plane point key → offset of its 3D point in bxyz (the last one given)
  const bxyz: number[] = [];
  const bxyh: number[] = []; // boundary samples (x, y, height along N) for the expected height of a lift
  if (lifter)
    for (const l of loops)
      for (let i = 0; i < l.length; i += 3) {
        const dx = l[i] - ox,
          dy = l[i + 1] - oy,
          dz = l[i + 2] - oz;
        const u = dx * e1[0] + dy * e1[1] + dz * e1[2],
          v = dx * e2[0] + dy * e2[1] + dz * e2[2];
        boundary.set(key(u, v), bxyz.length);
        bxyz.push(l[i], l[i + 1], l[i + 2]);
        if ((i / 3) % Math.max(1, Math.floor(l.length / 3 / 200)) === 0)
          bxyh.push(u, v, dx * n[0] + dy * n[1] + dz * n[2]);
      }
  const spacing = lifter
    ? Math.max(steinerSpacing(outer2), Math.min(0.7 * medianEdge(lifter.mesh), Math.sqrt(areaOf2(outer2) / 50)))
    : 0;
  // on curved surfaces, long boundary edges would give sliver triangles whose lifted area is wrong
  const region = lifter
    ? triangulateGrid(
        densify(outer2, spacing),
        holes2.map((h) => densify(h, spacing)),
        spacing,
      )
    : triangulateRegion(outer2, holes2, 0);
  const uncut = region.uncut.map((k) => holes3[k]);
  if (region.lostCells) notes.push(`cell-by-cell (${region.lostCells} cells of the outline could not be clipped)`);
  const nv = region.points.length / 2;
  const positions = new Float64Array(3 * nv),
    normals = new Float64Array(3 * nv);
  let orient = 0;
  const hit = new Float64Array(6); // lifted point and normal (no objects per point)
  for (let i = 0; i < nv; i++) {
    const x = region.points[2 * i],
      y = region.points[2 * i + 1];
    const o = 3 * i;
    // the point in the projection plane and the plane normal, unless lifted or on the outline
    positions[o] = ox + x * e1[0] + y * e2[0];
    positions[o + 1] = oy + x * e1[1] + y * e2[1];
    positions[o + 2] = oz + x * e1[2] + y * e2[2];
    normals[o] = n[0];
    normals[o + 1] = n[1];
    normals[o + 2] = n[2];
    if (!lifter) continue;
    const lifted = lifter.liftInto(x, y, expectedHeight(bxyh, x, y), hit);
    const b = boundary.get(key(x, y));
    if (lifted) {
      const d = hit[3] * N0[0] + hit[4] * N0[1] + hit[5] * N0[2];
      orient += d;
      const sg = d >= 0 ? 1 : -1;
      normals[o] = sg * hit[3];
      normals[o + 1] = sg * hit[4];
      normals[o + 2] = sg * hit[5];
      if (b === undefined) {
        positions[o] = hit[0];
        positions[o + 1] = hit[1];
        positions[o + 2] = hit[2];
      }
    }
    if (b !== undefined) {
      positions[o] = bxyz[b];
      positions[o + 1] = bxyz[b + 1];
      positions[o + 2] = bxyz[b + 2];
    }
  }
  let indices = region.indices,
    rings = region.rings;
  if (lifter && orient < 0) {
    // the surface faces away from the outline normal: its own orientation decides the offset side
    for (let i = 0; i < normals.length; i++) normals[i] = -normals[i];
    indices = flipTriangles(indices);
    rings = rings.map((r) => r.slice().reverse());
  }
  let sheet: Sheet = { positions, normals, indices, rings };
  let measured = meshArea(positions, indices);
  if (lifter && netAreaMm2 && onlyPlateOfSurface && Math.abs(measured.area - netAreaMm2) > 0.03 * netAreaMm2) {
    const whole = wholeSurfaceSheet(surface.kind === 'mesh' ? surface.mesh : { positions: [], indices: [] }, N0);
    const wa = meshArea(whole.positions, whole.indices);
    if (Math.abs(wa.area - netAreaMm2) < Math.abs(measured.area - netAreaMm2)) {
      sheet = whole;
      measured = wa;
      notes.push('whole-surface');
    }
  }
  return { sheet, measured, notes, uncut };
}

/**
 * Distance (mm) within which a plate's contour counts as lying on a parametric surface: vendors write
 * the contour as exact arcs on a NURBS approximation of a cylinder or sphere, a few mm apart.
 */
function onSurfaceTolerance(outer: number[]): number {
  return Math.max(2, 0.005 * Math.sqrt(len(newellNormal(outer))));
}

/**
 * The sheet meshed in the parameter space of the one surface (of a collection) the whole contour lies
 * on, or undefined when there is none or the mapping fails (the caller then projects and lifts).
 */
function parametricSheet(
  params: ParamSurface[],
  loops: number[][],
  holes: number[][],
  chordMm: number,
  netAreaMm2: number | undefined,
): PlateSheet | undefined {
  const tol = onSurfaceTolerance(loops[0]);
  const s = params.length === 1 ? params[0] : params.find((p) => surfaceHolds(p, loops, tol));
  // a plate over many faces (a hull patchwork) is left to the projection and lift, which handles it
  // at a fraction of the cost
  const faces = s ? [s] : params.length <= MAX_FACES ? params.filter((p) => surfaceTouches(p, loops, tol)) : [];
  if (!faces.length) return undefined;
  // holes whose box keeps clear of the contour's (across their projection direction) cannot touch the plate
  const box = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
  for (const l of loops)
    for (let i = 0; i < l.length; i += 3)
      for (let k = 0; k < 3; k++) {
        box[k] = Math.min(box[k], l[i + k]);
        box[3 + k] = Math.max(box[3 + k], l[i + k]);
      }
  const near = holes.filter((h) => {
    const axis = holeAxis(h);
    for (let k = 0; k < 3; k++) {
      if (axis && Math.abs(axis[k]) > 0.1) continue; // projected along it: may start off the plate's box
      let lo = Infinity,
        hi = -Infinity;
      for (let i = k; i < h.length; i += 3) {
        lo = Math.min(lo, h[i]);
        hi = Math.max(hi, h[i]);
      }
      if (lo > box[3 + k] + tol || hi < box[k] - tol) return false;
    }
    return true;
  });
  if (s) {
    const r = paramSheet(s, loops, near, chordMm, tol, netAreaMm2, holeAxis);
    if (!r) return undefined;
    return { sheet: r.sheet, measured: meshArea(r.sheet.positions, r.sheet.indices), notes: [], uncut: r.uncut };
  }
  // several faces of a collection: each bounded by its own part of the contour and its edges
  const pieces: ParamSheet[] = [];
  for (const f of faces) {
    const r = paramSheet(f, loops, near, chordMm, tol, undefined, holeAxis, true);
    if (r) pieces.push(r); // none: the contour only touches that face's edge
  }
  if (!pieces.length) return undefined;
  const sheet = joinSheets(pieces.map((p) => p.sheet));
  return {
    sheet,
    measured: meshArea(sheet.positions, sheet.indices),
    notes: [],
    uncut: pieces.flatMap((p) => p.uncut),
  };
}

/** Most faces of a surface collection a plate is meshed over face by face. */
const MAX_FACES = 4;

/** Sheets joined into one, vertices on the faces' common edges welded (0.01 mm). */
function joinSheets(sheets: Sheet[]): Sheet {
  const positions: number[] = [],
    normals: number[] = [],
    indices: number[] = [];
  for (const sh of sheets) {
    const base = positions.length / 3;
    for (const v of sh.positions) positions.push(v);
    for (const v of sh.normals) normals.push(v);
    for (const i of sh.indices) indices.push(base + i);
  }
  const w = weld({ positions, indices }, 0.01);
  // a welded vertex takes the normal of the first vertex merged into it
  const N = new Float64Array(w.positions.length);
  const seen = new Uint8Array(w.positions.length / 3);
  const remap = weldMap(positions, w.positions, 0.01);
  for (let i = 0; i < remap.length; i++) {
    const k = remap[i];
    if (seen[k]) continue;
    seen[k] = 1;
    N.set(normals.slice(3 * i, 3 * i + 3), 3 * k);
  }
  const I = Uint32Array.from(w.indices);
  return { positions: Float64Array.from(w.positions), normals: N, indices: I, rings: boundaryRings(I) };
}

/** For each point of `from`, the index of the point of `to` within tol (the weld's mapping). */
function weldMap(from: number[], to: number[], tol: number): Uint32Array {
  const cells = new Map<string, number[]>();
  for (let k = 0; k < to.length / 3; k++) {
    const key = `${Math.floor(to[3 * k] / tol)},${Math.floor(to[3 * k + 1] / tol)},${Math.floor(to[3 * k + 2] / tol)}`;
    const l = cells.get(key);
    if (l) l.push(k);
    else cells.set(key, [k]);
  }
  const out = new Uint32Array(from.length / 3);
  for (let i = 0; i < out.length; i++) {
    const x = from[3 * i],
      y = from[3 * i + 1],
      z = from[3 * i + 2];
    let best = 0,
      bd = Infinity;
    const cx = Math.floor(x / tol),
      cy = Math.floor(y / tol),
      cz = Math.floor(z / tol);
    for (let dx = -1; dx <= 1; dx++)
      for (let dy = -1; dy <= 1; dy++)
        for (let dz = -1; dz <= 1; dz++)
          for (const k of cells.get(`${cx + dx},${cy + dy},${cz + dz}`) ?? []) {
            const d = hypot3(to[3 * k] - x, to[3 * k + 1] - y, to[3 * k + 2] - z);
            if (d < bd) {
              bd = d;
              best = k;
            }
          }
    out[i] = best;
  }
  return out;
}

const LOOP_BOXES = new WeakMap<number[], Float64Array>();

/**
 * True when the 3D box of loop `h` (cached per loop) projects onto (e1, e2) about `o` wholly outside the
 * plane box [u0, u1] × [v0, v1] by more than 1 mm (rounding of the projections is far below that).
 */
function clearOf(h: number[], o: Vec3, e1: Vec3, e2: Vec3, u0: number, v0: number, u1: number, v1: number): boolean {
  let b = LOOP_BOXES.get(h);
  if (!b) {
    b = new Float64Array([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]);
    for (let i = 0; i + 2 < h.length; i += 3)
      for (let k = 0; k < 3; k++) {
        if (h[i + k] < b[k]) b[k] = h[i + k];
        if (h[i + k] > b[3 + k]) b[3 + k] = h[i + k];
      }
    LOOP_BOXES.set(h, b);
  }
  if (!(b[0] <= b[3] && b[1] <= b[4] && b[2] <= b[5])) return false; // empty or not finite: left to the region code
  let a0 = 0,
    a1 = 0,
    c0 = 0,
    c1 = 0; // projected box: u in [a0, a1], v in [c0, c1] (relative to o)
  for (let k = 0; k < 3; k++) {
    const lo = b[k] - o[k],
      hi = b[3 + k] - o[k];
    a0 += Math.min(lo * e1[k], hi * e1[k]);
    a1 += Math.max(lo * e1[k], hi * e1[k]);
    c0 += Math.min(lo * e2[k], hi * e2[k]);
    c1 += Math.max(lo * e2[k], hi * e2[k]);
  }
  return a0 > u1 + 1 || a1 < u0 - 1 || c0 > v1 + 1 || c1 < v0 - 1;
}

/** The whole reference surface as a sheet (OCX_GUIDE §5.2.3 A), normals oriented by the majority. */
function wholeSurfaceSheet(mesh: { positions: number[]; indices: number[] }, N0: Vec3): Sheet {
  const w = weld(mesh, 0.05);
  const P = w.positions,
    I = splitTJunctions(w.positions, w.indices, 0.05);
  const normals = new Float64Array(P.length);
  for (let t = 0; t < I.length; t += 3) {
    const a = 3 * I[t],
      b = 3 * I[t + 1],
      c = 3 * I[t + 2];
    const f = cross(
      [P[b] - P[a], P[b + 1] - P[a + 1], P[b + 2] - P[a + 2]],
      [P[c] - P[a], P[c + 1] - P[a + 1], P[c + 2] - P[a + 2]],
    );
    for (const v of [a, b, c]) {
      normals[v] += f[0];
      normals[v + 1] += f[1];
      normals[v + 2] += f[2];
    }
  }
  for (let i = 0; i < normals.length; i += 3) {
    const l = hypot3(normals[i], normals[i + 1], normals[i + 2]) || 1;
    normals[i] /= l;
    normals[i + 1] /= l;
    normals[i + 2] /= l;
  }
  void N0;
  return { positions: Float64Array.from(P), normals, indices: Uint32Array.from(I), rings: boundaryRings(I) };
}

function flipTriangles(I: Uint32Array): Uint32Array {
  const out = new Uint32Array(I.length);
  for (let t = 0; t < I.length; t += 3) {
    out[t] = I[t];
    out[t + 1] = I[t + 2];
    out[t + 2] = I[t + 1];
  }
  return out;
}

const key = pointKey;

function basisOf(n: Vec3): [Vec3, Vec3] {
  const e1 = perpendicular(n);
  return [e1, cross(n, e1)];
}

function centroidOf(l: number[]): Vec3 {
  let x = 0,
    y = 0,
    z = 0;
  const k = l.length / 3;
  for (let i = 0; i < l.length; i += 3) {
    x += l[i];
    y += l[i + 1];
    z += l[i + 2];
  }
  return [x / k, y / k, z / k];
}

function cellSize(l: number[]): number {
  let minx = Infinity,
    maxx = -Infinity,
    miny = Infinity,
    maxy = -Infinity,
    minz = Infinity,
    maxz = -Infinity;
  for (let i = 0; i < l.length; i += 3) {
    minx = Math.min(minx, l[i]);
    maxx = Math.max(maxx, l[i]);
    miny = Math.min(miny, l[i + 1]);
    maxy = Math.max(maxy, l[i + 1]);
    minz = Math.min(minz, l[i + 2]);
    maxz = Math.max(maxz, l[i + 2]);
  }
  return Math.max(maxx - minx, maxy - miny, maxz - minz) / 40 || 1;
}

/**
 * The box around an outline (mm) within which its sheet can lie on the reference surface: the outline's
 * box grown by half its largest extent (a surface bulging between its edges by up to that) plus 10 mm.
 */
function liftWindow(l: number[]): number[] {
  const b = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
  for (let i = 0; i < l.length; i += 3)
    for (let k = 0; k < 3; k++) {
      b[k] = Math.min(b[k], l[i + k]);
      b[3 + k] = Math.max(b[3 + k], l[i + k]);
    }
  const m = 0.5 * Math.max(b[3] - b[0], b[4] - b[1], b[5] - b[2]) + 10;
  return [b[0] - m, b[1] - m, b[2] - m, b[3] + m, b[4] + m, b[5] + m];
}

function steinerSpacing(outer2: number[]): number {
  return Math.max(50, Math.sqrt(areaOf2(outer2) / 1500));
}

function areaOf2(outer2: number[]): number {
  let a = 0;
  const n = outer2.length / 2;
  for (let i = 0, j = n - 1; i < n; j = i++) a += outer2[2 * j] * outer2[2 * i + 1] - outer2[2 * i] * outer2[2 * j + 1];
  return Math.abs(a / 2);
}

/**
 * Median shortest-edge length of the triangles of a reference-surface mesh (mm; ≤ 600 triangles sampled). The surface mesh is
 * tessellated to the chordal tolerance, so a lifting grid of about this size follows the surface as
 * closely as the surface mesh itself; a finer grid only costs time.
 */
function medianEdge(mesh: { positions: number[]; indices: number[] }): number {
  const P = mesh.positions,
    I = mesh.indices,
    nt = I.length / 3;
  const step = Math.max(1, Math.floor(nt / 600));
  const ls: number[] = [];
  for (let t = 0; t < nt; t += step) {
    let min = Infinity; // the shortest edge: across the curvature (a cylinder's long edges run along its axis)
    for (let k = 0; k < 3; k++) {
      const a = 3 * I[3 * t + k],
        b = 3 * I[3 * t + ((k + 1) % 3)];
      min = Math.min(min, hypot3(P[a] - P[b], P[a + 1] - P[b + 1], P[a + 2] - P[b + 2]));
    }
    ls.push(min);
  }
  ls.sort((x, y) => x - y);
  return ls.length ? ls[ls.length >> 1] : 0;
}

/** Inverse-distance-weighted height of the boundary samples at (x, y). */
function expectedHeight(s: number[], x: number, y: number): number {
  let w = 0,
    h = 0;
  for (let i = 0; i < s.length; i += 3) {
    const d2 = (s[i] - x) ** 2 + (s[i + 1] - y) ** 2;
    if (d2 < 1e-6) return s[i + 2];
    const k = 1 / (d2 * d2);
    w += k;
    h += k * s[i + 2];
  }
  return w > 0 ? h / w : 0;
}

/**
 * Inserts points on 2D ring edges longer than maxLen (xy pairs, mm); the spacing grows where the ring's
 * perimeter would need more than MAX_SUBDIVISION_POINTS points (boundedStep).
 */
export function densify(ring: number[], maxLen: number): number[] {
  const out: number[] = [];
  const n = ring.length / 2;
  let perimeter = 0;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    perimeter += hypot2(ring[2 * j] - ring[2 * i], ring[2 * j + 1] - ring[2 * i + 1]);
  }
  const step = boundedStep(perimeter, maxLen);
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const x0 = ring[2 * i],
      y0 = ring[2 * i + 1],
      x1 = ring[2 * j],
      y1 = ring[2 * j + 1];
    out.push(x0, y0);
    const k = Math.ceil(hypot2(x1 - x0, y1 - y0) / step);
    for (let m = 1; m < k; m++) out.push(x0 + ((x1 - x0) * m) / k, y0 + ((y1 - y0) * m) / k);
  }
  return out;
}
