/**
 * Phase 3 of the OCX import for one part (OCX_GUIDE §5): its mesh (mm) and the figures computed from its
 * geometry — area, volume, weight, centre of gravity — written into its PropertyRecord (catalogue units
 * m, m², m³, t) and returned for the fidelity comparison. One function per kind of part: plates and
 * brackets (§5.3), stiffeners and pillars (§5.4), seams, compartments (§2.17) and holes.
 */
import { cross, dot, len, newellNormal, normalize, polylineLength, type Vec3 } from '../geometry/curves';
import { MeshBuilder } from '../geometry/MeshBuilder';
import type { ObjectType, PartFidelity, PropertyRecord } from '../model/types';
import {
  encodeInclinations,
  INCLINATIONS_CODE,
  MATERIAL_DIRECTION_CODES,
  type StoredInclination,
} from '../model/orientation';
import type { SharedData } from './buildModel';
import type { SectionInfo } from './catalogue';
import type { CatalogueRefs } from './catalogueRefs';
import { buildCompartment } from './compartments';
import { curveSegments, directionOf } from './curveRead';
import { type GroupIndex, lengthMm, type WarnFn } from './groupIndex';
import { sectionThickness, traceLengthOf } from './groupFigures';
import { materialDirection, materialSide } from './materialSide';
import { meshMember, traceLine, type Inclination } from './memberMesh';
import { meshPlate } from './plateMesh';
import type { PartRecord } from './reader';
import { resolveSurface, type SurfaceContext } from './surfaces';
import type { UnitTable } from './units';
import type { VendorHabits } from './vendorHabits';
import { child, children, type XNode } from './xmlTree';

/** What the geometry of a part needs from the import: the surface context, units, writer's habits, catalogue. */
export interface GeometryScope {
  ctx: SurfaceContext;
  units: UnitTable;
  habits: VendorHabits;
  sections: Map<string, SectionInfo>;
  /** BarSection look-up of a SectionRef (localRef, else GUID, else name). */
  sectionRefs: CatalogueRefs;
  shared: SharedData;
  /** The part's group (its parent panel, sibling plates and holes). */
  group: GroupIndex;
  warn: WarnFn;
  /** Cut holes, openings and cut-outs out of plates and brackets (BuildOptions.details). */
  details: boolean;
}

/** One part as far as its file figures go: the geometry functions add to `props`. */
export interface PartFacts {
  /** Global index of the part. */
  i: number;
  rec: PartRecord;
  id: string;
  type: ObjectType;
  props: PropertyRecord;
  parentRec: PartRecord | undefined;
  /** Global index of the enclosing Panel, or -1. */
  panelIdx: number;
  /** The PlateMaterial or MaterialRef element. */
  matRef: XNode | undefined;
  /** Density, t/m³, when the material is known. */
  rho: number | undefined;
  /** The file's NetArea, m². */
  net: number | undefined;
}

/** A part's mesh (null when it has none or it failed) and the figures computed from it for fidelity. */
export interface PartGeometry {
  mb: MeshBuilder | null;
  computed: PartFidelity['computed'];
}

/**
 * The geometry of one part by its object type (other types have none). A part whose geometry cannot be
 * built gets a 'geometry-failed' warning and no mesh; what was written into its properties stays.
 */
export function partGeometry(part: PartFacts, scope: GeometryScope): PartGeometry {
  try {
    switch (part.type) {
      case 'PLATE':
      case 'BRACKET':
        return plateGeometry(part, scope);
      case 'STIFFENER':
      case 'PILLAR':
        return memberGeometry(part, scope);
      case 'SEAM':
        return { mb: seamGeometry(part, scope), computed: {} };
      case 'COMPARTMENT':
        return { mb: compartmentGeometry(part, scope), computed: {} };
      case 'HOLE':
        return { mb: holeGeometry(part, scope), computed: {} };
      default:
        return { mb: null, computed: {} };
    }
  } catch (e) {
    const { rec, id } = part;
    scope.warn('geometry-failed', `${rec.kind} ${id}: ${(e as Error).message}`, rec.line, id);
    return { mb: null, computed: {} };
  }
}

/** Writes the geometric centre of gravity (m) and weight (t) and fills the file's gaps with them. */
function putCogAndWeight(props: PropertyRecord, vol: number, rho: number | undefined, c: number[] | undefined): void {
  if (c) {
    [props.XCG_GEOM, props.YCG_GEOM, props.ZCG_GEOM] = c;
    if (props.XCG === undefined) [props.XCG, props.YCG, props.ZCG] = c;
  }
  if (rho !== undefined) {
    props.W_GEOM = vol * rho;
    if (props.W === undefined) props.W = vol * rho;
  }
}

