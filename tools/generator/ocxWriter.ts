/**
 * XML serialisation of the generated ship as OCX 3.1.0 (OCX_GUIDE §2–§4, schema
 * ../shared/models/ocx/OCX_Schema_3.1.0.xsd). Element order follows the XSD sequences, modelled on
 * NAPA's 3.1 exports (NAPA-TR03_TC*.3docx). Geometry in metres (unit "Um"), thicknesses in mm ("Umm").
 */
import type {
  BracketDesc,
  GradeName,
  GridPlane,
  HoleDesc,
  PanelDesc,
  PlateDesc,
  SeamDesc,
  SectionName,
  StiffenerDesc,
  SurfaceDesc,
  Vec3,
} from './shipLayout';
import { HOLE_SIZES } from './framePlan';
import { type NurbsCurve, type NurbsPatch, curveLength, patchAreaCentroid, patchBoundary } from './nurbs';
import { bulbFlatProperties } from './bulbFlat';
import {
  type WriterHabits,
  flangeDirection,
  midThickness,
  newellVector,
  plateMeanNormal,
  stiffenerSolidCog,
} from './solidCog';

/** Steel density used for every grade, kg/m³. */
export const STEEL_DENSITY = 7850;

/**
 * A standard HP bulb flat (EN 10067) of height h and web thickness tw (m): bulb width, area and centroid
 * in closed form (tools/generator/bulbFlat.ts), independent of the importer's section outline.
 */
function bulbFlat(
  h: number,
  tw: number,
): { shape: string; dims: [string, number][]; area: number; centroid: number; uCentroid: number } {
  const p = bulbFlatProperties(Math.round(h * 1000), tw * 1000);
  return {
    shape: 'BulbFlat',
    dims: [
      ['Height', h],
      ['WebThickness', tw],
      ['FlangeWidth', p.flangeWidth / 1000],
    ],
    area: p.area / 1e6,
    centroid: p.v / 1000,
    uCentroid: p.u / 1000,
  };
}

/**
 * Catalogue of profiles: shape element, dimensions (m), cross-section area (m²), centroid height above the
 * trace (m) and uCentroid, the centroid's offset along FlangeDirection (m) with the section drawn from u = 0
 * as OCX_GUIDE §5.3.1 reads OffsetU = 0 (T: web centred at W/2; flat bar: t/2; bulb: towards the bulb).
 */
export const SECTIONS: Record<
  SectionName,
  { shape: string; dims: [string, number][]; area: number; centroid: number; uCentroid?: number }
> = {
  HP200x10: bulbFlat(0.2, 0.01),
  HP260x11: bulbFlat(0.26, 0.011),
  'T400x12+150x15': {
    shape: 'TBar',
    dims: [
      ['Height', 0.4],
      ['Width', 0.15],
      ['WebThickness', 0.012],
      ['FlangeThickness', 0.015],
    ],
    area: 0.385 * 0.012 + 0.15 * 0.015,
    centroid: (0.385 * 0.012 * 0.1925 + 0.15 * 0.015 * 0.3925) / (0.385 * 0.012 + 0.15 * 0.015),
    uCentroid: 0.075,
  },
  FB150x12: {
    shape: 'FlatBar',
    dims: [
      ['Height', 0.15],
      ['Width', 0.012],
    ],
    area: 0.0018,
    centroid: 0.075,
    uCentroid: 0.006,
  },
};

/** Material grades: yield and ultimate stress, N/mm². */
export const GRADES: Record<GradeName, { yield: number; ultimate: number }> = {
  A: { yield: 235, ultimate: 400 },
  A36: { yield: 355, ultimate: 490 },
  D36: { yield: 355, ultimate: 490 },
};

/** Per-type counters filled while writing. */
export interface WriteCounts {
  panels: number;
  plates: number;
  stiffeners: number;
  brackets: number;
  /** Seam elements (SplitBy). */
  seams: number;
  /** Cut-outs: Hole2DContour and InnerContour elements. */
  holes: number;
  /** Plates on NURBS surfaces. */
  curvedPlates: number;
}

/** Empty counters. */
export const zeroCounts = (): WriteCounts => ({
  panels: 0,
  plates: 0,
  stiffeners: 0,
  brackets: 0,
  seams: 0,
  holes: 0,
  curvedPlates: 0,
});