/** A plate or bracket (§5.3): its contour and holes on its reference surface, thickened by its material. */
function plateGeometry(part: PartFacts, { ctx, units, group, warn, details }: GeometryScope): PartGeometry {
  const { i, rec, id, props, parentRec, panelIdx, matRef, rho, net } = part;
  const node = rec.node;
  const t = lengthMm(units, child(matRef, 'Thickness'));
  if (t !== undefined) props.PLTH = t / 1000;
  const surface =
    resolveSurface(child(node, 'UnboundedGeometry'), ctx) ??
    (parentRec ? resolveSurface(child(parentRec.node, 'UnboundedGeometry'), ctx) : undefined);
  const segs = curveSegments(child(node, 'OuterContour'), ctx);
  const holeIdx = details ? [...group.holeKids(i), ...group.holeKids(panelIdx)] : [];
  const holeLoops = holeIdx.flatMap((h) => group.holeOf(h)?.loops ?? []);
  // inserts are other plates, not details: they are cut whatever the option (their area is theirs)
  if (rec.kind === 'Plate') holeLoops.push(...group.insertsOf(i, panelIdx));
  const fallback = () => {
    const all = segs.flat();
    return {
      kind: 'plane' as const,
      origin: [all[0], all[1], all[2]] as [number, number, number],
      normal: normalize(newellNormal(all)),
    };
  };
  if (!surface)
    warn('no-surface', `${rec.kind} ${id}: reference surface not found; the contour's plane is used`, rec.line, id);
  const onlyPlate = panelIdx >= 0 && group.plateCount(panelIdx) === 1;
  const sheet = surface ?? fallback();
  const off =
    sheet.kind === 'plane'
      ? group.plateOffset(i, panelIdx, sheet, t ?? 0)
      : (lengthMm(units, child(node, 'Offset')) ?? 0);
  const res = meshPlate(
    segs,
    holeLoops,
    sheet,
    off,
    off + (t ?? 0),
    ctx.chordMm,
    net !== undefined ? net * 1e6 : undefined,
    onlyPlate,
  );
  const areaM2 = res.area / 1e6;
  props.AREA_GEOM = areaM2;
  if (props.AREA === undefined) props.AREA = areaM2;
  const vol = (res.area * (t ?? 0)) / 1e9;
  const mid = off + (t ?? 0) / 2;
  props.VOLM_GEOM = vol;
  props.VOLM = vol;
  const c = res.centroid.map((v, k) => (v + mid * res.offsetNormal[k]) / 1000);
  putCogAndWeight(props, vol, rho, c);
  // both CoG conventions: the file's is chosen once all parts are known (cogConventions.ts)
  const computed = {
    areaM2,
    volumeM3: vol,
    cogMm: c.map((v) => v * 1000) as [number, number, number],
    cogMouldedMm: [res.centroid[0], res.centroid[1], res.centroid[2]] as [number, number, number],
    weightKg: rho !== undefined ? vol * rho * 1000 : undefined,
    areaSolidM2: res.solidArea / 1e6,
  };
  props.MSIDE = materialSide(
    res.normal,
    off,
    t,
    res.centroid,
    typeof props.STYPE === 'string' ? props.STYPE : undefined,
  );
  const md = part.type === 'BRACKET' ? materialDirection(res.normal, off, t) : null;
  if (md) MATERIAL_DIRECTION_CODES.forEach((code, k) => (props[code] = Math.round(md.direction[k] * 1e6) / 1e6 || 0));
  for (const note of res.notes) warn('plate-method', `${rec.kind} ${id}: meshed with the ${note} method`, rec.line, id);
  for (const l of res.uncut) {
    const [x, y, z] = centroidOf(l).map(Math.round);
    warn(
      'hole-not-cut',
      `${rec.kind} ${id}: a hole around (${x}, ${y}, ${z}) mm could not be cut; its area stays in the plate`,
      rec.line,
      id,
    );
  }
  return { mb: res.mesh, computed };
}

/** Mean of a loop's points (xyz mm). */
function centroidOf(l: number[]): [number, number, number] {
  const c: [number, number, number] = [0, 0, 0];
  for (let i = 0; i < l.length; i += 3) for (let k = 0; k < 3; k++) c[k] += l[i + k];
  const n = Math.max(1, l.length / 3);
  return [c[0] / n, c[1] / n, c[2] / n];
}

/** A stiffener or pillar (§5.4): its bar section swept along its trace line, on its plate's face. */
function memberGeometry(part: PartFacts, scope: GeometryScope): PartGeometry {
  const { ctx, units, sections, sectionRefs, shared, group } = scope;
  const { rec, props, panelIdx, rho } = part;
  const node = rec.node;
  const sref = child(node, 'SectionRef');
  const secId = sectionRefs.idOf(sref);
  const sec = sections.get(secId ?? '');
  if (sec) props.PROFILE = `${sec.name} (${sec.kind})`;
  const segs = curveSegments(child(node, 'TraceLine'), ctx);
  const trace = traceLine(segs, Math.max(1, ctx.chordMm * 2));
  const fileLen = traceLengthOf(child(node, 'TraceLine'), units);
  const incl: Inclination[] = children(node, 'Inclination').flatMap((n) => {
    const p = units.pointMm(child(n, 'Position')),
      w = directionOf(child(n, 'WebDirection'));
    return p && w ? [{ position: p, web: normalize(w), flange: directionOf(child(n, 'FlangeDirection')) ?? null }] : [];
  });
  if (incl.length) props[INCLINATIONS_CODE] = encodeInclinations(inclinationsAlong(trace, incl));
  const compLen = polylineLength(trace) / 1000;
  props.L = fileLen && fileLen > 0 ? fileLen : compLen;
  if (!sec?.polygon)
    throw new Error(
      sec
        ? `section ${sec.name}: ${sec.error}`
        : `section "${sref?.a.localRef ?? sref?.a.GUIDRef}" not in the catalogue`,
    );
  if (trace.length < 6) throw new Error('the TraceLine has no usable curve');
  const offU = lengthMm(units, child(sref, 'OffsetU')) ?? 0;
  let offV = lengthMm(units, child(sref, 'OffsetV')) ?? 0;
  const layer = group.layerOf(panelIdx);
  let faceShift = 0; // §5.3.3: the profile starts on the plate face, not inside the steel
  if (layer && rec.kind === 'Stiffener' && incl.length) {
    const wn = incl[0].web[0] * layer.n[0] + incl[0].web[1] * layer.n[1] + incl[0].web[2] * layer.n[2];
    if (wn > 0.5) faceShift = Math.max(0, layer.o2);
    else if (wn < -0.5) faceShift = Math.max(0, -layer.o1);
  }
  offV += faceShift;
  const res = meshMember(sec.polygon, trace, incl, offU, offV);
  // the volume follows the section centroid's path (Pappus), not the trace: they differ on curved traces
  const vol = (sec.polygon.area * res.centroidLength) / 1e9;
  props.VOLM_GEOM = vol;
  props.VOLM = vol;
  props.AREA_GEOM = vol > 0 ? sec.polygon.area / 1e6 : 0;
  const c = res.centroid.every(Number.isFinite) ? res.centroid.map((v) => v / 1000) : undefined;
  putCogAndWeight(props, vol, rho, c);
  // both CoG conventions: on the plate face, or from the trace line without the face shift
  // (NAPA, AITAC, AVEVA Hull); the file's is chosen once all parts are known (cogConventions.ts)
  const w0 = incl.length ? incl[0].web : [0, 0, 0];
  const computed = {
    volumeM3: vol,
    cogMm: c ? ([res.centroid[0], res.centroid[1], res.centroid[2]] as [number, number, number]) : undefined,
    cogMouldedMm: c ? (res.centroid.map((v, k) => v - faceShift * w0[k]) as [number, number, number]) : undefined,
    weightKg: rho !== undefined ? vol * rho * 1000 : undefined,
    weightTraceKg: rho !== undefined ? ((sec.polygon.area * res.length) / 1e9) * rho * 1000 : undefined,
  };
  const plth = sec.kind === 'FlatBar' || sec.kind === 'BulbFlat' ? sectionThickness(secId, shared, units) : undefined;
  if (plth !== undefined) props.PLTH = plth;
  return { mb: res.mesh, computed };
}

/** A seam: its trace line as edges and points, and its length (m). */
function seamGeometry({ rec, id, props }: PartFacts, { ctx, units, warn }: GeometryScope): MeshBuilder | null {
  const segs = curveSegments(child(rec.node, 'TraceLine'), ctx);
  const mb = new MeshBuilder();
  for (const s of segs) {
    mb.polylineEdges(s, false);
    mb.points(s);
  }
  const fileLen = traceLengthOf(child(rec.node, 'TraceLine'), units);
  props.L = fileLen && fileLen > 0 ? fileLen : segs.reduce((a, s) => a + polylineLength(s), 0) / 1000;
  if (segs.length) return mb;
  warn('no-geometry', `Seam ${id} has no TraceLine`, rec.line, id);
  return null;
}