/** Formats a number for XML: at most 6 decimals, no trailing zeros, no "-0". */
export function num(v: number): string {
  const r = Math.round(v * 1e6) / 1e6;
  return Object.is(r, -0) || r === 0 ? '0' : String(r);
}

export const pt = (p: Vec3) => `${num(p[0])} ${num(p[1])} ${num(p[2])}`;
export const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/** Ids and GUIDs: a running counter and a seeded generator, so output is deterministic for a seed. */
export class IdSource {
  private n = 0;
  private state: number;
  private readonly seed: number;
  constructor(seed: number) {
    this.seed = seed >>> 0;
    this.state = seed >>> 0 || 0x9e3779b9;
  }
  /** Next @id, e.g. "g42". */
  id(): string {
    return `g${++this.n}`;
  }
  /** A uniform number in [0, 1) (mulberry32). */
  random(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** A GUID that depends only on the seed and `key` (so references can be written before their target). */
  guidOf(key: string): string {
    let h = this.seed ^ 0x811c9dc5;
    for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
    const g = new IdSource(h >>> 0);
    return g.guid();
  }
  /** A GUID string 8-4-4-4-12 hex. */
  guid(): string {
    let h = '';
    for (let i = 0; i < 4; i++)
      h += Math.floor(this.random() * 4294967296)
        .toString(16)
        .padStart(8, '0');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }
}

/** Catalogue ids shared by the vessel part and the catalogue part of the document. */
export interface CatalogueIds {
  material: Record<GradeName, { id: string; guid: string }>;
  hole: Record<string, { id: string; guid: string }>;
  section: Record<SectionName, { id: string; guid: string }>;
  planes: Map<string, string>;
}

/** Ids and GUIDs of the catalogue entries (materials, bar sections, hole shapes). */
export function catalogueIds(ids: IdSource): CatalogueIds {
  const material = {} as CatalogueIds['material'];
  for (const g of Object.keys(GRADES) as GradeName[]) material[g] = { id: `MAT_${g}`, guid: ids.guid() };
  const section = {} as CatalogueIds['section'];
  for (const s of Object.keys(SECTIONS) as SectionName[])
    section[s] = { id: `SEC_${s.replace(/[^A-Za-z0-9]/g, '_')}`, guid: ids.guid() };
  const hole: CatalogueIds['hole'] = {};
  for (const h of Object.keys(HOLE_SIZES)) hole[h] = { id: `HOLE_${h}`, guid: ids.guid() };
  return { material, section, hole, planes: new Map() };
}

/** The Vessel's @id (its GUID is ids.guidOf(VESSEL_ID)). */
export const VESSEL_ID = 'vessel';

/** Header, Vessel start, tolerances, CoordinateSystem with frame tables, ClassificationData. */
export function documentStart(
  name: string,
  ids: IdSource,
  cat: CatalogueIds,
  planes: { x: GridPlane[]; y: GridPlane[]; z: GridPlane[] },
  particulars: { length: number; breadth: number; depth: number; draught: number },
): string {
  const refPlanes = (list: GridPlane[]) =>
    list
      .map((p) => {
        const guid = ids.guid();
        cat.planes.set(p.id, guid);
        return `<ocx:RefPlane id="${p.id}" name="${p.id}" ocx:GUIDRef="${guid}" displayGrid="${p.display}"><ocx:ReferenceLocation numericvalue="${num(p.location)}" unit="Um"/></ocx:RefPlane>\n`;
      })
      .join('');
  const n = esc(name);
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<ocx:ocxXML xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:ocx="https://3docx.org/fileadmin//ocx_schema//V310//OCX_Schema.xsd" schemaVersion="3.1.0">\n` +
    `<ocx:Header name="${n}" author="Keelson bench" organization="Keelson" originating_system="Keelson ship generator" documentation="Generated parametric hull" application_version="1" time_stamp="2024-01-01T00:00:00Z"/>\n` +
    `<ocx:Vessel id="${VESSEL_ID}" name="${n}" ocx:GUIDRef="${ids.guidOf(VESSEL_ID)}">\n` +
    `<ocx:DistanceTolerance numericvalue="1" unit="Umm"/>\n<ocx:AngleTolerance numericvalue="0.05" unit="URad"/>\n` +
    `<ocx:CoordinateSystem id="${ids.id()}" ocx:GUIDRef="${ids.guid()}" isGlobal="true">\n` +
    `<ocx:XRefPlanes>\n${refPlanes(planes.x)}</ocx:XRefPlanes>\n<ocx:YRefPlanes>\n${refPlanes(planes.y)}</ocx:YRefPlanes>\n<ocx:ZRefPlanes>\n${refPlanes(planes.z)}</ocx:ZRefPlanes>\n` +
    `<ocx:LocalCartesian><ocx:Origin coordinates="0 0 0" unit="Um"/><ocx:PrimaryAxis direction="1 0 0"/><ocx:SecondaryAxis direction="0 1 0"/></ocx:LocalCartesian>\n` +
    `</ocx:CoordinateSystem>\n` +
    `<ocx:ClassificationData ocx:newbuildingSociety="DNV" identification="KEELSON-BENCH"><ocx:PrincipalParticulars>` +
    `<ocx:Lpp numericvalue="${num(particulars.length)}" unit="Um"/><ocx:RuleLength numericvalue="${num(particulars.length)}" unit="Um"/>` +
    `<ocx:BlockCoefficient numericvalue="0.85" unit="UDimless"/><ocx:FP_Pos numericvalue="${num(particulars.length)}" unit="Um"/>` +
    `<ocx:MouldedBreadth numericvalue="${num(particulars.breadth)}" unit="Um"/><ocx:MouldedDepth numericvalue="${num(particulars.depth)}" unit="Um"/>` +
    `<ocx:ScantlingDraught numericvalue="${num(particulars.draught)}" unit="Um"/><ocx:DesignSpeed numericvalue="14" unit="UKnots"/>` +
    `<ocx:FreeboardLength numericvalue="${num(particulars.length)}" unit="Um"/><ocx:AP_Pos numericvalue="0" unit="Um"/>` +
    `</ocx:PrincipalParticulars></ocx:ClassificationData>\n`
  );
}

/** Mass (kg) and centre of gravity (m) of a part. */
export interface MassPoint {
  mass: number;
  cog: Vec3;
}

/** Area (m²) and centroid of a planar polygon (triangle fan with signed areas along its normal). */
export function polygonAreaCentroid(poly: Vec3[]): { area: number; centroid: Vec3 } {
  const n = newellVector(poly);
  const nl = Math.hypot(n[0], n[1], n[2]) || 1;
  const u: Vec3 = [n[0] / nl, n[1] / nl, n[2] / nl];
  let area = 0;
  const c: Vec3 = [0, 0, 0];
  const o = poly[0];
  for (let i = 1; i + 1 < poly.length; i++) {
    const a = poly[i],
      b = poly[i + 1];
    const e1 = [a[0] - o[0], a[1] - o[1], a[2] - o[2]],
      e2 = [b[0] - o[0], b[1] - o[1], b[2] - o[2]];
    const cr = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
    const t = (cr[0] * u[0] + cr[1] * u[1] + cr[2] * u[2]) / 2;
    area += t;
    for (let k = 0; k < 3; k++) c[k] += (t * (o[k] + a[k] + b[k])) / 3;
  }
  return { area: Math.abs(area), centroid: area !== 0 ? [c[0] / area, c[1] / area, c[2] / area] : [...o] };
}

/** Area (m²) and centre of a hole: catalogue shapes (SymmetricalHole, ParametricCircle) or an explicit circle. */
export function holeAreaCentre(h: HoleDesc): { area: number; centre: Vec3 } {
  if (h.kind === 'circle') return { area: Math.PI * h.radius * h.radius, centre: h.centre };
  const { width, height } = HOLE_SIZES[h.shape];
  const a = Math.min(width, height);
  return { area: Math.abs(width - height) * a + (Math.PI * a * a) / 4, centre: h.origin };
}

/**
 * Mass properties of a plate (polygon or NURBS patch, minus its holes) × thickness × density.
 * Returns the net area (m²) too.
 */
export function plateMass(
  outline: Vec3[] | NurbsPatch,
  thicknessMm: number,
  holes: HoleDesc[] = [],
): MassPoint & { area: number } {
  const gross = Array.isArray(outline) ? polygonAreaCentroid(outline) : patchAreaCentroid(outline);
  let area = gross.area;
  const m: Vec3 = [gross.area * gross.centroid[0], gross.area * gross.centroid[1], gross.area * gross.centroid[2]];
  for (const h of holes) {
    const { area: a, centre } = holeAreaCentre(h);
    area -= a;
    for (let k = 0; k < 3; k++) m[k] -= a * centre[k];
  }
  return { area, mass: area * (thicknessMm / 1000) * STEEL_DENSITY, cog: [m[0] / area, m[1] / area, m[2] / area] };
}

/** Length of a polyline, m. */
export const pathLength = (p: Vec3[]) => p.slice(1).reduce((n, q, i) => n + dist(p[i], q), 0);

/** Mass properties of a stiffener (trace length × section area × density; centroid lifted along the web). */
export function stiffenerMass(s: StiffenerDesc): MassPoint {
  const sec = SECTIONS[s.section];
  let len = 0;
  const c: Vec3 = [0, 0, 0];
  for (let i = 1; i < s.path.length; i++) {
    const a = s.path[i - 1],
      b = s.path[i],
      l = dist(a, b);
    len += l;
    for (let k = 0; k < 3; k++) c[k] += (l * (a[k] + b[k])) / 2;
  }
  return {
    mass: len * sec.area * STEEL_DENSITY,
    cog: [0, 1, 2].map((k) => c[k] / len + s.web[k] * sec.centroid) as Vec3,
  };
}

function physical(m: MassPoint): string {
  return `<ocx:PhysicalProperties><ocx:DryWeight numericvalue="${num(m.mass)}" unit="UKg"/><ocx:CenterOfGravity coordinates="${pt(m.cog)}" unit="Um"/></ocx:PhysicalProperties>`;
}

const dist = (a: Vec3, b: Vec3) => Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);

/** A Line3D segment with its CurveLength (required by the 3.1 schema). */
function line(ids: IdSource, a: Vec3, b: Vec3): string {
  return `<ocx:Line3D id="${ids.id()}"><ocx:CurveLength numericvalue="${num(dist(a, b))}" unit="Um"/><ocx:StartPoint coordinates="${pt(a)}" unit="Um"/><ocx:EndPoint coordinates="${pt(b)}" unit="Um"/></ocx:Line3D>`;
}

/** A NURBS3D curve (OCX_GUIDE §4.1). */
function nurbsCurve(ids: IdSource, c: NurbsCurve, length = curveLength(c)): string {
  const rational = c.w.some((w) => w !== 1);
  return (
    `<ocx:NURBS3D id="${ids.id()}"><ocx:CurveLength numericvalue="${num(length)}" unit="Um"/>` +
    `<ocx:NURBSproperties degree="${c.degree}" numCtrlPts="${c.pts.length}" numKnots="${c.knots.length}" form="Open" isRational="${rational}"/>` +
    `<ocx:KnotVector value="${c.knots.map(num).join(' ')}"/><ocx:ControlPtList>` +
    c.pts.map((p, i) => `<ocx:ControlPoint coordinates="${pt(p)}" unit="Um" weight="${num(c.w[i])}"/>`).join('') +
    `</ocx:ControlPtList></ocx:NURBS3D>`
  );
}

/** A chain of straight and NURBS pieces as one CompositeCurve3D. */
function composite(ids: IdSource, pieces: (NurbsCurve | [Vec3, Vec3])[]): string {
  const lens = pieces.map((p) => (Array.isArray(p) ? dist(p[0], p[1]) : curveLength(p)));
  return (
    `<ocx:CompositeCurve3D id="${ids.id()}"><ocx:CurveLength numericvalue="${num(lens.reduce((a, b) => a + b, 0))}" unit="Um"/>` +
    pieces.map((p, i) => (Array.isArray(p) ? line(ids, p[0], p[1]) : nurbsCurve(ids, p, lens[i]))).join('') +
    `</ocx:CompositeCurve3D>`
  );
}

/** A closed polygon as a CompositeCurve3D of Line3D segments. */
export function contour(ids: IdSource, poly: Vec3[]): string {
  return composite(
    ids,
    poly.map((p, i) => [p, poly[(i + 1) % poly.length]] as [Vec3, Vec3]),
  );
}

/** A NURBSSurface (U outer, V inner control point order) with its boundary as FaceBoundaryCurve. */
function nurbsSurface(ids: IdSource, p: NurbsPatch): string {
  const rational = p.w.some((w) => w !== 1);
  return (
    `<ocx:NURBSSurface id="${ids.id()}"><ocx:FaceBoundaryCurve>${composite(ids, patchBoundary(p))}</ocx:FaceBoundaryCurve>` +
    `<ocx:U_NURBSproperties degree="${p.degU}" numCtrlPts="${p.nU}" numKnots="${p.knotsU.length}" isRational="${rational}"/><ocx:UknotVector value="${p.knotsU.map(num).join(' ')}"/>` +
    `<ocx:V_NURBSproperties degree="${p.degV}" numCtrlPts="${p.nV}" numKnots="${p.knotsV.length}" isRational="${rational}"/><ocx:VknotVector value="${p.knotsV.map(num).join(' ')}"/>` +
    `<ocx:ControlPtList>${p.pts.map((q, i) => `<ocx:ControlPoint coordinates="${pt(q)}" unit="Um" weight="${num(p.w[i])}"/>`).join('')}</ocx:ControlPtList></ocx:NURBSSurface>`
  );
}

function surface(ids: IdSource, cat: CatalogueIds, s: SurfaceDesc): string {
  if (s.kind === 'grid')
    return `<ocx:GridRef localRef="${s.ref}" ocx:GUIDRef="${cat.planes.get(s.ref)}" ocx:refType="ocx:ReferencePlane"/>`;
  if (s.kind === 'nurbs') return nurbsSurface(ids, s.patch);
  return `<ocx:Plane3D id="${ids.id()}"><ocx:Origin coordinates="${pt(s.origin)}" unit="Um"/><ocx:Normal direction="${pt(s.normal)}"/></ocx:Plane3D>`;
}

function material(cat: CatalogueIds, grade: GradeName, thicknessMm: number, tag = 'PlateMaterial'): string {
  const m = cat.material[grade];
  return `<ocx:${tag} localRef="${m.id}" ocx:GUIDRef="${m.guid}" ocx:refType="ocx:Material"><ocx:Thickness numericvalue="${num(thicknessMm)}" unit="Umm"/></ocx:${tag}>`;
}

/** Part ids in plan order (pn, pl, br, st, sm): the DesignView, written first, numbers parts the same way. */
export class PartIds {
  private n: Record<string, number> = {};
  next(prefix: 'pn' | 'pl' | 'br' | 'st' | 'sm'): string {
    this.n[prefix] = (this.n[prefix] ?? 0) + 1;
    return `${prefix}${this.n[prefix]}`;
  }
  /**
   * The ids of a panel's written plates, in order: a plate's own id, else the next planned one; a removed
   * plate takes its number but is not listed (shipEdits.ts).
   */
  plates(plates: readonly PlateDesc[]): { id: string; plate: PlateDesc }[] {
    const out: { id: string; plate: PlateDesc }[] = [];
    for (const plate of plates) {
      const id = plate.id ?? this.next('pl');
      if (!plate.removed) out.push({ id, plate });
    }
    return out;
  }
}

function plateXml(
  ids: IdSource,
  cat: CatalogueIds,
  id: string,
  p: PlateDesc,
  solidOn?: SurfaceDesc,
): { xml: string; mass: MassPoint } {
  const geom = p.patch ?? p.outline;
  if (!geom) throw new Error(`Plate ${p.name} has neither an outline nor a patch`);
  const m = plateMass(geom, p.thicknessMm, p.holes);
  if (solidOn)
    m.cog = midThickness(
      m.cog,
      p.thicknessMm,
      plateMeanNormal(
        p,
        solidOn,
        p.patch ? m.area + (p.holes ?? []).reduce((n, h) => n + holeAreaCentre(h).area, 0) : m.area,
      ),
    );
  const own = p.surface ? `<ocx:UnboundedGeometry>${surface(ids, cat, p.surface)}</ocx:UnboundedGeometry>` : '';
  const outer = p.patch ? composite(ids, patchBoundary(p.patch)) : contour(ids, p.outline!);
  const xml =
    `<ocx:Plate id="${id}" name="${esc(p.name)}" ocx:GUIDRef="${ids.guidOf(id)}">${physical(m)}` +
    `<ocx:NetArea numericvalue="${num(m.area)}" unit="Um2"/><ocx:OuterContour>${outer}</ocx:OuterContour>` +
    `${material(cat, p.grade, p.thicknessMm)}${own}</ocx:Plate>\n`;
  return { xml, mass: m };
}

function bracketXml(
  ids: IdSource,
  cat: CatalogueIds,
  id: string,
  b: BracketDesc,
  solid = false,
): { xml: string; mass: MassPoint } {
  const m = plateMass(b.outline, b.thicknessMm);
  if (solid) m.cog = midThickness(m.cog, b.thicknessMm, b.normal);
  const [o, u, v] = b.outline;
  const arm = (p: Vec3) => dist(o, p);
  const dir = (p: Vec3) => pt([0, 1, 2].map((k) => (p[k] - o[k]) / arm(p)) as Vec3);
  const xml =
    `<ocx:Bracket id="${id}" name="${esc(b.name)}" ocx:GUIDRef="${ids.guidOf(id)}" ocx:functionType="BRACKET">${physical(m)}` +
    `<ocx:BracketParameters ocx:hasEdgeReinforcement="false"><ocx:ArmLengthU numericvalue="${num(arm(u))}" unit="Um"/><ocx:ArmLengthV numericvalue="${num(arm(v))}" unit="Um"/>` +
    `<ocx:UDirection direction="${dir(u)}"/><ocx:VDirection direction="${dir(v)}"/><ocx:Origin coordinates="${pt(o)}" unit="Um"/></ocx:BracketParameters>` +
    `${material(cat, b.grade, b.thicknessMm)}<ocx:OuterContour>${contour(ids, b.outline)}</ocx:OuterContour>` +
    `<ocx:UnboundedGeometry>${surface(ids, cat, { kind: 'plane', origin: o, normal: b.normal })}</ocx:UnboundedGeometry></ocx:Bracket>\n`;
  return { xml, mass: m };
}

function stiffenerXml(
  ids: IdSource,
  cat: CatalogueIds,
  id: string,
  s: StiffenerDesc,
  solidOn?: PanelDesc,
): { xml: string; mass: MassPoint } {
  const m = stiffenerMass(s);
  if (solidOn) m.cog = stiffenerSolidCog(s, solidOn, SECTIONS[s.section].centroid, SECTIONS[s.section].uCentroid);
  const sec = cat.section[s.section],
    mat = cat.material[s.grade];
  const a = s.path[0],
    b = s.path[s.path.length - 1],
    len = dist(a, b);
  const alongDir = pt(solidOn ? flangeDirection(s) : ([0, 1, 2].map((k) => (b[k] - a[k]) / len) as Vec3));
  const mid = pt([0, 1, 2].map((k) => (a[k] + b[k]) / 2) as Vec3);
  const xml =
    `<ocx:Stiffener id="${id}" name="${esc(s.name)}" ocx:GUIDRef="${ids.guidOf(id)}">${physical(m)}` +
    `<ocx:TraceLine>${composite(
      ids,
      s.path.slice(1).map((q, i) => [s.path[i], q] as [Vec3, Vec3]),
    )}</ocx:TraceLine>` +
    `<ocx:MaterialRef localRef="${mat.id}" ocx:GUIDRef="${mat.guid}" ocx:refType="ocx:Material"/>` +
    `<ocx:SectionRef localRef="${sec.id}" ocx:GUIDRef="${sec.guid}" ocx:refType="ocx:BarSection"><ocx:OffsetU numericvalue="0" unit="Um"/><ocx:OffsetV numericvalue="0" unit="Um"/></ocx:SectionRef>` +
    `<ocx:Inclination><ocx:WebDirection direction="${pt(s.web)}"/><ocx:FlangeDirection direction="${alongDir}"/><ocx:Position coordinates="${mid}" unit="Um"/></ocx:Inclination></ocx:Stiffener>\n`;
  return { xml, mass: m };
}

function seamXml(ids: IdSource, id: string, s: SeamDesc): string {
  return `<ocx:Seam id="${id}" name="${esc(s.name)}" ocx:GUIDRef="${ids.guidOf(id)}"><ocx:TraceLine>${composite(ids, s.trace)}</ocx:TraceLine></ocx:Seam>\n`;
}

/** A hole: Hole2DContour referencing the HoleShapeCatalogue, or an InnerContour circle of two CircumArc3D. */
function holeXml(ids: IdSource, cat: CatalogueIds, h: HoleDesc, name: string): string {
  if (h.kind === 'catalogue') {
    const c = cat.hole[h.shape];
    return (
      `<ocx:Hole2DContour id="${ids.id()}" name="${esc(name)}"><ocx:HoleRef localRef="${c.id}" ocx:GUIDRef="${c.guid}" ocx:refType="ocx:Hole2D"/>` +
      `<ocx:Transformation><ocx:Origin coordinates="${pt(h.origin)}" unit="Um"/><ocx:PrimaryAxis direction="${pt(h.primary)}"/><ocx:SecondaryAxis direction="${pt(h.secondary)}"/></ocx:Transformation></ocx:Hole2DContour>`
    );
  }
  const at = (a: number): Vec3 =>
    [0, 1, 2].map((k) => h.centre[k] + h.radius * (Math.cos(a) * h.u[k] + Math.sin(a) * h.v[k])) as Vec3;
  const arc = (a0: number) =>
    `<ocx:CircumArc3D id="${ids.id()}"><ocx:CurveLength numericvalue="${num(Math.PI * h.radius)}" unit="Um"/><ocx:StartPoint coordinates="${pt(at(a0))}" unit="Um"/>` +
    `<ocx:IntermediatePoint coordinates="${pt(at(a0 + Math.PI / 2))}" unit="Um"/><ocx:EndPoint coordinates="${pt(at(a0 + Math.PI))}" unit="Um"/></ocx:CircumArc3D>`;
  return `<ocx:InnerContour>${arc(0)}${arc(Math.PI)}</ocx:InnerContour>`;
}

/**
 * One Panel element with its plates, brackets, stiffeners, seams and holes; panel PhysicalProperties is the sum of its parts.
 * habits.cog 'solid' writes the CoG of the steel (solidCog.ts); absent or 'moulded' gives the canonical output.
 */
export function panelXml(
  ids: IdSource,
  cat: CatalogueIds,
  partIds: PartIds,
  p: PanelDesc,
  counts: WriteCounts,
  habits?: WriterHabits,
): string {
  const panelId = partIds.next('pn');
  const solid = habits?.cog === 'solid';
  const plates = partIds.plates(p.plates);
  const parts = [
    ...plates.map((x) => plateXml(ids, cat, x.id, x.plate, solid ? p.surface : undefined)),
    ...p.brackets.map((x) => bracketXml(ids, cat, partIds.next('br'), x, solid)),
  ];
  const stiffeners = p.stiffeners.map((x) => stiffenerXml(ids, cat, partIds.next('st'), x, solid ? p : undefined));
  const seams = p.seams.map((x) => seamXml(ids, partIds.next('sm'), x));
  const holes = plates.flatMap(({ plate: pl }) =>
    (pl.holes ?? []).map((h, i) => holeXml(ids, cat, h, `H:${i + 1}/${pl.name}`)),
  );
  const all = [...parts, ...stiffeners];
  const mass = all.reduce((n, x) => n + x.mass.mass, 0);
  const cog = [0, 1, 2].map((k) =>
    mass > 0 ? all.reduce((n, x) => n + x.mass.mass * x.mass.cog[k], 0) / mass : 0,
  ) as Vec3;
  counts.panels++;
  counts.plates += plates.length;
  counts.curvedPlates += plates.filter((x) => x.plate.patch).length;
  counts.brackets += p.brackets.length;
  counts.stiffeners += p.stiffeners.length;
  counts.seams += seams.length;
  counts.holes += holes.length;
  const limits = p.limits
    .map((r) => `<ocx:GridRef localRef="${r}" ocx:GUIDRef="${cat.planes.get(r)}" ocx:refType="ocx:ReferencePlane"/>`)
    .join('');
  return (
    `<ocx:Panel id="${panelId}" name="${esc(p.name)}" ocx:GUIDRef="${ids.guidOf(panelId)}" ocx:functionType="${esc(p.functionType)}" ocx:tightness="${p.tightness}">\n` +
    `<ocx:Description>${esc(p.description)}</ocx:Description><ocx:UnboundedGeometry>${surface(ids, cat, p.surface)}</ocx:UnboundedGeometry>` +
    `<ocx:LimitedBy>${limits}</ocx:LimitedBy>\n<ocx:ComposedOf>\n${parts.map((x) => x.xml).join('')}</ocx:ComposedOf>\n${physical({ mass, cog })}\n` +
    (stiffeners.length ? `<ocx:StiffenedBy>\n${stiffeners.map((x) => x.xml).join('')}</ocx:StiffenedBy>\n` : '') +
    (seams.length ? `<ocx:SplitBy>\n${seams.join('')}</ocx:SplitBy>\n` : '') +
    (holes.length ? `<ocx:CutBy>${holes.join('')}</ocx:CutBy>\n` : '') +
    `</ocx:Panel>\n`
  );
}