/**
 * A compartment (OCX_GUIDE §2.17): purpose, the file's volume and CoG, and (Compartment) the closed
 * volume of its faces; a PhysicalSpace keeps the file's figures only.
 */
function compartmentGeometry({ rec, id, props }: PartFacts, { ctx, units, warn }: GeometryScope): MeshBuilder | null {
  const node = rec.node;
  if (node.a.compartmentPurpose) props.PURP = node.a.compartmentPurpose;
  const cp = child(node, 'CompartmentProperties');
  const fileVol = units.value(child(cp, 'Volume'), 'volume');
  const fileCog = units.pointMm(child(cp, 'CenterOfGravity'));
  if (fileVol !== undefined) props.VOLM = fileVol;
  if (fileCog) [props.XCG, props.YCG, props.ZCG] = fileCog.map((v) => v / 1000);
  if (rec.kind !== 'Compartment') {
    warn(
      'no-geometry',
      'PhysicalSpace: the cells bounded by panels are not built; purpose, volume and CoG of the file are kept',
      rec.line,
    );
    return null;
  }
  const g = buildCompartment(node, ctx);
  for (const f of g.failedFaces) warn('compartment-face', `Compartment ${id}: ${f}`, rec.line, id);
  props.VOLM_GEOM = g.volumeMm3 / 1e9;
  props.AREA_GEOM = g.areaMm2 / 1e6;
  props.AREA = g.areaMm2 / 1e6;
  [props.XCG_GEOM, props.YCG_GEOM, props.ZCG_GEOM] = g.centroid.map((v) => v / 1000);
  if (props.VOLM === undefined) props.VOLM = props.VOLM_GEOM;
  if (props.XCG === undefined) [props.XCG, props.YCG, props.ZCG] = [props.XCG_GEOM, props.YCG_GEOM, props.ZCG_GEOM];
  return g.mesh;
}

/** A hole: its outline loops as edges and points, its shape as description and its area (m²). */
function holeGeometry({ i, props }: PartFacts, { group }: GeometryScope): MeshBuilder | null {
  const h = group.holeOf(i);
  if (!h) return null;
  const mb = new MeshBuilder();
  for (const l of h.loops) {
    mb.polylineEdges(l, true);
    mb.points(l);
  }
  props.DES = props.DES ?? h.shape;
  const a = h.loops.reduce((s, l) => s + len(newellNormal(l)) / 2, 0);
  props.AREA_GEOM = a / 1e6;
  props.AREA = a / 1e6;
  return mb;
}

/**
 * A profile's inclinations as stored (engine/model/orientation.ts): in trace order, repeated positions
 * with the same web left out, positions in m, and a missing FlangeDirection replaced by W × T with T the
 * trace tangent at the inclination (OCX_GUIDE §5.3.2 step 5).
 */
function inclinationsAlong(trace: number[], incl: Inclination[]): StoredInclination[] {
  const n = trace.length / 3;
  const at = incl.map((inc) => {
    let best = 0,
      bd = Infinity;
    for (let k = 0; k < n; k++) {
      const d = Math.hypot(
        trace[3 * k] - inc.position[0],
        trace[3 * k + 1] - inc.position[1],
        trace[3 * k + 2] - inc.position[2],
      );
      if (d < bd) [bd, best] = [d, k];
    }
    return { k: best, inc };
  });
  at.sort((a, b) => a.k - b.k);
  const out: StoredInclination[] = [];
  const seen: Inclination[] = [];
  for (const { k, inc } of at) {
    const same = seen.some(
      (s) =>
        Math.hypot(...(s.position.map((v, j) => v - inc.position[j]) as Vec3)) < 1e-3 && dot(s.web, inc.web) > 0.999,
    );
    if (same) continue;
    seen.push(inc);
    const a = Math.max(0, k - 1),
      b = Math.min(n - 1, k + 1);
    const T = normalize([
      trace[3 * b] - trace[3 * a],
      trace[3 * b + 1] - trace[3 * a + 1],
      trace[3 * b + 2] - trace[3 * a + 2],
    ]);
    const flange = inc.flange ? normalize(inc.flange) : normalize(cross(inc.web, T));
    out.push({ position: inc.position.map((v) => v / 1000) as Vec3, web: inc.web, flange });
  }
  return out;
}
